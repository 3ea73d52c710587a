/**
 * One game of a batch review (thoth db review, thoth analyse --game FILE --all): the game read
 * from its record, every move searched as the review method says (src/analysis/review-method.ts,
 * through annotate-game.ts, the searches `thoth analyse --game` makes) and judged by review.ts;
 * what the database keeps of it. Plain computation: a worker thread runs it, one game at a time.
 */
import { NO_REMOVAL_PLIES, formatMove, type Position } from '../core/index';
import { scoreOf, scoreValue } from '../core/score';
import { DEFAULT_PARAMS } from '../search/params';
import { DEFAULT_FEATURES, Searcher } from '../search/search';
import { TranspositionTable } from '../search/tt';
import { annotatePly, hits, loadGame, reviewAnnotation, type LoadedGame } from './annotate-game';
import type { Repetition } from './review';
import { repetitionAfter, type MoveSearches } from './review-method';
import { proveForcedHits } from './review-proof';

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

/**
 * Every move's scores as the review method searches them (annotate-game.ts annotatePly), before
 * the solver's proofs of forced hits (reviewOfScores applies them); `onMove` hears each move's start.
 */
export function scoreGame(searcher: Searcher, game: LoadedGame, depth: number, onMove = (): void => {}): PlyScores[] {
  const pos = game.start.clone();
  const limits = reviewLimits(depth);
  return game.moves.map((m, k) => {
    onMove();
    const a = annotatePly(searcher, pos, m, k, limits);
    pos.make(m);
    return [formatMove(a.best), a.bestScore, a.playedScore];
  });
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
  const positions: Position[] = [];
  const searches: MoveSearches[] = [];
  const repetitions: (Repetition | undefined)[] = [];
  game.moves.forEach((m, k) => {
    positions.push(pos.clone());
    const side = pos.side as 0 | 1;
    searches.push({ side, best: scoreOf(scores[k][1]), played: scoreOf(scores[k][2]), hit: hits(pos, m) });
    pos.make(m);
    repetitions.push(repetitionAfter(pos));
  });
  positions.push(pos.clone());
  // The solver's proofs of forced hits, as annotateGame applies them.
  const proven = proveForcedHits(positions, searches);
  const plies = proven.map((m, k) => ({
    side: searches[k].side,
    bestScore: scoreValue(m.best),
    playedScore: scoreValue(m.played),
    repetition: repetitions[k],
  }));
  const r = reviewAnnotation({ plies, final: pos });
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
    scores: plies.map((p) => p.bestScore),
  };
}
