/**
 * One game of a batch review (thoth db review, thoth analyse --game FILE --all): the game read
 * from its record, every move searched as the review method says (src/analysis/review-method.ts,
 * through annotate-game.ts, the searches `thoth analyse --game` makes) and judged by review.ts;
 * what the database keeps of it. Plain computation: a worker thread runs it, one game at a time.
 */
import { NO_REMOVAL_PLIES, formatMove } from '../core/index';
import { DEFAULT_PARAMS } from '../search/params';
import { DEFAULT_FEATURES, Searcher } from '../search/search';
import { TranspositionTable } from '../search/tt';
import { annotateGame, loadGame, reviewAnnotation, type LoadedGame } from './annotate-game';
import { repetitionAfter } from './review-method';

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

const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * A review's searcher, as the engine's analysis searcher is set up (src/engine/analysis-engine.ts:
 * the default features and parameters) with a table of `hashMb` MB; the caller sets the network.
 */
export function reviewSearcher(hashMb: number): Searcher {
  const searcher = new Searcher(new TranspositionTable(TranspositionTable.allocate(hashMb)));
  searcher.features = { ...DEFAULT_FEATURES };
  searcher.params = { ...DEFAULT_PARAMS };
  return searcher;
}

/** The limits of a review's searches at `depth`. */
export const reviewLimits = (depth: number) => ({
  depth,
  timeMs: 0,
  multiPV: 1,
  noRemovalLimit: NO_REMOVAL_PLIES,
});

/**
 * What a review's searches found for one move: the engine's choice (as written), its score and
 * the played move's score, mover's point of view (what a distributed review's worker returns).
 */
export type PlyScores = [best: string, bestScore: number, playedScore: number];

/** Every move's scores, searched as the review method says (annotate-game.ts); `onMove` hears each move's start. */
export function scoreGame(searcher: Searcher, game: LoadedGame, depth: number, onMove = (): void => {}): PlyScores[] {
  return annotateGame(searcher, game, reviewLimits(depth), (_, p) => {
    if (p === undefined) onMove();
  }).plies.map((p) => [formatMove(p.best), p.bestScore, p.playedScore]);
}

/** Reviews one game with `searcher` (its table and history are emptied before every search). */
export function reviewOne(searcher: Searcher, task: ReviewTask): ReviewResult {
  const game = loadGame(task.record, 1);
  return reviewOfScores(game, task, scoreGame(searcher, game, task.depth));
}

/**
 * The review of a game from its moves' scores: the sides, the repetitions and who won at the end
 * from the game itself, the judgements from the scores. reviewOne's answer for the scores it searched; a
 * distributed review's coordinator computes a worker's game with it.
 */
export function reviewOfScores(
  game: LoadedGame,
  task: { game: number; depth: number },
  scores: readonly PlyScores[],
): ReviewResult {
  const pos = game.start.clone();
  const plies = game.moves.map((m, k) => {
    const side = pos.side;
    pos.make(m);
    return { side, bestScore: scores[k][1], playedScore: scores[k][2], repetition: repetitionAfter(pos) };
  });
  const r = reviewAnnotation({ plies, final: pos });
  const [w, b] = r.sides;
  return {
    game: task.game,
    depth: task.depth,
    accuracy: [num(w.accuracy), num(b.accuracy)],
    inaccuracies: [w.inaccuracies, b.inaccuracies],
    mistakes: [w.mistakes, b.mistakes],
    blunders: [w.blunders, b.blunders],
    cpLoss: [num(w.averageCpLoss), num(b.averageCpLoss)],
    nags: r.plies.map((p) => p.nag),
    scores: scores.map((p) => p[1]),
  };
}
