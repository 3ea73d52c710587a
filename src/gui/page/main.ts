/**
 * The page: ties the board, the game, the clocks and the engine together. Three modes: play
 * against Thoth, two players on one board, and analysis (the engine thinks continuously).
 */
import {
  ANUBIS, EDITIONS, PYRAMID, ROT_CCW, ROT_CW, SCARAB, SPHINX, STACK, STACK_ON, SWAP, UNSTACK,
  colorOf, gameStatus, kindOf, legalMoves, moveFrom, moveTo, moveType, parseKfen, parseMove,
  parseSquare, setupKfen, setupsOf, squareName, type EditionId, type Position,
} from '../../core/index';
import { BoardView, pieceSvg, type Arrow, type TargetKind } from './board';
import { EngineClient, type InfoLine } from './engine';
import { Game, playPly, type PlyInfo } from './game';
import { exportGame, formatImportError, importGame } from './record';

type Mode = 'engine' | 'humans' | 'analysis';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing`);
  return e as T;
};

// ---- strength levels -----------------------------------------------------------------------

interface Level {
  id: string;
  label: string;
  /** The `go` command; `clock` = the game's clocks (or 2 s a move without clocks). */
  go: string | 'clock';
  elo?: number;
}

const BASE_LEVELS: Level[] = [
  { id: 'd1', label: 'Level 1 · depth 1', go: 'go depth 1' },
  { id: 'd2', label: 'Level 2 · depth 2', go: 'go depth 2' },
  { id: 'd4', label: 'Level 3 · depth 4', go: 'go depth 4' },
  { id: 'd6', label: 'Level 4 · depth 6', go: 'go depth 6' },
  { id: 't1', label: 'Level 5 · 1 s a move', go: 'go movetime 1000' },
  { id: 't3', label: 'Level 6 · 3 s a move', go: 'go movetime 3000' },
  { id: 't10', label: 'Level 7 · 10 s a move', go: 'go movetime 10000' },
  { id: 'clock', label: 'Full strength · uses the clock', go: 'clock' },
];

// ---- clocks --------------------------------------------------------------------------------

class GameClocks {
  readonly remaining: [number, number];
  running = -1;
  private since = 0;
  constructor(readonly baseMs: number, readonly incMs: number) {
    this.remaining = [baseMs, baseMs];
  }
  start(side: number): void {
    this.stop();
    this.running = side;
    this.since = performance.now();
  }
  stop(): void {
    if (this.running >= 0) this.remaining[this.running] -= performance.now() - this.since;
    this.running = -1;
  }
  /** After `mover` moved: add the increment, start the other clock. */
  moved(mover: number, gameOver: boolean): void {
    this.stop();
    this.remaining[mover] += this.incMs;
    if (!gameOver) this.start(mover ^ 1);
  }
  left(side: number): number {
    return this.remaining[side] - (this.running === side ? performance.now() - this.since : 0);
  }
  get text(): string {
    return `${this.baseMs / 1000}+${this.incMs / 1000}`;
  }
}

function clockText(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// ---- state ---------------------------------------------------------------------------------

const app = {
  mode: 'engine' as Mode,
  humanSide: 0,
  game: new Game('khet2', setupKfen('khet2', 'classic') as string),
  view: 0,
  flipped: false,
  selected: -1,
  /** The square selected before the current press (a second click on it deselects). */
  selectedBefore: -1,
  stackTop: false,
  cursor: -1,
  bannerClosed: false,
  clock: null as GameClocks | null,
  analysing: true,
  multipv: 3,
  lines: [] as InfoLine[],
  linesKey: '',
  preview: null as { line: number; k: number } | null,
  /** The engine's latest info while it thinks about its move (play mode). */
  thinking: null as InfoLine | null,
  /** Game length when the engine was asked for a move, or -1. */
  engineAsked: -1,
  levels: BASE_LEVELS,
  message: '',
};

const token = new URLSearchParams(location.search).get('token') ?? '';
const engine = new EngineClient(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`);

const board = new BoardView($('board'), {
  press: onPress,
  click: onClick,
  drop: onDrop,
  rotate: (dir) => rotateSelected(dir),
});

// ---- positions and moves -------------------------------------------------------------------

const viewPos = (): Position => app.game.positionAt(app.view);
const atEnd = (): boolean => app.view === app.game.length;

/** May a person move pieces now (whose turn it is, the mode, the view)? */
function humanMayMove(pos: Position): boolean {
  if (app.preview) return false;
  if (pos.winner >= 0 || gameStatus(pos).result !== 'ongoing') return false;
  if (app.mode === 'analysis') return true;
  if (!atEnd() || app.game.over) return false;
  if (app.mode === 'engine') return pos.side === app.humanSide;
  return true;
}

/** The legal moves of the piece on `sq` in the viewed position. */
function movesFrom(pos: Position, sq: number): number[] {
  return legalMoves(pos).filter((m) => moveFrom(m) === sq);
}

function isStack(pos: Position, sq: number): boolean {
  return kindOf(pos.board[sq]) === STACK;
}

/** Target squares of the selected piece (with the stack mode applied). */
function targetsOf(pos: Position, sq: number): Map<number, { move: number; kind: TargetKind }> {
  const out = new Map<number, { move: number; kind: TargetKind }>();
  for (const m of movesFrom(pos, sq)) {
    const t = moveType(m);
    if (t === ROT_CW || t === ROT_CCW) continue;
    const to = moveTo(m);
    const kind: TargetKind = t === SWAP ? 'swap' : t === STACK_ON || (t === UNSTACK && pos.board[to] !== 0) ? 'stack' : 'step';
    if (isStack(pos, sq)) {
      // A stack steps whole (STEP) or sends its top (UNSTACK); onto an own single only the top goes.
      const wantTop = app.stackTop || pos.board[to] !== 0;
      if ((t === UNSTACK) !== wantTop) continue;
    }
    out.set(to, { move: m, kind });
  }
  return out;
}

