/**
 * A worker of distributed runs (`thoth worker redis://…`): it serves one run at a time (the oldest
 * running run with pairs waiting that it can play), plays its pair jobs on `concurrency` game slots
 * with the same game code as a local run (slot.ts, referee.ts), and returns each pair's games as a
 * result job. Before it takes a run's jobs it gets every engine's exact build (a Thoth build from
 * its cache or from Redis; other engines' files checked here) and starts each engine once; a run
 * it cannot play that way it refuses, with the reason written to the run for the coordinator.
 *
 * BullMQ keeps the pairs safe: a job's lock is renewed while it is played, and a worker that dies
 * (kill -9) loses its locks, so another worker's stalled-job check puts the pair back in the queue.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { oneLine } from '../core/quote';
import { EngineStartError, MatchInterrupted } from '../match/errors';
import { GameSlot, playPair, startEngine } from '../match/slot';
import { buildProblem, localEngine, shortSum } from './builds';
import { engineEvaluation } from './engine-network';
import { type PairJob, type PairResult, type RunSettings, reportGame, type SignedJob } from './jobs';
import { type DatagenWorkerHost, serveDatagen } from './worker-datagen';
import { serveReview } from './worker-review';
import { keys, openRedis, QUEUE_PREFIX, type RedisAddress } from './redis';
import { followRun } from './run-queue';
import { refuseUnsigned, type TrustedKey } from './trust';
import { linkedStop, sleep } from './wait';

export interface WorkerOptions {
  /** Pairs played at once (each on its own engine processes). */
  concurrency: number;
  cacheDir: string;
  /** BullMQ's job lock; a pair whose worker stops renewing it for this long counts as stalled. */
  lockDurationMs: number;
  /** How often this worker looks for stalled pairs (of any worker). */
  stalledIntervalMs: number;
  /** Stalls a pair may have before it fails (and stops the run). */
  maxStalledCount: number;
  /** How often to look for runs when idle. */
  pollMs: number;
  write: (line: string) => void;
  /** Aborting lets the pairs in progress finish, then the worker ends. */
  signal: AbortSignal;
  /** Aborting ends the pairs in progress at once (they are played again elsewhere). */
  kill: AbortSignal;
  /** Ends when no run has work (for tests and scripts) instead of waiting for runs. */
  exitWhenIdle?: boolean;
  /** The coordinators' public keys (`--trust`): a run not signed by one of them is refused. */
  trusted: TrustedKey[];
  /** Engines other than Thoth builds this worker may run (`--allow-engine`, real paths: files or folders). */
  allowEngines: string[];
}

/** Runs a worker until its signal is aborted. Throws RedisUnreachable when Redis cannot be reached at the start. */
export async function runWorker(addr: RedisAddress, opts: WorkerOptions): Promise<void> {
  const redis = await openRedis(addr);
  redis.on('error', () => undefined);
  const w = new RunWorker(addr, redis, opts);
  try {
    await w.loop();
  } finally {
    await w.close();
  }
}

/** Why a pair job is malformed (engine indices out of range, an opening that is not one line), or undefined. */
export function pairJobProblem(data: PairJob, engines: number): string | undefined {
  const idx = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 0 && (n as number) < engines;
  if (!Array.isArray(data?.games) || data.games.length < 1 || data.games.length > 2) return 'no games';
  for (const g of data.games) {
    if (
      !Number.isSafeInteger(g?.index) ||
      g.index < 0 ||
      !idx(g.first) ||
      !idx(g.second) ||
      typeof g.roundTag !== 'string' ||
      /[\0-\x1f]/.test(g.roundTag)
    )
      return 'a bad game';
  }
  const o = data.opening;
  if (typeof o?.kfen !== 'string' || typeof o.label !== 'string' || /[\0-\x1f\x7f]/.test(o.kfen + o.label))
    return 'a bad opening';
  return undefined;
}

/**
 * A pair job as the coordinator queued it (jobs.ts SignedJob): its text checked against the
 * signature by the run's key and read; or why not, in words.
 */
function signedPairJob(
  trusted: readonly TrustedKey[],
  run: string,
  signer: string,
  id: string,
  data: unknown,
): PairJob | string {
  const { body, sig } = (data ?? {}) as Partial<SignedJob>;
  if (typeof body !== 'string' || typeof sig !== 'string') return 'it is not signed';
  const why = refuseUnsigned(trusted, run, `job ${id}`, body, sig, signer);
  if (why !== undefined) return "it does not match its signature by the run's key (changed in Redis)";
  try {
    return JSON.parse(body) as PairJob;
  } catch {
    return 'its text is not JSON';
  }
}

