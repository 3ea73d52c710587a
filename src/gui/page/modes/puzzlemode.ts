/**
 * Puzzle mode on the page (docs/puzzles.md): the Puzzles card and its hook into the controller.
 * A puzzle is played as a two-player game without clocks on the page's own board: the opponent's
 * last move is played with its laser, the person's moves are judged as they are made (puzzle.ts),
 * the defender's replies follow, and a wrong move is answered by its refutation. Hint, retry,
 * view the solution, a themes filter, the person's Glicko-2 rating and a streak mode; the store
 * lives in localStorage. The shipped set (puzzles/puzzles.json) is bundled into the page.
 */
import { plural } from '../../../core/plural';
import { EDITIONS, parseMove } from '../../../core/index';
import { THEMES, type Puzzle } from '../../../puzzles/format';
import shipped from '../../../../puzzles/puzzles.json';
import {
  STORE_KEY,
  afterRight,
  emptyStore,
  hintSquare,
  judgePuzzleMove,
  nextPuzzle,
  puzzlePosition,
  readStore,
  recordResult,
  refutation,
  replyDue,
  solverSide,
  startRun,
  streakPuzzle,
  taskText,
  MAX_NAMED_THREATS,
  themeName,
  threatsOf,
  withTheme,
  type PuzzleRun,
  type PuzzleStore,
} from '../state/puzzle';
import { restoreGame, saveGame, type SavedGame } from '../state/persist';
import { renderPuzzleGameCard } from './puzzlegame';
import * as S from '../state/state';
import type { PageState } from '../state/state';
import { addMoves, newTree, nodeAt } from '../state/tree';
import { Timers } from './timers';
import { elementsById } from '../view/dom';
import { moveArrow } from '../view/board-frame';
import type { BoardModel } from '../view/board-model';
import { laserPath } from '../state/move-effect';
import type { ModeHost, PageMode } from './mode';

