/**
 * The coordinator of a distributed datagen run (`thoth datagen … --distributed redis://…`): it
 * stores its own Thoth build and the network in Redis, publishes chunks of games as jobs on the
 * run's queue (a window of them ahead of the file), and hands the shards the workers return to
 * its caller **in chunk order**, so the file is written as a local one-thread run writes it: game
 * by game in index order, deduplicated in that order. The data file is the truth: a run is
 * found again by its id (a hash of the settings, build, network and file), and re-running the
 * same command goes on after the last game in the file; chunks already queued or finished in
 * Redis are taken as they are, games already written are never requested again.
 *
 * This module knows nothing of the data format: the caller (src/cli/datagen-command.ts) checks, dedupes
 * and writes each shard.
 */
import { plural } from '../core/plural';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { oneLine } from '../core/quote';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type IdentifiedBuild, runHash, storeBuild, storeNet } from './builds';
import {
  type ChunkJob,
  type ChunkResult,
  chunkId,
  type DatagenRunSettings,
  type DatagenStatus,
  type DatagenWorkerTally,
  ownBuild,
} from './datagen-jobs';
import {
  connectionOptions,
  KEEP_FINISHED_S,
  keys,
  openRedis,
  QUEUE_PREFIX,
  type RedisAddress,
  RedisUnreachable,
} from './redis';
import { RunLock, RunLocked } from './run-lock';
import { JOB_OPTS, LostJobs, RECONCILE_MS, requeue } from './lost-jobs';
import { RunNotes } from './notes';
import { watchRedis } from './redis-watch';
import { pickGames, playChunk } from './worker-datagen';
import { liveWorkers, readRefusals, type RunState, windowSize } from './status';
import { type Signer, signRun } from './trust';
import { within } from './wait';

/** The largest shard taken (base64): a chunk of games is a few hundred KB; a forged one may be anything. */
const MAX_SHARD_CHARS = 256 * 1024 * 1024;
/** Checks of shards run at once (each a datagen child of one game). */
const VERIFY_AT_ONCE = 2;

/** What the coordinator needs from its caller. */
export interface DatagenSink {
  /** The first game not in the file yet. */
  nextGame: number;
  /** One past the last game to play (Infinity: until done()). */
  endGame: number;
  /**
   * Writes the games of the chunk `first … first + count − 1` that are not in the file yet; the
   * shard is a worker's, to be checked. Returns the positions the shard held, or a reason to
   * reject it (the chunk is then played again).
   */
  write(first: number, count: number, shard: Uint8Array): { positions: number } | { rejected: string };
  /**
   * The bytes of game `game` in a shard (its block of the data file), or undefined when the shard
   * is not a data file or does not hold it: how the coordinator compares a worker's game with its own.
   */
  gameOf(shard: Uint8Array, game: number): Uint8Array | undefined;
  /** True when the targets are met. */
  done(): boolean;
  /** Games and positions in the file. */
  totals(): { games: number; positions: number };
  note(line: string): void;
}

export interface DatagenRunOptions {
  /** `thoth datagen` flags that fix the games (variant, seed, nodes, …); --net only as `--net none`. */
  args: string[];
  chunk: number;
  /** The network file's bytes, or undefined (the hand-written evaluation, `--net none` in args). */
  network?: Uint8Array;
  /** The file of those bytes (`default`: the shipped one): shard checks play it, not a copy a full disk refuses. */
  networkFile?: string;
  /** The data file (its absolute path is part of the run id). */
  out: string;
  targetPositions: number | null;
  targetGames: number | null;
  signal: AbortSignal;
  /** Seconds Redis may be unreachable before the run stops. */
  redisTimeoutMs?: number;
  /** The key that signs the run's settings for the workers (src/distributed/trust.ts). */
  signer: Signer;
  /**
   * Games of each chunk the coordinator plays itself to check a worker's shard (`--verify`, 1 by
   * default; 0 trusts the workers' shards): chosen at random once the shard is in, so that a worker
   * cannot tell which of its games are checked.
   */
  verify: number;
}

