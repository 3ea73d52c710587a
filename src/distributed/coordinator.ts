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
import { plural } from '../core/plural';
import { hostname } from 'node:os';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../core/result';
import type { MatchConfig } from '../match/config';
import { EngineStartError, MatchConfigError, type MatchError, MatchInterrupted } from '../match/errors';
import type { Halt, Ledger, MatchSummary, StopReason } from '../match/ledger';
import { recordPath } from '../match/record-file';
import type { Schedule, ScheduledGame } from '../match/schedule';
import { type PreparedRun, prepareRun, type RunOptions } from '../match/tournament';
import { BuildError, type IdentifiedBuild, identifyEngine, storeBuild } from './builds';
import { checkResult, gameOutcome, type PairJob, type PairResult, pairGames, pairId, type RunSettings } from './jobs';
import {
  connectionOptions,
  keys,
  openRedis,
  QUEUE_PREFIX,
  type RedisAddress,
  RedisUnreachable,
  redisAddress,
} from './redis';
import { RunLock, RunLocked } from './run-lock';
import { pairFirst, pairIndices, removeQueued, runId } from './run-plan';
import { ledgerStatus, liveWorkers, oneLine, type RunState, type RunStatus } from './status';
import { type Signer, signerFor, signRun } from './trust';
import { sleep, within } from './wait';

export type DistributedError = MatchError | RedisUnreachable | BuildError;

/** How long a finished run's status stays in Redis. */
const KEEP_FINISHED_S = 7 * 24 * 3600;

/**
 * Plays a run on workers. Errors before the first game are returned as for a local run
 * (MatchConfigError, EngineStartError), plus BuildError (an engine's files cannot be read) and
 * RedisUnreachable (also when Redis is lost during the run: the summary so far is printed first).
 */
export async function runDistributed(
  cfg: MatchConfig,
  opts: RunOptions,
): Promise<Result<MatchSummary, DistributedError>> {
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
    if (
      e instanceof MatchConfigError ||
      e instanceof EngineStartError ||
      e instanceof MatchInterrupted ||
      e instanceof BuildError ||
      e instanceof RedisUnreachable
    ) {
      return err(e);
    }
    throw e;
  } finally {
    await c.close();
  }
}

/** What the run is stopping on; set once, by the first reason. */
interface Stopping {
  reason: StopReason;
  message?: string;
  /** The games in progress are cancelled (not counted). */
  cancelGames: boolean;
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
  private lock?: RunLock;

  // Set by prepare():
  private prepared?: PreparedRun;
  private settings?: RunSettings;
  private identified: IdentifiedBuild[] = [];
  /** The run was in Redis already when this coordinator started. */
  private known = false;
  private started = 0;

  // The run's progress:
  private stopping?: Stopping;
  /** Redis was lost (unreachable too long, or it forgot the run). */
  private lost?: RedisUnreachable;
  /** Rejects every wait on Redis in the loop once Redis is declared lost. */
  private onLost: (e: RedisUnreachable) => void = () => undefined;
  private readonly lostSignal = new Promise<never>((_, reject) => (this.onLost = reject));
  /** Wakes the loop early (a result counted, a stop). */
  private wake: () => void = () => undefined;
  /** Pairs in flight: queued or being played (pair id → schedule indices). */
  private readonly inflight = new Map<string, number[]>();
  private readonly queuedGames = new Set<number>();
  private statusDirty = true;
  /** The schedule index of the next pair to queue, and the worker slots last seen. */
  private cursor = 0;
  private slots = 0;
  /** Pairs whose result was refused (forged, or not well-formed): played again. */
  private readonly replays: ScheduledGame[][] = [];
  private readonly refusalsSeen = new Set<string>();

  constructor(
    private readonly cfg: MatchConfig,
    private readonly addr: RedisAddress,
    private readonly redis: Redis,
    private readonly opts: RunOptions,
    private readonly signer: Signer,
  ) {
    this.lostSignal.catch(() => undefined);
  }

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

  /** The phases of a run: prepare, publish, follow the results, stop. */
  private async play(): Promise<Result<MatchSummary, DistributedError>> {
    await this.prepare();
    await this.publish();
    await this.follow();
    return this.finish();
  }

  private get ledger(): Ledger {
    return this.prepared!.ledger;
  }

  private get schedule(): Schedule {
    return this.prepared!.schedule;
  }

