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
import type { MatchConfig } from '../match/config';
import { MatchConfigError } from '../match/errors';
import type { Halt, Ledger, MatchSummary, StopReason } from '../match/ledger';
import { recordPath } from '../match/record-file';
import type { Schedule, ScheduledGame } from '../match/schedule';
import { gameSheet, plainGameSettings } from '../match/slot';
import { type PreparedRun, prepareRun, type RunOptions } from '../match/tournament';
import { type IdentifiedBuild, identifyEngine, storeBuild } from './builds';
import { engineEvaluation } from './engine-network';
import { judgeResult, type PairJob, pairGames, pairId, type RunSettings, signedJob } from './jobs';
import { JOB_OPTS, LostJobs, RECONCILE_MS, requeue } from './lost-jobs';
import { RunNotes } from './notes';
import { watchRedis } from './redis-watch';
import {
  connectionOptions,
  KEEP_FINISHED_S,
  keys,
  openRedis,
  QUEUE_PREFIX,
  type RedisAddress,
  RedisUnreachable,
  redisAddress,
} from './redis';
import { RunLock, RunLocked } from './run-lock';
import { pairFirst, pairIndices, removeQueued, runId } from './run-plan';
import { oneLine } from '../core/quote';
import { ledgerStatus, liveWorkers, readRefusals, type RunState, type RunStatus, windowSize } from './status';
import { type Signer, signerFor, signRun } from './trust';
import { sleep, within } from './wait';

/** The most pairs queued in one step of the loop (the loop stays responsive: results, Ctrl-C). */
const MAX_QUEUED_AT_ONCE = 500;

/**
 * Plays a run on workers. It throws what a local run throws before its first game
 * (MatchConfigError, EngineStartError, MatchInterrupted), and BuildError (an engine's files cannot
 * be read) and RedisUnreachable (also when Redis is lost during the run: the summary so far is
 * written first).
 */
