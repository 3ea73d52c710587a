/**
 * The page's controller: holds the state, applies the transitions of state.ts on the person's
 * actions and the engine's answers, and runs the effects — the engine's searches (derived from
 * the state: what Thoth should be doing is a function of it), the timers (clocks, the shot on
 * show), storage, and drawing the board and the panels.
 */
import { plural } from '../../core/plural';
import {
  EDITIONS,
  legalMoves,
  moveFrom,
  moveTo,
  moveType,
  parseMove,
  ROT_CCW,
  ROT_CW,
  SWAP,
  toKfen,
  type EditionId,
  type Position,
} from '../../core/index';
import { BoardView, type Arrow } from './board';
import { timeLeft } from './clock';
import { lookUpDom, type Dom } from './dom';
import type { EngineClient, InfoLine } from './engine-client';
import { laserPath, playPly, type PlyInfo } from './move-effect';
import { graphIndexAt } from './graph';
import { keyAction, type KeyAction } from './keys';
import { typedMove, wireMoveBox } from './movebox';
import { isFullStrength, levelGoCommand, levelOptions, levelsFor, MOVETIME_WITHOUT_CLOCK, type Level } from './levels';
import {
  engineStatus,
  ioMessage,
  renderAnalysis,
  renderBanner,
  renderEvalBar,
  renderGraph,
  renderReview,
  renderClocks,
  renderForm,
  renderHint,
  renderIO,
  renderKeys,
  renderLegend,
  renderMoves,
  renderOffer,
  renderPlayers,
  renderStatus,
  renderThinking,
  renderToolbar,
} from './panels';
import { GAME_KEY, SETTINGS_KEY, restoreGame, restoreSettings, saveGame } from './persist';
import {
  exportGame,
  exportInput,
  formatImportError,
  importGame,
  importedTree,
  loadImported,
  movesAndPlies,
} from './record-io';
import type { LinkPayload } from './link';
import { wireShare } from './share';
import { addRematchButton, rematch } from './rematch';
import { LearnMode } from './learnmode';
import { PuzzleMode } from './puzzlemode';
import { isOwnMovable, rotationsOf, targetsOf } from './selection';
import * as R from './gamereview';
import { REVIEW_DEPTH, reviewGo, reviewOptions } from '../../analysis/review-method';
import { LOW_TIME_MS, Sounds, soundsFor } from './sound';
import * as S from './state';
import type { PageState, Settings } from './state';
import { newTree, nodeAt, pathKey, positionAt, positionCommand, type Path } from './tree';

const now = (): number => performance.now();

/** Storage that may be missing or full (private windows, file:// in some browsers). */
function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

function readJson(st: Storage | null, key: string): unknown {
  try {
    const t = st?.getItem(key);
    return t ? JSON.parse(t) : null;
  } catch {
    return null;
  }
}

/** A touch screen (no fine pointer): confirm moves is on by default there. */
const TOUCH = (): boolean => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

/** Keys on the board that start keyboard play (the arrows then move the board's cursor). */
const STARTS_KEYBOARD_PLAY = new Set(['ArrowUp', 'ArrowDown', 'Enter', ' ']);

interface Job {
  key: string;
  kind: 'play' | 'analyse' | 'review';
}

export class PageController {
  readonly dom: Dom;
  private s: PageState;
  private readonly board: BoardView;
  private levels: Level[] = levelsFor(null);
  /** The search running for the state, and the last one that finished (not started again). */
  private job: Job | null = null;
  private finishedKey = '';
  /** Counts games, so that a new game's search is never mistaken for the last one's. */
  private gameSerial = 0;
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private renderQueued = false;
  private selectedBefore = -1;
  private puzzles: PuzzleMode | null = null;
  private learn: LearnMode | null = null;
  readonly sounds = new Sounds(() => this.s.settings.sound !== false);
  /** The side whose low-time sound has played (once per clock run below the mark). */
  private lowSounded = [false, false];
  /** The person plays with the keyboard on the board (its arrows move the cursor). */
  private keyboardPlay = false;
  private pointerFocus = false;

