/**
 * The coordinator of a distributed run (`thoth match … -distributed redis://…`): it does what a
 * local run does before its first game (engines started once for their names, -resume counted),
 * stores the Thoth builds in Redis, publishes the schedule as BullMQ jobs of one game pair each
 * (a window of them ahead of the results, so an SPRT run never queues more than the workers can
 * take), and counts the results the workers return in the same Ledger as a local run: the same
 * lines, summaries, record file and stops.
 *
 * In Redis (src/distributed/redis.ts names the keys): the run's settings and state, the queue of
 * pair jobs (`pairs-<run>`), the queue of results (`results-<run>`, job id = pair id: a pair that
 * two workers finished is stored once), the live status and the LLR series, a lock held while a
 * coordinator runs. A coordinator that dies leaves all of it; `-resume FILE` with the same flags
 * finds the run again (its id is a hash of the settings and the record file) and counts what the
 * workers finished meanwhile.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../core/result';
import type { MatchConfig } from '../match/config';
import { EngineStartError, MatchConfigError, MatchInterrupted, type MatchError } from '../match/errors';
import { recordPath, type Halt, type MatchSummary, type StopReason } from '../match/ledger';
import type { ScheduledGame } from '../match/schedule';
import { prepareRun, type RunOptions } from '../match/tournament';
import { BuildError, identifyEngine, storeBuild, type IdentifiedBuild } from './builds';
import { checkResult, gameOutcome, pairGames, pairId, type PairJob, type PairResult, type RunSettings } from './jobs';
import { QUEUE_PREFIX, RedisUnreachable, connectionOptions, keys, openRedis, redisAddress, type RedisAddress } from './redis';
import { ledgerStatus, liveWorkers, oneLine, type RunState, type RunStatus } from './status';
import { signerFor, signRun, type Signer } from './trust';
import { sleep, within } from './wait';

export type DistributedError = MatchError | RedisUnreachable | BuildError;

const LOCK_TTL_MS = 15_000;
/** How long a finished run's status stays in Redis. */
const KEEP_FINISHED_S = 7 * 24 * 3600;

/** The run's id: a hash of what makes it this run (settings, schedule, openings, the record file). */
function runId(cfg: MatchConfig, settings: RunSettings): string {
  const rec = recordPath(cfg);
  const what = {
    settings,
    rounds: Number.isFinite(cfg.rounds) ? cfg.rounds : null,
    games: cfg.games,
    tournament: cfg.tournament,
    openings: cfg.openings,
    srand: cfg.srand,
    sprt: cfg.sprt ?? null,
    record: rec === undefined ? null : path.resolve(rec),
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 12);
}

/**
 * Plays a run on workers. Errors before the first game are returned as for a local run
 * (MatchConfigError, EngineStartError), plus BuildError (an engine's files cannot be read) and
 * RedisUnreachable (also when Redis is lost during the run: the summary so far is printed first).
 */
export async function runDistributed(cfg: MatchConfig, opts: RunOptions): Promise<Result<MatchSummary, DistributedError>> {
  const setting = cfg.distributed;
  if (!setting) throw new Error('runDistributed without -distributed');
  const addr = redisAddress(setting.url, { caFile: setting.caFile, passwordFile: setting.passwordFile });
  if (!addr.ok) return err(new MatchConfigError(`-distributed: ${addr.error.message}`));
  const signer = signerFor(setting.signKey);
  if (!signer.ok) return err(new MatchConfigError(`-distributed: ${signer.error.message}`));
  let redis: Redis;
  try {
    redis = await openRedis(addr.value);
  } catch (e) {
    if (e instanceof RedisUnreachable) return err(e);
    throw e;
  }
  const c = new Coordinator(cfg, addr.value, redis, opts, signer.value);
  try {
    return await c.run();
  } catch (e) {
    if (e instanceof MatchConfigError || e instanceof EngineStartError || e instanceof MatchInterrupted || e instanceof BuildError || e instanceof RedisUnreachable) {
      return err(e);
    }
    throw e;
  } finally {
    await c.close();
  }
}

class Coordinator {
  private readonly stop = new AbortController();
  private readonly id = `${hostname()}:${process.pid}`;
  private run_ = '';
  private pairs?: Queue;
  private results?: Queue;
  private resultsWorker?: Worker;
  private events?: QueueEvents;
  private timers: NodeJS.Timeout[] = [];
  private lockHeld = false;

  constructor(
    private readonly cfg: MatchConfig,
    private readonly addr: RedisAddress,
    private readonly redis: Redis,
    private readonly opts: RunOptions,
    private readonly signer: Signer,
  ) {}