export async function runDistributed(cfg: MatchConfig, opts: RunOptions): Promise<MatchSummary> {
  const setting = cfg.distributed;
  if (!setting) throw new Error('runDistributed without -distributed');
  const addr = redisAddress(setting.url, { caFile: setting.caFile, passwordFile: setting.passwordFile });
  if (!addr.ok) throw new MatchConfigError(`-distributed: ${addr.error.message}`);
  const signer = signerFor(setting.signKey);
  if (!signer.ok) throw new MatchConfigError(`-distributed: ${signer.error.message}`);
  const redis = await openRedis(addr.value);
  const c = new Coordinator(cfg, addr.value, redis, opts, signer.value);
  try {
    return await c.run();
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
  /** Notes about what workers do, bounded (move-notes.ts). */
  private readonly notes: RunNotes;
  /** Pairs queued again because they were gone (lost-jobs.ts). */
  private readonly gone: LostJobs;
  private lastReconcile = 0;

  constructor(
    private readonly cfg: MatchConfig,
    private readonly addr: RedisAddress,
    private readonly redis: Redis,
    private readonly opts: RunOptions,
    private readonly signer: Signer,
  ) {
    this.lostSignal.catch(() => undefined);
    this.notes = new RunNotes((l) => this.ledger.write(l));
    this.gone = new LostJobs(this.notes, 'pair');
  }

  async run(): Promise<MatchSummary> {
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
  private async play(): Promise<MatchSummary> {
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
    this.prepared = await prepareRun(cfg, this.opts, this.stop.signal, async (ledger, engines) => {
      const evaluations: (string | null)[] = [];
      for (const [i, spec] of cfg.engines.entries()) {
        const b = identifyEngine(spec);
        this.identified.push(b);
        if (await storeBuild(redis, b))
          ledger.write(`Note: engine ${spec.name}: stored ${b.text} in Redis for the workers`);
        // Which evaluation it plays with here: the workers' engines must say the same.
        const e = engines.get(i);
        evaluations.push(
          b.build.kind === 'thoth' && e ? ((await engineEvaluation(e, cfg.startTimeoutMs)) ?? null) : null,
        );
      }
      this.settings = {
        ...plainGameSettings(cfg),
        names: ledger.names,
        builds: this.identified.map((b) => b.build),
        evaluations,
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
      // The pairs still queued, by their ids in this run's own schedule (a job's data is not trusted).
      for (const job of await pairs.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) {
        const games = job?.id ? pairIndices(this.schedule, job.id).filter((i) => !ledger.done.has(i)) : [];
        if (games.length > 0) this.track(job!.id!, games);
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
    for (const j of stored) this.count(j.data as unknown);
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
   * Counting a result (anyone who can write to the results queue can forge one): its games are
   * judged against this run's own plan (jobs.ts judgeResult), and only those at places of the pair
   * still to count, with moves that hold up and the result they give, are counted, with the record
   * written from the plan. A pair with a game refused is played again once its job is gone
   * (reconcile). Games already counted (in the record file, or by a result seen before) are not
   * counted again.
   */
  private count(res: unknown): void {
    const { cfg, ledger, schedule } = this;
    const pair = (res as { pair?: unknown } | null)?.pair;
    const worker = oneLine((res as { worker?: unknown } | null)?.worker).slice(0, 100);
    const id = typeof pair === 'string' && /^pair-\d{1,15}$/.test(pair) ? pair : undefined;
    const scheduled = id === undefined ? [] : (this.inflight.get(id) ?? pairIndices(schedule, id));
    const todo = scheduled.filter((i) => !ledger.done.has(i));
    if (todo.length === 0) {
      // A pair counted already (played twice) is no news; a result of no pair of this run is a forgery.
      if (scheduled.length === 0)
        this.notes.note(
          'refused results',
          `Note: a result${id !== undefined ? ` of ${id}` : ''} from worker ${worker} is refused (not a pair of this run)`,
        );
      return;
    }
    const judged = judgeResult(res, todo, (i) => {
      const g = schedule.game(i);
      return gameSheet(cfg, ledger.names, g, this.prepared!.book.get(g.openingIndex), ledger.recordTags);
    });
    for (const gr of judged.games) {
      if (ledger.done.has(gr.index) || this.stopping?.cancelGames) continue;
      this.haltOn(ledger.add(schedule.game(gr.index), gr.outcome));
      if (cfg.sprt)
        void this.redis
          .rpush(keys.llr(this.run_), `${ledger.finished.length} ${ledger.standings.llr(cfg.sprt)}`)
          .catch(() => undefined);
    }
    const left = (this.inflight.get(id!) ?? []).filter((i) => !ledger.done.has(i));
    if (left.length === 0) {
      this.untrack(id!);
      this.gone.done(id!);
    } else if (judged.refused.length > 0 && !this.stopping) {
      this.notes.note(
        'refused results',
        `Note: the result of ${id} from worker ${worker} is refused (${judged.refused.join('; ')}); the pair is played again`,
      );
    }
    this.statusDirty = true;
    this.wake();
  }

  /**
   * The pairs in flight that are gone from the queue with no result to count (lost-jobs.ts): queued
   * again from the plan, or the run stops on a pair that fails again and again.
   */
  private async reconcile(): Promise<void> {
    const lost = await this.gone.check(this.pairs!, this.results!, this.inflight.keys(), (data) => {
      const p = (data as { pair?: unknown } | null)?.pair;
      return typeof p === 'string' ? p : undefined;
    });
    if (lost.stop !== undefined)
      return this.halt('fault', `${lost.stop} (continue with -resume once the workers are fixed)`, true);
    for (const id of lost.requeue) {
      const games = (this.inflight.get(id) ?? []).filter((i) => !this.ledger.done.has(i));
      if (this.stopping || games.length === 0) continue;
      const scheduled = games.map((i) => this.schedule.game(i));
      const job = { games: scheduled, opening: this.prepared!.book.get(scheduled[0].openingIndex) };
      await requeue(this.pairs!, id, 'pair', signedJob(this.signer, this.run_, id, job), JOB_OPTS);
    }
  }

  /** Follows the run: queue events, the results worker, the Redis watchers, and the loop. */
  private async follow(): Promise<void> {
    const run = this.run_;
    const { Worker, QueueEvents } = await import('bullmq');
    const q = { connection: connectionOptions(this.addr), prefix: QUEUE_PREFIX };
    // Queue events: stalled pairs go back to the queue by themselves, failed ones are queued again (reconcile).
    const events = (this.events = new QueueEvents(keys.pairsQueue(run), q));
    events.on('error', () => undefined);
    events.on('stalled', ({ jobId }) => this.notes.stalled(jobId, 'pair'));
    // A failed pair is queued again by reconcile (a junk job or a forged failure must not stop the run).
    events.on('failed', () => this.wake());
    await within(events.waitUntilReady(), 5000);
    const rw = (this.resultsWorker = new Worker(
      keys.resultsQueue(run),
      async (job) => {
        this.count(job.data as unknown);
      },
      { ...q, concurrency: 1, removeOnComplete: { count: 10_000 }, drainDelay: 1 },
    ));
    rw.on('error', () => undefined);
    this.watchRedis();
    await this.loop();
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

  /** The window: enough pairs queued for every worker slot twice over (status.ts windowSize). */
  private async topUp(): Promise<void> {
    const want = windowSize(this.slots);
    const book = this.prepared!.book;
    const jobs: { name: string; data: unknown; opts: Record<string, unknown> }[] = [];
    while (!this.stopping && this.inflight.size < want && jobs.length < MAX_QUEUED_AT_ONCE) {
      const games = this.nextPair();
      if (!games) break;
      const id = pairId(pairFirst(this.schedule, games[0]));
      this.track(
        id,
        games.map((g) => g.index),
      );
      const job: PairJob = { games, opening: book.get(games[0].openingIndex) };
      jobs.push({
        name: 'pair',
        data: signedJob(this.signer, this.run_, id, job),
        opts: { ...JOB_OPTS, jobId: id },
      });
    }
    if (jobs.length > 0) await this.pairs!.addBulk(jobs);
    if (this.inflight.size < want && jobs.length === MAX_QUEUED_AT_ONCE) this.wake(); // more at the next step
  }

  private async writeStatus(state: RunState, message?: string): Promise<void> {
    const { redis } = this;
    const run = this.run_;
    const counts = await this.pairs!.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    const workers = await liveWorkers(redis);
    this.slots = workers.reduce((n, w) => n + w.concurrency, 0);
    this.notes.workers(workers);
    const status: RunStatus = {
      run,
      state,
      message,
      ...ledgerStatus(this.cfg, this.ledger),
      pairsQueued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
      pairsActive: counts.active ?? 0,
      refusals: await readRefusals(redis, run),
      workers,
      started: this.started,
      updated: Date.now(),
    };
    await redis.set(keys.status(run), JSON.stringify(status));
  }

  /** Redis must stay reachable, and keep the run (redis-watch.ts); the records so far stay in the file. */
  private watchRedis(): void {
    const rec = recordPath(this.cfg);
    const timers = watchRedis(this.redis, this.addr, this.run_, this.cfg.distributed?.redisTimeoutMs ?? 10_000, {
      unreachable: (m) =>
        this.declareLost(new RedisUnreachable(m), `${m}; the records so far are in ${rec ?? 'no file (no -pgnout)'}`),
      forgotten: (m) => {
        const e = new RedisUnreachable(
          `${m}${rec !== undefined ? `; the records so far are in ${rec}: -resume ${rec} finishes the run` : ''}`,
        );
        this.declareLost(e, e.message);
      },
      done: () => this.lost !== undefined,
    });
    this.timers.push(...timers);
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
          if (Date.now() - this.lastReconcile > RECONCILE_MS) {
            this.lastReconcile = Date.now();
            await this.guard(this.reconcile());
          }
          this.notes.flush(false);
          if (this.statusDirty || Date.now() - lastStatus > 2000) {
            this.statusDirty = false;
            lastStatus = Date.now();
            await this.guard(this.notes.refusals(this.redis, this.run_));
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
  private async finish(): Promise<MatchSummary> {
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
    this.notes.flush();
    ledger.closeRecords();
    const summary = ledger.end(reason, message, detail);
    if (this.lost) throw this.lost;
    return summary;
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
      // in play, or answered by a result still to count
      const busy = new Set((await pairs.getJobs(['active', 'waiting', 'delayed'])).map((j) => j?.id));
      for (const r of await this.results!.getJobs(['waiting', 'active', 'delayed'], 0, 9999))
        busy.add((r?.data as { pair?: string } | undefined)?.pair);
      for (const id of [...this.inflight.keys()]) if (!busy.has(id)) this.untrack(id);
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