export interface DatagenOutcome {
  run: string;
  state: RunState;
  message?: string;
  tallies: DatagenWorkerTally[];
}

/** A datagen run that cannot go on (a chunk that failed on the workers, a lock held by another coordinator, a write that failed). */
export class DatagenRunError extends Error {
  override name = 'DatagenRunError';
}

/**
 * Redis is reachable but no longer holds the run (it restarted without persistence, or the keys
 * were evicted): the chunks in flight are gone and would never come back.
 */
export class DatagenRunForgotten extends RedisUnreachable {
  override name = 'DatagenRunForgotten';
}

/** The run's id: what makes it this run. */
function datagenRunId(settings: DatagenRunSettings, out: string): string {
  return runHash({ settings, out: path.resolve(out) });
}

/**
 * Runs a datagen run on the workers until the sink is done, the signal aborts (the workers go on;
 * running the command again counts what they finished) or a chunk fails. Throws RedisUnreachable,
 * BuildError or DatagenRunError.
 */
export async function runDatagenCoordinator(
  addr: RedisAddress,
  opts: DatagenRunOptions,
  sink: DatagenSink,
): Promise<DatagenOutcome> {
  const build = ownBuild();
  const redis = await openRedis(addr);
  redis.on('error', () => undefined);
  const c = new DatagenCoordinator(addr, opts, sink, redis);
  try {
    await c.prepare(build);
    await c.enqueueAndFollow();
    return await c.finish();
  } finally {
    await c.close();
  }
}

type Tally = DatagenWorkerTally & { from: number; to: number };

/**
 * One run's coordination, in phases: prepare (the build, the network, the settings and the lock),
 * enqueue and follow (chunks published ahead of the file, shards written in chunk order, the status
 * kept), finish (the run closed in Redis) and close (whatever happens).
 */
class DatagenCoordinator {
  private readonly me = `${hostname()}:${process.pid}`;
  private readonly timers: NodeJS.Timeout[] = [];
  private run = '';
  private lock?: RunLock;
  private jobs?: Queue;
  private results?: Queue;
  private consumer?: Worker;
  private events?: QueueEvents;

  // The chunks: written to the file below writeChunk, published below nextPublish.
  private readonly chunk: number;
  private writeChunk: number;
  private nextPublish: number;
  private readonly endChunk: number;
  /** Chunks queued, being played or finished but not written yet. */
  private readonly inflight = new Set<number>();
  /** Results received ahead of the chunk the file waits for, with their check (true once the shard holds up). */
  private readonly buffered = new Map<number, ChunkResult & { checked: boolean }>();
  private readonly notes: RunNotes;
  private readonly gone: LostJobs;
  private lastReconcile = 0;
  /** The shards' checks: the coordinator's own datagen plays a game of each chunk (verify). */
  private readonly checks: (() => Promise<void>)[] = [];
  private checking = 0;
  private checkDir?: string;
  private netFile?: string;
  private entry?: string;
  private settings?: DatagenRunSettings;
  private readonly stopChecks = new AbortController();
  /** Chunks whose shard was rejected: published again. */
  private readonly republish: number[] = [];
  private readonly tallies = new Map<string, Tally>();

  // How it ends: set once, by the first reason.
  private stopping = false;
  private state: RunState = 'finished';
  private message?: string;
  private lost?: RedisUnreachable;
  /** Wakes the loop early (a result written, a stop). */
  private wake: () => void = () => undefined;

  private slots = 0;
  private started = 0;
  private readonly t0 = Date.now();
  private readonly startPositions: number;

  constructor(
    private readonly addr: RedisAddress,
    private readonly opts: DatagenRunOptions,
    private readonly sink: DatagenSink,
    private readonly redis: Redis,
  ) {
    this.chunk = opts.chunk;
    this.writeChunk = Math.floor(sink.nextGame / opts.chunk);
    this.nextPublish = this.writeChunk;
    this.endChunk = Number.isFinite(sink.endGame) ? Math.ceil(sink.endGame / opts.chunk) : Infinity;
    this.startPositions = sink.totals().positions;
    this.notes = new RunNotes((l) => sink.note(l));
    this.gone = new LostJobs(this.notes, 'chunk');
  }

