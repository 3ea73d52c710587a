/**
 * The coordinator of a distributed batch review (`thoth db review --distributed redis://…`,
 * docs/db.md "Review over workers"): it stores its own Thoth build and the network in Redis,
 * publishes the games to review as signed chunk jobs (a window of them), and hands each game's
 * scores that come back to its caller, which checks them against its database and stores the
 * review. The database is the truth: a run is found again by its id (a hash of the settings and
 * the database's path); running the same command again reviews what is not stored yet, taking
 * the chunks still queued and the results waiting in Redis.
 *
 * A result counts only as the coordinator's own plan says: its job must be a chunk this run
 * planned, each game one of that chunk's games still to review, and the caller must accept the
 * scores (src/analysis/review-scores.ts). Anything else is left out with one line; a chunk whose
 * games are not all answered is queued again, and one that fails three times is given up (its
 * games named at the end). This module knows nothing of reviews: the caller checks and stores.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { plural } from '../core/plural';
import { type IdentifiedBuild, runHash, storeBuild, storeNet } from './builds';
import { ownBuild } from './datagen-jobs';
import {
  connectionOptions,
  KEEP_FINISHED_S,
  keys,
  openRedis,
  QUEUE_PREFIX,
  type RedisAddress,
  RedisUnreachable,
} from './redis';
import {
  type ReviewJob,
  type ReviewJobResult,
  type ReviewRunSettings,
  type ReviewWorkerTally,
  reviewChunkOf,
  reviewJobId,
  reviewStatus,
} from './review-jobs';
import { RunLock, RunLocked } from './run-lock';
import { oneLine } from '../core/quote';
import { liveWorkers, type RunState } from './status';
import { type Signer, signRun } from './trust';
import { within } from './wait';
import { watchRedis } from './redis-watch';

/** Jobs of a chunk that may fail or come back short before its games are given up. */
const TRIES = 3;
/** Notes of one kind printed before they are only counted. */
const NOTES_SHOWN = 5;

/** What the coordinator needs from its caller. */
interface ReviewSink {
  /** The plan: the games to review, database id → record. */
  games: ReadonlyMap<number, string>;
  /**
   * Checks a worker's scores of planned game `id` and stores the review computed from them; why
   * they are refused (one line), or undefined. Throws when the review cannot be stored.
   */
  accept(id: number, scores: unknown): string | undefined;
  /** Hears each game stored (this run's count). */
  each(done: number): void;
  note(line: string): void;
}

interface ReviewRunOptions {
  depth: number;
  hash: number;
  chunk: number;
  /** The network file's bytes, or undefined (the hand-written evaluation). */
  network?: Uint8Array;
  /** The database file (its absolute path is part of the run id). */
  db: string;
  signal: AbortSignal;
  signer: Signer;
  /** How long Redis may be unreachable before the run stops. */
  redisTimeoutMs?: number;
}

interface ReviewOutcome {
  run: string;
  state: RunState;
  message?: string;
  done: number;
  /** Games given up (their chunk failed or came back short three times), with the last reason. */
  failed: { id: number; why: string }[];
  tallies: ReviewWorkerTally[];
}

/** A review run that cannot go on (a lock held by another coordinator, a database that cannot be written). */
export class ReviewRunError extends Error {
  override name = 'ReviewRunError';
}

function reviewRunId(settings: ReviewRunSettings, db: string): string {
  return runHash({ settings, db: path.resolve(db) });
}

/**
 * Reviews the sink's games on the workers until each is stored or given up, or the signal aborts
 * (the workers finish their chunks; the same command counts them). Throws RedisUnreachable,
 * BuildError or ReviewRunError.
 */
export async function runReviewCoordinator(
  addr: RedisAddress,
  opts: ReviewRunOptions,
  sink: ReviewSink,
): Promise<ReviewOutcome> {
  const build = ownBuild();
  const redis = await openRedis(addr);
  redis.on('error', () => undefined);
  const c = new ReviewCoordinator(addr, opts, sink, redis);
  try {
    await c.prepare(build);
    await c.follow();
    return await c.finish();
  } finally {
    await c.close();
  }
}

type Tally = { id: string; games: number; from: number; to: number };

class ReviewCoordinator {
  private readonly me = `${hostname()}:${process.pid}`;
  private readonly timers: NodeJS.Timeout[] = [];
  private run = '';
  private lock?: RunLock;
  private jobs?: Queue;
  private results?: Queue;
  private consumer?: Worker;
  private events?: QueueEvents;

  /** The plan: chunk → the ids of its games not stored yet. */
  private readonly plan = new Map<number, Set<number>>();
  private readonly order: number[];
  private nextChunk = 0;
  /** Chunks queued or being reviewed. */
  private readonly inflight = new Set<number>();
  private readonly republish = new Set<number>();
  private readonly tries = new Map<number, number>();
  private readonly missing = new Map<number, number>();
  private readonly failed: { id: number; why: string }[] = [];
  private left: number;
  private done = 0;
  private readonly tallies = new Map<string, Tally>();
  private readonly said = new Map<string, number>();

