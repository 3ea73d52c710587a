/**
 * Distributed batch review (`thoth db review --distributed redis://…`, docs/db.md): what travels
 * through Redis, in plain JSON. A review run lives on the same queues as a match or datagen
 * (`pairs-<run>` for the jobs, `results-<run>` for what comes back) and in the same run list; its
 * run hash holds the settings under `review`, signed as a match's are. A job is a **chunk**: the
 * games still to review whose database ids fall in `chunk·k … chunk·k + chunk − 1`, with their
 * records, its text signed with the run's key (field `job review-<k>`). The worker returns each
 * game's **scores** (src/analysis/batch-review.ts PlyScores), never a review: the coordinator
 * checks them against its own database and computes the review itself.
 */
import { plural } from '../core/plural';
import type { EngineBuild } from './builds';
import type { RunState, RunStatus, WorkerStatus } from './status';

/** A review run as its workers see it. */
export interface ReviewRunSettings {
  kind: 'review';
  /** The review's search depth and each search's table (MB). */
  depth: number;
  hash: number;
  /** Database ids per chunk. */
  chunk: number;
  /** The Thoth build whose `thoth db score` searches. */
  build: EngineBuild;
  /** SHA-256 of the network file, or null (the hand-written evaluation). */
  net: string | null;
}

/** A chunk's games: database id and record. */
export interface ReviewJob {
  chunk: number;
  games: { id: number; record: string }[];
}

/** A job as it is queued: its text and the signature of `job <id>` + text by the run's key. */
export interface SignedReviewJob {
  body: string;
  sig: string;
}

/** A worker's answer for a chunk: each game's scores, or why it could not score it. */
export interface ReviewJobResult {
  /** The job id (`review-<k>`). */
  job: string;
  worker: string;
  games: { id: number; scores?: unknown; error?: string }[];
  /** Time the chunk took on the worker. */
  ms: number;
}

/** The job id of chunk k (BullMQ: not a number, no ':'). */
export const reviewJobId = (k: number): string => `review-${k}`;

/** Chunk k of a job id, or undefined. */
export function reviewChunkOf(id: unknown): number | undefined {
  const m = typeof id === 'string' ? /^review-(\d{1,15})$/.exec(id) : null;
  return m ? Number(m[1]) : undefined;
}

/** Why a job's data is not a chunk of a run of `chunk` ids, or undefined. */
export function reviewJobProblem(data: ReviewJob, chunk: number): string | undefined {
  if (!Number.isSafeInteger(data?.chunk) || data.chunk < 0) return 'no chunk number';
  if (!Array.isArray(data.games) || data.games.length < 1 || data.games.length > chunk) return 'no games';
  for (const g of data.games) {
    if (!Number.isSafeInteger(g?.id) || Math.floor(g.id / chunk) !== data.chunk) return 'a game of another chunk';
    if (typeof g.record !== 'string' || g.record.length > 1_000_000) return 'a bad record';
  }
  return undefined;
}

/** One worker's share of a review run, as the coordinator counts it. */
export interface ReviewWorkerTally {
  id: string;
  games: number;
  /** Games per minute, from the start of its first chunk to the end of its last. */
  rate: number;
}

/** The run's status in the shape of a match's (thoth match-status and its page draw matches). */
export function reviewStatus(s: {
  run: string;
  state: RunState;
  message?: string;
  db: string;
  depth: number;
  done: number;
  total: number;
  queued: number;
  active: number;
  tallies: ReviewWorkerTally[];
  refusals: Record<string, string>;
  workers: WorkerStatus[];
  started: number;
}): RunStatus {
  const lines = [`Review of ${s.db} at depth ${s.depth}: ${s.done}/${plural(s.total, 'game')} reviewed`];
  for (const t of s.tallies) lines.push(`  ${t.id}: ${plural(t.games, 'game')}, ${t.rate.toFixed(1)} games/minute`);
  return {
    run: s.run,
    state: s.state,
    message: s.message,
    names: [`review ${s.db}`],
    variant: 'review',
    timeControl: `depth ${s.depth}`,
    games: s.done,
    total: s.total,
    pairsQueued: s.queued,
    pairsActive: s.active,
    encounters: [],
    sprt: null,
    ratings: [],
    lines,
    refusals: s.refusals,
    workers: s.workers,
    started: s.started,
    updated: Date.now(),
  };
}