  async run(): Promise<Result<MatchSummary, DistributedError>> {
    const opts = this.opts;
    const onUserAbort = (): void => this.stop.abort();
    opts.signal?.addEventListener('abort', onUserAbort, { once: true });
    if (opts.signal?.aborted) this.stop.abort();
    try {
      return await this.play();
    } finally {
      opts.signal?.removeEventListener('abort', onUserAbort);
    }
  }

  private async play(): Promise<Result<MatchSummary, DistributedError>> {
    const { cfg, redis } = this;
    // Before the -resume file is read: the builds identified (Thoth builds stored for the
    // workers), the run's id, and its lock (a coordinator that died may still hold it a while).
    const identified: IdentifiedBuild[] = [];
    let settings: RunSettings | undefined;
    const prepared = await prepareRun(cfg, this.opts, this.stop.signal, async (ledger) => {
      for (const spec of cfg.engines) {
        const b = identifyEngine(spec);
        if (!b.ok) throw b.error;
        identified.push(b.value);
        if (await storeBuild(redis, b.value)) ledger.write(`Note: engine ${spec.name}: stored ${b.value.text} in Redis for the workers`);
      }
      settings = {
        engines: cfg.engines,
        variant: cfg.variant,
        noRemovalLimit: cfg.noRemovalLimit,
        adjudication: cfg.adjudication,
        pingTimeoutMs: cfg.pingTimeoutMs,
        startTimeoutMs: cfg.startTimeoutMs,
        searchTimeoutMs: cfg.searchTimeoutMs,
        event: cfg.event,
        site: cfg.site,
        recover: cfg.recover,
        names: ledger.names,
        builds: identified.map((b) => b.build),
      };
      this.run_ = runId(cfg, settings);
      await this.takeLock(this.run_, (l) => ledger.write(l));
    });
    await Promise.all([...prepared.engines.values()].map((e) => e.quit(200)));
    const { ledger, schedule, book } = prepared;
    const run = this.run_;

    const { Queue, Worker, QueueEvents } = await import('bullmq');
    const connection = connectionOptions(this.addr);
    const q = { connection, prefix: QUEUE_PREFIX };
    const pairs = (this.pairs = new Queue(keys.pairsQueue(run), q));
    const results = (this.results = new Queue(keys.resultsQueue(run), q));
    pairs.on('error', () => undefined);
    results.on('error', () => undefined);

    const known = (await redis.exists(keys.run(run))) === 1;
    if (known && cfg.resume === undefined) {
      ledger.write(`Note: run ${run} was in Redis already (the same flags and record file): starting it afresh (-resume continues a run)`);
      await this.forget(run);
    }
    const now = Date.now();
    const settingsText = JSON.stringify(settings!);
    await redis.hset(keys.run(run), { settings: settingsText, ...signRun(this.signer, run, 'settings', settingsText), state: 'running', coordinator: this.id });
    await redis.hsetnx(keys.run(run), 'started', String(now));
    await redis.zadd(keys.runs, 'NX', now, run);
    if (!known || cfg.resume === undefined) await redis.del(keys.llr(run), keys.refusals(run));
    for (const [i, b] of identified.entries()) if (b.build.kind === 'files') ledger.write(`Note: engine ${cfg.engines[i].name}: workers need ${b.text}`);

    // What the run stops on.
    let stopReason: StopReason = 'done';
    let stopMessage: string | undefined;
    let stopping = false;
    let cancelGames = false;
    let lost: RedisUnreachable | undefined;
    // Every wait on Redis in the loop ends when Redis is declared lost (commands to a Redis that
    // is gone wait for it to come back).
    let onLost: (e: RedisUnreachable) => void = () => undefined;
    const lostSignal = new Promise<never>((_, reject) => (onLost = reject));
    lostSignal.catch(() => undefined);
    const guard = <T>(p: Promise<T>): Promise<T> => Promise.race([p, lostSignal]);
    let wake: () => void = () => undefined;
    const halt = (reason: StopReason, message?: string, abortGames = false): void => {
      if (stopping) return;
      stopping = true;
      stopReason = reason;
      stopMessage = message;
      cancelGames = abortGames;
      wake();
    };
    const haltOn = (h: Halt | undefined): void => {
      if (h) halt(h.reason, h.message, h.abortGames);
    };
    this.stop.signal.addEventListener('abort', () => halt('interrupted', 'interrupted'));

    // Pairs in flight: queued or being played (pair id → schedule indices).
    const inflight = new Map<string, number[]>();
    const queuedGames = new Set<number>();
    const track = (id: string, games: number[]): void => {
      inflight.set(id, games);
      for (const g of games) queuedGames.add(g);
    };
    const untrack = (id: string): void => {
      for (const g of inflight.get(id) ?? []) queuedGames.delete(g);
      inflight.delete(id);
    };
    if (known && cfg.resume !== undefined) {
      for (const job of await pairs.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) {
        if (job?.id) track(job.id, (job.data as PairJob).games.map((g) => g.index));
      }
      for (const job of await pairs.getJobs(['failed'])) await job?.remove().catch(() => undefined);
    }

    // Counting a result. The pair id is the key: BullMQ keeps one result per pair id, and games
    // already counted (in the record file, or by a result seen before) are not counted again.
    let statusDirty = true;
    const count = (res: PairResult): void => {
      const scheduled = inflight.get(res.pair) ?? this.pairIndices(schedule, res.pair);
      for (const gr of checkResult(res, scheduled)) {
        if (ledger.done.has(gr.index) || (stopping && cancelGames)) continue;
        haltOn(ledger.add(schedule.game(gr.index), gameOutcome(gr)));
        if (cfg.sprt) void redis.rpush(keys.llr(run), `${ledger.finished.length} ${ledger.standings.llr(cfg.sprt)}`).catch(() => undefined);
      }
      untrack(res.pair);
      statusDirty = true;
      wake();
    };
    ledger.openRecords();
    if (known && cfg.resume !== undefined) {
      const stored = (await results.getJobs(['completed', 'waiting', 'active', 'delayed', 'prioritized', 'failed'])).filter((j) => j !== undefined);
      stored.sort((a, b) => a.timestamp - b.timestamp);
      const before = ledger.finished.length;
      for (const j of stored) count(j.data as PairResult);
      if (ledger.finished.length > before) ledger.write(`Resumed ${ledger.finished.length - before} more games from the workers' results in Redis`);
      if (inflight.size > 0) ledger.write(`Resumed ${inflight.size} pairs still queued or being played`);
    }
    ledger.planLine(`distributed ${this.addr.text} (run ${run})`);
    haltOn(ledger.outputHalt() ?? ledger.sprtHalt());

    // Queue events: stalled pairs go back to the queue by themselves; a failed one stops the run.
    const events = (this.events = new QueueEvents(keys.pairsQueue(run), q));
    events.on('error', () => undefined);
    events.on('stalled', ({ jobId }) => ledger.write(`Note: ${jobId} stalled (its worker stopped answering); it goes back to the queue`));
    events.on('failed', ({ jobId, failedReason }) => {
      if (!inflight.has(jobId)) return;
      halt('fault', `${jobId} could not be played: ${failedReason} (continue with -resume once the workers are fixed)`, true);
    });
    await within(events.waitUntilReady(), 5000);

    const rw = (this.resultsWorker = new Worker(
      keys.resultsQueue(run),
      async (job) => {
        count(job.data as PairResult);
      },
      { ...q, concurrency: 1, removeOnComplete: { count: 10_000 }, drainDelay: 1 },
    ));
    rw.on('error', () => undefined);

    // Workers refusing the run (they cannot get a build, or an engine does not start there).
    const refusalsSeen = new Set<string>();
    const checkRefusals = async (): Promise<void> => {
      const r = await redis.hgetall(keys.refusals(run));
      for (const [w, why] of Object.entries(r)) {
        if (refusalsSeen.has(`${w}\0${why}`)) continue;
        refusalsSeen.add(`${w}\0${why}`);
        ledger.write(`Note: worker ${oneLine(w)} refuses this run: ${oneLine(why)}`);
      }
    };

    // The window: enough pairs queued for every worker slot twice over.
    const total = schedule.total;
    let cursor = 0;
    const nextPair = (): ScheduledGame[] | undefined => {
      while (cursor < total) {
        const first = schedule.game(cursor);
        const games = pairGames(first, cursor + 1 < total ? schedule.game(cursor + 1) : undefined);
        cursor += games.length;
        const todo = games.filter((g) => !ledger.done.has(g.index) && !queuedGames.has(g.index));
        if (todo.length > 0) return todo;
      }
      return undefined;
    };
    let slots = 0;
    const topUp = async (): Promise<void> => {
      const want = Math.max(8, 2 * slots);
      const jobs: { name: string; data: PairJob; opts: { jobId: string } }[] = [];
      while (!stopping && inflight.size < want) {
        const games = nextPair();
        if (!games) break;
        const id = pairId(this.pairFirst(schedule, games[0]));
        track(id, games.map((g) => g.index));
        jobs.push({ name: 'pair', data: { games, opening: book.get(games[0].openingIndex) }, opts: { jobId: id } });
      }
      if (jobs.length > 0) {
        await pairs.addBulk(jobs.map((j) => ({ ...j, opts: { ...j.opts, removeOnComplete: true, removeOnFail: false, attempts: 3, backoff: { type: 'fixed', delay: 1000 } } })));
      }
    };

    const writeStatus = async (state: RunState, message?: string): Promise<void> => {
      const counts = await pairs.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      const workers = await liveWorkers(redis);
      slots = workers.reduce((n, w) => n + w.concurrency, 0);
      const status: RunStatus = {
        run,
        state,
        message,
        ...ledgerStatus(cfg, ledger),
        pairsQueued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
        pairsActive: counts.active ?? 0,
        refusals: await redis.hgetall(keys.refusals(run)),
        workers,
        started: Number((await redis.hget(keys.run(run), 'started')) ?? now),
        updated: Date.now(),
      };
      await redis.set(keys.status(run), JSON.stringify(status));
    };

    // Redis must stay reachable: after `timeout` without it the run stops (the records so far are in the file).
    let downSince: number | undefined;
    this.every(500, () => {
      if (redis.status === 'ready') downSince = undefined;
      else if (downSince === undefined) downSince = Date.now();
      else if (Date.now() - downSince > (cfg.distributed?.redisTimeoutMs ?? 10_000) && !lost) {
        lost = new RedisUnreachable(`lost Redis at ${this.addr.text} (unreachable for ${Math.round((Date.now() - downSince) / 1000)} s)`);
        onLost(lost);
        halt('fault', `${lost.message}; the records so far are in ${recordPath(cfg) ?? 'no file (no -pgnout)'}`);
      }
    });
    // Redis back, but without the run (it restarted without persistence, or the keys were
    // evicted): the queues and the pairs in flight are gone, so nothing would ever come back.
    let checking = false;
    this.every(500, () => {
      if (lost || checking || redis.status !== 'ready') return;
      checking = true;
      redis
        .exists(keys.run(run))
        .then((n) => {
          if (n !== 0 || lost) return;
          const rec = recordPath(cfg);
          lost = new RedisUnreachable(
            `Redis at ${this.addr.text} lost this run's queues (did it restart without persistence? run redis-server with --appendonly yes)` +
              (rec !== undefined ? `; the records so far are in ${rec}: -resume ${rec} finishes the run` : ''),
          );
          onLost(lost);
          halt('fault', lost.message);
        })
        .catch(() => undefined)
        .finally(() => (checking = false));
    });
    this.every(LOCK_TTL_MS / 3, () => {
      if (redis.status === 'ready') void redis.set(keys.lock(run), this.id, 'PX', LOCK_TTL_MS).catch(() => undefined);
    });

    // The loop: top up, publish the status, until the run is done or stops.
    let lastStatus = 0;
    const isDone = (): boolean => Number.isFinite(total) && ledger.done.size >= total;
    while (!stopping && !isDone()) {
      if (redis.status === 'ready') {
        try {
          await guard(topUp());
          if (statusDirty || Date.now() - lastStatus > 2000) {
            statusDirty = false;
            lastStatus = Date.now();
            await guard(checkRefusals());
            await guard(writeStatus('running'));
          }
        } catch (e) {
          if (!lost && redis.status === 'ready') throw e;
        }
      }
      if (!stopping && !isDone()) await new Promise<void>((r) => {
        const t = setTimeout(r, 500);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      wake = () => undefined;
    }

    // Stopping: what becomes of the pairs still queued and those being played.
    let detail = '';
    let state: RunState = 'finished';
    const reason = stopReason as StopReason;
    if (lost) {
      state = 'lost';
    } else if (reason === 'interrupted') {
      state = 'interrupted';
      const n = inflight.size;
      if (n > 0) ledger.write(`Note: the workers go on with the ${n} pairs queued or in progress; -resume counts them`);
    } else if (reason === 'fault' && !cancelGames) {
      // As locally: the games in progress are let finish and counted.
      const removed = await this.removeQueued(pairs, untrack);
      state = 'stopped';
      if (removed > 0) ledger.write(`Note: ${removed} queued pairs removed; waiting for the ${inflight.size} pairs in progress`);
      while (inflight.size > 0 && redis.status === 'ready' && !this.stop.signal.aborted) {
        await sleep(200);
        const active = new Set((await pairs.getJobs(['active', 'waiting', 'delayed'])).map((j) => j?.id));
        for (const id of [...inflight.keys()]) if (!active.has(id) && !(await results.getJob(id))) untrack(id);
      }
    } else if (reason === 'sprt' || reason === 'fault') {
      state = reason === 'sprt' ? 'finished' : 'stopped';
      const removed = await this.removeQueued(pairs, untrack);
      const active = await pairs.getActiveCount();
      await redis.hset(keys.run(run), 'state', state);
      await redis.publish(keys.control(run), 'stop');
      detail = `; ${removed} queued pairs removed, ${active} pairs in progress cancelled`;
    }
    if (!lost) {
      await within(rw.close(true), 2000);
      await redis.hset(keys.run(run), 'state', state);
      await writeStatus(state, reason === 'done' ? undefined : stopMessage);
      if (state !== 'interrupted') {
        await redis.publish(keys.control(run), 'stop');
        await within(pairs.obliterate({ force: true }), 5000);
        await within(results.obliterate({ force: true }), 5000);
        for (const k of [keys.run(run), keys.status(run), keys.llr(run), keys.refusals(run)]) await redis.expire(k, KEEP_FINISHED_S);
      }
    }
    ledger.closeRecords();
    const summary = ledger.end(reason, stopMessage, detail);
    return lost ? err(lost) : ok(summary);
  }

  /** The schedule index of the first game of the pair `g` belongs to. */
  private pairFirst(schedule: { game(i: number): ScheduledGame }, g: ScheduledGame): number {
    if (g.index > 0 && g.pairKey !== undefined && schedule.game(g.index - 1).pairKey === g.pairKey) return g.index - 1;
    return g.index;
  }

  /** The schedule indices of a pair id (for results of pairs queued before a resume). */
  private pairIndices(schedule: { total: number; game(i: number): ScheduledGame }, id: string): number[] {
    const m = /^pair-(\d+)$/.exec(id);
    if (!m) return [];
    const first = Number(m[1]) - 1;
    if (!(first < schedule.total)) return [];
    const g = schedule.game(first);
    return pairGames(g, first + 1 < schedule.total ? schedule.game(first + 1) : undefined).map((x) => x.index);
  }

  /** Removes the pairs still queued (not those being played); returns how many. */
  private async removeQueued(pairs: Queue, untrack: (id: string) => void): Promise<number> {
    const waiting = (await pairs.getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j?.id);
    let n = 0;
    for (const j of waiting) {
      try {
        await j.remove();
        untrack(j.id!);
        n++;
      } catch {
        // taken by a worker meanwhile: it is in progress now
      }
    }
    return n;
  }

  /** Takes the run's lock; waits for the lock of a coordinator that died to expire. */
  private async takeLock(run: string, note: (l: string) => void): Promise<void> {
    const redis = this.redis;
    for (let waited = 0; ; waited++) {
      if ((await redis.set(keys.lock(run), this.id, 'PX', LOCK_TTL_MS, 'NX')) === 'OK') {
        this.lockHeld = true;
        return;
      }
      const holder = await redis.get(keys.lock(run));
      const ttl = await redis.pttl(keys.lock(run));
      if (waited === 0) note(`Note: run ${run} is locked by coordinator ${holder} (a coordinator that died: the lock ends within ${Math.ceil(ttl / 1000)} s); waiting`);
      if (waited * 500 > LOCK_TTL_MS + 2000) {
        throw new MatchConfigError(`run ${run} is being coordinated by ${holder}: stop it first (or wait for its lock to end)`);
      }
      await sleep(500);
    }
  }

  /** Forgets a run's state in Redis (a new run with the same id). */
  private async forget(run: string): Promise<void> {
    await within(this.pairs!.obliterate({ force: true }), 5000);
    await within(this.results!.obliterate({ force: true }), 5000);
    await this.redis.del(keys.status(run), keys.llr(run), keys.refusals(run), keys.run(run));
  }

  private every(ms: number, f: () => void): void {
    this.timers.push(setInterval(f, ms));
  }

  /** Closes everything, without waiting long for a Redis that is gone. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    const closing = [this.resultsWorker?.close(true), this.events?.close(), this.pairs?.close(), this.results?.close()];
    await within(Promise.all(closing), 3000);
    if (this.lockHeld && this.redis.status === 'ready') {
      await within(this.redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, keys.lock(this.run_), this.id), 1000);
    }
    this.redis.disconnect();
    for (const x of [this.resultsWorker, this.events, this.pairs, this.results]) {
      try {
        void x?.disconnect();
      } catch {
        // already closed
      }
    }
  }
}