  private stopping = false;
  private state: RunState = 'finished';
  private message?: string;
  private lost?: RedisUnreachable;
  private wake: () => void = () => undefined;
  private slots = 0;
  private started = 0;

  constructor(
    private readonly addr: RedisAddress,
    private readonly opts: ReviewRunOptions,
    private readonly sink: ReviewSink,
    private readonly redis: Redis,
  ) {
    for (const id of [...sink.games.keys()].sort((a, b) => a - b)) {
      const k = Math.floor(id / opts.chunk);
      let s = this.plan.get(k);
      if (!s) this.plan.set(k, (s = new Set()));
      s.add(id);
    }
    this.order = [...this.plan.keys()];
    this.left = sink.games.size;
  }

  async prepare(build: IdentifiedBuild): Promise<void> {
    const { redis, sink, opts, addr } = this;
    if (await storeBuild(redis, build)) sink.note(`Note: stored ${build.text} in Redis for the workers`);
    const net = opts.network ? await storeNet(redis, opts.network) : null;
    const settings: ReviewRunSettings = {
      kind: 'review',
      depth: opts.depth,
      hash: opts.hash,
      chunk: opts.chunk,
      build: build.build,
      net,
    };
    const run = reviewRunId(settings, opts.db);
    this.run = run;
    this.lock = new RunLock(redis, run, this.me);
    await this.lock
      .take((l) => sink.note(l))
      .catch((e: unknown) => {
        throw e instanceof RunLocked ? new ReviewRunError(e.message) : e;
      });
    sink.note(
      `Review run ${run} on ${addr.text}: ${plural(opts.chunk, 'database id')} a chunk, reviewed by \`thoth worker ${addr.text}\` processes (thoth match-status ${addr.text} ${run})`,
    );
    const bull = await import('bullmq');
    const q = { connection: connectionOptions(addr), prefix: QUEUE_PREFIX };
    this.jobs = new bull.Queue(keys.pairsQueue(run), q);
    this.results = new bull.Queue(keys.resultsQueue(run), q);
    this.jobs.on('error', () => undefined);
    this.results.on('error', () => undefined);
    if ((await redis.exists(keys.run(run))) === 1) await this.recover();
    const text = JSON.stringify(settings);
    const now = Date.now();
    await redis.hset(keys.run(run), {
      kind: 'review',
      review: text,
      ...signRun(opts.signer, run, 'review', text),
      state: 'running',
      coordinator: this.me,
    });
    await redis.hsetnx(keys.run(run), 'started', String(now));
    await redis.zadd(keys.runs, 'NX', now, run);
    await redis.del(keys.refusals(run));
    this.started = Number((await redis.hget(keys.run(run), 'started')) ?? now);
  }

