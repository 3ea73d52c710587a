/**
 * How Thoth reviews a game: the one method `thoth analyse --game` (in-process, src/analysis/
 * annotate-game.ts) and the GUI's *Review the game* (over the protocol, src/gui/page/state/gamereview.ts)
 * both follow, so that they give the same marks. Plain data, no Node: the GUI bundles this.
 *
 * For every move of the main line, in the position before it:
 * 1. a search to a fixed depth (REVIEW_DEPTH unless told) gives the engine's choice and its score;
 * 2. when the move played is another, a search of the same position to the same depth restricted
 *    to the move played (`searchmoves`) gives the played move's score.
 * The two scores make the move's PlyEval (src/analysis/review.ts judges it: win chance, ?!/?/??).
 * A move that hits the opponent's Pharaoh is never marked, so it needs no second search. A move
 * into a position the game has seen carries it (repetitionAfter), and a marked one says so in
 * words: only the third occurrence draws, and the search knows the game's history (a second
 * occurrence is scored as any other position), so a harmless repetition is not marked at all.
 *
 * Every search starts from an empty table and history (`ucinewgame`), on one thread, with a table
 * of REVIEW_HASH_MB MB: a fixed depth is then a pure function of the position, its history and
 * the network, whatever ran before, in whatever order. (A search for a time is not: the load of
 * the machine decides its depth.)
 */
import type { PlyEval, Repetition } from './review';
import type { Position } from '../core/index';
import type { Score } from '../core/score';

/** The depth of a review's searches (and `thoth analyse`'s default). */
export const REVIEW_DEPTH = 8;
/** The table of a review's searches, in MB: the engine's default `Hash`. */
export const REVIEW_HASH_MB = 16;
/** A review searches on one thread (more threads make a fixed-depth search depend on timing). */
const REVIEW_THREADS = 1;

/** The protocol's `go` of a review search: the whole position, or only the move played. */
export function reviewGo(depth: number, onlyMove?: string): string {
  return onlyMove === undefined ? `go depth ${depth}` : `go depth ${depth} searchmoves ${onlyMove}`;
}

/** The protocol's options of a review search (for an engine that declares them). */
export function reviewOptions(): Record<string, string> {
  return { MultiPV: '1', Threads: String(REVIEW_THREADS), Hash: String(REVIEW_HASH_MB) };
}

/** Whether a move needs the second search: the engine chose another move and the move did not win. */
export function needsPlayedSearch(best: string, played: string, hit: boolean): boolean {
  return !hit && best !== played;
}

/** What the review's searches found for one move; scores from the mover's point of view. */
export interface MoveSearches {
  side: 0 | 1;
  /** The score of the engine's choice (the position's score). */
  best: Score;
  /** The score of the move played: `best` when it is the engine's choice. */
  played: Score;
  /** The move hit the opponent's Pharaoh. */
  hit: boolean;
  /** The position after the move occurred before ({@link repetitionAfter}). */
  repetition?: Repetition;
}

/** Whether `after`, the position a move made, occurred before in its game, and how often. */
export function repetitionAfter(after: Position): Repetition | undefined {
  const n = after.repetitions();
  return n >= 2 ? 'threefold' : n === 1 ? 'repeats' : undefined;
}

/** The move's scores as review.ts judges them. */
export function plyEval(m: MoveSearches): PlyEval {
  if (m.hit) return { side: m.side, before: m.best, after: { kind: 'mate', value: 1 }, hit: true };
  return m.repetition
    ? { side: m.side, before: m.best, after: m.played, repetition: m.repetition }
    : { side: m.side, before: m.best, after: m.played };
}