function rotationsOf(pos: Position, sq: number): { cw: number; ccw: number } {
  let cw = -1;
  let ccw = -1;
  for (const m of movesFrom(pos, sq)) {
    if (moveType(m) === ROT_CW) cw = m;
    if (moveType(m) === ROT_CCW) ccw = m;
  }
  // A Scarab and a Pharaoh have one rotation (+); a Sphinx has one, in its own direction.
  return { cw, ccw };
}

function select(sq: number): void {
  app.selected = sq;
  app.message = '';
  const pos = viewPos();
  if (sq >= 0 && !isStack(pos, sq)) app.stackTop = false;
  render();
}

function onPress(sq: number): boolean {
  const pos = viewPos();
  app.selectedBefore = app.selected;
  if (!humanMayMove(pos)) return false;
  if (app.selected >= 0 && targetsOf(pos, app.selected).has(sq)) return false;
  const p = pos.board[sq];
  if (p !== 0 && colorOf(p) === pos.side && movesFrom(pos, sq).length > 0) {
    if (app.selected !== sq) select(sq);
    return true;
  }
  return false;
}

function onClick(sq: number): void {
  const pos = viewPos();
  app.cursor = -1;
  if (!humanMayMove(pos)) {
    if (!atEnd() && app.mode !== 'analysis') hint('You are looking at an earlier position: press End (or ») to return to the game.');
    return;
  }
  if (app.selected >= 0) {
    const t = targetsOf(pos, app.selected).get(sq);
    if (t) {
      playMove(t.move);
      return;
    }
  }
  const p = pos.board[sq];
  if (p !== 0 && colorOf(p) === pos.side && movesFrom(pos, sq).length > 0) {
    if (app.selectedBefore === sq) select(-1);
    else select(sq);
    return;
  }
  select(-1);
  if (p !== 0 && colorOf(p) !== pos.side) hint(`That ${EDITIONS[pos.edition.id].colorNames[colorOf(p)]} piece is not yours to move.`);
}

function onDrop(from: number, to: number): void {
  const pos = viewPos();
  if (!humanMayMove(pos)) return render();
  const t = targetsOf(pos, from).get(to);
  if (t) playMove(t.move);
  else render();
}

function rotateSelected(dir: '+' | '-'): void {
  const pos = viewPos();
  if (app.selected < 0 || !humanMayMove(pos)) return;
  const r = rotationsOf(pos, app.selected);
  let m = dir === '+' ? r.cw : r.ccw;
  if (m < 0) m = dir === '+' ? r.ccw : r.cw; // Sphinx, Scarab: the one rotation there is
  if (m >= 0) playMove(m);
}

function playMove(m: number): void {
  const pos = viewPos();
  if (!legalMoves(pos).includes(m)) return; // cannot happen: the board offers only legal moves
  if (!atEnd()) {
    if (app.mode !== 'analysis') return;
    app.game.truncate(app.view);
  }
  const mover = pos.side;
  app.message = '';
  app.game.play(m);
  app.view = app.game.length;
  app.selected = -1;
  app.preview = null;
  app.bannerClosed = false;
  if (app.clock && app.mode !== 'analysis') app.clock.moved(mover, app.game.over);
  afterChange();
}

// ---- engine: play and analysis -------------------------------------------------------------

function levelById(id: string): Level {
  return app.levels.find((l) => l.id === id) ?? app.levels[0];
}

function levelGoCommand(level: Level): string {
  if (level.go !== 'clock') return level.go;
  const c = app.clock;
  if (!c) return 'go movetime 2000';
  const ms = (s: number): number => Math.max(1, Math.round(c.left(s)));
  return `go wtime ${ms(0)} btime ${ms(1)} winc ${c.incMs} binc ${c.incMs}`;
}

function engineOptions(extra: Record<string, string> = {}): Record<string, string> {
  return { UCI_Variant: app.game.edition, ...extra };
}

function maybeEngineMove(): void {
  if (app.mode !== 'engine' || app.game.over) return;
  const pos = app.game.positionAt(app.game.length);
  if (pos.side === app.humanSide || app.engineAsked === app.game.length || !engine.ready) return;
  const asked = app.game.length;
  app.engineAsked = asked;
  app.thinking = null;
  const askedAt = performance.now();
  const level = levelById(($('sel-level') as HTMLSelectElement).value);
  const opts: Record<string, string> = { MultiPV: '1' };
  if (engine.hasOption('UCI_LimitStrength')) opts.UCI_LimitStrength = level.elo ? 'true' : 'false';
  if (level.elo) opts.UCI_Elo = String(level.elo);
  engine.search({
    options: engineOptions(opts),
    position: app.game.positionCommand(asked),
    go: levelGoCommand(level),
    onInfo: (i) => {
      if (i.multipv === 1) app.thinking = i;
      scheduleRender();
    },
    onBestmove: (text) => {
      if (app.engineAsked !== asked || app.mode !== 'engine' || app.game.length !== asked) return;
      const said = app.thinking as InfoLine | null;
      app.engineAsked = -1;
      app.thinking = null;
      const now = app.game.positionAt(asked);
      if (text === '(none)' || text === '0000') {
        app.message = 'The engine has no move to make here.';
        render();
        return;
      }
      const m = parseMove(now, text);
      if (!m.ok) {
        app.message = `The engine sent an illegal move '${text}': ${m.error.message}`;
        render();
        return;
      }
      app.view = app.game.length;
      playMove(m.value);
      const ply = app.game.plies[asked];
      if (ply) {
        ply.engine = { timeMs: Math.round(performance.now() - askedAt) };
        if (said) Object.assign(ply.engine, { depth: said.depth, ...(said.score.kind === 'mate' ? { mate: said.score.value } : { scoreCp: said.score.value }) });
      }
    },
  });
  render();
}