/** A run's settings from their (signed) text, or why this worker cannot take them. */
function readRunSettings(body: string): RunSettings | string {
  let settings: RunSettings;
  try {
    settings = JSON.parse(body) as RunSettings;
    if (
      !Array.isArray(settings.engines) ||
      !Array.isArray(settings.builds) ||
      settings.builds.length !== settings.engines.length ||
      !Array.isArray(settings.names)
    ) {
      throw new Error('no engines');
    }
  } catch {
    return 'its settings are not a run this worker understands (a newer or older Thoth?)';
  }
  for (const b of settings.builds) {
    const why = buildProblem(b);
    if (why !== undefined) return why;
  }
  return settings;
}

/** A match run being served: its local settings, queues and game slots. */
interface ServedRun {
  run: string;
  local: RunSettings;
  bull: typeof import('bullmq');
  results: Queue;
  free: GameSlot[];
  /** An engine would not start here: the worker leaves the run once its jobs are handed back. */
  leave: boolean;
  /** The id of the key that signed the run: its jobs must be signed by it too. */
  signer: string;
}
class RunWorker {
  readonly id = `${hostname()}:${process.pid}`;
  private busy = 0;
  private pairs = 0;
  private current: string | null = null;
  /** Runs this worker cannot play, with the reason. */
  private readonly refused = new Map<string, string>();
  private readonly queues = new Map<string, Queue>();
  private heartbeat?: NodeJS.Timeout;
  private redisDown = false;

  constructor(
    private readonly addr: RedisAddress,
    private readonly redis: Redis,
    private readonly opts: WorkerOptions,
  ) {}

