/**
 * The page's controller, at the top of the page with main.ts, wiring.ts and open-game.ts (the
 * composition root over the rooms state/, view/, engine/ and modes/: docs/layout.md, "The GUI
 * page's rooms"): holds the state, applies the transitions of state/state.ts on the person's
 * actions and the engine's answers, and runs the effects — the engine's searches
 * (engine/searches.ts: what Thoth should be doing is a function of the state), the timers (clocks,
 * the shot on show), storage, and drawing the board (view/board-frame.ts) and the panels. It holds
 * the modes that take the board for a while (modes/mode.ts) in a list and calls each alike. It
 * composes the rest: the controls are wired by panel in wiring.ts, the keys in view/keyboard.ts,
 * and opening a KFEN, a record or a link is open-game.ts.
 */
import { toKfen } from '../../core/index';
import { BoardView } from './view/board';
import { boardFrame } from './view/board-frame';
import { renderDanger } from './view/board-danger';
import { timeLeft } from './state/clock';
import { ask } from './view/dialog';
import { lookUpDom, type Dom } from './view/dom';
import type { EngineClient } from './engine/engine-client';
import { Keyboard } from './view/keyboard';
import { openLinked } from './open-game';
import {
  lineEvals,
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
} from './view/panels';
import { GAME_KEY, SETTINGS_KEY, restoreGame, restoreSettings, saveGame } from './state/persist';
import { exportGame, exportInput } from './state/record-io';
import { GamesPanel } from './view/games-panel';
import { drawingColor, drawingOn, toggleDrawing } from './state/drawings';
import { renderEditor } from './view/editor-card';
import { gameShelf, loadExplorerIndex } from './game-store';
import { importRecord } from './open-game';
import { typedMove } from './state/typed-move';
import { wireShare } from './view/share';
import { renderNotes, wireNotes } from './view/notes-card';
import { LearnMode } from './modes/learnmode';
import type { PageMode } from './modes/mode';
import { PracticeMode } from './modes/practicemode';
import { PuzzleMode } from './modes/puzzlemode';
import { WatchMode } from './modes/watchmode';
import { Searches } from './engine/searches';
import { isOwnMovable, targetsOf } from './state/selection';
import * as R from './state/gamereview';
import { LOW_TIME_MS, Sounds, soundsFor } from './view/sound';
import * as S from './state/state';
import type { PageState, Settings } from './state/state';
import { wirePage } from './wiring';

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

/** The settings and the game kept by the last visit (a session's first, else the browser's). */
function restoredState(): PageState {
  const settings = restoreSettings(readJson(storage('local'), SETTINGS_KEY));
  const s = S.initialState(settings);
  const saved = readJson(storage('session'), GAME_KEY) ?? readJson(storage('local'), GAME_KEY);
  if (!saved) return s;
  const r = restoreGame(s, saved, now());
  return r.ok ? r.value : S.setMessage(s, `The saved game could not be restored (${r.error}); a new game starts.`);
}

export class PageController {
  readonly dom: Dom;
  private s: PageState;
  private readonly board: BoardView;
  /** Thoth's searches, derived from the state. */
  readonly searches: Searches;
  readonly keyboard: Keyboard;
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private renderQueued = false;
  /** A new game is being put on the board (startGame): its record is not a kept game's notes. */
  private starting = false;
  private selectedBefore = -1;
  /**
   * The modes that take the board for a while (modes/mode.ts), each called alike; the first that
   * keeps a game or wants a search has it. Learn comes first: its kept game is the reviewed one.
   */
  private modes: PageMode[] = [];
  readonly sounds = new Sounds(() => this.s.settings.sound !== false);
  /** The side whose low-time sound has played (once per clock run below the mark). */
  private lowSounded = [false, false];
  /** A game was in progress at the last render; the key of the last review kept (keepGames). */
  private wasInProgress = false;
  private reviewKept = '';
  /** The person's kept games and the opening explorer. */
  readonly games: GamesPanel;

