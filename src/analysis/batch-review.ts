/**
 * One game of a batch review (thoth db review, thoth analyse --game FILE --all): the game read
 * from its record, every move searched as the review method says (src/analysis/review-method.ts,
 * through annotate-game.ts, the searches `thoth analyse --game` makes) and judged by review.ts;
 * what the database keeps of it. Plain computation: a worker thread runs it, one game at a time.
 */
import { NO_REMOVAL_PLIES } from '../core/index';
import type { Searcher } from '../search/search';
import { annotateGame, loadGame, reviewAnnotation } from './annotate-game';

/** A game to review: its record text and the review's depth. */
export interface ReviewTask {
  /** The game's id in the database (handed back). */
  game: number;
  record: string;
  depth: number;
}

/** What a review found, per side (0 the first player): accuracy, marks, average loss; per ply the NAG and the engine's score. */
export interface ReviewResult {
  game: number;
  depth: number;
  accuracy: [number | null, number | null];
  inaccuracies: [number, number];
  mistakes: [number, number];
  blunders: [number, number];
  cpLoss: [number | null, number | null];
  nags: number[];
  /** The engine's score of the position before each move, mover's point of view. */
  scores: number[];
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Reviews one game with `searcher` (its table and history are emptied before every search). */
export function reviewOne(searcher: Searcher, task: ReviewTask): ReviewResult {
  const game = loadGame(task.record, 1);
  const a = annotateGame(searcher, game, {
    depth: task.depth,
    timeMs: 0,
    multiPV: 1,
    noRemovalLimit: NO_REMOVAL_PLIES,
  });
  const r = reviewAnnotation(a);
  const [w, b] = r.sides;
  return {
    game: task.game,
    depth: task.depth,
    accuracy: [finiteOrNull(w.accuracy), finiteOrNull(b.accuracy)],
    inaccuracies: [w.inaccuracies, b.inaccuracies],
    mistakes: [w.mistakes, b.mistakes],
    blunders: [w.blunders, b.blunders],
    cpLoss: [finiteOrNull(w.averageCpLoss), finiteOrNull(b.averageCpLoss)],
    nags: r.plies.map((p) => p.nag),
    scores: a.plies.map((p) => p.bestScore),
  };
}