function analysisKey(): string {
  return `${app.game.startKfen}|${app.game.plies.slice(0, app.view).map((p) => p.text).join(' ')}|${app.multipv}`;
}

function restartAnalysis(): void {
  if (app.mode !== 'analysis') return;
  const key = analysisKey();
  if (key === app.linesKey && engine.busy) return;
  app.linesKey = key;
  app.lines = [];
  if (!app.analysing || !engine.ready) return;
  const pos = viewPos();
  if (gameStatus(pos).result !== 'ongoing') {
    engine.cancel();
    return render();
  }
  engine.search({
    options: engineOptions({ MultiPV: String(app.multipv), ...(engine.hasOption('UCI_LimitStrength') ? { UCI_LimitStrength: 'false' } : {}) }),
    position: app.game.positionCommand(app.view),
    go: 'go infinite',
    onInfo: (i) => {
      if (app.linesKey !== key || i.multipv > app.multipv) return;
      // A new depth of the first line starts a new iteration: drop lines from shallower ones.
      app.lines[i.multipv - 1] = i;
      scheduleRender();
    },
    onBestmove: () => scheduleRender(),
  });
}

/** After the game or the view changed: the engine moves or analyses, the page redraws. */
function afterChange(): void {
  if (app.mode === 'engine') maybeEngineMove();
  if (app.mode === 'analysis') restartAnalysis();
  render();
}

// ---- modes and new games -------------------------------------------------------------------

function setMode(mode: Mode): void {
  if (mode === app.mode) return;
  engine.cancel();
  app.engineAsked = -1;
  app.thinking = null;
  app.preview = null;
  app.lines = [];
  app.linesKey = '';
  app.mode = mode;
  for (const r of Array.from(document.querySelectorAll<HTMLInputElement>('input[name=mode]'))) r.checked = r.value === mode;
  if (app.clock) {
    if (mode === 'analysis') app.clock.stop();
    else if (!app.game.over && app.game.length > 0) app.clock.start(app.game.positionAt(app.game.length).side);
  }
  if (mode === 'engine') app.view = app.game.length;
  app.analysing = true;
  afterChange();
}

function newGame(edition: EditionId, kfen: string, moves: string[] = []): void {
  engine.cancel();
  const g = new Game(edition, kfen);
  for (const m of moves) g.playText(m);
  app.game = g;
  app.view = g.length;
  app.selected = -1;
  app.preview = null;
  app.bannerClosed = false;
  app.engineAsked = -1;
  app.thinking = null;
  app.lines = [];
  app.linesKey = '';
  app.message = '';
  document.body.className = `ed-${edition}`;
  const sideSel = $('sel-side') as HTMLSelectElement;
  const tc = ($('sel-tc') as HTMLSelectElement).value;
  app.clock = null;
  if (tc && app.mode !== 'analysis') {
    const [base, inc] = tc.split('+').map(Number);
    // The clocks start with the first move.
    app.clock = new GameClocks(base * 1000, inc * 1000);
    if (!g.over && g.length > 0) app.clock.start(g.positionAt(g.length).side);
  }
  if (app.mode === 'engine') {
    app.humanSide = sideSel.value === 'random' ? (Math.random() < 0.5 ? 0 : 1) : Number(sideSel.value);
    app.flipped = app.humanSide === 1;
  }
  engine.newGame();
  afterChange();
}

function newGameFromForm(): void {
  const edition = ($('sel-edition') as HTMLSelectElement).value as EditionId;
  const setup = ($('sel-setup') as HTMLSelectElement).value as 'classic';
  newGame(edition, setupKfen(edition, setup) ?? (setupKfen(edition, 'classic') as string));
}

function fillSetupAndSides(): void {
  const edition = ($('sel-edition') as HTMLSelectElement).value as EditionId;
  const setupSel = $('sel-setup') as HTMLSelectElement;
  const old = setupSel.value;
  setupSel.replaceChildren(
    ...setupsOf(edition).map((s) => {
      const o = document.createElement('option');
      o.value = s;
      o.textContent = s[0].toUpperCase() + s.slice(1);
      return o;
    }),
  );
  if (Array.from(setupSel.options).some((o) => o.value === old)) setupSel.value = old;
  const sideSel = $('sel-side') as HTMLSelectElement;
  const oldSide = sideSel.value || '0';
  const names = EDITIONS[edition].colorNames;
  sideSel.replaceChildren(
    ...[
      ['0', `${names[0]} (moves first)`],
      ['1', names[1]],
      ['random', 'Random'],
    ].map(([v, t]) => {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = t;
      return o;
    }),
  );
  sideSel.value = oldSide;
}

function fillLevels(): void {
  const sel = $('sel-level') as HTMLSelectElement;
  const old = sel.value || 't1';
  const levels = [...BASE_LEVELS];
  const elo = engine.options.get('uci_elo');
  if (engine.hasOption('UCI_LimitStrength') && elo && elo.min !== undefined && elo.max !== undefined) {
    const steps = 5;
    for (let i = 0; i < steps; i++) {
      const e = Math.round(elo.min + ((elo.max - elo.min) * i) / (steps - 1));
      levels.push({ id: `elo${e}`, label: `Elo ${e} · uses the clock`, go: 'clock', elo: e });
    }
  }
  app.levels = levels;
  sel.replaceChildren(
    ...levels.map((l) => {
      const o = document.createElement('option');
      o.value = l.id;
      o.textContent = l.label;
      return o;
    }),
  );
  sel.value = levels.some((l) => l.id === old) ? old : 't1';
}

// ---- take back, navigation, preview --------------------------------------------------------

