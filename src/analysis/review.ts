/**
 * Game review: from the engine's scores of a game's moves, the win chance before and after each
 * move, the drop, a judgement (?! inaccuracy, ? mistake, ?? blunder), a move accuracy, and per
 * side an accuracy and the counts. Plain data in, plain data out, no Node imports: the GUI
 * bundles this for the page's review of a finished game, and `thoth analyse --game` prints it.
 *
 * The win chance of a score is the logistic `W(cp) = 1/(1 + e^(−k·cp))`, with k fitted to
 * the results of Thoth's match games (tools/winchance.ts; the data, the command and the fit are
 * in docs/review.md). The thresholds and the accuracy curve are lichess's, applied to win chances:
 * a move that drops the mover's win chance by 5, 10, 15 points or more is an inaccuracy, a
 * mistake, a blunder. As on lichess, a move that wins (hits the opponent's Pharaoh) is never
 * marked, and a move that misses a faster forced win but keeps a winning position is at most a
 * mistake (`?`), however far its win chance drops from the certain 100 %.
 */

import type { Score } from '../core/score';
import { WIN_CHANCE_K } from '../core/win-chance';

/**
 * An engine score from one side's point of view, as the search reports it and the protocol's info
 * lines carry it: `{ kind: 'cp', value }` in centi-pyramids (+100 = a Pyramid ahead), or
 * `{ kind: 'mate', value }` in moves to a Pharaoh hit (positive: this side hits; negative: it is hit).
 */
export type { Score };

/** One move of a game, as the engine scored it. Both scores are from the mover's point of view. */
export interface PlyEval {
  /** The mover: 0 = the first player (Silver, Gold in Deflexion), 1 = the second. */
  side: 0 | 1;
  /** The position before the move, with the best move (what the mover could have had). */
  before: Score;
  /** The position after the move played. */
  after: Score;
  /** The move hit the opponent's Pharaoh: the mover won (never marked, whatever the scores say). */
  hit?: boolean;
  /** The position after the move occurred before in the game (see {@link Repetition}). */
  repetition?: Repetition;
}

/**
 * A move into a position the game has seen: `repeats` its second occurrence (the game goes on: a
 * search scores it as any other position), `threefold` its third, the referee's draw (docs/rules.md
 * §4, "Repetition").
 */
export type Repetition = 'repeats' | 'threefold';

/** Why a marked move that repeats was marked, in words. */
export const REPETITION_WORDS: Readonly<Record<Repetition, string>> = {
  repeats: 'repeats the position',
  threefold: 'draws by threefold repetition',
};

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

export interface PlyReview {
  /** Index of the move in the game, from 0. */
  ply: number;
  side: 0 | 1;
  /** The mover's win chance before and after the move, 0–1. */
  winBefore: number;
  winAfter: number;
  /** `winBefore − winAfter`, at least 0. */
  drop: number;
  /** Move accuracy, 0–100. */
  accuracy: number;
  /** Centi-pyramids lost against the best move (scores capped at ±1000, a forced hit counts 1000). */
  cpLoss: number;
  judgement: Judgement | null;
  /**
   * A marked move's reason in words where the review knows it (a repetition: {@link
   * REPETITION_WORDS}); '' otherwise, and always for a move that is not marked.
   */
  reason: string;
  /** The mark and its PGN NAG: `?!` $6, `?` $2, `??` $4; '' and 0 for a good move. */
  mark: '' | '?!' | '?' | '??';
  nag: 0 | 2 | 4 | 6;
}

export interface SideReview {
  moves: number;
  /** Game accuracy, 0–100 (NaN with no moves). */
  accuracy: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  /** Average centi-pyramid loss per move (NaN with no moves). */
  averageCpLoss: number;
}

export interface GameReview {
  plies: PlyReview[];
  /** [first player, second player]. */
  sides: [SideReview, SideReview];
}

export { WIN_CHANCE_K };

/** Win-chance drops (0–1) from which a move is an inaccuracy, a mistake, a blunder. */
export interface Thresholds {
  inaccuracy: number;
  mistake: number;
  blunder: number;
}

export const THRESHOLDS: Readonly<Thresholds> = { inaccuracy: 0.05, mistake: 0.1, blunder: 0.15 };

export interface ReviewOptions {
  /** The win-chance curve's slope (default {@link WIN_CHANCE_K}). */
  k?: number;
  thresholds?: Thresholds;
}

/** Scores beyond this count as this much in the centi-pyramid loss. */
const CP_CAP = 1000;

/**
 * From a forced win, a move after which the mover still has at least this win chance (+5.00 on the
 * fitted curve) is at most a mistake: it missed a faster win, it did not throw the game away.
 */
const STILL_WINNING = 1 / (1 + Math.exp(-WIN_CHANCE_K * 500));

/**
 * The win chance (0–1) of a score, for the side whose score it is. `mate 0` (and `mate -0`, as
 * `scoreOf` writes a position whose Pharaoh is already hit) is a lost position for the side to move.
 */
export function winChance(s: Score, k = WIN_CHANCE_K): number {
  if (s.kind === 'mate') return s.value > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-k * s.value));
}

/**
 * The same score from the other side's point of view. `mate 0` (the side to move is already hit)
 * has no opposite a Score can state: callers that step back to the mover use a hit instead
 * (see {@link evalsFromPositions}).
 */
function negateScore(s: Score): Score {
  return s.kind === 'mate' ? { kind: 'mate', value: -s.value } : { kind: 'cp', value: -s.value + 0 };
}