  /** A run Redis knows: its chunks still planned and queued are kept, others removed; results waiting are read as they come. */
  private async recover(): Promise<void> {
    let kept = 0;
    for (const j of await this.jobs!.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'failed'])) {
      if (!j?.id) continue;
      const k = reviewChunkOf(j.id);
      if (k !== undefined && this.plan.has(k) && (await j.getState()) !== 'failed') {
        this.inflight.add(k);
        kept++;
      } else await j.remove().catch(() => undefined);
    }
    for (const j of await this.results!.getJobs(['failed'])) await j?.remove().catch(() => undefined);
    // One the dead coordinator was taking in: back to the queue now (this one holds the run lock).
    for (const j of await this.results!.getJobs(['active'])) await j?.moveToWait().catch(() => undefined);
    if (kept > 0) this.sink.note(`Resumed run ${this.run}: ${plural(kept, 'chunk')} queued or being reviewed`);
  }

  private halt(s: RunState, m?: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.state = s;
    this.message = m;
    this.wake();
  }

  /** One line of a kind of note (worker words made one line), five of a kind at most. */
  private say(kind: string, line: string): void {
    const n = (this.said.get(kind) ?? 0) + 1;
    this.said.set(kind, n);
    if (n <= NOTES_SHOWN) this.sink.note(oneLine(line));
    else if (n === NOTES_SHOWN + 1) this.sink.note(`Note: more ${kind} are only counted (see the end)`);
  }

  /** Publishes chunks and takes the results in until every game is stored or given up, or the run stops. */
  async follow(): Promise<void> {
    const { opts } = this;
    if (opts.signal.aborted) this.halt('interrupted', 'interrupted');
    opts.signal.addEventListener('abort', () => this.halt('interrupted', 'interrupted'), { once: true });
    const bull = await import('bullmq');
    const q = { connection: connectionOptions(this.addr), prefix: QUEUE_PREFIX };
    this.events = new bull.QueueEvents(keys.pairsQueue(this.run), q);
    this.events.on('error', () => undefined);
    this.events.on('stalled', ({ jobId }) =>
      this.say('stalled chunks', `Note: ${jobId} stalled (its worker stopped answering); it goes back to the queue`),
    );
    await within(this.events.waitUntilReady(), 5000);
    this.consumer = new bull.Worker(
      keys.resultsQueue(this.run),
      async (job) => this.receive(job.data as ReviewJobResult),
      { ...q, concurrency: 1, removeOnComplete: { count: 0 }, drainDelay: 1 },
    );
    this.consumer.on('error', () => undefined);
    this.watchRedis();
    if (this.left === 0) this.halt('finished');
    let last = 0;
    let lastLost = Date.now();
    while (!this.stopping) {
      if (this.redis.status === 'ready') {
        try {
          await this.topUp();
          if (Date.now() - last > 1000) {
            last = Date.now();
            await this.writeStatus('running');
          }
          if (Date.now() - lastLost > 5000) {
            lastLost = Date.now();
            await this.findLost();
          }
        } catch (e) {
          if (this.redis.status === 'ready') throw e;
        }
      }
      if (!this.stopping) await this.nap(500);
    }
  }

  private nap(ms: number): Promise<void> {
    return new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    }).finally(() => (this.wake = () => undefined));
  }

  /** A worker's result, checked against the plan: each planned game of its chunk handed to the sink. */
  private receive(res: ReviewJobResult): void {
    if (this.stopping) return;
    const k = reviewChunkOf(res?.job);
    const who = oneLine(res?.worker).slice(0, 80);
    if (k === undefined || !this.plan.has(k) || !Array.isArray(res.games)) {
      this.say(
        'refused results',
        `Note: a result from worker ${who} is refused: ${oneLine(res?.job)} is not a chunk this run planned`,
      );
      return;
    }
    const left = this.plan.get(k)!;
    let short = '';
    for (const g of res.games.slice(0, this.opts.chunk)) {
      const id = g?.id;
      if (typeof id !== 'number' || !left.has(id)) continue; // not of this chunk, or stored already: counted once
      let why: string | undefined;
      try {
        why = typeof g.error === 'string' ? `not scored: ${g.error}` : this.sink.accept(id, g.scores);
      } catch (e) {
        this.halt('stopped', e instanceof Error ? e.message : String(e));
        return;
      }
      if (why !== undefined) {
        short = `game ${id}: ${why}`;
        this.say(
          'refused results',
          `Note: the scores of game ${id} from worker ${who} are refused (${why}); it is reviewed again`,
        );
        continue;
      }
      left.delete(id);
      this.left--;
      this.done++;
      this.tally(who, res.ms);
      this.sink.each(this.done);
    }
    if (left.size === 0) {
      this.plan.delete(k);
      this.inflight.delete(k);
    } else {
      this.retry(k, short || `${plural(left.size, 'game')} of it not answered`);
    }
    if (this.left === 0) this.halt('finished');
    this.wake();
  }

  /** Chunk k queued again, or given up after TRIES. */
  private retry(k: number, why: string): void {
    const n = (this.tries.get(k) ?? 0) + 1;
    this.tries.set(k, n);
    if (n < TRIES) {
      this.republish.add(k);
      return;
    }
    const left = this.plan.get(k) ?? new Set<number>();
    for (const id of left) this.failed.push({ id, why: oneLine(why) });
    this.left -= left.size;
    this.plan.delete(k);
    this.inflight.delete(k);
    if (this.left === 0) this.halt('finished');
  }

  private tally(worker: string, ms: number): void {
    const to = Date.now();
    const t = this.tallies.get(worker) ?? { id: worker, games: 0, from: to - (Number(ms) || 0), to };
    t.games++;
    t.to = to;
    this.tallies.set(worker, t);
  }

  private tallyList(): ReviewWorkerTally[] {
    return [...this.tallies.values()].map((t) => ({
      id: t.id,
      games: t.games,
      rate: t.games / Math.max(1e-6, (t.to - t.from) / 60000),
    }));
  }

  /** Keeps a window of chunks queued: twice the workers' slots, at least 8. */
  private async topUp(): Promise<void> {
    const want = Math.min(4000, Math.max(8, 2 * this.slots));
    const add = [...this.republish];
    this.republish.clear();
    while (this.inflight.size + add.length < want && this.nextChunk < this.order.length) {
      const k = this.order[this.nextChunk++];
      if (!this.inflight.has(k) && this.plan.has(k)) add.push(k);
    }
    for (const k of add) await this.publish(k);
  }

  /** Queues chunk k with its games still to review, signed; a job of it still queued or running is left as it is. */
  private async publish(k: number): Promise<void> {
    const ids = this.plan.get(k);
    if (!ids || ids.size === 0) return;
    const id = reviewJobId(k);
    const old = await this.jobs!.getJob(id);
    if (old) {
      const s = await old.getState();
      if (s !== 'failed' && s !== 'completed') {
        this.inflight.add(k);
        return;
      }
      await old.remove().catch(() => undefined);
    }
    const job: ReviewJob = { chunk: k, games: [...ids].map((g) => ({ id: g, record: this.sink.games.get(g)! })) };
    const body = JSON.stringify(job);
    const { sig } = signRun(this.opts.signer, this.run, `job ${id}`, body);
    this.inflight.add(k);
    this.missing.delete(k);
    await this.jobs!.add(
      'review',
      { body, sig },
      { jobId: id, removeOnComplete: true, removeOnFail: false, attempts: 2 },
    );
  }

  /**
   * A chunk gone from the queue without a result (deleted, or failed on the workers) is queued
   * again; one missing for three looks in a row (15 s: its result may be on its way) likewise.
   */
  private async findLost(): Promise<void> {
    const waiting = await this.results!.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    const pending = Object.values(waiting).reduce((a, b) => a + (b ?? 0), 0);
    for (const k of [...this.inflight]) {
      if (this.republish.has(k)) continue;
      const job = await this.jobs!.getJob(reviewJobId(k));
      const state = job ? await job.getState() : 'unknown';
      if (state === 'failed') {
        const why = oneLine(job?.failedReason ?? 'failed').slice(0, 200);
        this.say('failed chunks', `Note: ${reviewJobId(k)} failed on a worker (${why}); it is queued again`);
        await job?.remove().catch(() => undefined);
        this.retry(k, why);
      } else if (state === 'unknown' || state === 'completed') {
        const n = (this.missing.get(k) ?? 0) + 1;
        this.missing.set(k, n);
        if (n >= 3 && pending === 0) {
          this.say(
            'lost chunks',
            `Note: ${reviewJobId(k)} is gone from the queue without a result; it is queued again`,
          );
          this.missing.delete(k);
          this.republish.add(k);
        }
      } else this.missing.delete(k);
    }
  }

  private async writeStatus(s: RunState, m?: string): Promise<void> {
    const { redis, run } = this;
    const counts = await this.jobs!.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    const workers = await liveWorkers(redis);
    this.slots = workers
      .filter((w) => w.run === run)
      .reduce((n, w) => n + Math.max(0, Math.min(1024, w.concurrency)), 0);
    const status = reviewStatus({
      run,
      state: s,
      message: m,
      db: path.basename(this.opts.db),
      depth: this.opts.depth,
      done: this.done,
      total: this.sink.games.size,
      queued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      tallies: this.tallyList(),
      refusals: await redis.hgetall(keys.refusals(run)),
      workers,
      started: this.started,
    });
    await redis.set(keys.status(run), JSON.stringify(status));
  }

  /** Redis must stay reachable and keep the run (redis-watch.ts). */
  private watchRedis(): void {
    const timers = watchRedis(this.redis, this.addr, this.run, this.opts.redisTimeoutMs ?? 10_000, {
      unreachable: (m) => {
        this.lost = new RedisUnreachable(m);
        this.halt('lost', m);
      },
      forgotten: (m) => {
        this.lost = new RedisUnreachable(m);
        this.halt('lost', m);
      },
      done: () => this.lost !== undefined || this.stopping,
    });
    this.timers.push(...timers);
  }

  /** Closes the run in Redis: done, the queues go and the status stays a while; interrupted, they stay for the same command. */
  async finish(): Promise<ReviewOutcome> {
    const { redis, run, state, message } = this;
    if (this.lost) throw this.lost;
    await within(this.consumer!.close(true), 2000);
    await redis.hset(keys.run(run), 'state', state);
    if (state !== 'interrupted') {
      await redis.publish(keys.control(run), 'stop');
      await within(this.jobs!.obliterate({ force: true }), 5000);
      await within(this.results!.obliterate({ force: true }), 5000);
      await this.writeStatus(state, message);
      for (const k of [keys.run(run), keys.status(run), keys.refusals(run)]) await redis.expire(k, KEEP_FINISHED_S);
    } else {
      await this.writeStatus(state, message);
    }
    for (const [kind, n] of this.said) if (n > NOTES_SHOWN) this.sink.note(`Note: ${n} ${kind} in all`);
    if (state === 'stopped') throw new ReviewRunError(message ?? 'stopped');
    return { run, state, message, done: this.done, failed: this.failed, tallies: this.tallyList() };
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    const { consumer, events, jobs, results } = this;
    await within(Promise.all([consumer?.close(true), events?.close(), jobs?.close(), results?.close()]), 3000);
    await this.lock?.release();
    this.redis.disconnect();
  }
}