  /**
   * Before the -resume file is read: the builds identified (Thoth builds stored for the workers),
   * the run's id, and its lock (a coordinator that died may still hold it a while). Then what a
   * local run does before its first game.
   */
  private async prepare(): Promise<void> {
    const { cfg, redis } = this;
    this.prepared = await prepareRun(cfg, this.opts, this.stop.signal, async (ledger) => {
      for (const spec of cfg.engines) {
        const b = identifyEngine(spec);
        if (!b.ok) throw b.error;
        this.identified.push(b.value);
        if (await storeBuild(redis, b.value))
          ledger.write(`Note: engine ${spec.name}: stored ${b.value.text} in Redis for the workers`);
      }
      this.settings = {
        engines: cfg.engines,
        variant: cfg.variant,
        rules: cfg.rules,
        noRemovalLimit: cfg.noRemovalLimit,
        plyLimit: cfg.plyLimit,
        moveData: cfg.moveData,
        adjudication: cfg.adjudication,
        pingTimeoutMs: cfg.pingTimeoutMs,
        startTimeoutMs: cfg.startTimeoutMs,
        searchTimeoutMs: cfg.searchTimeoutMs,
        event: cfg.event,
        site: cfg.site,
        recover: cfg.recover,
        names: ledger.names,
        builds: this.identified.map((b) => b.build),
      };
      this.run_ = runId(cfg, this.settings);
      this.lock = new RunLock(this.redis, this.run_, this.id);
      await this.lock
        .take((l) => ledger.write(l))
        .catch((e: unknown) => {
          throw e instanceof RunLocked ? new MatchConfigError(e.message) : e;
        });
    });
    await Promise.all([...this.prepared.engines.values()].map((e) => e.quit(200)));
  }

  /** The queues opened, the run's settings in Redis, and on -resume what Redis still holds. */
  private async publish(): Promise<void> {
    const { cfg, redis, ledger } = this;
    const run = this.run_;
    const { Queue } = await import('bullmq');
    const q = { connection: connectionOptions(this.addr), prefix: QUEUE_PREFIX };
    const pairs = (this.pairs = new Queue(keys.pairsQueue(run), q));
    const results = (this.results = new Queue(keys.resultsQueue(run), q));
    pairs.on('error', () => undefined);
    results.on('error', () => undefined);

    this.known = (await redis.exists(keys.run(run))) === 1;
    if (this.known && cfg.resume === undefined) {
      ledger.write(
        `Note: run ${run} was in Redis already (the same flags and record file): starting it afresh (-resume continues a run)`,
      );
      await this.forget(run);
    }
    const now = Date.now();
    const settingsText = JSON.stringify(this.settings!);
    await redis.hset(keys.run(run), {
      settings: settingsText,
      ...signRun(this.signer, run, 'settings', settingsText),
      state: 'running',
      coordinator: this.id,
    });
    await redis.hsetnx(keys.run(run), 'started', String(now));
    this.started = Number((await redis.hget(keys.run(run), 'started')) ?? now);
    await redis.zadd(keys.runs, 'NX', now, run);
    const resuming = this.known && cfg.resume !== undefined;
    if (!resuming) await redis.del(keys.llr(run), keys.refusals(run));
    for (const [i, b] of this.identified.entries())
      if (b.build.kind === 'files') ledger.write(`Note: engine ${cfg.engines[i].name}: workers need ${b.text}`);
    this.stop.signal.addEventListener('abort', () => this.halt('interrupted', 'interrupted'));

    if (resuming) {
      for (const job of await pairs.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) {
        if (job?.id)
          this.track(
            job.id,
            (job.data as PairJob).games.map((g) => g.index),
          );
      }
      for (const job of await pairs.getJobs(['failed'])) await job?.remove().catch(() => undefined);
    }
    ledger.openRecords();
    if (resuming) await this.countStoredResults(results);
    ledger.planLine(`distributed ${this.addr.text} (run ${run})`);
    this.haltOn(ledger.outputHalt() ?? ledger.sprtHalt());
  }

  /** On -resume: the results the workers left in Redis while no coordinator ran. */
  private async countStoredResults(results: Queue): Promise<void> {
    const { ledger } = this;
    const stored = (
      await results.getJobs(['completed', 'waiting', 'active', 'delayed', 'prioritized', 'failed'])
    ).filter((j) => j !== undefined);
    stored.sort((a, b) => a.timestamp - b.timestamp);
    const before = ledger.finished.length;
    for (const j of stored) this.count(j.data as PairResult);
    if (ledger.finished.length > before)
      ledger.write(`Resumed ${ledger.finished.length - before} more games from the workers' results in Redis`);
    if (this.inflight.size > 0)
      ledger.write(`Resumed ${plural(this.inflight.size, 'pair')} still queued or being played`);
  }