const REPLY_MS = 700;
const now = (): number => performance.now();

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class PuzzleMode implements PageMode {
  readonly puzzles: readonly Puzzle[] = shipped as Puzzle[];
  run: PuzzleRun | null = null;
  /** The threats of the defence puzzle on show (computed once per puzzle). */
  private threats: { id: string; moves: string[] } | null = null;
  store: PuzzleStore;
  /** The streak in progress: puzzles solved in a row, and those played. */
  streak: { count: number; played: Set<string> } | null = null;
  /**
   * The game on the board when the first puzzle started, kept apart (as lichess keeps puzzles
   * apart from games): storage keeps it meanwhile, and Exit brings it back, clocks as they stood.
   */
  private kept: SavedGame | null = null;
  private own = false;
  /** What is due later (a reply, a take-back, the next puzzle of a streak): all cancelled together. */
  private readonly timers = new Timers();
  private readonly el: Record<string, HTMLElement>;

  constructor(
    private readonly host: ModeHost,
    private readonly doc: Document = document,
  ) {
    this.el = elementsById(doc, [
      'pz-edition',
      'pz-theme',
      'pz-start',
      'pz-streak',
      'pz-rating',
      'pz-task',
      'pz-msg',
      'pz-tools',
      'pz-hint',
      'pz-retry',
      'pz-solution',
      'pz-next',
      'pz-exit',
      'card-puzzles',
    ]);
    let saved: unknown = null;
    try {
      saved = JSON.parse(storage()?.getItem(STORE_KEY) ?? 'null');
    } catch {
      saved = null;
    }
    this.store = readStore(saved ?? emptyStore());
    const theme = this.el['pz-theme'] as HTMLSelectElement;
    const counts = new Map<string, number>();
    for (const p of this.puzzles) for (const t of p.themes) counts.set(t, (counts.get(t) ?? 0) + 1);
    theme.innerHTML = '';
    theme.append(new Option(`All themes (${this.puzzles.length})`, ''));
    for (const t of THEMES) if (counts.has(t)) theme.append(new Option(`${themeName(t)} (${counts.get(t)})`, t));
    const edition = this.el['pz-edition'] as HTMLSelectElement;
    edition.innerHTML = '';
    edition.append(new Option(`All editions (${this.puzzles.length})`, ''));
    for (const [id, e] of Object.entries(EDITIONS)) {
      const n = this.puzzles.filter((p) => p.variant === id).length;
      if (n > 0) edition.append(new Option(`${e.name} (${n})`, id));
    }
    this.el['pz-start'].onclick = () => this.next();
    this.el['pz-next'].onclick = () => this.next();
    this.el['pz-streak'].onclick = () => this.startStreak();
    this.el['pz-hint'].onclick = () => this.hint();
    this.el['pz-retry'].onclick = () => this.retry();
    this.el['pz-solution'].onclick = () => this.showSolution();
    this.el['pz-exit'].onclick = () => this.exit();
    this.render();
    // `#puzzle=<id>` opens that puzzle (a link to it, or a reload in the middle of it)
    const open = (): void => {
      const m = /^#puzzle=([0-9a-f]+)$/.exec(location.hash);
      const p = m ? this.puzzles.find((x) => x.id === m[1]) : undefined;
      if (p && this.run?.puzzle.id !== p.id) this.start(p);
    };
    window.addEventListener('hashchange', open);
    setTimeout(open, 0);
  }

  /** The address names the puzzle on the board (`#puzzle=<id>`), or nothing once it is left. */
  private address(id: string | null): void {
    const base = location.href.split('#')[0];
    try {
      history.replaceState(null, '', id ? `${base}#puzzle=${id}` : base);
    } catch {
      // a page that may not change its address (some file:// pages): the link is not kept
    }
  }

  private theme(): string {
    return (this.el['pz-theme'] as HTMLSelectElement).value;
  }

  // ---- starting ------------------------------------------------------------------------------

  /** The next puzzle near the person's rating (or the streak's next). */
  next(newStreak = false): void {
    if (!newStreak && this.streak && this.run && this.run.status === 'failed') this.streak = null;
    const edition = (this.el['pz-edition'] as HTMLSelectElement).value;
    const pool = withTheme(edition ? this.puzzles.filter((p) => p.variant === edition) : this.puzzles, this.theme());
    const p = this.streak
      ? streakPuzzle(pool, this.streak.count, this.streak.played)
      : nextPuzzle(pool, this.store, Math.random);
    if (!p) {
      this.say('No puzzle left with this edition and theme.');
      return;
    }
    this.start(p);
  }

  startStreak(): void {
    this.streak = { count: 0, played: new Set() };
    this.next(true);
  }

  /** Sets the puzzle's position on the board and plays the opponent's move after a moment. */
  start(p: Puzzle, keepRun = false): void {
    const tree = newTree(p.variant, p.kfen);
    if (!tree.ok) return;
    if (this.run === null && this.kept === null) this.kept = saveGame(this.host.state(), now());
    const failed = keepRun && this.run ? this.run.failed : false;
    const rated = keepRun && this.run ? this.run.rated : false;
    // a reply or a refutation still due from the puzzle before must not be played on this one
    this.timers.cancel();
    this.run = { ...startRun(p), done: 0, failed, rated, hinted: keepRun && this.run ? this.run.hinted : false };
    this.streak?.played.add(p.id);
    this.address(p.id);
    this.ownUpdate((x) => ({
      ...S.newGame(S.setMode(x, 'humans', now()), tree.value, { now: now() }),
      clock: null,
      flipped: solverSide(p) === 1,
      message: '',
      bannerClosed: true,
    }));
    this.say('');
    this.timers.later(() => this.playOwn(p.moves[0]), 500);
    this.render();
  }

  retry(): void {
    if (this.run) this.start(this.run.puzzle, true);
  }

  exit(): void {
    this.timers.cancel();
    this.run = null;
    this.streak = null;
    this.say('');
    this.address(null);
    const kept = this.kept;
    this.kept = null;
    if (kept) {
      this.ownUpdate((x) => {
        const back = restoreGame(x, kept, now());
        return back.ok ? back.value : x;
      });
    }
    this.render();
  }

  /** The game kept while puzzles are played (what storage keeps meanwhile), or null. */
  keptGame(): SavedGame | null {
    return this.kept;
  }

  /**
   * A defence puzzle draws the hit it parries while the person looks for the defence: the
   * attacker's threatening moves as red arrows (up to four), or, where most of its moves would hit
   * (its laser already aims at the Pharaoh), its laser's path.
   */
  decorate(model: BoardModel): BoardModel {
    // the position after the opponent's move (drawn before `run.done` counts it), the solver to move
    const run = this.run;
    const s = this.host.state();
    if (!run || run.status !== 'play' || run.done > 1 || s.path.length !== 1 || S.gameLength(s) !== 1) return model;
    if (this.threats?.id !== run.puzzle.id) this.threats = { id: run.puzzle.id, moves: threatsOf(run.puzzle) };
    const threats = this.threats.moves;
    if (threats.length === 0) return model;
    const pos = puzzlePosition(run.puzzle, 1);
    pos.makeNull();
    if (threats.length > MAX_NAMED_THREATS) {
      const them = pos.side;
      return {
        ...model,
        lasers: [...model.lasers.filter((l) => l.side !== them), { side: them, ...laserPath(pos, them) }],
      };
    }
    const arrows = threats.flatMap((t, i) => moveArrow(t, pos, 'threat', i === 0 ? 'threat' : undefined) ?? []);
    return { ...model, arrows: [...model.arrows, ...arrows] };
  }

  /** Puzzles ask Thoth for nothing: the solutions are in the puzzle file. */
  search(): null {
    return null;
  }

  hint(): void {
    const run = this.run;
    if (!run || run.status !== 'play' || run.done % 2 === 0) return;
    this.run = { ...run, hinted: true, failed: true };
    const sq = hintSquare(run);
    this.ownUpdate((x) => {
      const pos = S.viewPosition(x);
      const m = parseMove(pos, run.puzzle.moves[run.done]);
      return m.ok ? S.select(x, m.value & 127) : x;
    });
    this.say(`Hint: move the piece on ${sq}.`);
  }

  /** Plays the whole solution from the puzzle's position (after the opponent's move), a move at a time. */
  showSolution(): void {
    const run = this.run;
    if (!run) return;
    this.timers.cancel();
    const p = run.puzzle;
    if (run.status === 'play') {
      this.run = { ...run, failed: true };
      this.finish(false);
    }
    this.resetTo(p, 1);
    this.run = { ...this.run!, status: 'failed', done: p.moves.length };
    const step = (k: number): void => {
      if (k >= p.moves.length) {
        this.say(`The solution: ${p.moves.slice(1).join(' ')}.`);
        this.render();
        return;
      }
      this.playOwn(p.moves[k]);
      this.timers.later(() => step(k + 1), REPLY_MS);
    };
    this.timers.later(() => step(1), 300);
    this.render();
  }

  // ---- the hook ------------------------------------------------------------------------------

  /** Called by the controller after every transition: judges a move the person made. */
  observe(before: PageState, after: PageState): void {
    const run = this.run;
    if (!run || this.own) return;
    if (after.tree.startKfen !== run.puzzle.kfen || after.mode !== 'humans') {
      // the person started something else: the puzzle is left, and the kept game with it
      this.timers.cancel();
      this.run = null;
      this.kept = null;
      this.address(null);
      this.streak = null;
      this.render();
      return;
    }
    if (run.status !== 'play') return;
    const len = S.gameLength(after);
    if (len !== S.gameLength(before) + 1 || len !== run.done + 1) return;
    const node = nodeAt(after.tree, S.endPath(after));
    if (!node) return;
    if (run.done % 2 === 0 || node.ply.side !== solverSide(run.puzzle)) {
      // a move for the defender, whose reply is due: taken back
      this.timers.later(() => this.ownUpdate((x) => S.takeBack(x, now())), 0);
      return;
    }
    if (judgePuzzleMove(run, node.ply.move) === 'right') {
      this.run = afterRight(run);
      if (this.run.status === 'solved') {
        this.finish(true);
        this.say(this.streak ? `Solved! Streak: ${this.streak.count}.` : 'Solved!');
        this.ownUpdate((x) => ({ ...x, bannerClosed: true }));
        if (this.streak) this.timers.later(() => this.next(), 1200);
      } else {
        this.say('Right. Keep going.');
        const reply = replyDue(this.run);
        if (reply) {
          this.timers.later(() => {
            if (this.playOwn(reply) && this.run) this.run = { ...this.run, done: this.run.done + 1 };
            this.render();
          }, REPLY_MS);
        }
      }
    } else {
      const pos = puzzlePosition(run.puzzle, run.done);
      pos.make(node.ply.move);
      const answer = refutation(run, pos);
      this.run = { ...run, status: 'failed', failed: true, done: run.done + 1 };
      this.finish(false);
      this.say(
        `Wrong: ${node.ply.text} is not it${answer ? `; ${answer} answers it` : ''}.${this.streak ? ` The streak ends at ${this.streak.count}.` : ''} Retry, or view the solution.`,
        true,
      );
      if (answer) this.timers.later(() => this.playOwn(answer), REPLY_MS);
    }
    this.render();
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** The first result of a puzzle rates it (not in a streak) and counts the streak. */
  private finish(solved: boolean): void {
    const run = this.run;
    if (!run) return;
    const clean = solved && !run.failed;
    if (this.streak) {
      if (clean) this.streak.count++;
      this.store = { ...this.store, bestStreak: Math.max(this.store.bestStreak, this.streak.count) };
    } else if (!run.rated) {
      this.store = recordResult(this.store, run.puzzle, clean);
    }
    this.run = { ...run, rated: true };
    try {
      storage()?.setItem(STORE_KEY, JSON.stringify(this.store));
    } catch {
      // storage full or refused: the rating lives on for this visit
    }
  }

  private resetTo(p: Puzzle, k: number): void {
    const tree = newTree(p.variant, p.kfen);
    if (!tree.ok) return;
    const line = addMoves(tree.value, [], p.moves.slice(0, k));
    if (!line.ok) return;
    this.ownUpdate((x) => ({
      ...S.newGame(x, line.value.tree, { now: now() }),
      clock: null,
      flipped: solverSide(p) === 1,
      bannerClosed: true,
    }));
  }

  /** Plays a move of the puzzle's line on the board; false when it does not fit the position there. */
  private playOwn(text: string): boolean {
    let played = false;
    this.ownUpdate((x) => {
      const pos = S.endPosition(x);
      const m = parseMove(pos, text);
      if (!m.ok) return x;
      played = true;
      const y = S.playMove(x, m.value, now());
      return { ...y, bannerClosed: true };
    });
    if (played && this.run && this.run.done === 0) this.run = { ...this.run, done: 1 };
    this.render();
    return played;
  }

  private ownUpdate(f: (s: PageState) => PageState): void {
    this.own = true;
    try {
      this.host.update(f);
    } finally {
      this.own = false;
    }
  }

  /** A word in the card: a wrong move's in the error colour, never in the success green. */
  private say(text: string, wrong = false): void {
    this.el['pz-msg'].textContent = text;
    this.el['pz-msg'].classList.toggle('error', wrong);
  }

  render(): void {
    const run = this.run;
    const r = this.store.rating;
    // the Game card shows the puzzle on the board, not the game before (puzzlegame.ts)
    renderPuzzleGameCard(this.doc, this.run?.puzzle ?? null);
    this.el['pz-rating'].textContent =
      `your rating ${Math.round(r.rating)} ± ${Math.round(2 * r.rd)}` +
      (this.streak
        ? ` · streak ${this.streak.count}`
        : this.store.bestStreak > 0
          ? ` · best streak ${this.store.bestStreak}`
          : '');
    this.el['pz-tools'].hidden = run === null;
    // Take back, Draw and Resign belong to games: hidden while a puzzle is on the board
    if (run) this.doc.body.dataset.puzzle = run.status;
    else delete this.doc.body.dataset.puzzle;
    const card = this.el['card-puzzles'];
    card.dataset.status = run ? run.status : '';
    card.dataset.puzzle = run ? run.puzzle.id : '';
    card.dataset.done = run ? String(run.done) : '';
    card.dataset.rating = String(Math.round(r.rating));
    card.dataset.streak = this.streak ? String(this.streak.count) : '';
    if (run) {
      const names = EDITIONS[run.puzzle.variant].colorNames;
      // the themes only once the puzzle is over (they give the solution away), as lichess does
      const themes = run.status === 'play' ? '' : ` · ${run.puzzle.themes.map(themeName).join(', ')}`;
      this.el['pz-task'].textContent =
        `${EDITIONS[run.puzzle.variant].name} · ${taskText(run.puzzle, names)} Puzzle ${run.puzzle.id}, rated ${run.puzzle.rating}${themes}`;
    } else {
      this.el['pz-task'].textContent =
        `${plural(this.puzzles.length, 'puzzle')} mined from Thoth's games. Press Puzzle to start.`;
    }
    (this.el['pz-hint'] as HTMLButtonElement).disabled = !run || run.status !== 'play';
    (this.el['pz-retry'] as HTMLButtonElement).disabled = !run || this.streak !== null;
    (this.el['pz-solution'] as HTMLButtonElement).disabled = !run || (this.streak !== null && run.status === 'play');
  }
}