function cappedCp(s: Score): number {
  if (s.kind === 'mate') return s.value > 0 ? CP_CAP : -CP_CAP;
  return Math.max(-CP_CAP, Math.min(CP_CAP, s.value));
}

/** Move accuracy (0–100) of a win-chance drop (0–1): lichess's exponential, fitted on chess games. */
export function moveAccuracy(drop: number): number {
  const a = 103.1668 * Math.exp(-0.04354 * 100 * Math.max(0, drop)) - 3.1669;
  return Math.max(0, Math.min(100, a));
}

export function judge(drop: number, t: Thresholds = THRESHOLDS): Judgement | null {
  if (drop >= t.blunder) return 'blunder';
  if (drop >= t.mistake) return 'mistake';
  if (drop >= t.inaccuracy) return 'inaccuracy';
  return null;
}

const MARKS = { inaccuracy: ['?!', 6], mistake: ['?', 2], blunder: ['??', 4] } as const;

function stdev(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}

/**
 * A side's game accuracy from its move accuracies: the mean of a volatility-weighted mean (moves
 * in a sharp stretch of the game weigh more) and the harmonic mean (a few bad moves pull it down),
 * as lichess does. `wins` are the first player's win chances of every position of the game, for
 * the volatility.
 */
function gameAccuracy(plies: PlyReview[], mine: PlyReview[], wins: number[]): number {
  if (mine.length === 0) return NaN;
  const window = Math.max(2, Math.min(8, Math.floor(plies.length / 10)));
  const weightOf = (ply: number): number => {
    const from = Math.max(0, Math.min(ply, wins.length - window));
    const w = wins.slice(from, from + window).map((x) => 100 * x);
    return Math.max(0.5, Math.min(12, stdev(w)));
  };
  let ws = 0;
  let wsum = 0;
  let inv = 0;
  for (const p of mine) {
    const w = weightOf(p.ply);
    ws += w * p.accuracy;
    wsum += w;
    inv += 1 / Math.max(p.accuracy, 1e-3);
  }
  const weighted = ws / wsum;
  const harmonic = mine.length / inv;
  return (weighted + harmonic) / 2;
}

/** Reviews a game from its moves' scores (with the fitted curve and lichess's thresholds unless told otherwise). */
export function reviewGame(evals: readonly PlyEval[], opts: ReviewOptions = {}): GameReview {
  const k = opts.k ?? WIN_CHANCE_K;
  const plies: PlyReview[] = evals.map((e, ply) => {
    const after: Score = e.hit ? { kind: 'mate', value: 1 } : e.after;
    const winBefore = winChance(e.before, k);
    const winAfter = winChance(after, k);
    const drop = Math.max(0, winBefore - winAfter);
    let judgement = e.hit ? null : judge(drop, opts.thresholds);
    // A faster forced win missed, a winning position kept: at most `?` (lichess's "mate lost" rule).
    if (judgement === 'blunder' && e.before.kind === 'mate' && e.before.value > 0 && winAfter >= STILL_WINNING) {
      judgement = 'mistake';
    }
    const [mark, nag] = judgement ? MARKS[judgement] : (['', 0] as const);
    return {
      ply,
      side: e.side,
      winBefore,
      winAfter,
      drop,
      accuracy: moveAccuracy(drop),
      cpLoss: Math.max(0, cappedCp(e.before) - cappedCp(after)),
      judgement,
      reason: judgement && e.repetition ? REPETITION_WORDS[e.repetition] : '',
      mark,
      nag,
    };
  });
  const wins = firstPlayerWinChances(plies);
  const side = (s: 0 | 1): SideReview => {
    const mine = plies.filter((p) => p.side === s);
    const count = (j: Judgement): number => mine.filter((p) => p.judgement === j).length;
    return {
      moves: mine.length,
      accuracy: gameAccuracy(plies, mine, wins),
      inaccuracies: count('inaccuracy'),
      mistakes: count('mistake'),
      blunders: count('blunder'),
      averageCpLoss: mine.length > 0 ? mine.reduce((a, p) => a + p.cpLoss, 0) / mine.length : NaN,
    };
  };
  return { plies, sides: [side(0), side(1)] };
}

/** The first player's win chance through a game: before each move, and after the last (plies + 1 values). */
export function firstPlayerWinChances(plies: readonly PlyReview[]): number[] {
  const wins = plies.map((p) => (p.side === 0 ? p.winBefore : 1 - p.winBefore));
  if (plies.length > 0) {
    const last = plies[plies.length - 1];
    wins.push(last.side === 0 ? last.winAfter : 1 - last.winAfter);
  }
  return wins;
}

/**
 * Move scores from the scores of a game's positions, as a GUI that analysed each position has
 * them: `positions[i]` is the score of the position before move i, from the side to move's point
 * of view (`positions.length` = moves + 1; the last is the final position). `firstMover` is the
 * side that made the first move. A position scored `mate 0` (its side to move is already hit) makes
 * the move into it a hit: the mover won, `+M1` from the mover's point of view, as the engine scores
 * the hitting move itself.
 */
export function evalsFromPositions(positions: readonly Score[], firstMover: 0 | 1): PlyEval[] {
  const out: PlyEval[] = [];
  for (let i = 0; i + 1 < positions.length; i++) {
    const side = ((firstMover + i) & 1) as 0 | 1;
    const next = positions[i + 1];
    if (next.kind === 'mate' && next.value === 0)
      out.push({ side, before: positions[i], after: { kind: 'mate', value: 1 }, hit: true });
    else out.push({ side, before: positions[i], after: negateScore(next) });
  }
  return out;
}