  constructor(readonly engine: EngineClient) {
    this.dom = lookUpDom();
    const settings = restoreSettings(readJson(storage('local'), SETTINGS_KEY));
    let s = S.initialState(settings);
    const saved = readJson(storage('session'), GAME_KEY) ?? readJson(storage('local'), GAME_KEY);
    if (saved) {
      const r = restoreGame(s, saved, now());
      if (r.ok) s = r.value;
      else s = S.setMessage(s, `The saved game could not be restored (${r.error}); a new game starts.`);
    }
    this.s = s;
    this.board = new BoardView(this.dom.board, {
      press: (sq) => this.onPress(sq),
      click: (sq) => this.onClick(sq),
      drop: (from, to) => this.update((x) => S.dropPiece(x, from, to, now())),
      rotate: (dir) => this.update((x) => S.rotateSelected(x, dir, now(), this.confirmMoves())),
      aim: (t) => this.update((x) => S.aimAt(x, t), 'board'),
    });
    renderKeys(this.dom);
    this.wire();
    this.puzzles = new PuzzleMode({ state: () => this.s, update: (f) => this.update(f) });
    this.learn = new LearnMode({ state: () => this.s, update: (f) => this.update(f) });
    engine.onStatus = () => this.onEngineStatus();
    engine.onRefused = (line, reason) => this.update((x) => S.setMessage(x, `The server refused '${line}': ${reason}`));
    engine.onOther = (line) => {
      if (/^info string error/.test(line)) this.update((x) => S.setMessage(x, `Engine: ${line.slice(12)}`));
    };
    this.render();
    wireShare({
      dom: this.dom,
      record: () => exportGame(exportInput(this.s, this.engine.name)),
      hasMoves: () => this.s.tree.children.length > 0,
      position: () => ({ edition: this.s.tree.edition, kfen: toKfen(S.viewPosition(this.s)) }),
      open: (p) => this.openLinked(p),
      warn: (text) => this.update((x) => S.setMessage(x, text)),
      // the page of `thoth gui` lives at a local address behind this run's token, which this browser
      // holds in a cookie: another browser, or the same one after a restart, gets 403 (smaller.test.ts)
      linkNote:
        engine.link.where === 'page'
          ? undefined
          : 'Links from thoth gui open in this browser on this computer only, while this thoth gui runs (a restarted one refuses them).',
    });
    engine.connect();
    setInterval(() => this.tick(), 100);
    window.addEventListener('pagehide', () => this.save());
    // For debugging from the console, and for the tests.
    (window as unknown as { thoth: unknown }).thoth = { state: () => this.s, engine, sounds: this.sounds.played };
  }

  get state(): PageState {
    return this.s;
  }

  // ---- the update loop ---------------------------------------------------------------------

  /**
   * Applies a transition, then the effects: the engine's job, the shot's timer, storage and
   * drawing (`soon` batches the many updates of engine lines; `board` redraws the board only).
   */
  update(f: (s: PageState) => PageState, how: 'now' | 'soon' | 'board' = 'now'): void {
    const before = this.s;
    this.s = f(before);
    if (this.s === before) return;
    this.puzzles?.observe(before, this.s);
    this.learn?.observe(before, this.s);
    for (const name of soundsFor(before, this.s)) this.sounds.play(name);
    this.syncEngine();
    this.syncHold();
    if (how !== 'soon' && how !== 'board') this.scheduleSave();
    if (how === 'soon') this.scheduleRender();
    else if (how === 'board') this.renderBoard();
    else this.render();
    // A shot just played is on the screen only now: its hold starts here.
    if (this.s.holdUntil > before.holdUntil && how === 'now') this.s = S.holdFrom(this.s, now());
  }

