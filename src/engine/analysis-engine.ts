/**
 * The engine as analysis sees it: one in-process searcher set up as the protocol's search threads
 * set theirs up (src/threads/search-worker.ts) with the engine's defaults: the shipped network
 * (EvalFile's default, UseNNUE on) when one can be read, the default search features and
 * parameters. `thoth analyse` (a position and `--game`) searches with it, so that its move and
 * score at a depth are the ones `thoth "go depth N"` gives.
 */
import { DEFAULT_FEATURES, Searcher } from '../search/search';
import { DEFAULT_PARAMS } from '../search/params';
import { TranspositionTable } from '../search/tt';
import type { Network } from '../nnue/network';

/** The evaluation the engine would use: a network (EvalFile, UseNNUE on) or null (the hand-written one). */
export interface EngineEvaluation {
  network: Network | null;
  /** Where the network came from ("default": the shipped one), or why none is used. */
  source: string;
}

/** A searcher with the engine's evaluation, features and parameters on a table of `hashMb` MB. */
export function engineSearcher(hashMb: number, evaluation: EngineEvaluation): Searcher {
  const s = new Searcher(new TranspositionTable(TranspositionTable.allocate(hashMb)));
  s.features = { ...DEFAULT_FEATURES };
  s.params = { ...DEFAULT_PARAMS };
  s.setNetwork(evaluation.network);
  return s;
}