  constructor(readonly engine: EngineClient) {
    this.dom = lookUpDom();
    this.s = restoredState();
    this.searches = new Searches(
      {
        state: () => this.s,
        put: (s) => {
          this.s = s;
        },
        update: (f, how) => this.update(f, how),
        scheduleRender: () => this.scheduleRender(),
        modeSearch: () => {
          for (const m of this.modes) {
            const wanted = m.search();
            if (wanted) return wanted;
          }
          return null;
        },
      },
      engine,
    );
    this.keyboard = new Keyboard(this);
    this.board = new BoardView(this.dom.board, {
      press: (sq) => this.onPress(sq),
      click: (sq) => this.onClick(sq),
      drop: (from, to) => this.update((x) => S.dropPiece(x, from, to, now(), this.confirmMoves())),
      rotate: (dir) => this.update((x) => S.rotateSelected(x, dir, now(), this.confirmMoves())),
      aim: (t) => this.update((x) => S.aimAt(x, t), 'board'),
      draw: (from, to, shift, alt) => this.update((x) => toggleDrawing(x, from, to, drawingColor(shift, alt))),
    });
    renderKeys(this.dom);
    this.games = new GamesPanel(document, gameShelf(), {
      open: (pgn, ply) => importRecord(this, pgn, ply),
      position: () => S.viewPosition(this.s),
      play: (move) => this.update((x) => typedMove(x, move, now()).state),
    });
    loadExplorerIndex(this.games);
    wirePage(this);
    wireNotes(this);
    const host = { state: () => this.s, update: (f: (s: PageState) => PageState) => this.update(f) };
    const puzzles = new PuzzleMode(host);
    this.modes = [new LearnMode(host), puzzles, new PracticeMode(host), new WatchMode(host)];
    this.listenToEngine();
    this.render();
    this.wireShare();
    engine.connect();
    setInterval(() => this.tick(), 100);
    window.addEventListener('pagehide', () => this.save());
    // For debugging from the console, and for the tests.
    (window as unknown as { thoth: unknown }).thoth = { state: () => this.s, engine, sounds: this.sounds.played };
  }

  get state(): PageState {
    return this.s;
  }

  private listenToEngine(): void {
    const engine = this.engine;
    engine.onStatus = () => this.onEngineStatus();
    engine.onRefused = (line, reason) => this.update((x) => S.setMessage(x, `The server refused '${line}': ${reason}`));
    engine.onOther = (line) => {
      if (/^info string error/.test(line)) this.update((x) => S.setMessage(x, `Engine: ${line.slice(12)}`));
    };
  }

  /** *Copy link*, *Copy PGN*, and opening a link (share.ts). */
  private wireShare(): void {
    wireShare({
      dom: this.dom,
      record: () => this.gameRecord(),
      hasMoves: () => this.recordState().tree.children.length > 0,
      position: () => ({ edition: this.s.tree.edition, kfen: toKfen(S.viewPosition(this.s)) }),
      open: (p) => openLinked(this, p),
      warn: (text) => this.update((x) => S.setMessage(x, text)),
      // the page of `thoth gui` lives at a local address behind this run's token, which this browser
      // holds in a cookie: another browser, or the same one after a restart, gets 403 (smaller.test.ts)
      linkNote:
        this.engine.link.where === 'page'
          ? undefined
          : 'Links from thoth gui open in this browser on this computer only, while this thoth gui runs (a restarted one refuses them).',
    });
  }

  /** The game the records are of: the board's, or the one a mode holds apart (Learn's reviewed game). */
  private recordState(): PageState {
    for (const m of this.modes) {
      const kept = m.recordState?.();
      if (kept) return kept;
    }
    return this.s;
  }