function takeBack(): void {
  if (app.preview) return exitPreview();
  if (app.game.length === 0) return;
  engine.cancel();
  app.engineAsked = -1;
  app.thinking = null;
  let n = 1;
  if (app.mode === 'engine') {
    // Back to the human's turn: the engine's reply and the human's move.
    const last = app.game.plies[app.game.length - 1];
    n = last.side === app.humanSide ? 1 : 2;
    if (app.game.length - n < 0 || app.game.positionAt(app.game.length - n).side !== app.humanSide) n = 1;
  }
  app.game.truncate(Math.max(0, app.game.length - n));
  app.view = app.game.length;
  app.selected = -1;
  app.bannerClosed = false;
  if (app.clock && app.mode !== 'analysis') {
    if (app.game.length > 0) app.clock.start(viewPos().side);
    else app.clock.stop();
  }
  afterChange();
}

function goTo(ply: number): void {
  const v = Math.max(0, Math.min(app.game.length, ply));
  if (v === app.view && !app.preview) return;
  app.view = v;
  app.preview = null;
  app.selected = -1;
  app.message = '';
  afterChange();
}

function previewMoves(): { pos: Position; last: PlyInfo | null; played: string[] } {
  const pos = viewPos();
  let last: PlyInfo | null = null;
  const played: string[] = [];
  const line = app.preview ? app.lines[app.preview.line] : undefined;
  if (!line || !app.preview) return { pos, last, played };
  for (let i = 0; i < app.preview.k && i < line.pv.length; i++) {
    if (pos.winner >= 0) break;
    const m = parseMove(pos, line.pv[i]);
    if (!m.ok) break;
    last = playPly(pos, m.value);
    played.push(line.pv[i]);
  }
  return { pos, last, played };
}

function startPreview(line: number): void {
  if (!app.lines[line]) return;
  app.preview = { line, k: 1 };
  app.selected = -1;
  render();
}

function stepPreview(d: number): void {
  if (!app.preview) return;
  const line = app.lines[app.preview.line];
  if (!line) return exitPreview();
  app.preview.k = Math.max(1, Math.min(line.pv.length, app.preview.k + d));
  render();
}

function exitPreview(): void {
  app.preview = null;
  render();
}

// ---- rendering -----------------------------------------------------------------------------

let renderQueued = false;
function scheduleRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  setTimeout(() => {
    renderQueued = false;
    render();
  }, 80);
}

/** Score from the first player's view, as text. */
function scoreText(i: InfoLine, sideToMove: number): string {
  const sign = sideToMove === 0 ? 1 : -1;
  if (i.score.kind === 'mate') {
    const m = i.score.value * sign;
    return m > 0 ? `#${m}` : `#-${Math.abs(m)}`;
  }
  const cp = i.score.value * sign;
  return `${cp > 0 ? '+' : cp < 0 ? '−' : ''}${(Math.abs(cp) / 100).toFixed(2)}`;
}

function pvText(pos: Position, pv: string[], limit = 12): string {
  const p = pos.clone();
  let num = p.moveNumber;
  let side = p.side;
  const words: string[] = [];
  pv.slice(0, limit).forEach((m, i) => {
    if (side === 0) words.push(`${num}.`);
    else if (i === 0) words.push(`${num}…`);
    words.push(m);
    if (side === 1) num++;
    side ^= 1;
  });
  if (pv.length > limit) words.push('…');
  return words.join(' ');
}

function moveArrow(text: string, pos: Position, style: Arrow['style'], label?: string): Arrow | null {
  const m = parseMove(pos, text);
  if (!m.ok) return null;
  const mv = m.value;
  const t = moveType(mv);
  if (t === ROT_CW || t === ROT_CCW) return { from: moveFrom(mv), to: moveFrom(mv), rot: t === ROT_CW ? '+' : '-', style, label };
  return { from: moveFrom(mv), to: moveTo(mv), style, label };
}

function render(): void {
  const previewing = previewMoves();
  const pos = app.preview ? previewing.pos : viewPos();
  const lastPly = app.preview ? previewing.last : app.view > 0 ? app.game.plies[app.view - 1] : null;
  const interactive = humanMayMove(viewPos()) && !app.preview;
  if (app.selected >= 0 && (!interactive || colorOf(pos.board[app.selected]) !== pos.side || pos.board[app.selected] === 0)) {
    app.selected = -1;
  }
  const targets = new Map<number, TargetKind>();
  let rot = { cw: false, ccw: false };
  if (app.selected >= 0) {
    for (const [sq, t] of targetsOf(pos, app.selected)) targets.set(sq, t.kind);
    const r = rotationsOf(pos, app.selected);
    const one = kindOf(pos.board[app.selected]) === SPHINX || kindOf(pos.board[app.selected]) === SCARAB;
    rot = one ? { cw: r.cw >= 0 || r.ccw >= 0, ccw: false } : { cw: r.cw >= 0, ccw: r.ccw >= 0 };
  }
  const arrows: Arrow[] = [];
  if (app.mode === 'analysis' && !app.preview && app.linesKey === analysisKey()) {
    app.lines.forEach((l, i) => {
      if (!l || l.pv.length === 0) return;
      const a = moveArrow(l.pv[0], pos, i === 0 ? 'best' : 'alt', app.lines.length > 1 ? String(i + 1) : undefined);
      if (a) arrows.push(a);
    });
    arrows.reverse(); // the best on top
  }
  const lastMove = lastPly ? { from: moveFrom(lastPly.move), to: moveType(lastPly.move) >= ROT_CW && moveType(lastPly.move) <= ROT_CCW ? moveFrom(lastPly.move) : moveTo(lastPly.move) } : null;
  const beamId = app.preview ? `pv${app.preview.line}:${previewing.played.join(',')}@${app.view}` : lastPly ? `g${app.view}:${lastPly.text}:${app.game.startKfen}` : '';
  board.render({
    pos,
    flipped: app.flipped,
    lastMove,
    selected: app.selected,
    targets,
    rotations: rot,
    cursor: document.activeElement === $('board') ? app.cursor : -1,
    beam: lastPly ? { ply: lastPly, id: beamId } : null,
    arrows,
    interactive,
    motion: lastPly
      ? {
          id: beamId,
          from: moveFrom(lastPly.move),
          to: moveTo(lastPly.move),
          rot: moveType(lastPly.move) === ROT_CW ? '+' : moveType(lastPly.move) === ROT_CCW ? '-' : undefined,
          swap: moveType(lastPly.move) === SWAP,
        }
      : null,
  });
  $('board').classList.toggle('previewing', app.preview !== null);
  renderPlayers(pos);
  renderToolbar(pos, rot);
  renderMoves();
  renderAnalysis();
  renderBanner();
  renderStatus();
  renderHint(pos);
  renderIO();
}

