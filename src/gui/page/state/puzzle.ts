/**
 * Puzzle mode's pure part (docs/puzzles.md): a run through one puzzle (which move is due, is a
 * move right, the defender's reply, the refutation of a wrong move), the player's Glicko-2
 * rating against the puzzles' ratings, the choice of the next puzzle (themes filter, near the
 * player's rating, or rising for a streak), and what storage keeps. No DOM: ../modes/puzzlemode.ts
 * draws it and hooks it into the page.
 */
import { formatMove, legalMoves, parseKfen, parseMove, type Position } from '../../../core/index';
import type { Puzzle } from '../../../puzzles/format';
import { Solver } from '../../../puzzles/solver';

export type PuzzleRunStatus = 'play' | 'solved' | 'failed';

export interface PuzzleRun {
  puzzle: Puzzle;
  /** Moves of `puzzle.moves` made on the board so far (1: the opponent's move is shown). */
  done: number;
  status: PuzzleRunStatus;
  /** A mistake, a hint or the solution: the rating counts the puzzle as failed. */
  failed: boolean;
  hinted: boolean;
  /** The rating change has been applied. */
  rated: boolean;
}

export const startRun = (puzzle: Puzzle): PuzzleRun => ({
  puzzle,
  done: 1,
  status: 'play',
  failed: false,
  hinted: false,
  rated: false,
});

/** The side the person plays: the side to move after the opponent's move. */
export function solverSide(p: Puzzle): number {
  const pos = puzzlePosition(p, 1);
  return pos.side;
}

/** The position after the first `k` moves of the puzzle. */
export function puzzlePosition(p: Puzzle, k: number): Position {
  const r = parseKfen(p.kfen, p.variant);
  if (!r.ok) throw new Error(`puzzle ${p.id}: ${r.error.message}`);
  const pos = r.value;
  for (let i = 0; i < k; i++) {
    const m = parseMove(pos, p.moves[i]);
    if (!m.ok) throw new Error(`puzzle ${p.id}: ${m.error.message}`);
    pos.make(m.value);
  }
  return pos;
}

const isHit = (p: Puzzle): boolean => p.themes.some((t) => t.startsWith('hitIn'));

/** The themes in words, as the page says them (the file's names are code: docs/puzzles.md). */
const THEME_NAMES: Record<string, string> = {
  defence: 'Defence',
  material: 'Material',
  sphinxTurn: 'Sphinx turn',
  swap: 'Swap',
  unstack: 'Unstacking',
  anubisBlock: 'Anubis block',
  quietMove: 'Quiet move',
  capture: 'Capture',
};

