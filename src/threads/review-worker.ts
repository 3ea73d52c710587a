/**
 * Worker: one game of a batch review (piscina task; src/analysis/batch-review.ts). The searcher is
 * set up as the engine's analysis searcher is (src/engine/analysis-engine.ts: the default features
 * and parameters, the network given or the hand-written evaluation) and lives as long as the thread.
 */
import { NetworkCache } from '../nnue/network';
import type { Searcher } from '../search/search';
import { reviewOne, reviewSearcher, type ReviewResult, type ReviewTask } from '../analysis/batch-review';

export interface ReviewWorkerTask extends ReviewTask {
  hashMb: number;
  /** The network file's bytes, or null: the hand-written evaluation. */
  network: SharedArrayBuffer | null;
}

let threadSearcher: Searcher | undefined;
let hashMb = 0;
const reviewNetworks = new NetworkCache();

export default function run(task: ReviewWorkerTask): ReviewResult {
  if (threadSearcher === undefined || hashMb !== task.hashMb) {
    threadSearcher = reviewSearcher(task.hashMb);
    hashMb = task.hashMb;
  }
  threadSearcher.setNetwork(task.network === null ? null : reviewNetworks.get(task.network));
  return reviewOne(threadSearcher, task);
}