function renderPlayers(pos: Position): void {
  const ed = EDITIONS[app.game.edition];
  const lost: number[][] = [[], []];
  for (const p of app.game.plies.slice(0, app.view)) {
    if (p.killedSq >= 0) {
      const k = kindOf(p.killedPiece) === STACK ? p.killedPiece - 4 : p.killedPiece;
      lost[colorOf(k)].push(k);
    }
  }
  const name = (c: number): string => {
    if (app.mode === 'engine') return c === app.humanSide ? 'You' : engine.name ? engine.name.split(' ')[0] : 'Thoth';
    return ed.colorNames[c];
  };
  const sides: [HTMLElement, number][] = [
    [$('player-top'), app.flipped ? 0 : 1],
    [$('player-bottom'), app.flipped ? 1 : 0],
  ];
  for (const [elx, c] of sides) {
    elx.className = `player c${c}${pos.side === c && !app.game.over ? ' to-move' : ''}`;
    (elx.querySelector('.name') as HTMLElement).textContent =
      app.mode === 'engine' ? `${name(c)} · ${ed.colorNames[c]}` : ed.colorNames[c];
    const lostEl = elx.querySelector('.lost') as HTMLElement;
    const html = lost[c].map((p) => pieceSvg(p, 20)).join('');
    if (lostEl.innerHTML !== html) lostEl.innerHTML = html;
    const clock = elx.querySelector('.clock') as HTMLElement;
    if (app.clock && app.mode !== 'analysis') {
      clock.hidden = false;
      clock.textContent = clockText(app.clock.left(c));
      clock.classList.toggle('running', app.clock.running === c);
      clock.classList.toggle('low', app.clock.left(c) < 10000);
    } else clock.hidden = true;
  }
}

function renderToolbar(pos: Position, rot: { cw: boolean; ccw: boolean }): void {
  ($('nav-first') as HTMLButtonElement).disabled = app.view === 0 && !app.preview;
  ($('nav-prev') as HTMLButtonElement).disabled = app.view === 0 && !app.preview;
  ($('nav-next') as HTMLButtonElement).disabled = atEnd() && !app.preview;
  ($('nav-last') as HTMLButtonElement).disabled = atEnd() && !app.preview;
  ($('btn-rot-cw') as HTMLButtonElement).disabled = !rot.cw;
  ($('btn-rot-ccw') as HTMLButtonElement).disabled = !rot.ccw;
  ($('btn-takeback') as HTMLButtonElement).disabled = app.game.length === 0;
  const stackBtn = $('btn-stack') as HTMLButtonElement;
  const showStack = app.selected >= 0 && isStack(pos, app.selected);
  stackBtn.hidden = !showStack;
  stackBtn.textContent = app.stackTop ? 'Top obelisk only' : 'Whole stack';
  stackBtn.setAttribute('aria-pressed', String(app.stackTop));
}