/** A theme in words: `hitIn3` → "Hit in 3", `anubisBlock` → "Anubis block". */
export function themeName(theme: string): string {
  const hit = /^hitIn(\d+)$/.exec(theme);
  if (hit) return `Hit in ${hit[1]}`;
  return THEME_NAMES[theme] ?? theme.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

/**
 * The most threats a defence's task names (and the board draws as arrows, modes/puzzlemode.ts); with
 * more, the attacker's laser already aims at the Pharaoh, and its path is drawn instead.
 */
export const MAX_NAMED_THREATS = 4;

/**
 * The hits a defence puzzle's move parries: the opponent's moves that would hit the solver's
 * Pharaoh were it to move again now, in the position the solver faces (docs/puzzles.md,
 * "defence"); none for another puzzle.
 */
export function threatsOf(p: Puzzle): string[] {
  if (!p.themes.includes('defence')) return [];
  const pos = puzzlePosition(p, 1);
  pos.makeNull();
  const them = pos.side;
  const out: string[] = [];
  for (const m of legalMoves(pos)) {
    pos.make(m);
    if (pos.winner === them) out.push(formatMove(m));
    pos.unmake();
  }
  pos.unmakeNull();
  return out;
}

/** What the puzzle asks, in words; a defence names the hit it parries. */
export function taskText(p: Puzzle, names: readonly [string, string]): string {
  const side = names[solverSide(p)];
  const n = p.themes.find((t) => t.startsWith('hitIn'));
  if (n) {
    const k = Number(n.slice(5));
    return `${side} to move: hit the Pharaoh in ${k === 1 ? 'one move' : `${k} moves`}.`;
  }
  if (p.themes.includes('material')) return `${side} to move: win material.`;
  const threats = threatsOf(p);
  if (threats.length === 0) return `${side} to move: only one move saves the Pharaoh. Find it.`;
  const them = names[solverSide(p) ^ 1];
  const list =
    threats.length === 1
      ? `${threats[0]}: the red arrow`
      : threats.length <= MAX_NAMED_THREATS
        ? `${threats.slice(0, -1).join(', ')} or ${threats[threats.length - 1]}: the red arrows`
        : `${threats.length} of its moves would: its laser's path is drawn`;
  return `${side} to move: ${them} threatens to hit your Pharaoh (${list}). Only one move saves it: find it.`;
}

/**
 * Judges the person's move `move` at the run's point (the position after `run.done` moves):
 * right (the solution's move, or at a hit's last move any move that hits too), or wrong.
 */
export function judgePuzzleMove(run: PuzzleRun, move: number): 'right' | 'wrong' {
  const p = run.puzzle;
  const pos = puzzlePosition(p, run.done);
  const want = parseMove(pos, p.moves[run.done]);
  if (want.ok && want.value === move) return 'right';
  if (isHit(p) && run.done === p.moves.length - 1) {
    const side = pos.side;
    if (!legalMoves(pos).includes(move)) return 'wrong';
    pos.make(move);
    return pos.winner === side ? 'right' : 'wrong';
  }
  return 'wrong';
}

/** The run after a right move: the defender's reply is due next, or the puzzle is solved. */
export function afterRight(run: PuzzleRun): PuzzleRun {
  const done = run.done + 1;
  return { ...run, done, status: done >= run.puzzle.moves.length ? 'solved' : 'play' };
}

/** The defender's reply due now (after a right move), or null. */
export function replyDue(run: PuzzleRun): string | null {
  if (run.status !== 'play' || run.done % 2 === 1) return null;
  return run.puzzle.moves[run.done] ?? null;
}

const solver = new Solver();

/**
 * The opponent's answer to a wrong move (the position after it): a hit when it has one, else a
 * reply after which the person no longer hits as fast as the puzzle asked; null when none is
 * found within a small budget.
 */
export function refutation(run: PuzzleRun, after: Position): string | null {
  if (after.winner >= 0) return null;
  const hits = new Int32Array(256);
  if (solver.hits(after, hits) > 0) return formatMove(hits[0]);
  if (!isHit(run.puzzle)) return null;
  const left = Math.ceil((run.puzzle.moves.length - run.done) / 2) - 1;
  if (left < 1) return null;
  solver.clear();
  solver.reset(200_000);
  const replies = solver.longestReplies(after, left + 1);
  return replies && replies.length > 0 ? formatMove(replies[0]) : null;
}

/** The hint: the square of the piece that moves next. */
export function hintSquare(run: PuzzleRun): string {
  return run.puzzle.moves[run.done].slice(0, 2);
}

// ---- rating (Glicko-2) ------------------------------------------------------------------------

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
}

const NEW_PLAYER: Rating = { rating: 1500, rd: 350, vol: 0.06 };
/** Every puzzle's rating deviation: their ratings are estimates. */
const PUZZLE_RD = 80;
const TAU = 0.5;
const SCALE = 173.7178;

/**
 * One Glicko-2 rating period with one game: the player against a puzzle rated `opponent`
 * (deviation PUZZLE_RD), `score` 1 solved or 0 failed (Glickman, "Example of the Glicko-2
 * system", steps 1–8).
 */
export function glicko2(p: Rating, opponent: number, score: number): Rating {
  const mu = (p.rating - 1500) / SCALE;
  const phi = p.rd / SCALE;
  const muJ = (opponent - 1500) / SCALE;
  const phiJ = PUZZLE_RD / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  const a = Math.log(p.vol * p.vol);
  const f = (x: number): number =>
    (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) -
    (x - a) / (TAU * TAU);
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * TAU) < 0) k++;
    B = a - k * TAU;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; i < 100 && Math.abs(B - A) > 1e-6; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return { rating: 1500 + SCALE * muNew, rd: Math.max(30, SCALE * phiNew), vol };
}