  private async beat(): Promise<void> {
    const r = this.redis;
    const sent = r
      .multi()
      .hset(keys.worker(this.id), {
        concurrency: this.opts.concurrency,
        busy: this.busy,
        run: this.current ?? '',
        pairs: this.pairs,
      })
      .pexpire(keys.worker(this.id), 15_000)
      .zadd(keys.workers, Date.now(), this.id)
      .exec();
    // A Redis that is away holds commands until it is back: say so after a while.
    await Promise.race([
      sent,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 3000).unref()),
    ]);
  }

  async loop(): Promise<void> {
    const { opts } = this;
    opts.write(
      `Worker ${this.id}: ${opts.concurrency} slots, builds cached in ${opts.cacheDir}, runs signed by key ${opts.trusted.map((k) => k.id).join(' or ')}`,
    );
    await this.beat();
    this.heartbeat = setInterval(() => {
      this.beat().then(
        () => {
          if (this.redisDown) opts.write('Redis is back');
          this.redisDown = false;
        },
        () => {
          if (!this.redisDown) opts.write(`Redis at ${this.addr.text} is unreachable; retrying`);
          this.redisDown = true;
        },
      );
    }, 2000);
    let idleSaid = false;
    while (!opts.signal.aborted) {
      let run: string | undefined;
      try {
        run = await this.pickRun();
      } catch {
        await sleep(opts.pollMs, opts.signal);
        continue;
      }
      if (run === undefined) {
        if (opts.exitWhenIdle) break;
        if (!idleSaid) opts.write('Waiting for a run with pairs to play');
        idleSaid = true;
        await sleep(opts.pollMs, opts.signal);
        continue;
      }
      idleSaid = false;
      await this.serve(run);
    }
  }

  private queue(run: string): Queue {
    let q = this.queues.get(run);
    if (!q) {
      // Created on demand; the module is loaded by then (serve and pickRun import it first).
      q = new this.bull!.Queue(keys.pairsQueue(run), { connection: this.redis, prefix: QUEUE_PREFIX });
      q.on('error', () => undefined);
      this.queues.set(run, q);
    }
    return q;
  }

  private bull?: typeof import('bullmq');

  /** The oldest running run with pairs waiting that this worker has not refused. */
  private async pickRun(): Promise<string | undefined> {
    this.bull ??= await import('bullmq');
    const runs = await this.redis.zrange(keys.runs, '0', '-1');
    for (const run of runs) {
      if (this.refused.has(run)) continue;
      if ((await this.redis.hget(keys.run(run), 'state')) !== 'running') continue;
      const c = await this.queue(run).getJobCounts('waiting', 'prioritized');
      if ((c.waiting ?? 0) + (c.prioritized ?? 0) > 0) return run;
    }
    return undefined;
  }

  /** Refuses a run: the reason goes to the run (the coordinator prints it) and to this worker's output. */
  private async refuse(run: string, why: string): Promise<void> {
    this.refused.set(run, why);
    this.opts.write(`Refusing run ${run}: ${why}`);
    await this.redis.hset(keys.refusals(run), this.id, why).catch(() => undefined);
  }

  /** Plays a run's pairs until the run ends, or it has no pairs waiting and another run has. */
  private async serve(run: string): Promise<void> {
    const { opts, redis } = this;
    // Nothing from Redis is run or parsed before its signature is checked (docs/distributed.md, Trust).
    const [datagen, text, sig, signer, review] = await redis.hmget(
      keys.run(run),
      'datagen',
      'settings',
      'sig',
      'signer',
      'review',
    );
    const field = datagen !== null ? 'datagen' : review !== null ? 'review' : 'settings';
    const body = datagen ?? review ?? text;
    if (body === null) return;
    const unsigned = refuseUnsigned(opts.trusted, run, field, body, sig, signer);
    if (unsigned !== undefined) return this.refuse(run, unsigned);
    if (datagen !== null) return serveDatagen(await this.datagenHost(), run, datagen);
    if (review !== null) return serveReview(await this.datagenHost(), run, review, signer!);
    const settings = readRunSettings(body);
    if (typeof settings === 'string') return this.refuse(run, settings);
    const local = await this.localRun(run, settings);
    if (local) await this.playRun(run, settings, local, signer!);
  }

  /**
   * The run with this worker's engines: exactly the builds the coordinator named, each started
   * once; or undefined when one cannot be had (the run is refused) or the worker is stopping.
   */
  private async localRun(run: string, settings: RunSettings): Promise<RunSettings | undefined> {
    const { opts, redis } = this;
    const engines = [];
    for (const [i, spec] of settings.engines.entries()) {
      const local = await localEngine(redis, spec, settings.builds[i], opts.cacheDir, opts.allowEngines);
      if (!local.ok) {
        await this.refuse(run, local.error.message);
        return undefined;
      }
      engines.push(local.value);
    }
    const local: RunSettings = { ...settings, engines };
    const check = new AbortController();
    const onKillCheck = (): void => check.abort();
    opts.kill.addEventListener('abort', onKillCheck, { once: true });
    try {
      for (const [i, spec] of engines.entries()) {
        const e = await startEngine(spec, local, check.signal);
        try {
          // The same evaluation as on the coordinator, or the run is refused (engine-network.ts).
          const want = settings.evaluations?.[i];
          if (typeof want === 'string') {
            const here = await engineEvaluation(e, local.startTimeoutMs);
            if (here !== want) {
              await this.refuse(
                run,
                `engine '${oneLine(spec.name).slice(0, 60)}' evaluates otherwise here than on the coordinator (here: ${here ?? 'no answer to eval'}; the coordinator: ${oneLine(want)})`,
              );
              return undefined;
            }
          }
        } finally {
          await e.quit(200);
        }
      }
    } catch (e) {
      if (e instanceof EngineStartError) await this.refuse(run, e.message);
      if (e instanceof EngineStartError || e instanceof MatchInterrupted) return undefined;
      throw e;
    } finally {
      opts.kill.removeEventListener('abort', onKillCheck);
    }
    return local;
  }

  /** Takes the run's pair jobs, `--concurrency` at once, and writes their results. */
  private async playRun(run: string, settings: RunSettings, local: RunSettings, signer: string): Promise<void> {
    const { opts, redis } = this;
    this.current = run;
    opts.write(
      `Serving run ${run}: ${settings.names.join(' vs ')} (${settings.builds.map((b, i) => `${settings.names[i]} ${b.kind === 'thoth' ? 'Thoth build' : 'files'} ${shortSum(b.checksum)}`).join(', ')})`,
    );
    const bull = this.bull ?? (this.bull = await import('bullmq'));
    const results = new bull.Queue(keys.resultsQueue(run), { connection: this.redis, prefix: QUEUE_PREFIX });
    results.on('error', () => undefined);
    const never = new AbortController();
    const free: GameSlot[] = Array.from(
      { length: opts.concurrency },
      () => new GameSlot(local, settings.names, never.signal, (l) => opts.write(l)),
    );
    const served: ServedRun = { run, local, bull, results, free, leave: false, signer };
    try {
      await followRun({
        bull,
        redis,
        addr: this.addr,
        run,
        id: this.id,
        opts,
        noun: 'pair',
        processor: (job, token, signal) => this.playJob(served, job, token, signal),
        waiting: () => this.waitingCount(run),
        pickRun: () => this.pickRun(),
        leave: () => served.leave,
      });
    } finally {
      await results.close();
      await Promise.all(free.map((s) => s.close(opts.kill.aborted)));
      this.current = null;
    }
  }

  /** One pair job on a free game slot: its result written, or the job back to the queue. */
  private async playJob(served: ServedRun, job: Job, token?: string, signal?: AbortSignal): Promise<unknown> {
    const { opts } = this;
    const { run, bull, free } = served;
    const slot = free.pop();
    if (!slot) throw new Error('no free game slot');
    this.busy++;
    const stop = linkedStop(signal, opts.kill);
    const t0 = Date.now();
    try {
      slot.dropDead();
      // The queue is writable by every worker's Redis user: a job is played only as the coordinator
      // signed it, and checked before use; one that is not is failed at once (the coordinator queues it again).
      const data = signedPairJob(opts.trusted, run, served.signer, String(job.id), job.data);
      if (typeof data === 'string') throw new bull.UnrecoverableError(`${job.id} is not a job of this run: ${data}`);
      const bad = pairJobProblem(data, served.local.engines.length);
      if (bad !== undefined) throw new bull.UnrecoverableError(`${job.id} is not a pair job of this run (${bad})`);
      let r;
      try {
        r = await playPair(slot, data.games, data.opening, served.local.recover, stop.signal);
      } catch (e) {
        if (!(e instanceof EngineStartError || e instanceof MatchInterrupted)) throw e;
        if (e instanceof EngineStartError) {
          served.leave = true;
          await this.refuse(run, e.message);
        }
        await slot.close(true);
        await job.moveToWait(token);
        throw new bull.WaitingError();
      }
      if (r.aborted) {
        await slot.close(true);
        if (opts.kill.aborted) {
          // This worker is going away: the pair goes back to the queue for another worker.
          await job.moveToWait(token);
          throw new bull.WaitingError();
        }
        return { cancelled: true };
      }
      const result: PairResult = {
        pair: job.id!,
        worker: this.id,
        games: r.played.map((p) => reportGame(p.game.index, p.outcome)),
        ms: Date.now() - t0,
      };
      // A result of its own (not the pair's id: a forged result under that id would hide this one).
      await served.results.add('result', result, { jobId: `${job.id}.${randomUUID()}`, removeOnComplete: false });
      this.pairs++;
      opts.write(
        `Played ${job.id} of run ${run} (${r.played.map((p) => `${p.game.roundTag} ${p.outcome.record.result}`).join(', ')}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      return { games: r.played.length };
    } finally {
      stop.release();
      free.push(slot);
      this.busy--;
    }
  }

  /** This worker as a datagen or review run's chunks need it (worker-datagen.ts, worker-review.ts). */
  private async datagenHost(): Promise<DatagenWorkerHost> {
    const bull = this.bull ?? (this.bull = await import('bullmq'));
    return {
      id: this.id,
      addr: this.addr,
      redis: this.redis,
      opts: this.opts,
      bull,
      refuse: (run, why) => this.refuse(run, why),
      busy: (delta) => {
        this.busy += delta;
      },
      done: () => {
        this.pairs++;
      },
      setRun: (run) => {
        this.current = run;
      },
      pickRun: () => this.pickRun(),
      waitingCount: (run) => this.waitingCount(run),
    };
  }

  /** The jobs waiting in a run's queue. */
  private async waitingCount(run: string): Promise<number> {
    const c = await this.queue(run).getJobCounts('waiting', 'prioritized');
    return (c.waiting ?? 0) + (c.prioritized ?? 0);
  }

  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.race([
      (async () => {
        await this.redis.zrem(keys.workers, this.id);
        await this.redis.del(keys.worker(this.id));
      })().catch(() => undefined),
      sleep(1000),
    ]);
    for (const q of this.queues.values()) await Promise.race([q.close(), sleep(1000)]);
    this.redis.disconnect();
  }
}
