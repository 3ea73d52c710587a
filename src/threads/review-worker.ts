/**
 * Worker: one game of a batch review (piscina task; src/analysis/batch-review.ts). The searcher is
 * set up as the engine's analysis searcher is (src/engine/analysis-engine.ts: the default features
 * and parameters, the network given or the hand-written evaluation) and lives as long as the thread.
 */
import { NetworkCache } from '../nnue/network';
import { DEFAULT_PARAMS } from '../search/params';
import { DEFAULT_FEATURES, Searcher } from '../search/search';
import { TranspositionTable } from '../search/tt';
import { reviewOne, type ReviewResult, type ReviewTask } from '../analysis/batch-review';

export interface ReviewWorkerTask extends ReviewTask {
  hashMb: number;
  /** The network file's bytes, or null: the hand-written evaluation. */
  network: SharedArrayBuffer | null;
}

let reviewSearcher: Searcher | undefined;
let hashMb = 0;
const reviewNetworks = new NetworkCache();

export default function run(task: ReviewWorkerTask): ReviewResult {
  if (reviewSearcher === undefined || hashMb !== task.hashMb) {
    reviewSearcher = new Searcher(new TranspositionTable(TranspositionTable.allocate(task.hashMb)));
    reviewSearcher.features = { ...DEFAULT_FEATURES };
    reviewSearcher.params = { ...DEFAULT_PARAMS };
    hashMb = task.hashMb;
  }
  reviewSearcher.setNetwork(task.network === null ? null : reviewNetworks.get(task.network));
  return reviewOne(reviewSearcher, task);
}
