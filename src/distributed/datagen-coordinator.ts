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
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import { storeBuild } from './builds';
import {
  type ChunkJob,
  type ChunkResult,
  chunkId,
  type DatagenRunSettings,
  type DatagenStatus,
  type DatagenWorkerTally,
  ownBuild,
  storeNet,
} from './datagen-jobs';
import { connectionOptions, keys, openRedis, QUEUE_PREFIX, type RedisAddress, RedisUnreachable } from './redis';
import { liveWorkers, type RunState } from './status';
import { type Signer, signRun } from './trust';
import { sleep, within } from './wait';

const LOCK_TTL_MS = 15_000;
const KEEP_FINISHED_S = 7 * 24 * 3600;

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
  /** The data file (its absolute path is part of the run id). */
  out: string;
  targetPositions: number | null;
  targetGames: number | null;
  signal: AbortSignal;
  /** Seconds Redis may be unreachable before the run stops. */
  redisTimeoutMs?: number;
  /** The key that signs the run's settings for the workers (src/distributed/trust.ts). */
  signer: Signer;
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
  return createHash('sha256')
    .update(JSON.stringify({ settings, out: path.resolve(out) }))
    .digest('hex')
    .slice(0, 12);
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
  if (!build.ok) throw build.error;
  const redis = await openRedis(addr);
  redis.on('error', () => undefined);
  const me = `${hostname()}:${process.pid}`;
  const timers: NodeJS.Timeout[] = [];
  let jobs: Queue | undefined;
  let results: Queue | undefined;
  let consumer: Worker | undefined;
  let events: QueueEvents | undefined;
  let run = '';
  let lockHeld = false;
  try {
    if (await storeBuild(redis, build.value)) sink.note(`Note: stored ${build.value.text} in Redis for the workers`);
    const net = opts.network ? await storeNet(redis, opts.network) : null;
    const settings: DatagenRunSettings = {
      kind: 'datagen',
      args: opts.args,
      chunk: opts.chunk,
      build: build.value.build,
      net,
    };
    run = datagenRunId(settings, opts.out);

    // The lock: one coordinator per run (one that died holds it for LOCK_TTL_MS at most).
    for (let waited = 0; ; waited++) {
      if ((await redis.set(keys.lock(run), me, 'PX', LOCK_TTL_MS, 'NX')) === 'OK') break;
      const holder = await redis.get(keys.lock(run));
      if (waited === 0)
        sink.note(
          `Note: run ${run} is locked by coordinator ${holder} (one that died frees it within ${LOCK_TTL_MS / 1000} s); waiting`,
        );
      if (waited * 500 > LOCK_TTL_MS + 2000)
        throw new DatagenRunError(`run ${run} is being coordinated by ${holder}: stop it first`);
      await sleep(500);
    }
    lockHeld = true;
    sink.note(
      `Datagen run ${run} on ${addr.text}: ${opts.chunk} games a chunk, played by \`thoth worker ${addr.text}\` processes (thoth match-status ${addr.text} ${run})`,
    );
    timers.push(
      setInterval(() => {
        if (redis.status === 'ready') void redis.set(keys.lock(run), me, 'PX', LOCK_TTL_MS).catch(() => undefined);
      }, LOCK_TTL_MS / 3),
    );

    const bull = await import('bullmq');
    const connection = connectionOptions(addr);
    const q = { connection, prefix: QUEUE_PREFIX };
    jobs = new bull.Queue(keys.pairsQueue(run), q);
    results = new bull.Queue(keys.resultsQueue(run), q);
    jobs.on('error', () => undefined);
    results.on('error', () => undefined);

    const chunk = opts.chunk;
    let writeChunk = Math.floor(sink.nextGame / chunk);
    const endChunk = Number.isFinite(sink.endGame) ? Math.ceil(sink.endGame / chunk) : Infinity;
    const inflight = new Set<number>();
    const buffered = new Map<number, ChunkResult>();
    const known = (await redis.exists(keys.run(run))) === 1;
    if (known) {
      // Chunks queued or being played before: kept; those already written: dropped.
      for (const j of await jobs.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'failed'])) {
        if (!j?.id) continue;
        const k = (j.data as ChunkJob).chunk;
        if (k >= writeChunk && k < endChunk && (await j.getState()) !== 'failed') inflight.add(k);
        else await j.remove().catch(() => undefined);
      }
      // A result that could not be counted (its processor failed): its chunk is played again, and
      // the worker's new result must not be ignored as a duplicate of this job id.
      for (const j of await results.getJobs(['failed'])) await j?.remove().catch(() => undefined);
      // Results not yet counted: their chunks are not asked for again.
      for (const j of await results.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) {
        const k = (j?.data as ChunkResult | undefined)?.chunk;
        if (typeof k === 'number' && k >= writeChunk && k < endChunk) inflight.add(k);
      }
      if (inflight.size > 0)
        sink.note(`Resumed run ${run}: ${inflight.size} chunks queued, being played or finished in Redis`);
    }
    const now = Date.now();
    const settingsText = JSON.stringify(settings);
    await redis.hset(keys.run(run), {
      kind: 'datagen',
      datagen: settingsText,
      ...signRun(opts.signer, run, 'datagen', settingsText),
      state: 'running',
      coordinator: me,
    });
    await redis.hsetnx(keys.run(run), 'started', String(now));
    await redis.zadd(keys.runs, 'NX', now, run);
    await redis.del(keys.refusals(run));

    let stopping = false;
    let state: RunState = 'finished';
    let message: string | undefined;
    let wake: () => void = () => undefined;
    const halt = (s: RunState, m?: string): void => {
      if (stopping) return;
      stopping = true;
      state = s;
      message = m;
      wake();
    };
    if (opts.signal.aborted) halt('interrupted', 'interrupted');
    opts.signal.addEventListener('abort', () => halt('interrupted', 'interrupted'), { once: true });

    const tallies = new Map<string, DatagenWorkerTally & { from: number; to: number }>();
    let nextPublish = writeChunk;
    const republish: number[] = [];
    const flush = (): void => {
      while (!stopping && buffered.has(writeChunk)) {
        const res = buffered.get(writeChunk)!;
        buffered.delete(writeChunk);
        inflight.delete(writeChunk);
        const first = writeChunk * chunk;
        let w: ReturnType<DatagenSink['write']>;
        try {
          w = sink.write(first, chunk, new Uint8Array(Buffer.from(res.shard, 'base64')));
        } catch (e) {
          // The file cannot be written (a full disk): stop; the same command goes on from the file.
          halt('stopped', e instanceof Error ? e.message : String(e));
          return;
        }
        if ('rejected' in w) {
          sink.note(
            `Note: ${chunkId(writeChunk)} from worker ${res.worker} rejected (${w.rejected}); it is played again`,
          );
          republish.push(writeChunk);
          return;
        }
        const t = tallies.get(res.worker) ?? {
          id: res.worker,
          chunks: 0,
          positions: 0,
          rate: 0,
          from: Date.now() - res.ms,
          to: 0,
        };
        t.chunks++;
        t.positions += w.positions;
        t.to = Date.now();
        t.from = Math.min(t.from, t.to - res.ms);
        t.rate = t.positions / Math.max(1e-3, (t.to - t.from) / 1000);
        tallies.set(res.worker, t);
        writeChunk++;
        if (sink.done() || writeChunk >= endChunk) halt('finished');
      }
    };
    const receive = (res: ChunkResult): void => {
      if (
        typeof res?.chunk !== 'number' ||
        res.chunk < writeChunk ||
        buffered.has(res.chunk) ||
        typeof res.shard !== 'string'
      )
        return;
      buffered.set(res.chunk, res);
      flush();
      wake();
    };

    events = new bull.QueueEvents(keys.pairsQueue(run), q);
    events.on('error', () => undefined);
    events.on('stalled', ({ jobId }) =>
      sink.note(`Note: ${jobId} stalled (its worker stopped answering); it goes back to the queue`),
    );
    events.on('failed', ({ jobId, failedReason }) => {
      const m = /^chunk-(\d+)$/.exec(jobId);
      if (!m || !inflight.has(Number(m[1]))) return;
      halt(
        'stopped',
        `${jobId} could not be played: ${failedReason} (run the command again once the workers are fixed)`,
      );
    });
    await within(events.waitUntilReady(), 5000);
    consumer = new bull.Worker(keys.resultsQueue(run), async (job) => receive(job.data as ChunkResult), {
      ...q,
      concurrency: 1,
      removeOnComplete: { count: 0 },
      drainDelay: 1,
    });
    consumer.on('error', () => undefined);

    const t0 = Date.now();
    const startPositions = sink.totals().positions;
    let slots = 0;
    const topUp = async (): Promise<void> => {
      const want = Math.max(8, 2 * slots);
      const add: ChunkJob[] = [];
      for (const k of republish.splice(0)) add.push({ chunk: k, first: k * chunk, games: chunk });
      while (!stopping && nextPublish < endChunk && nextPublish - writeChunk < want) {
        const k = nextPublish++;
        if (inflight.has(k) || buffered.has(k)) continue;
        add.push({ chunk: k, first: k * chunk, games: chunk });
      }
      for (const j of add) {
        inflight.add(j.chunk);
        // A failed result of an earlier try would make BullMQ ignore the new one (same job id).
        const old = await results!.getJob(chunkId(j.chunk));
        if (old && (await old.isFailed())) await old.remove().catch(() => undefined);
      }
      if (add.length > 0) {
        await jobs!.addBulk(
          add.map((data) => ({
            name: 'chunk',
            data,
            opts: {
              jobId: chunkId(data.chunk),
              removeOnComplete: true,
              removeOnFail: false,
              attempts: 3,
              backoff: { type: 'fixed', delay: 1000 },
            },
          })),
        );
      }
    };
    const writeStatus = async (s: RunState, m?: string): Promise<void> => {
      const counts = await jobs!.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      const workers = await liveWorkers(redis);
      slots = workers.filter((w) => w.run === run).reduce((n, w) => n + w.concurrency, 0);
      const totals = sink.totals();
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
        rate: (totals.positions - startPositions) / Math.max(1e-3, (Date.now() - t0) / 1000),
        tallies: [...tallies.values()].map(({ id, chunks, positions, rate }) => ({ id, chunks, positions, rate })),
        refusals: await redis.hgetall(keys.refusals(run)),
        workers,
        started: Number((await redis.hget(keys.run(run), 'started')) ?? now),
        updated: Date.now(),
      };
      await redis.set(keys.status(run), JSON.stringify(status));
    };
    // Redis must stay reachable.
    let downSince: number | undefined;
    let lost: RedisUnreachable | undefined;
    timers.push(
      setInterval(() => {
        if (redis.status === 'ready') downSince = undefined;
        else if (downSince === undefined) downSince = Date.now();
        else if (Date.now() - downSince > (opts.redisTimeoutMs ?? 10_000) && !lost) {
          lost = new RedisUnreachable(
            `lost Redis at ${addr.text} (unreachable for ${Math.round((Date.now() - downSince) / 1000)} s)`,
          );
          halt('lost', lost.message);
        }
      }, 500),
    );
    // Redis back but without the run: the queues and the chunks in flight are gone.
    let checking = false;
    timers.push(
      setInterval(() => {
        if (lost || checking || stopping || redis.status !== 'ready') return;
        checking = true;
        redis
          .exists(keys.run(run))
          .then((n) => {
            if (n !== 0 || lost || stopping) return;
            lost = new DatagenRunForgotten(
              `Redis at ${addr.text} lost this run's queues (did it restart without persistence? run redis-server with --appendonly yes)`,
            );
            halt('lost', lost.message);
          })
          .catch(() => undefined)
          .finally(() => (checking = false));
      }, 500),
    );

    if (sink.done() || writeChunk >= endChunk) halt('finished');
    const refusalsSeen = new Set<string>();
    let lastStatus = 0;
    while (!stopping) {
      if (redis.status === 'ready') {
        try {
          await topUp();
          if (Date.now() - lastStatus > 1000) {
            lastStatus = Date.now();
            for (const [w, why] of Object.entries(await redis.hgetall(keys.refusals(run)))) {
              if (refusalsSeen.has(`${w}\0${why}`)) continue;
              refusalsSeen.add(`${w}\0${why}`);
              sink.note(`Note: worker ${w} refuses this run: ${why}`);
            }
            await writeStatus('running');
          }
        } catch (e) {
          if (redis.status === 'ready') throw e;
        }
      }
      if (!stopping) {
        await new Promise<void>((r) => {
          const t = setTimeout(r, 500);
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
      }
      wake = () => undefined;
    }

    const final = state as RunState;
    const out: DatagenOutcome = {
      run,
      state: final,
      message,
      tallies: [...tallies.values()].map(({ id, chunks, positions, rate }) => ({ id, chunks, positions, rate })),
    };
    if (lost) throw lost;
    await within(consumer.close(true), 2000);
    await redis.hset(keys.run(run), 'state', final);
    await writeStatus(final, message);
    if (final !== 'interrupted') {
      // Done (or failed): the workers stop their chunks; the queues go, the status stays a while.
      await redis.publish(keys.control(run), 'stop');
      await within(jobs.obliterate({ force: true }), 5000);
      await within(results.obliterate({ force: true }), 5000);
      for (const k of [keys.run(run), keys.status(run), keys.refusals(run)]) await redis.expire(k, KEEP_FINISHED_S);
    }
    if (final === 'stopped') throw new DatagenRunError(message ?? 'stopped');
    return out;
  } finally {
    for (const t of timers) clearInterval(t);
    await within(Promise.all([consumer?.close(true), events?.close(), jobs?.close(), results?.close()]), 3000);
    if (lockHeld && redis.status === 'ready') {
      await within(
        redis.eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
          1,
          keys.lock(run),
          me,
        ),
        1000,
      );
    }
    redis.disconnect();
  }
}