  /** The build and the network stored for the workers, the run's id from its settings, its lock, its queues. */
  async prepare(build: IdentifiedBuild): Promise<void> {
    const { redis, sink, opts, addr } = this;
    if (await storeBuild(redis, build)) sink.note(`Note: stored ${build.text} in Redis for the workers`);
    const net = opts.network ? await storeNet(redis, opts.network) : null;
    const settings: DatagenRunSettings = {
      kind: 'datagen',
      args: opts.args,
      chunk: opts.chunk,
      build: build.build,
      net,
    };
    const run = datagenRunId(settings, opts.out);
    this.run = run;
    this.settings = settings;
    this.entry = build.entry;
    if (opts.verify > 0) {
      this.checkDir = mkdtempSync(path.join(tmpdir(), 'thoth-verify-'));
      if (opts.network && opts.networkFile) this.netFile = opts.networkFile;
      else if (opts.network) {
        this.netFile = path.join(this.checkDir, 'net.nnue');
        writeFileSync(this.netFile, opts.network);
      }
    }
    this.lock = new RunLock(redis, run, this.me);
    await this.lock
      .take((l) => sink.note(l))
      .catch((e: unknown) => {
        throw e instanceof RunLocked ? new DatagenRunError(e.message) : e;
      });
    sink.note(
      `Datagen run ${run} on ${addr.text}: ${plural(opts.chunk, 'game')} a chunk, played by \`thoth worker ${addr.text}\` processes (thoth match-status ${addr.text} ${run})`,
    );
    const bull = await import('bullmq');
    const q = { connection: connectionOptions(addr), prefix: QUEUE_PREFIX };
    this.jobs = new bull.Queue(keys.pairsQueue(run), q);
    this.results = new bull.Queue(keys.resultsQueue(run), q);
    this.jobs.on('error', () => undefined);
    this.results.on('error', () => undefined);
    if ((await redis.exists(keys.run(run))) === 1) await this.recover();
    await this.register(settings);
  }