function renderMoves(): void {
  const box = $('moves');
  const start = parseKfen(app.game.startKfen, app.game.edition);
  let num = start.ok ? start.value.moveNumber : 1;
  const firstSide = start.ok ? start.value.side : 0;
  const parts: string[] = [];
  const cell = (i: number): string => {
    const p = app.game.plies[i];
    const mark = p.killedSq >= 0 ? (kindOf(p.killedPiece) === 2 ? '#' : '×') : '';
    const cls = `mv${i + 1 === app.view ? ' current' : ''}`;
    return `<button class="${cls}" data-ply="${i + 1}" title="${p.text}${p.killedSq >= 0 ? `: the laser removes the piece on ${squareName(p.killedSq)}` : ''}">${p.text}${mark ? `<span class="kill">${mark}</span>` : ''}</button>`;
  };
  let i = 0;
  if (firstSide === 1 && app.game.length > 0) {
    parts.push(`<span class="num">${num}.</span><span class="mv empty">…</span>${cell(0)}`);
    i = 1;
    num++;
  }
  for (; i < app.game.length; i += 2) {
    parts.push(`<span class="num">${num}.</span>${cell(i)}${i + 1 < app.game.length ? cell(i + 1) : '<span></span>'}`);
    num++;
  }
  const r = app.game.result();
  if (r) parts.push(`<div class="result">${r.result} · ${escapeHtml(r.text)}</div>`);
  if (app.game.length === 0 && !r) parts.push('<div class="muted empty-list">No moves yet.</div>');
  const html = parts.join('');
  if (box.dataset.html !== html) {
    box.innerHTML = html;
    box.dataset.html = html;
    box.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }
  box.dataset.count = String(app.game.length);
  const th = $('thinking');
  if (app.mode === 'engine' && app.engineAsked >= 0) {
    const i = app.thinking;
    th.textContent = i ? `Thoth thinks · depth ${i.depth} · ${scoreText(i, viewPos().side)} · ${i.pv.slice(0, 4).join(' ')}` : 'Thoth thinks…';
  } else th.textContent = '';
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function renderAnalysis(): void {
  const card = $('card-analysis');
  card.hidden = app.mode !== 'analysis';
  if (card.hidden) return;
  const pos = viewPos();
  const btn = $('btn-analyse') as HTMLButtonElement;
  btn.textContent = app.analysing ? 'Stop' : 'Analyse';
  btn.setAttribute('aria-pressed', String(app.analysing));
  const over = gameStatus(pos).result !== 'ongoing';
  const list = $('lines');
  const running = app.analysing && engine.busy;
  list.dataset.state = running ? 'running' : 'stopped';
  const first = app.lines[0];
  $('an-info').textContent = over
    ? 'the game is over here'
    : !engine.ready
      ? 'the engine is not ready'
      : first
        ? `depth ${first.depth}${first.nodes ? ` · ${formatCount(first.nodes)} nodes` : ''}${running ? '' : ' · stopped'}`
        : running
          ? 'thinking…'
          : 'stopped';
  const items = app.lines
    .map((l, i) => {
      if (!l) return '';
      const cls = `line${app.preview?.line === i ? ' previewing' : ''}`;
      return `<li class="${cls}" data-line="${i}" tabindex="0" role="button" aria-label="Line ${i + 1}: preview it"><span class="score">${scoreText(l, pos.side)}</span><span class="depth">d${l.depth}</span><span class="pv">${escapeHtml(pvText(pos, l.pv))}</span></li>`;
    })
    .join('');
  if (list.dataset.html !== items) {
    list.innerHTML = items;
    list.dataset.html = items;
  }
  const bar = $('preview-bar');
  bar.hidden = !app.preview;
  if (app.preview) {
    const l = app.lines[app.preview.line];
    const shown = l ? l.pv.slice(0, app.preview.k).join(' ') : '';
    $('preview-text').textContent = `Line ${app.preview.line + 1}, move ${app.preview.k} of ${l?.pv.length ?? 0}: ${shown}`;
  }
}

function formatCount(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}

function renderBanner(): void {
  const banner = $('banner');
  const r = app.game.result();
  const show = r !== null && atEnd() && !app.bannerClosed && !app.preview;
  const appearing = show && banner.hidden;
  banner.hidden = !show;
  if (!show || !r) return;
  if (appearing && document.activeElement?.closest('#board, #banner')) setTimeout(() => $('banner-new').focus(), 0);
  const ed = EDITIONS[app.game.edition];
  const winner: number = r.result === '1-0' ? 0 : r.result === '0-1' ? 1 : -1;
  let title = winner >= 0 ? `${ed.colorNames[winner]} wins` : 'Draw';
  let text = r.text;
  const last = app.game.plies[app.game.length - 1];
  const st = app.game.status();
  if (st.reason === 'pharaoh' && last) {
    const loser = winner ^ 1;
    text =
      last.side === loser
        ? `The ${ed.colorNames[loser]} Pharaoh was hit by its own laser (${last.text}).`
        : `${ed.colorNames[winner]}'s laser hit the ${ed.colorNames[loser]} Pharaoh on ${squareName(last.killedSq)} (${last.text}).`;
  }
  if (app.mode === 'engine' && winner >= 0) title += winner === app.humanSide ? ' · you won!' : ' · Thoth won';
  banner.dataset.result = r.result;
  banner.dataset.winner = winner >= 0 ? ed.colorNames[winner] : 'draw';
  $('banner-title').textContent = title;
  $('banner-text').textContent = text;
}

function renderStatus(): void {
  const s = $('engine-status');
  let state: string;
  let text: string;
  if (engine.connection === 'connecting') [state, text] = ['connecting', 'Connecting to the server…'];
  else if (engine.connection === 'superseded') [state, text] = ['closed', 'Another page took over the engine: reload to use it here.'];
  else if (engine.connection === 'closed') [state, text] = ['closed', 'The server is gone: two players still work; reload when it is back.'];
  else if (engine.state === 'starting') [state, text] = ['starting', 'Starting the engine…'];
  else if (engine.state === 'failed' || engine.state === 'exited') [state, text] = ['failed', `Engine unavailable: ${engine.message}`];
  else if (engine.busy) [state, text] = ['thinking', `${engine.name || 'Engine'} · thinking`];
  else [state, text] = ['ready', `${engine.name || 'Engine'} · ready`];
  s.dataset.state = state;
  s.textContent = text;
  s.title = engine.command ? `Engine command: ${engine.command}` : '';
}

function hint(text: string): void {
  app.message = text;
  $('hint').textContent = text;
}

function renderHint(pos: Position): void {
  const ed = EDITIONS[app.game.edition];
  let t = '';
  if (app.message) t = app.message;
  else if (app.preview) t = 'Previewing an engine line: ‹ › step through it, Esc returns to the game.';
  else if (app.game.over && atEnd()) t = app.game.result()?.text ?? '';
  else if (!atEnd() && app.mode !== 'analysis') t = `Move ${app.view} of ${app.game.length}: press End (or ») to return to the game.`;
  else if (app.mode === 'engine' && pos.side !== app.humanSide) t = engine.ready ? 'Thoth is thinking…' : 'Waiting for the engine…';
  else if (app.selected >= 0) {
    const p = pos.board[app.selected];
    const k = kindOf(p);
    const word = k === SPHINX ? 'turn the Sphinx' : k === PYRAMID || k === ANUBIS || k === SCARAB ? 'pick a square or rotate' : 'pick a square';
    t = `${squareName(app.selected)} selected: ${word}.${k === STACK ? ' U switches between the whole stack and its top obelisk.' : ''}`;
  } else t = `${ed.colorNames[pos.side]} to move: pick a piece.`;
  $('hint').textContent = t;
}

let ioKfenShown = '';
function renderIO(): void {
  const k = app.game.kfenAt(app.view);
  const input = $('kfen') as HTMLInputElement;
  if (k !== ioKfenShown && document.activeElement !== input) {
    input.value = k;
    ioKfenShown = k;
  }
}

function ioMessage(text: string, error = false): void {
  const m = $('io-msg');
  m.textContent = text;
  m.classList.toggle('error', error);
}

// ---- import / export ---------------------------------------------------------------------

function loadKfen(text: string): void {
  const wanted = ($('sel-edition') as HTMLSelectElement).value as EditionId;
  const order: EditionId[] = [wanted, ...(['khet2', 'khet1', 'deflexion'] as EditionId[]).filter((e) => e !== wanted)];
  let firstError = '';
  for (const ed of order) {
    const r = parseKfen(text.trim(), ed);
    if (r.ok) {
      ($('sel-edition') as HTMLSelectElement).value = ed;
      fillSetupAndSides();
      newGame(ed, text.trim().split(/\s+/).join(' '));
      ioMessage(`Position loaded (${EDITIONS[ed].name}).`);
      return;
    }
    if (!firstError) firstError = r.error.message;
  }
  ioMessage(`Not a KFEN: ${firstError}`, true);
}

function exportRecord(): string {
  const ed = EDITIONS[app.game.edition];
  const r = app.game.result();
  const who = (c: number): string =>
    app.mode === 'engine' ? (c === app.humanSide ? 'Human' : engine.name || 'Thoth') : `Human (${ed.colorNames[c]})`;
  return exportGame({
    edition: app.game.edition,
    startKfen: app.game.startKfen,
    players: [who(0), who(1)],
    result: r ? r.result : '*',
    timeControl: app.clock ? app.clock.text : '-',
    termination: r ? (r.termination as 'normal') : 'unterminated',
    reason: r?.text,
    moves: app.game.plies.map((p) => ({ move: p.text, ...(p.engine ?? {}) })),
  });
}

function importRecord(text: string): void {
  const imported = importGame(text);
  if (!imported.ok) return ioMessage(`Cannot import: ${formatImportError(imported.error)}`, true);
  const r = imported.value;
  ($('sel-edition') as HTMLSelectElement).value = r.edition;
  fillSetupAndSides();
  newGame(r.edition, r.startKfen, r.moves);
  if (!app.game.over && r.result !== '*') {
    app.game.ending = { result: r.result, text: r.reason ?? `Result ${r.result} (${r.termination})`, termination: r.termination };
    app.clock?.stop();
  }
  ioMessage(`Game imported: ${r.moves.length} moves.`);
  afterChange();
}

// ---- keyboard ------------------------------------------------------------------------------

function moveCursor(dFile: number, dRank: number): void {
  const pos = viewPos();
  if (app.cursor < 0) {
    // Start on the first own piece from the bottom left, or e1.
    let start = -1;
    for (let sq = 0; sq < 80 && start < 0; sq++) if (pos.board[sq] !== 0 && colorOf(pos.board[sq]) === pos.side) start = sq;
    app.cursor = app.selected >= 0 ? app.selected : start >= 0 ? start : parseSquare('e1');
    return render();
  }
  const s = app.flipped ? -1 : 1;
  const f = Math.max(0, Math.min(9, (app.cursor % 10) + dFile * s));
  const r = Math.max(0, Math.min(7, ((app.cursor / 10) | 0) + dRank * s));
  app.cursor = r * 10 + f;
  render();
}

function onBoardKey(e: KeyboardEvent): boolean {
  switch (e.key) {
    case 'ArrowUp':
      moveCursor(0, 1);
      return true;
    case 'ArrowDown':
      moveCursor(0, -1);
      return true;
    case 'ArrowLeft':
      moveCursor(-1, 0);
      return true;
    case 'ArrowRight':
      moveCursor(1, 0);
      return true;
    case 'Enter':
    case ' ':
      if (app.cursor < 0) moveCursor(0, 0);
      else {
        app.selectedBefore = app.selected;
        const c = app.cursor;
        onClick(c);
        app.cursor = c;
        render();
      }
      return true;
    default:
      return false;
  }
}

function onKey(e: KeyboardEvent): void {
  const t = e.target as HTMLElement;
  if (t.closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
  const onBoard = t.id === 'board';
  if (onBoard && onBoardKey(e)) return e.preventDefault();
  if (t.closest('#lines') && (e.key === 'Enter' || e.key === ' ')) {
    const li = t.closest('[data-line]') as HTMLElement | null;
    if (li) startPreview(Number(li.dataset.line));
    return e.preventDefault();
  }
  if (t.tagName === 'BUTTON' && (e.key === 'Enter' || e.key === ' ')) return;
  let handled = true;
  switch (e.key) {
    case '+':
    case ']':
    case '=':
      rotateSelected('+');
      break;
    case '-':
    case '[':
      rotateSelected('-');
      break;
    case 'u':
    case 'U':
      toggleStackMode();
      break;
    case 'Escape':
      if (app.preview) exitPreview();
      else if (!$('banner').hidden) closeBanner();
      else select(-1);
      break;
    case 'Home':
      goTo(0);
      break;
    case 'End':
      goTo(app.game.length);
      break;
    case 'PageUp':
      if (app.preview) stepPreview(-1);
      else goTo(app.view - 1);
      break;
    case 'PageDown':
      if (app.preview) stepPreview(1);
      else goTo(app.view + 1);
      break;
    case 'ArrowLeft':
      if (app.preview) stepPreview(-1);
      else goTo(app.view - 1);
      break;
    case 'ArrowRight':
      if (app.preview) stepPreview(1);
      else goTo(app.view + 1);
      break;
    case 'f':
    case 'F':
      flip();
      break;
    case 't':
    case 'T':
      takeBack();
      break;
    default:
      handled = false;
  }
  if (handled) e.preventDefault();
}

function toggleStackMode(): void {
  app.stackTop = !app.stackTop;
  render();
}

function flip(): void {
  app.flipped = !app.flipped;
  render();
}

function closeBanner(): void {
  app.bannerClosed = true;
  render();
  $('board').focus();
}

// ---- wiring --------------------------------------------------------------------------------

function wire(): void {
  $('nav-first').onclick = () => goTo(0);
  $('nav-prev').onclick = () => (app.preview ? stepPreview(-1) : goTo(app.view - 1));
  $('nav-next').onclick = () => (app.preview ? stepPreview(1) : goTo(app.view + 1));
  $('nav-last').onclick = () => goTo(app.game.length);
  $('btn-rot-cw').onclick = () => rotateSelected('+');
  $('btn-rot-ccw').onclick = () => rotateSelected('-');
  $('btn-stack').onclick = toggleStackMode;
  $('btn-takeback').onclick = takeBack;
  $('btn-flip').onclick = flip;
  $('banner-new').onclick = () => {
    newGameFromForm();
    $('board').focus();
  };
  $('banner-close').onclick = closeBanner;
  for (const r of Array.from(document.querySelectorAll<HTMLInputElement>('input[name=mode]'))) {
    r.onchange = () => {
      if (r.checked) setMode(r.value as Mode);
      document.body.dataset.mode = app.mode;
    };
  }
  ($('new-game') as HTMLFormElement).onsubmit = (e) => {
    e.preventDefault();
    newGameFromForm();
  };
  $('sel-edition').onchange = fillSetupAndSides;
  $('sel-side').onchange = () => {
    if (app.mode !== 'engine') return;
    const v = ($('sel-side') as HTMLSelectElement).value;
    if (v === 'random') return;
    app.humanSide = Number(v);
    app.flipped = app.humanSide === 1;
    engine.cancel();
    app.engineAsked = -1;
    afterChange();
  };
  $('sel-multipv').onchange = () => {
    app.multipv = Number(($('sel-multipv') as HTMLSelectElement).value);
    app.preview = null;
    restartAnalysis();
    render();
  };
  $('btn-analyse').onclick = () => {
    app.analysing = !app.analysing;
    if (app.analysing) {
      app.linesKey = '';
      restartAnalysis();
    } else engine.stop();
    render();
  };
  $('lines').onclick = (e) => {
    const li = (e.target as HTMLElement).closest('[data-line]') as HTMLElement | null;
    if (li) startPreview(Number(li.dataset.line));
  };
  $('pv-prev').onclick = () => stepPreview(-1);
  $('pv-next').onclick = () => stepPreview(1);
  $('pv-exit').onclick = exitPreview;
  $('moves').onclick = (e) => {
    const b = (e.target as HTMLElement).closest('[data-ply]') as HTMLElement | null;
    if (b) goTo(Number(b.dataset.ply));
  };
  $('kfen-load').onclick = () => loadKfen(($('kfen') as HTMLInputElement).value);
  ($('kfen') as HTMLInputElement).onkeydown = (e) => {
    if (e.key === 'Enter') loadKfen(($('kfen') as HTMLInputElement).value);
  };
  $('kfen-copy').onclick = () => {
    const v = app.game.kfenAt(app.view);
    void navigator.clipboard?.writeText(v).then(
      () => ioMessage('KFEN copied.'),
      () => ioMessage('Select the text and copy it.'),
    );
  };
  $('rec-export').onclick = () => {
    const text = exportRecord();
    ($('record') as HTMLTextAreaElement).value = text;
    const a = $('rec-download') as HTMLAnchorElement;
    if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.hidden = false;
    ioMessage('The game is in the box above; Download saves it as a file.');
  };
  $('rec-import').onclick = () => importRecord(($('record') as HTMLTextAreaElement).value);
  const boardEl = $('board');
  boardEl.addEventListener('focus', () => render());
  boardEl.addEventListener('blur', () => render());
  document.addEventListener('keydown', onKey);
  setInterval(() => {
    const c = app.clock;
    if (!c || c.running < 0 || app.mode === 'analysis') return;
    if (c.left(c.running) <= 0 && !app.game.over) {
      const loser = c.running;
      c.stop();
      c.remaining[loser] = 0;
      engine.cancel();
      app.engineAsked = -1;
      const ed = EDITIONS[app.game.edition];
      app.game.ending = {
        result: loser === 0 ? '0-1' : '1-0',
        text: `${ed.colorNames[loser ^ 1]} wins on time: ${ed.colorNames[loser]}'s clock ran out`,
        termination: 'time forfeit',
      };
      app.bannerClosed = false;
      render();
      return;
    }
    renderPlayers(app.preview ? previewMoves().pos : viewPos());
  }, 100);
}

engine.onStatus = () => {
  fillLevels();
  if (engine.ready) {
    if (app.mode === 'engine') maybeEngineMove();
    if (app.mode === 'analysis') {
      app.linesKey = '';
      restartAnalysis();
    }
  } else {
    app.engineAsked = -1;
  }
  render();
};
engine.onRefused = (line, reason) => {
  app.message = `The server refused '${line}': ${reason}`;
  render();
};
engine.onOther = (line) => {
  if (/^info string error/.test(line)) {
    app.message = `Engine: ${line.slice(12)}`;
    render();
  }
};

fillSetupAndSides();
fillLevels();
wire();
document.body.dataset.mode = app.mode;
newGameFromForm();
engine.connect();
// Exposed for debugging from the console.
(window as unknown as { thoth: unknown }).thoth = { app, engine };