// ---- choosing and storage ----------------------------------------------------------------------

export interface PuzzleStore {
  rating: Rating;
  /** Ids of the puzzles played lately (the oldest first), not offered again soon. */
  recent: string[];
  solved: number;
  failed: number;
  bestStreak: number;
}

export const STORE_KEY = 'thoth.puzzles';
export const emptyStore = (): PuzzleStore => ({
  rating: { ...NEW_PLAYER },
  recent: [],
  solved: 0,
  failed: 0,
  bestStreak: 0,
});

/** What storage held, checked (anything unusable gives the empty store). */
export function readStore(x: unknown): PuzzleStore {
  const s = emptyStore();
  if (typeof x !== 'object' || x === null) return s;
  const o = x as Record<string, unknown>;
  const r = o.rating as Record<string, unknown> | undefined;
  const num = (v: unknown, lo: number, hi: number): number | undefined =>
    typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi ? v : undefined;
  if (r && typeof r === 'object') {
    const rating = num(r.rating, 0, 4000);
    const rd = num(r.rd, 1, 350);
    const vol = num(r.vol, 0, 1);
    if (rating !== undefined && rd !== undefined && vol !== undefined) s.rating = { rating, rd, vol };
  }
  if (Array.isArray(o.recent)) s.recent = o.recent.filter((v): v is string => typeof v === 'string').slice(-500);
  s.solved = num(o.solved, 0, 1e9) ?? 0;
  s.failed = num(o.failed, 0, 1e9) ?? 0;
  s.bestStreak = num(o.bestStreak, 0, 1e9) ?? 0;
  return s;
}

/** The store after a finished puzzle: the rating moved, the puzzle remembered. */
export function recordResult(s: PuzzleStore, p: Puzzle, solved: boolean): PuzzleStore {
  return {
    ...s,
    rating: glicko2(s.rating, p.rating, solved ? 1 : 0),
    recent: [...s.recent.filter((id) => id !== p.id), p.id].slice(-500),
    solved: s.solved + (solved ? 1 : 0),
    failed: s.failed + (solved ? 0 : 1),
  };
}

/** The puzzles with a theme ('' for all). */
export const withTheme = (all: readonly Puzzle[], theme: string): Puzzle[] =>
  theme === '' ? [...all] : all.filter((p) => p.themes.includes(theme));

/**
 * The next puzzle: among those not played lately, one of the `spread` nearest to the player's
 * rating, picked by `random`; null when there is none.
 */
export function nextPuzzle(
  pool: readonly Puzzle[],
  store: PuzzleStore,
  random: () => number,
  spread = 12,
): Puzzle | null {
  const recent = new Set(store.recent);
  let fresh = pool.filter((p) => !recent.has(p.id));
  if (fresh.length === 0) fresh = [...pool];
  if (fresh.length === 0) return null;
  const r = store.rating.rating;
  const near = fresh
    .sort((a, b) => Math.abs(a.rating - r) - Math.abs(b.rating - r) || (a.id < b.id ? -1 : 1))
    .slice(0, spread);
  return near[Math.floor(random() * near.length)] ?? null;
}

/**
 * The streak's k-th puzzle (from 0): ratings rise from the easiest, 40 points a step, each the
 * nearest unplayed one to its step's rating; null when the pool is spent.
 */
export function streakPuzzle(pool: readonly Puzzle[], k: number, played: ReadonlySet<string>): Puzzle | null {
  if (pool.length === 0) return null;
  const lowest = Math.min(...pool.map((p) => p.rating));
  const want = lowest + 40 * k;
  const left = pool.filter((p) => !played.has(p.id));
  if (left.length === 0) return null;
  return left.reduce((best, p) =>
    Math.abs(p.rating - want) < Math.abs(best.rating - want) ||
    (Math.abs(p.rating - want) === Math.abs(best.rating - want) && p.id < best.id)
      ? p
      : best,
  );
}