  /** A run Redis knows: chunks queued or being played before are kept, those already written dropped. */
  private async recover(): Promise<void> {
    const { writeChunk, endChunk, inflight } = this;
    for (const j of await this.jobs!.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'failed'])) {
      if (!j?.id) continue;
      const k = (j.data as ChunkJob).chunk;
      if (k >= writeChunk && k < endChunk && (await j.getState()) !== 'failed') inflight.add(k);
      else await j.remove().catch(() => undefined);
    }
    // A result that could not be counted (its processor failed): its chunk is played again, and
    // the worker's new result must not be ignored as a duplicate of this job id.
    for (const j of await this.results!.getJobs(['failed'])) await j?.remove().catch(() => undefined);
    // Results not yet counted: their chunks are not asked for again.
    for (const j of await this.results!.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) {
      const k = (j?.data as ChunkResult | undefined)?.chunk;
      if (typeof k === 'number' && k >= writeChunk && k < endChunk) inflight.add(k);
    }
    // One the dead coordinator was taking in stays active under its lock until BullMQ's stalled
    // check frees it, up to a minute later; this coordinator holds the run lock, so that consumer
    // is gone: back to the queue now.
    for (const j of await this.results!.getJobs(['active'])) await j?.moveToWait().catch(() => undefined);
    if (inflight.size > 0)
      this.sink.note(
        `Resumed run ${this.run}: ${plural(inflight.size, 'chunk')} queued, being played or finished in Redis`,
      );
  }

  /** The run's settings, signed, and its state in Redis. */
  private async register(settings: DatagenRunSettings): Promise<void> {
    const { redis, run } = this;
    const now = Date.now();
    const settingsText = JSON.stringify(settings);
    await redis.hset(keys.run(run), {
      kind: 'datagen',
      datagen: settingsText,
      ...signRun(this.opts.signer, run, 'datagen', settingsText),
      state: 'running',
      coordinator: this.me,
    });
    await redis.hsetnx(keys.run(run), 'started', String(now));
    await redis.zadd(keys.runs, 'NX', now, run);
    await redis.del(keys.refusals(run));
    this.started = Number((await redis.hget(keys.run(run), 'started')) ?? now);
  }

  private halt(s: RunState, m?: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.state = s;
    this.message = m;
    this.wake();
  }

  /** Publishes chunks ahead of the file and writes the shards in order until the run stops. */
  async enqueueAndFollow(): Promise<void> {
    const { opts } = this;
    if (opts.signal.aborted) this.halt('interrupted', 'interrupted');
    opts.signal.addEventListener('abort', () => this.halt('interrupted', 'interrupted'), { once: true });
    await this.follow();
    this.watchRedis();
    if (this.sink.done() || this.writeChunk >= this.endChunk) this.halt('finished');
    let lastStatus = 0;
    while (!this.stopping) {
      if (this.redis.status === 'ready') {
        try {
          await this.topUp();
          if (Date.now() - this.lastReconcile > RECONCILE_MS) {
            this.lastReconcile = Date.now();
            await this.reconcile();
          }
          this.notes.flush(false);
          if (Date.now() - lastStatus > 1000) {
            lastStatus = Date.now();
            await this.notes.refusals(this.redis, this.run);
            await this.writeStatus('running');
          }
        } catch (e) {
          if (this.redis.status === 'ready') throw e;
        }
      }
      if (!this.stopping) await this.nap(500);
    }
  }

  /** Waits `ms`, or less when woken. */
  private nap(ms: number): Promise<void> {
    return new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    }).finally(() => (this.wake = () => undefined));
  }

  /** The queues' events (a stalled or failed chunk) and the consumer of the results. */
  private async follow(): Promise<void> {
    const bull = await import('bullmq');
    const q = { connection: connectionOptions(this.addr), prefix: QUEUE_PREFIX };
    const events = new bull.QueueEvents(keys.pairsQueue(this.run), q);
    this.events = events;
    events.on('error', () => undefined);
    events.on('stalled', ({ jobId }) => this.notes.stalled(jobId, 'chunk'));
    // A failed chunk is queued again by reconcile (a junk job or a forged failure must not stop the run).
    events.on('failed', () => this.wake());
    await within(events.waitUntilReady(), 5000);
    this.consumer = new bull.Worker(keys.resultsQueue(this.run), async (job) => this.receive(job.data as unknown), {
      ...q,
      concurrency: 1,
      removeOnComplete: { count: 0 },
      drainDelay: 1,
    });
    this.consumer.on('error', () => undefined);
  }

  /**
   * A worker's result (anyone who can write to the results queue can forge one): a chunk this run
   * waits for, with a shard of a size a chunk can have, taken once; then checked (verify) before
   * the file takes it.
   */
  private receive(data: unknown): void {
    const res = data as Partial<ChunkResult> | null;
    const k = res?.chunk;
    if (
      typeof k !== 'number' ||
      !Number.isSafeInteger(k) ||
      k < this.writeChunk ||
      k >= this.endChunk ||
      !this.inflight.has(k) ||
      this.buffered.has(k) ||
      typeof res?.shard !== 'string' ||
      res.shard.length > MAX_SHARD_CHARS
    )
      return;
    const r = {
      chunk: k,
      worker: oneLine(res.worker).slice(0, 100),
      shard: res.shard,
      ms: typeof res.ms === 'number' && Number.isFinite(res.ms) && res.ms >= 0 ? res.ms : 0,
      checked: this.opts.verify === 0,
    };
    this.buffered.set(k, r);
    if (!r.checked) this.check(r);
    this.flush();
    this.wake();
  }

  /**
   * Checks a shard: `verify` games of the chunk, chosen at random now, played by the coordinator's
   * own build (the run's, the same flags, one thread: a game is the same wherever it is played)
   * must be in the shard byte for byte. A shard that fails is dropped and its chunk played again.
   */
  private check(r: ChunkResult & { checked: boolean }): void {
    this.checks.push(async () => {
      const k = r.chunk;
      const why = await this.checkShard(k, Buffer.from(r.shard, 'base64')).catch((e: unknown) =>
        this.stopChecks.signal.aborted ? 'the run stopped' : `the check could not run (${(e as Error).message})`,
      );
      if (this.buffered.get(k) !== r) return;
      if (why === undefined) {
        r.checked = true;
      } else {
        this.buffered.delete(k);
        this.notes.note(
          'rejected shards',
          `Note: ${chunkId(k)} from worker ${r.worker} rejected (${why}); it is played again`,
        );
        this.republish.push(k);
      }
      this.flush();
      this.wake();
    });
    this.runChecks();
  }

  private runChecks(): void {
    while (this.checking < VERIFY_AT_ONCE && this.checks.length > 0) {
      const next = this.checks.shift()!;
      this.checking++;
      void next().finally(() => {
        this.checking--;
        this.runChecks();
      });
    }
  }

  /** Why the shard of chunk `k` does not hold the games the coordinator plays of it, or undefined. */
  private async checkShard(k: number, shard: Buffer): Promise<string | undefined> {
    const { chunk, sink } = this;
    for (const game of pickGames(k * chunk, chunk, this.opts.verify)) {
      const mine = await playChunk(
        this.entry!,
        this.settings!,
        this.netFile,
        { chunk: k, first: game, games: 1 },
        this.stopChecks.signal,
      );
      const want = sink.gameOf(new Uint8Array(mine), game);
      const have = sink.gameOf(new Uint8Array(shard), game);
      if (!want) return `game ${game} could not be played here`;
      if (!have || !Buffer.from(have).equals(Buffer.from(want)))
        return `game ${game} is not the game this run plays there`;
    }
    return undefined;
  }

  /** Writes the buffered shards that are next in chunk order. */
  private flush(): void {
    const { buffered, sink, chunk } = this;
    while (!this.stopping && buffered.get(this.writeChunk)?.checked) {
      const k = this.writeChunk;
      const res = buffered.get(k)!;
      buffered.delete(k);
      this.inflight.delete(k);
      let w: ReturnType<DatagenSink['write']>;
      try {
        w = sink.write(k * chunk, chunk, new Uint8Array(Buffer.from(res.shard, 'base64')));
      } catch (e) {
        // The file cannot be written (a full disk): stop; the same command goes on from the file.
        this.halt('stopped', e instanceof Error ? e.message : String(e));
        return;
      }
      if ('rejected' in w) {
        this.notes.note(
          'rejected shards',
          `Note: ${chunkId(k)} from worker ${res.worker} rejected (${oneLine(w.rejected)}); it is played again`,
        );
        this.republish.push(k);
        return;
      }
      this.tally(res, w.positions);
      this.gone.done(chunkId(k));
      this.writeChunk++;
      if (sink.done() || this.writeChunk >= this.endChunk) this.halt('finished');
    }
  }

  private tally(res: ChunkResult, positions: number): void {
    const to = Date.now();
    const t = this.tallies.get(res.worker) ?? {
      id: res.worker,
      chunks: 0,
      positions: 0,
      rate: 0,
      from: to - res.ms,
      to,
    };
    t.chunks++;
    t.positions += positions;
    t.to = to;
    t.from = Math.min(t.from, to - res.ms);
    t.rate = t.positions / Math.max(1e-3, (t.to - t.from) / 1000);
    this.tallies.set(res.worker, t);
  }

  /** Keeps a window of chunks queued ahead of the file: twice the workers' slots (status.ts windowSize). */
  private async topUp(): Promise<void> {
    const { chunk, inflight } = this;
    const want = windowSize(this.slots);
    for (const k of this.republish.splice(0)) {
      inflight.add(k);
      await requeue(this.jobs!, chunkId(k), 'chunk', { chunk: k, first: k * chunk, games: chunk }, JOB_OPTS);
    }
    const add: ChunkJob[] = [];
    while (!this.stopping && this.nextPublish < this.endChunk && this.nextPublish - this.writeChunk < want) {
      const k = this.nextPublish++;
      if (inflight.has(k) || this.buffered.has(k)) continue;
      add.push({ chunk: k, first: k * chunk, games: chunk });
    }
    for (const j of add) inflight.add(j.chunk);
    if (add.length === 0) return;
    await this.jobs!.addBulk(
      add.map((data) => ({ name: 'chunk', data, opts: { ...JOB_OPTS, jobId: chunkId(data.chunk) } })),
    );
  }

  /** The chunks in flight that are gone from the queue with no shard to write (lost-jobs.ts): queued again. */
  private async reconcile(): Promise<void> {
    const waited = [...this.inflight].filter((k) => !this.buffered.has(k)).map(chunkId);
    const lost = await this.gone.check(this.jobs!, this.results!, waited, (data) => {
      const k = (data as { chunk?: unknown } | null)?.chunk;
      return typeof k === 'number' ? chunkId(k) : undefined;
    });
    if (lost.stop !== undefined)
      return this.halt('stopped', `${lost.stop} (run the command again once the workers are fixed)`);
    for (const id of lost.requeue) this.republish.push(Number(id.slice('chunk-'.length)));
  }

  private tallyList(): DatagenWorkerTally[] {
    return [...this.tallies.values()].map(({ id, chunks, positions, rate }) => ({ id, chunks, positions, rate }));
  }

  private async writeStatus(s: RunState, m?: string): Promise<void> {
    const { redis, run, opts } = this;
    const counts = await this.jobs!.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    const workers = await liveWorkers(redis);
    this.slots = workers.filter((w) => w.run === run).reduce((n, w) => n + w.concurrency, 0);
    this.notes.workers(workers);
    const totals = this.sink.totals();
    const status: DatagenStatus = {
      kind: 'datagen',
      run,
      state: s,
      message: m,
      out: path.resolve(opts.out),
      games: totals.games,
      positions: totals.positions,
      targetPositions: opts.targetPositions,
      targetGames: opts.targetGames,
      chunksQueued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
      chunksActive: counts.active ?? 0,
      rate: (totals.positions - this.startPositions) / Math.max(1e-3, (Date.now() - this.t0) / 1000),
      tallies: this.tallyList(),
      refusals: await readRefusals(redis, run),
      workers,
      started: this.started,
      updated: Date.now(),
    };
    await redis.set(keys.status(run), JSON.stringify(status));
  }

  /** Redis must stay reachable, and keep the run: without it the queues and the chunks in flight are gone. */
  private watchRedis(): void {
    const timers = watchRedis(this.redis, this.addr, this.run, this.opts.redisTimeoutMs ?? 10_000, {
      unreachable: (m) => {
        this.lost = new RedisUnreachable(m);
        this.halt('lost', m);
      },
      forgotten: (m) => {
        this.lost = new DatagenRunForgotten(m);
        this.halt('lost', m);
      },
      done: () => this.lost !== undefined || this.stopping,
    });
    this.timers.push(...timers);
  }

  /**
   * Closes the run in Redis. Done (or failed): the workers stop their chunks, the queues go and the
   * status stays a while, written once they are gone (so that it counts nothing queued or in
   * progress). Interrupted: the queues stay for the same command to go on.
   */
  async finish(): Promise<DatagenOutcome> {
    const { redis, run, state, message } = this;
    this.notes.flush();
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
    if (state === 'stopped') throw new DatagenRunError(message ?? 'stopped');
    return { run, state, message, tallies: this.tallyList() };
  }

  /** Closes everything, without waiting long for a Redis that is gone. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.stopChecks.abort();
    this.checks.length = 0;
    if (this.checkDir) rmSync(this.checkDir, { recursive: true, force: true });
    const { consumer, events, jobs, results } = this;
    await within(Promise.all([consumer?.close(true), events?.close(), jobs?.close(), results?.close()]), 3000);
    await this.lock?.release();
    this.redis.disconnect();
  }
}