  private scheduleRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    setTimeout(() => {
      this.renderQueued = false;
      this.render();
    }, 80);
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.save(), 250);
  }

  private save(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    try {
      const game = JSON.stringify(this.learn?.keptGame() ?? this.puzzles?.keptGame() ?? saveGame(this.s, now()));
      storage('session')?.setItem(GAME_KEY, game);
      storage('local')?.setItem(GAME_KEY, game);
      storage('local')?.setItem(SETTINGS_KEY, JSON.stringify(this.s.settings));
    } catch {
      // Storage full or refused: the page goes on without it.
    }
  }

  private tick(): void {
    const s = this.s;
    if (!s.clock || s.clock.running < 0 || s.mode === 'analysis') return;
    const next = S.checkFlag(s, now());
    if (next !== s) return this.update(() => next);
    renderClocks(this.dom, s, now());
    // Low time: once for the person's running clock (either player's between two people).
    const side = s.clock.running;
    const left = timeLeft(s.clock, side, now());
    if (left > LOW_TIME_MS) this.lowSounded[side] = false;
    else if (!this.lowSounded[side] && (s.mode === 'humans' || side === s.humanSide)) {
      this.lowSounded[side] = true;
      this.sounds.play('low');
    }
  }

  // ---- Thoth's searches --------------------------------------------------------------------

  private onEngineStatus(): void {
    const opt = this.engine.option('UCI_Elo');
    const limited = this.engine.hasOption('UCI_LimitStrength') && opt?.min !== undefined && opt.max !== undefined;
    this.levels = levelsFor(limited ? { min: opt!.min!, max: opt!.max! } : null, this.engine.name);
    if (!this.engine.ready) {
      this.job = null;
      this.finishedKey = '';
    }
    const s = S.setEngineAvailable(this.s, this.engine.ready, now());
    this.s = s;
    this.syncEngine();
    this.render();
  }

  private level(): Level {
    return this.levels.find((l) => l.n === this.s.settings.level) ?? this.levels[this.levels.length - 1];
  }

  /**
   * `Threads` for a search: every core at full strength (analysis, level 8), one for a limited
   * level; and the server's full-strength `Hash` again after a review's (which has its own).
   */
  private strengthOptions(full: boolean): Record<string, string> {
    const st = this.engine.strength;
    if (!st) return {};
    return {
      ...(this.engine.hasOption('Threads') ? { Threads: String(this.engine.threadsFor(full)) } : {}),
      ...(st.hashMb !== undefined && this.engine.hasOption('Hash') ? { Hash: String(st.hashMb) } : {}),
    };
  }

  /** The status pill's detail: the level against Thoth and the threads it plays (or analyses) on. */
  private strengthText(): string {
    const s = this.s;
    const level = this.level();
    const t = this.engine.threadsFor(s.mode !== 'engine' || isFullStrength(level));
    const threads = `${plural(t, 'thread')}`;
    return s.mode === 'engine' ? `Level ${level.n}, ${threads}` : threads;
  }

  /** What Thoth should be doing for the state now: play a move, analyse, or nothing. */
  private wantedJob(): (Job & { start: () => void }) | null {
    const s = this.s;
    if (!this.engine.ready) return null;
    // a move tried in Learn from your mistakes, scored as the review scores a move (learnmode.ts)
    const tried = this.learn?.search();
    if (tried) {
      const key = `learn|${this.gameSerial}|${tried.key}`;
      return { key, kind: 'review', start: () => this.learn?.startSearch(this.engine, tried, () => this.jobDone(key)) };
    }
    if (s.mode === 'engine') {
      if (S.isOver(s) || s.pendingReply) return null;
      const pos = S.endPosition(s);
      if (pos.side === s.humanSide) return null;
      const end = S.endPath(s);
      const key = `play|${this.gameSerial}|${positionCommand(s.tree, end)}`;
      return { key, kind: 'play', start: () => this.startPlay(key, end) };
    }
    const next = R.nextReviewStep(s);
    if (s.mode === 'analysis' && next) {
      const rk = s.review!.key;
      const key = `review|${this.gameSerial}|${rk}|${next.index}|${next.only ?? ''}`;
      return { key, kind: 'review', start: () => this.startReviewStep(key, rk, next) };
    }
    if (s.mode === 'analysis' && s.analysing) {
      const pos = S.viewPosition(s);
      if (legalMoves(pos).length === 0 || S.gameStatusOf(pos) !== 'ongoing') return null;
      const lk = S.linesKey(s);
      const key = `analyse|${this.gameSerial}|${lk}|${s.settings.multipv}`;
      return { key, kind: 'analyse', start: () => this.startAnalysis(key, lk) };
    }
    return null;
  }

  private syncEngine(): void {
    const want = this.wantedJob();
    if (want?.key === this.job?.key) return;
    if (want && want.key === this.finishedKey) {
      if (this.job) this.engine.cancel();
      this.job = null;
      return;
    }
    this.job = null;
    if (!want) {
      this.engine.cancel();
      this.renderSoonIfIdle();
      return;
    }
    this.job = { key: want.key, kind: want.kind };
    want.start();
  }

  private renderSoonIfIdle(): void {
    this.scheduleRender();
  }

  private startPlay(key: string, end: Path): void {
    const s = this.s;
    const level = this.level();
    const asked = now();
    const clock = s.clock
      ? { left: [timeLeft(s.clock, 0, asked), timeLeft(s.clock, 1, asked)] as [number, number], incMs: s.clock.incMs }
      : null;
    const go = levelGoCommand(level, clock);
    const thothTime = clock
      ? clock.left[S.endPosition(s).side]
      : level.depth !== undefined
        ? 60000
        : MOVETIME_WITHOUT_CLOCK;
    this.engine.search({
      options: {
        UCI_Variant: s.tree.edition,
        ...levelOptions(level, this.engine.hasOption('UCI_LimitStrength')),
        ...this.strengthOptions(isFullStrength(level)),
      },
      position: positionCommand(s.tree, end),
      go,
      deadlineMs: thothTime + 5000,
      onInfo: (i) => {
        if (this.job?.key === key) this.update((x) => S.thinkingLine(x, i), 'soon');
      },
      onBestmove: (text) => {
        if (this.job?.key !== key) return;
        this.job = null;
        this.finishedKey = key;
        const said = this.s.thinking;
        const note = {
          timeMs: Math.round(now() - asked),
          ...(said
            ? {
                depth: said.depth,
                ...(said.score.kind === 'mate' ? { mate: said.score.value } : { scoreCp: said.score.value }),
              }
            : {}),
        };
        if (said) this.recordThothEval(end, said);
        const thoth = `${this.engine.name || 'Thoth'} (${level.label})`;
        this.update((x) => S.engineMoved(S.thothPlays(x, thoth), text, note, now()));
      },
    });
    this.renderSoonIfIdle();
  }

  /** Thoth's own score for the position it moved from, for the graph. */
  private recordThothEval(path: Path, i: InfoLine): void {
    const pos = S.positionAtPath(this.s, path);
    this.s = S.recordEval(this.s, path, {
      kind: i.score.kind,
      value: pos.side === 0 ? i.score.value : -i.score.value,
      depth: i.depth,
    });
  }

  private startAnalysis(key: string, linesFor: string): void {
    const s = this.s;
    const opts: Record<string, string> = {
      UCI_Variant: s.tree.edition,
      MultiPV: String(s.settings.multipv),
      ...this.strengthOptions(true),
    };
    if (this.engine.hasOption('UCI_LimitStrength')) opts.UCI_LimitStrength = 'false';
    this.engine.search({
      options: opts,
      position: positionCommand(s.tree, s.path),
      go: 'go infinite',
      onInfo: (i) => {
        if (this.job?.key === key) this.update((x) => S.analysisLine(x, linesFor, i), 'soon');
      },
      onBestmove: () => {
        if (this.job?.key !== key) return;
        this.job = null;
        this.finishedKey = key;
        this.scheduleRender();
      },
    });
    this.scheduleRender();
  }

  /**
   * One search of a review (src/analysis/review-method.ts): a position, or its move played alone,
   * to the review's depth on one thread from an empty table; its score kept.
   */
  private startReviewStep(key: string, reviewKey: string, step: R.ReviewStep): void {
    const s = this.s;
    const opts: Record<string, string> = { UCI_Variant: s.tree.edition, ...reviewOptions() };
    if (this.engine.hasOption('UCI_LimitStrength')) opts.UCI_LimitStrength = 'false';
    let last: InfoLine | null = null;
    this.engine.search({
      options: opts,
      newGame: true,
      position: positionCommand(s.tree, new Array<number>(step.index).fill(0)),
      go: reviewGo(REVIEW_DEPTH, step.only),
      onInfo: (i) => {
        if (i.multipv === 1 && (i.bound === undefined || i.bound === 'exact')) last = i;
      },
      onBestmove: () => {
        if (this.job?.key !== key) return;
        this.job = null;
        this.finishedKey = key;
        const said = last as InfoLine | null;
        const score = said ? said.score : ({ kind: 'cp', value: 0 } as const);
        this.update((x) =>
          step.only === undefined
            ? R.reviewScore(x, reviewKey, step.index, score, said?.pv[0])
            : R.reviewPlayedScore(x, reviewKey, step.index, score),
        );
      },
    });
    this.scheduleRender();
  }

  /** The job `key` has finished (true), or another has taken its place (false). */
  private jobDone(key: string): boolean {
    if (this.job?.key !== key) return false;
    this.job = null;
    this.finishedKey = key;
    return true;
  }

  private startReview(): void {
    this.finishedKey = '';
    this.update((x) => R.startReview(S.setMode(x, 'analysis', now())));
  }

  /** Thoth's reply waits while the person's shot is on show; a timer shows it. */
  private syncHold(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const s = this.s;
    if (!s.pendingReply) return;
    const wait = Math.max(0, s.holdUntil - now());
    this.holdTimer = setTimeout(() => this.update((x) => S.showPendingReply(x, now())), wait);
  }

  /** A click or a key during the shot on show skips it. Returns true when it did. */
  private skipHold(): boolean {
    if (!this.s.pendingReply) return false;
    this.update((x) => S.showPendingReply(x, now()));
    return true;
  }

  // ---- drawing -----------------------------------------------------------------------------

  private previewMoves(): { pos: Position; last: PlyInfo | null; played: string[] } {
    const s = this.s;
    const pos = S.viewPosition(s);
    let last: PlyInfo | null = null;
    const played: string[] = [];
    if (!s.preview) return { pos, last, played };
    for (let i = 0; i < s.preview.k && i < s.preview.pv.length; i++) {
      if (pos.winner >= 0) break;
      const m = parseMove(pos, s.preview.pv[i]);
      if (!m.ok) break;
      last = playPly(pos, m.value);
      played.push(s.preview.pv[i]);
    }
    return { pos, last, played };
  }

  private moveArrow(text: string, pos: Position, style: Arrow['style'], label?: string): Arrow | null {
    const m = parseMove(pos, text);
    if (!m.ok) return null;
    const t = moveType(m.value);
    if (t === ROT_CW || t === ROT_CCW)
      return { from: moveFrom(m.value), to: moveFrom(m.value), rot: t === ROT_CW ? '+' : '-', style, label };
    return { from: moveFrom(m.value), to: moveTo(m.value), style, label };
  }

  private renderBoard(): void {
    const s = this.s;
    const previewing = this.previewMoves();
    const pos = s.preview ? previewing.pos : S.viewPosition(s);
    const lastPly = s.preview ? previewing.last : (nodeAt(s.tree, s.path)?.ply ?? null);
    // The person picks in the shown position, or, while Thoth thinks, in the premove position.
    const pick = s.preview ? null : S.pickPosition(s);
    const interactive = pick !== null;
    const targets = new Map<number, 'step' | 'swap' | 'stack'>();
    let rot = { cw: false, ccw: false };
    if (s.selected >= 0 && pick) {
      for (const [sq, t] of targetsOf(pick, s.selected, s.stackTop)) targets.set(sq, t.kind);
      const r = rotationsOf(pick, s.selected);
      rot = { cw: r.cw >= 0, ccw: r.ccw >= 0 };
    }
    let premove: { from: number; to: number; rot?: '+' | '-' } | null = null;
    const pp = s.premove ? S.premovePosition(s) : null;
    const pm = pp && s.premove ? parseMove(pp, s.premove) : null;
    if (pm?.ok) {
      const t = moveType(pm.value);
      const from = moveFrom(pm.value);
      premove =
        t === ROT_CW || t === ROT_CCW
          ? { from, to: from, rot: t === ROT_CW ? '+' : '-' }
          : { from, to: moveTo(pm.value) };
    }
    const arrows: Arrow[] = [];
    const advice = s.mode === 'analysis' && !s.preview ? R.reviewAdvice(s) : null;
    if (advice) {
      // a reviewed mistake: the move that was better, drawn from the position it was to be played in
      const a = this.moveArrow(
        advice.best,
        positionAt(s.tree, new Array<number>(advice.index).fill(0)),
        'best',
        'best',
      );
      if (a) arrows.push(a);
    } else if (s.mode === 'analysis' && !s.preview) {
      const lines = S.shownLines(s);
      lines.forEach((l, i) => {
        const a = this.moveArrow(l.pv[0], pos, i === 0 ? 'best' : 'alt', lines.length > 1 ? String(i + 1) : undefined);
        if (a) arrows.push(a);
      });
      arrows.reverse(); // the best on top
    }
    const beamId = s.preview
      ? `pv${s.preview.index}:${previewing.played.join(',')}@${pathKey(s.path)}`
      : lastPly
        ? `g${this.gameSerial}:${pathKey(s.path)}:${lastPly.text}:${s.tree.startKfen}`
        : '';
    const lastMove = lastPly
      ? {
          from: moveFrom(lastPly.move),
          to:
            moveType(lastPly.move) === ROT_CW || moveType(lastPly.move) === ROT_CCW
              ? moveFrom(lastPly.move)
              : moveTo(lastPly.move),
        }
      : null;
    this.board.render({
      pos,
      flipped: s.flipped,
      lastMove,
      selected: interactive ? s.selected : -1,
      targets,
      rotations: rot,
      cursor: document.activeElement === this.dom.board && this.keyboardPlay ? s.cursor : -1,
      beam: lastPly ? { ply: lastPly, id: beamId } : null,
      lasers: s.settings.showLasers ? [0, 1].map((side) => ({ side, ...laserPath(pos, side) })) : [],
      aim: (s.settings.shotPreview || (s.armed ?? null) !== null) && !s.preview ? S.aimedShot(s) : null,
      arrows,
      interactive,
      stackTop: s.stackTop,
      premove,
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
    this.dom.board.classList.toggle('previewing', s.preview !== null);
    // The focus ring shows keyboard play only.
    this.dom.board.classList.toggle('kbd', this.keyboardPlay);
    // Thoth's reply is held back while the person's shot is on show (tests wait for it).
    this.dom.board.dataset.holding = s.pendingReply ? 'reply' : '';
    renderToolbar(this.dom, s, rot);
  }

  render(): void {
    const s = this.s;
    const d = this.dom;
    this.renderBoard();
    renderForm(d, s, this.levels);
    this.puzzles?.renderGameCard();
    d.optConfirm.checked = this.confirmMoves();
    d.optSound.checked = s.settings.sound !== false;
    renderLegend(d, s.tree.edition);
    renderPlayers(d, s, this.engine.name, now());
    renderMoves(d, s);
    renderThinking(d, s, this.job?.kind === 'play');
    renderAnalysis(d, s, this.engine, this.job?.kind === 'analyse' && this.engine.busy);
    renderEvalBar(d, s);
    renderGraph(d, s);
    renderReview(d, s, this.engine.name);
    renderBanner(d, s);
    renderOffer(d, s);
    renderStatus(d, this.engine, this.strengthText());
    renderHint(d, s, this.engine.ready);
    renderIO(d, toKfen(S.viewPosition(s)));
    this.learn?.render();
  }

  // ---- the person's actions ----------------------------------------------------------------

  private onPress(sq: number): boolean {
    if (this.skipHold()) return false;
    const s = this.s;
    this.selectedBefore = s.selected;
    const pos = S.pickPosition(s);
    if (!pos) return false;
    if (s.selected >= 0 && targetsOf(pos, s.selected, s.stackTop).has(sq)) return false;
    if (!isOwnMovable(pos, sq)) return false;
    if (s.selected !== sq) this.update((x) => S.select(x, sq));
    return true;
  }

  private onClick(sq: number): void {
    this.update((x) => S.clickSquare({ ...x, cursor: -1 }, sq, now(), this.selectedBefore, this.confirmMoves()));
  }

  /** Confirm moves (a first tap shows the shot, a second plays it): the setting, else on for touch screens. */
  private confirmMoves(): boolean {
    return this.s.settings.confirmMoves ?? TOUCH();
  }

  /** Asks the person to confirm; resolves true for yes. */
  private ask(text: string, yes: string): Promise<boolean> {
    const d = this.dom;
    d.dialogText.textContent = text;
    d.dialogYes.textContent = yes;
    d.dialog.hidden = false;
    d.dialogYes.focus();
    return new Promise((resolve) => {
      const done = (v: boolean): void => {
        d.dialog.hidden = true;
        d.dialogYes.onclick = null;
        d.dialogNo.onclick = null;
        d.dialog.onkeydown = null;
        resolve(v);
      };
      d.dialogYes.onclick = () => done(true);
      d.dialogNo.onclick = () => done(false);
      d.dialog.onkeydown = (e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          done(false);
        }
      };
    });
  }

  /** Runs `start` after a confirmation when it would abandon a game in progress. */
  private async abandonThen(what: string, start: () => void): Promise<void> {
    if (S.gameInProgress(this.s) && !(await this.ask(`${what} ends the game in progress. Go on?`, 'Yes, abandon it')))
      return;
    start();
  }

  private startGame(f: (s: PageState) => PageState): void {
    this.gameSerial++;
    this.finishedKey = '';
    this.engine.newGame();
    this.job = null;
    this.update(f);
  }

  newGame(): void {
    void this.abandonThen('A new game', () => this.startGame((x) => S.newGameFromSettings(x, now())));
  }

  private loadKfen(text: string): void {
    const wanted = this.s.settings.edition;
    const order: EditionId[] = [
      wanted,
      ...(['khet2', 'khet1', 'deflexion'] as EditionId[]).filter((e) => e !== wanted),
    ];
    let firstError = '';
    const kfen = text.trim().split(/\s+/).join(' ');
    for (const ed of order) {
      const t = newTree(ed, kfen);
      if (t.ok) {
        void this.abandonThen('Loading a position', () => {
          this.startGame((x) => S.newGame(S.setSettings(x, { edition: ed }), t.value, { now: now() }));
          ioMessage(this.dom, `Position loaded (${EDITIONS[ed].name}).`);
        });
        return;
      }
      if (!firstError) firstError = t.error;
    }
    ioMessage(this.dom, `Not a KFEN: ${firstError}`, true);
  }

  private importRecord(text: string): void {
    const imported = importGame(text);
    if (!imported.ok) return ioMessage(this.dom, `Cannot import: ${formatImportError(imported.error)}`, true);
    const g = imported.value;
    const t = importedTree(g);
    if (!t.ok) return ioMessage(this.dom, `Cannot import: ${t.error}`, true);
    void this.abandonThen('Importing a game', () => {
      this.startGame((x) => loadImported(x, g, t.value, now()));
      ioMessage(this.dom, `Game imported: ${movesAndPlies(g.moves.length)}.`);
    });
  }

  /** A link's position or game (src/gui/page/share.ts), opened in Analysis; an error's text when it cannot be. */
  private openLinked(p: LinkPayload): string | null {
    const analysis = (x: PageState): PageState => S.setMode(x, 'analysis', now());
    if (p.kind === 'kfen') {
      const t = newTree(p.edition, p.kfen);
      if (!t.ok) return t.error;
      void this.abandonThen('Opening a link', () => {
        this.startGame((x) => S.newGame(analysis(S.setSettings(x, { edition: p.edition })), t.value, { now: now() }));
        ioMessage(this.dom, `Position opened from the link (${EDITIONS[p.edition].name}).`);
      });
      return null;
    }
    const imported = importGame(p.pgn);
    if (!imported.ok) return formatImportError(imported.error);
    const t = importedTree(imported.value);
    if (!t.ok) return t.error;
    void this.abandonThen('Opening a link', () => {
      this.startGame((x) => loadImported(analysis(x), imported.value, t.value, now()));
      ioMessage(this.dom, `Game opened from the link: ${movesAndPlies(imported.value.moves.length)}.`);
    });
    return null;
  }

  private runKey(a: KeyAction): void {
    const s = this.s;
    switch (a) {
      case 'cursor-up':
        return this.update((x) => S.moveCursor(x, 0, 1));
      case 'cursor-down':
        return this.update((x) => S.moveCursor(x, 0, -1));
      case 'cursor-left':
        return this.update((x) => S.moveCursor(x, -1, 0));
      case 'cursor-right':
        return this.update((x) => S.moveCursor(x, 1, 0));
      case 'cursor-enter':
        if (s.cursor < 0) return this.update((x) => S.moveCursor(x, 0, 0));
        return this.update((x) => ({ ...S.clickSquare(x, x.cursor, now(), x.selected), cursor: x.cursor }));
      case 'rotate-cw':
        return this.update((x) => S.rotateSelected(x, '+', now()));
      case 'rotate-ccw':
        return this.update((x) => S.rotateSelected(x, '-', now()));
      case 'stack-toggle':
        return this.update(S.toggleStackTop);
      case 'escape':
        if (s.premove || (s.selected >= 0 && S.premovePosition(s))) return this.update((x) => S.setPremove(x, null));
        if (s.preview) return this.update(S.exitPreview);
        if (!this.dom.banner.hidden) return this.closeBanner();
        return this.update((x) => S.select(x, -1));
      case 'first':
        return this.update(S.goFirst);
      case 'last':
        return this.update(S.goLast);
      case 'prev':
        return this.update((x) => (x.preview ? S.stepPreview(x, -1) : S.step(x, -1)));
      case 'next':
        return this.update((x) => (x.preview ? S.stepPreview(x, 1) : S.step(x, 1)));
      case 'flip':
        return this.update(S.flip);
      case 'take-back':
        // one key stroke is easily made by mistake: the key asks first (the button does not)
        if (S.takeBack(s, now()) === s) return;
        void this.ask('Take back the last move?', 'Take back').then((yes) => {
          if (yes) this.update((x) => S.takeBack(x, now()));
        });
        return;
    }
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.dom.dialog.hidden) return;
    const t = e.target as HTMLElement;
    const inField = !!t.closest('input, textarea, select');
    if (!inField && !e.ctrlKey && !e.metaKey && !e.altKey && e.key.length <= 12 && this.skipHold()) {
      e.preventDefault();
      return;
    }
    if (t.closest('#lines') && (e.key === 'Enter' || e.key === ' ')) {
      const li = t.closest('[data-line]') as HTMLElement | null;
      if (li) this.update((x) => S.startPreview(x, Number(li.dataset.line)));
      e.preventDefault();
      return;
    }
    // The board's cursor is for keyboard play: the board reached by Tab, or ↑ ↓ Enter Space on it.
    // After a click on the board, ← → still step through the moves (as on lichess).
    if (t === this.dom.board && !this.keyboardPlay && STARTS_KEYBOARD_PLAY.has(e.key)) this.keyboardPlay = true;
    const a = keyAction({
      key: e.key,
      modifier: e.ctrlKey || e.metaKey || e.altKey,
      onBoard: t === this.dom.board && this.keyboardPlay,
      inField,
      onButton: t.tagName === 'BUTTON' || !!t.closest('[role=button]'),
    });
    if (!a) return;
    e.preventDefault();
    this.runKey(a);
  }

  /**
   * Analysis in the middle of a game against Thoth shows Thoth's lines: the page asks first, and
   * the game records it. The clocks stand still meanwhile and go on when play resumes.
   */
  private async changeMode(mode: S.Mode): Promise<void> {
    const s = this.s;
    if (mode === 'analysis' && s.mode === 'engine' && S.gameInProgress(s)) {
      const yes = await this.ask(
        'Analysis shows Thoth’s lines for your game in progress. The game notes that you looked; its clocks stop until you return. Go on?',
        'Yes, analyse',
      );
      if (!yes || this.s.mode !== 'engine') return this.render();
      return this.update((x) => S.analyseDuringGame(x, now()));
    }
    this.update((x) => (mode === 'engine' ? S.playFromHere(x, now()) : S.setMode(x, mode, now())));
  }

  private closeBanner(): void {
    this.update(S.closeBanner);
    this.dom.board.focus();
  }

  private setSettings(change: Partial<Settings>): void {
    this.update((x) => S.setSettings(x, change));
  }

  private wire(): void {
    wireMoveBox((text) => {
      let played = false;
      this.update((x) => {
        const r = typedMove(x, text, now());
        played = r.played;
        return r.state;
      });
      return played;
    });
    const d = this.dom;
    d.navFirst.onclick = () => this.runKey('first');
    d.navPrev.onclick = () => this.runKey('prev');
    d.navNext.onclick = () => this.runKey('next');
    d.navLast.onclick = () => this.runKey('last');
    d.rotCw.onclick = () => this.update((x) => S.rotateSelected(x, '+', now(), this.confirmMoves()));
    d.rotCcw.onclick = () => this.update((x) => S.rotateSelected(x, '-', now(), this.confirmMoves()));
    d.stack.onclick = () => this.runKey('stack-toggle');
    d.takeBack.onclick = () => this.update((x) => S.takeBack(x, now()));
    d.flip.onclick = () => this.runKey('flip');
    d.resign.onclick = async () => {
      if (await this.ask('Resign this game?', 'Resign')) this.update((x) => S.resign(x, now()));
    };
    d.draw.onclick = () => this.update(S.offerDraw);
    d.claim.onclick = () => this.update((x) => S.claimDraw(x, now()));
    d.offerAccept.onclick = () => this.update((x) => S.acceptDraw(x, now()));
    d.offerDecline.onclick = () => this.update(S.declineDraw);
    d.bannerNew.onclick = () => {
      this.newGame();
      d.board.focus();
    };
    addRematchButton(d).onclick = () => {
      this.startGame((x) => rematch(x, now()));
      d.board.focus();
    };
    d.bannerClose.onclick = () => this.closeBanner();
    d.bannerReview.onclick = () => this.startReview();
    d.review.onclick = () => this.startReview();
    d.graph.onclick = (e) => {
      const svg = d.graph.querySelector('svg');
      if (!svg) return;
      const box = svg.getBoundingClientRect();
      const n = S.gameLength(this.s) + 1;
      const i = graphIndexAt((e.clientX - box.left) / Math.max(1, box.width), n);
      this.update((x) => S.goTo(x, new Array<number>(i).fill(0)));
    };
    for (const r of d.modes) {
      r.onchange = () => {
        if (r.checked) void this.changeMode(r.value as S.Mode);
      };
    }
    d.newGameForm.onsubmit = (e) => {
      e.preventDefault();
      this.newGame();
    };
    d.edition.onchange = () => {
      const edition = d.edition.value as EditionId;
      this.setSettings({ edition });
    };
    d.setup.onchange = () => this.setSettings({ setup: d.setup.value as Settings['setup'] });
    d.side.onchange = () => this.update((x) => S.chooseSide(x, d.side.value as Settings['side']));
    d.level.onchange = () => this.setSettings({ level: Number(d.level.value) });
    d.tc.onchange = () => this.setSettings({ tc: d.tc.value });
    d.multipv.onchange = () =>
      this.update((x) => S.exitPreview(S.setSettings(x, { multipv: Number(d.multipv.value) })));
    d.analyse.onclick = () => {
      this.finishedKey = '';
      this.update((x) => S.setAnalysing(x, !x.analysing));
    };
    d.lines.onclick = (e) => {
      const li = (e.target as HTMLElement).closest('[data-line]') as HTMLElement | null;
      if (li) this.update((x) => S.startPreview(x, Number(li.dataset.line)));
    };
    d.pvPrev.onclick = () => this.update((x) => S.stepPreview(x, -1));
    d.pvNext.onclick = () => this.update((x) => S.stepPreview(x, 1));
    d.pvExit.onclick = () => this.update(S.exitPreview);
    // The review keeps what both lines share (gamereview.ts).
    d.promote.onclick = () => this.update((x) => R.keepSharedReview(S.promoteLine(x), x.review));
    d.deleteLine.onclick = () => this.update((x) => R.keepSharedReview(S.deleteFromHere(x), x.review));
    d.moves.onclick = (e) => {
      const b = (e.target as HTMLElement).closest('[data-path]') as HTMLElement | null;
      if (b) this.update((x) => S.goTo(x, b.dataset.path ? b.dataset.path.split('.').map(Number) : []));
    };
    d.kfenLoad.onclick = () => this.loadKfen(d.kfen.value);
    d.kfen.onkeydown = (e) => {
      if (e.key === 'Enter') this.loadKfen(d.kfen.value);
    };
    d.kfenCopy.onclick = () => {
      const v = toKfen(S.viewPosition(this.s));
      void navigator.clipboard?.writeText(v).then(
        () => ioMessage(d, 'KFEN copied.'),
        () => ioMessage(d, 'Select the text and copy it.'),
      );
    };
    d.recExport.onclick = () => {
      const text = exportGame(exportInput(this.s, this.engine.name));
      d.record.value = text;
      const a = d.recDownload;
      if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      a.hidden = false;
      ioMessage(d, 'The game is in the box above; Download saves it as a file.');
    };
    d.recImport.onclick = () => this.importRecord(d.record.value);
    d.optThinking.onchange = () => this.setSettings({ showThinking: d.optThinking.checked });
    d.optLasers.onchange = () => this.setSettings({ showLasers: d.optLasers.checked });
    d.optAim.onchange = () => this.setSettings({ shotPreview: d.optAim.checked });
    d.optConfirm.onchange = () => this.setSettings({ confirmMoves: d.optConfirm.checked });
    d.optSound.onchange = () => this.setSettings({ sound: d.optSound.checked });
    d.statusAction.onclick = () => {
      const kind = engineStatus(this.engine).action?.kind;
      if (kind === 'restart') {
        this.job = null;
        this.finishedKey = '';
        this.engine.restart();
      } else if (kind === 'reclaim') this.engine.connect();
    };
    // A right-click cancels a premove (as on lichess).
    d.board.addEventListener('contextmenu', () => {
      if (this.s.premove || (this.s.selected >= 0 && S.premovePosition(this.s)))
        this.update((x) => S.setPremove(x, null));
    });
    d.board.addEventListener(
      'pointerdown',
      () => {
        // A click on the board takes the keys from the field last used (a select would eat ← →),
        // and ends keyboard play.
        this.keyboardPlay = false;
        if (document.activeElement !== d.board) {
          this.pointerFocus = true;
          d.board.focus({ preventScroll: true });
          this.pointerFocus = false;
        }
      },
      true,
    );
    d.board.addEventListener('focus', () => {
      // Tab into the board starts keyboard play (a click or a script's focus does not).
      if (d.board.matches(':focus-visible') && !this.pointerFocus) this.keyboardPlay = true;
      this.renderBoard();
    });
    d.board.addEventListener('blur', () => this.renderBoard());
    document.addEventListener('keydown', (e) => this.onKey(e));
  }
}