  private halt(reason: StopReason, message?: string, cancelGames = false): void {
    if (this.stopping) return;
    this.stopping = { reason, message, cancelGames };
    this.wake();
  }

  private haltOn(h: Halt | undefined): void {
    if (h) this.halt(h.reason, h.message, h.abortGames);
  }

  /** A wait on Redis that ends (rejects) once Redis is declared lost. */
  private guard<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.lostSignal]);
  }

  private declareLost(e: RedisUnreachable, message: string): void {
    this.lost = e;
    this.onLost(e);
    this.halt('fault', message);
  }

  private track(id: string, games: number[]): void {
    this.inflight.set(id, games);
    for (const g of games) this.queuedGames.add(g);
  }

  private untrack(id: string): void {
    for (const g of this.inflight.get(id) ?? []) this.queuedGames.delete(g);
    this.inflight.delete(id);
  }

  /**
   * Counting a result. The pair id is the key: BullMQ keeps one result per pair id, and games
   * already counted (in the record file, or by a result seen before) are not counted again.
   */
  private count(res: PairResult): void {
    const { cfg, ledger, schedule } = this;
    const scheduled = this.inflight.get(res.pair) ?? pairIndices(schedule, res.pair);
    const accepted = checkResult(res, scheduled);
    for (const gr of accepted) {
      if (ledger.done.has(gr.index) || this.stopping?.cancelGames) continue;
      this.haltOn(ledger.add(schedule.game(gr.index), gameOutcome(gr, ledger.recordTags)));
      if (cfg.sprt)
        void this.redis
          .rpush(keys.llr(this.run_), `${ledger.finished.length} ${ledger.standings.llr(cfg.sprt)}`)
          .catch(() => undefined);
    }
    this.untrack(res.pair);
    const refused = scheduled.filter((i) => !ledger.done.has(i) && !accepted.some((g) => g.index === i));
    if (refused.length > 0 && !this.stopping) {
      ledger.write(
        `Note: the result of ${oneLine(String(res.pair))} from worker ${oneLine(String(res.worker))} is refused (a game that does not replay or write as it reads); the pair is played again`,
      );
      this.replays.push(refused.map((i) => schedule.game(i)));
    }
    this.statusDirty = true;
    this.wake();
  }

  /** Follows the run: queue events, the results worker, the Redis watchers, and the loop. */
  private async follow(): Promise<void> {
    const run = this.run_;
    const { ledger } = this;
    const { Worker, QueueEvents } = await import('bullmq');
    const q = { connection: connectionOptions(this.addr), prefix: QUEUE_PREFIX };
    // Queue events: stalled pairs go back to the queue by themselves; a failed one stops the run.
    const events = (this.events = new QueueEvents(keys.pairsQueue(run), q));
    events.on('error', () => undefined);
    events.on('stalled', ({ jobId }) =>
      ledger.write(`Note: ${jobId} stalled (its worker stopped answering); it goes back to the queue`),
    );
    events.on('failed', ({ jobId, failedReason }) => {
      if (!this.inflight.has(jobId)) return;
      this.halt(
        'fault',
        `${jobId} could not be played: ${failedReason} (continue with -resume once the workers are fixed)`,
        true,
      );
    });
    await within(events.waitUntilReady(), 5000);
    const rw = (this.resultsWorker = new Worker(
      keys.resultsQueue(run),
      async (job) => {
        this.count(job.data as PairResult);
      },
      { ...q, concurrency: 1, removeOnComplete: { count: 10_000 }, drainDelay: 1 },
    ));
    rw.on('error', () => undefined);
    this.watchRedis();
    await this.loop();
  }

  /** Workers refusing the run (they cannot get a build, or an engine does not start there). */
  private async checkRefusals(): Promise<void> {
    const r = await this.redis.hgetall(keys.refusals(this.run_));
    for (const [w, why] of Object.entries(r)) {
      if (this.refusalsSeen.has(`${w}\0${why}`)) continue;
      this.refusalsSeen.add(`${w}\0${why}`);
      this.ledger.write(`Note: worker ${oneLine(w)} refuses this run: ${oneLine(why)}`);
    }
  }

  /** The next pair of the schedule with games neither done nor queued. */
  private nextPair(): ScheduledGame[] | undefined {
    const { schedule, ledger } = this;
    const total = schedule.total;
    while (this.cursor < total) {
      const first = schedule.game(this.cursor);
      const games = pairGames(first, this.cursor + 1 < total ? schedule.game(this.cursor + 1) : undefined);
      this.cursor += games.length;
      const todo = games.filter((g) => !ledger.done.has(g.index) && !this.queuedGames.has(g.index));
      if (todo.length > 0) return todo;
    }
    return undefined;
  }

  /** The window: enough pairs queued for every worker slot twice over. */
  private async topUp(): Promise<void> {
    const want = Math.max(8, 2 * this.slots);
    const book = this.prepared!.book;
    const jobs: { name: string; data: PairJob; opts: { jobId: string } }[] = [];
    for (const games of this.replays.splice(0)) {
      const id = pairId(pairFirst(this.schedule, games[0]));
      // The refused result holds the pair's job id: the worker's new result would be ignored.
      const old = await this.results!.getJob(id);
      if (old && (await old.isActive())) {
        this.replays.push(games); // still being counted: the next round
        continue;
      }
      if (old) await old.remove().catch(() => undefined);
      this.track(
        id,
        games.map((g) => g.index),
      );
      jobs.push({ name: 'pair', data: { games, opening: book.get(games[0].openingIndex) }, opts: { jobId: id } });
    }
    while (!this.stopping && this.inflight.size < want) {
      const games = this.nextPair();
      if (!games) break;
      const id = pairId(pairFirst(this.schedule, games[0]));
      this.track(
        id,
        games.map((g) => g.index),
      );
      jobs.push({ name: 'pair', data: { games, opening: book.get(games[0].openingIndex) }, opts: { jobId: id } });
    }
    if (jobs.length > 0) {
      const opts = {
        removeOnComplete: true,
        removeOnFail: false,
        attempts: 3,
        backoff: { type: 'fixed', delay: 1000 },
      };
      await this.pairs!.addBulk(jobs.map((j) => ({ ...j, opts: { ...j.opts, ...opts } })));
    }
  }

  private async writeStatus(state: RunState, message?: string): Promise<void> {
    const { redis } = this;
    const run = this.run_;
    const counts = await this.pairs!.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    const workers = await liveWorkers(redis);
    this.slots = workers.reduce((n, w) => n + w.concurrency, 0);
    const status: RunStatus = {
      run,
      state,
      message,
      ...ledgerStatus(this.cfg, this.ledger),
      pairsQueued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
      pairsActive: counts.active ?? 0,
      refusals: await redis.hgetall(keys.refusals(run)),
      workers,
      started: this.started,
      updated: Date.now(),
    };
    await redis.set(keys.status(run), JSON.stringify(status));
  }

  /**
   * Redis must stay reachable: after `timeout` without it the run stops (the records so far are in
   * the file). Redis back but without the run (it restarted without persistence, or the keys were
   * evicted): the queues and the pairs in flight are gone, so nothing would ever come back.
   */
  private watchRedis(): void {
    const { cfg, redis } = this;
    const run = this.run_;
    let downSince: number | undefined;
    this.every(500, () => {
      if (redis.status === 'ready') downSince = undefined;
      else if (downSince === undefined) downSince = Date.now();
      else if (Date.now() - downSince > (cfg.distributed?.redisTimeoutMs ?? 10_000) && !this.lost) {
        const e = new RedisUnreachable(
          `lost Redis at ${this.addr.text} (unreachable for ${Math.round((Date.now() - downSince) / 1000)} s)`,
        );
        this.declareLost(e, `${e.message}; the records so far are in ${recordPath(cfg) ?? 'no file (no -pgnout)'}`);
      }
    });
    let checking = false;
    this.every(500, () => {
      if (this.lost || checking || redis.status !== 'ready') return;
      checking = true;
      redis
        .exists(keys.run(run))
        .then((n) => {
          if (n !== 0 || this.lost) return;
          const rec = recordPath(cfg);
          const e = new RedisUnreachable(
            `Redis at ${this.addr.text} lost this run's queues (did it restart without persistence? run redis-server with --appendonly yes)` +
              (rec !== undefined ? `; the records so far are in ${rec}: -resume ${rec} finishes the run` : ''),
          );
          this.declareLost(e, e.message);
        })
        .catch(() => undefined)
        .finally(() => (checking = false));
    });
  }

  /** The loop: top up, publish the status, until the run is done or stops. */
  private async loop(): Promise<void> {
    const { redis, ledger } = this;
    const total = this.schedule.total;
    let lastStatus = 0;
    const isDone = (): boolean => Number.isFinite(total) && ledger.done.size >= total;
    while (!this.stopping && !isDone()) {
      if (redis.status === 'ready') {
        try {
          await this.guard(this.topUp());
          if (this.statusDirty || Date.now() - lastStatus > 2000) {
            this.statusDirty = false;
            lastStatus = Date.now();
            await this.guard(this.checkRefusals());
            await this.guard(this.writeStatus('running'));
          }
        } catch (e) {
          if (!this.lost && redis.status === 'ready') throw e;
        }
      }
      if (!this.stopping && !isDone()) {
        await new Promise<void>((r) => {
          const t = setTimeout(r, 500);
          this.wake = () => {
            clearTimeout(t);
            r();
          };
        });
      }
      this.wake = () => undefined;
    }
  }

  /** Stopping: what becomes of the pairs still queued and those being played; the summary. */
  private async finish(): Promise<Result<MatchSummary, DistributedError>> {
    const { redis, ledger } = this;
    const run = this.run_;
    const pairs = this.pairs!;
    const { reason, message, cancelGames } = this.stopping ?? { reason: 'done' as StopReason, cancelGames: false };
    let detail = '';
    let state: RunState = 'finished';
    if (this.lost) {
      state = 'lost';
    } else if (reason === 'interrupted') {
      state = 'interrupted';
      const n = this.inflight.size;
      if (n > 0)
        ledger.write(
          `Note: the workers go on with the ${plural(n, 'pair')} queued or in progress; -resume counts them`,
        );
    } else if (reason === 'fault' && !cancelGames) {
      state = 'stopped';
      await this.letPairsFinish();
    } else if (reason === 'sprt' || reason === 'fault') {
      state = reason === 'sprt' ? 'finished' : 'stopped';
      const removed = await removeQueued(pairs, (id) => this.untrack(id));
      const active = await pairs.getActiveCount();
      await redis.hset(keys.run(run), 'state', state);
      await redis.publish(keys.control(run), 'stop');
      detail = `; ${plural(removed, 'queued pair')} removed, ${plural(active, 'pair')} in progress cancelled`;
    }
    if (!this.lost) await this.closeRun(state, reason === 'done' ? undefined : message);
    ledger.closeRecords();
    const summary = ledger.end(reason, message, detail);
    return this.lost ? err(this.lost) : ok(summary);
  }

  /** As locally, on a fault: the queued pairs removed, the games in progress let finish and counted. */
  private async letPairsFinish(): Promise<void> {
    const pairs = this.pairs!;
    const removed = await removeQueued(pairs, (id) => this.untrack(id));
    if (removed > 0)
      this.ledger.write(
        `Note: ${plural(removed, 'queued pair')} removed; waiting for the ${plural(this.inflight.size, 'pair')} in progress`,
      );
    while (this.inflight.size > 0 && this.redis.status === 'ready' && !this.stop.signal.aborted) {
      await sleep(200);
      const active = new Set((await pairs.getJobs(['active', 'waiting', 'delayed'])).map((j) => j?.id));
      for (const id of [...this.inflight.keys()])
        if (!active.has(id) && !(await this.results!.getJob(id))) this.untrack(id);
    }
  }

  /** The run's last state and status in Redis; unless interrupted, its queues gone and its keys expiring. */
  private async closeRun(state: RunState, message: string | undefined): Promise<void> {
    const { redis } = this;
    const run = this.run_;
    await within(this.resultsWorker!.close(true), 2000);
    await redis.hset(keys.run(run), 'state', state);
    if (state === 'interrupted') {
      await this.writeStatus(state, message);
      return;
    }
    await redis.publish(keys.control(run), 'stop');
    await within(this.pairs!.obliterate({ force: true }), 5000);
    await within(this.results!.obliterate({ force: true }), 5000);
    // Written once the queues are gone: a finished run counts nothing queued or in progress.
    await this.writeStatus(state, message);
    for (const k of [keys.run(run), keys.status(run), keys.llr(run), keys.refusals(run)])
      await redis.expire(k, KEEP_FINISHED_S);
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
    await this.lock?.release();
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