  /** The record (PGN) of that game: what *Copy PGN*, *Export game* and *Download* give. */
  gameRecord(): string {
    return exportGame(exportInput(this.recordState(), this.engine.name));
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
    for (const m of this.modes) m.observe(before, this.s);
    // A game that ends is kept (the Games panel): a game played here, with at least one move.
    if (S.gameInProgress(before) && !S.gameInProgress(this.s) && this.s.mode !== 'analysis')
      void this.games.keep(exportGame(exportInput(this.s, this.engine.name)));
    // A review just completed: kept with its game (accuracy and marks in the Games panel).
    if (this.s.review !== before.review) {
      const review = R.gameReview(this.s);
      if (review && !R.gameReview(before))
        void this.games.keep(exportGame(exportInput(this.s, this.engine.name)), review);
    }
    // Notes written on a kept game (the same moves, not in play) are kept with it; a game opened
    // over the board (an import, a link, the Games panel's Open) is not one written on.
    if (
      !this.starting &&
      this.s.tree !== before.tree &&
      !S.gameInProgress(this.s) &&
      R.mainlineKey(this.s) === R.mainlineKey(before)
    )
      void this.games.rewrite(exportGame(exportInput(this.s, this.engine.name)));
    for (const name of soundsFor(before, this.s)) this.sounds.play(name);
    this.searches.sync();
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
      const kept = this.modes.map((m) => m.keptGame()).find((g) => g !== null);
      const game = JSON.stringify(kept ?? saveGame(this.s, now()));
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

  private onEngineStatus(): void {
    this.searches.engineStatus();
    this.s = S.setEngineAvailable(this.s, this.engine.ready, now());
    this.searches.sync();
    this.render();
  }

  startReview(): void {
    this.searches.again();
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
  skipHold(): boolean {
    if (!this.s.pendingReply) return false;
    this.update((x) => S.showPendingReply(x, now()));
    return true;
  }

  // ---- drawing -----------------------------------------------------------------------------

  renderBoard(): void {
    const s = this.s;
    let model = boardFrame(
      s,
      this.searches.gameSerial,
      document.activeElement === this.dom.board && this.keyboard.playing,
    );
    for (const m of this.modes) model = m.decorate?.(model) ?? model;
    this.board.render(model);
    this.dom.board.classList.toggle('previewing', s.preview !== null);
    // drawing by picks: the board's clicks draw (its colour for the tests and the style)
    this.dom.board.dataset.drawing = drawingOn(s) ? (s.drawMode?.color ?? '') : '';
    // The focus ring shows keyboard play only.
    this.dom.board.classList.toggle('kbd', this.keyboard.playing);
    // Thoth's reply is held back while the person's shot is on show (tests wait for it).
    this.dom.board.dataset.holding = s.pendingReply ? 'reply' : '';
    renderToolbar(this.dom, s, model.rotations);
    renderDanger(this.dom, model);
  }

  render(): void {
    const s = this.s;
    const d = this.dom;
    const running = this.searches.running;
    this.renderBoard();
    renderForm(d, s, this.searches.levels);
    d.optConfirm.checked = this.confirmMoves();
    d.optSound.checked = s.settings.sound !== false;
    renderLegend(d, s.tree.edition);
    renderPlayers(d, s, this.engine.name, now());
    renderMoves(d, s);
    renderNotes(d, s);
    renderThinking(d, s, running === 'play');
    renderAnalysis(d, s, this.engine, running === 'analyse' && this.engine.busy);
    renderEvalBar(d, s);
    renderGraph(d, s);
    renderReview(d, s, this.engine.name);
    renderBanner(d, s);
    renderOffer(d, s);
    renderStatus(d, this.engine, this.searches.strengthText());
    renderHint(d, s, this.engine.ready, TOUCH());
    renderIO(d, toKfen(S.viewPosition(s)));
    renderEditor(d, s);
    this.games.renderExplorer(s.mode === 'analysis' ? S.viewPosition(s) : null, lineEvals(s));
    this.keepGames();
    for (const m of this.modes) m.render();
  }

  /**
   * The Games panel keeps a game played here when it ends (by a move of either player, a
   * resignation, a flag, or a new game over it), and again with Thoth's review once one is
   * complete. Checked at each render: the state also changes through the searches.
   */
  private keepGames(): void {
    const s = this.s;
    const inProgress = S.gameInProgress(s);
    if (this.wasInProgress && !inProgress && s.mode !== 'analysis')
      void this.games.keep(exportGame(exportInput(s, this.engine.name)));
    this.wasInProgress = inProgress;
    if (s.review && s.review.key !== this.reviewKept) {
      const review = R.gameReview(s);
      if (review) {
        this.reviewKept = s.review.key;
        void this.games.keep(exportGame(exportInput(s, this.engine.name)), review);
      }
    }
  }

  // ---- the person's actions ----------------------------------------------------------------

  private onPress(sq: number): boolean {
    if (this.skipHold()) return false;
    const s = this.s;
    // the board editor: any piece may be dragged (a click is its own: state/editor.ts)
    if (s.editor) return s.editor.board[sq] !== 0;
    // drawing by picks: a press is a pick (on release), never a drag
    if (drawingOn(s)) return false;
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
  confirmMoves(): boolean {
    return this.s.settings.confirmMoves ?? TOUCH();
  }

  /** Asks the person to confirm; resolves true for yes. */
  ask(text: string, yes: string): Promise<boolean> {
    return ask(this.dom, text, yes);
  }

  /** Runs `start` after a confirmation when it would abandon a game in progress. */
  async abandonThen(what: string, start: () => void): Promise<void> {
    if (S.gameInProgress(this.s) && !(await this.ask(`${what} ends the game in progress. Go on?`, 'Yes, abandon it')))
      return;
    start();
  }

  /** A new game (New game, a position loaded, a record imported, a link opened), the board brought into view. */
  startGame(f: (s: PageState) => PageState): void {
    this.searches.newGame();
    this.starting = true;
    try {
      this.update(f);
    } finally {
      this.starting = false;
    }
    this.boardIntoView();
  }

  newGame(): void {
    void this.abandonThen('A new game', () => this.startGame((x) => S.newGameFromSettings(x, now())));
  }

  /**
   * Brings the board (from the bar above it) into view when it is not whole on the screen: on a
   * phone the form's New game and the Import/export card are below the board, out of sight of
   * the game they start.
   */
  private boardIntoView(): void {
    const r = this.dom.board.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= innerHeight) return;
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.dom.playerTop.root.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
  }

  /**
   * Analysis in the middle of a game against Thoth shows Thoth's lines: the page asks first, and
   * the game records it. The clocks stand still meanwhile and go on when play resumes.
   */
  async changeMode(mode: S.Mode): Promise<void> {
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

  closeBanner(): void {
    this.update(S.closeBanner);
    this.dom.board.focus();
  }

  setSettings(change: Partial<Settings>): void {
    this.update((x) => S.setSettings(x, change));
  }
}
