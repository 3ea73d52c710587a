/**
 * What a `thoth worker` does alike for a match, datagen or review run: a BullMQ worker on the run's
 * jobs queue (pairs or chunks), cancelled when the coordinator says stop or this worker is killed,
 * and followed until the run is no longer running, or this worker has nothing left to do there
 * while another run has. The job itself (`processor`) is the caller's.
 */
import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectionOptions, keys, QUEUE_PREFIX, type RedisAddress } from './redis';
import { sleep } from './wait';
import type { WorkerOptions } from './worker';

interface RunQueue {
  bull: typeof import('bullmq');
  redis: Redis;
  addr: RedisAddress;
  run: string;
  /** The worker's id (BullMQ's worker name). */
  id: string;
  opts: WorkerOptions;
  /** What a job is, for the messages: 'pair', 'chunk'. */
  noun: string;
  processor: (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;
  /** The jobs waiting in the run's queue. */
  waiting: () => Promise<number>;
  /** The run this worker would serve next. */
  pickRun: () => Promise<string | undefined>;
  /** True: leave the run at the next poll (the caller found it cannot serve it). */
  leave?: () => boolean;
}

/** Plays the run's jobs until it ends, or this worker is idle and another run waits; then closes the queue worker. */
export async function followRun(q: RunQueue): Promise<void> {
  const { opts, run } = q;
  const Noun = q.noun[0].toUpperCase() + q.noun.slice(1);
  let active = 0;
  const worker: Worker = new q.bull.Worker(
    keys.pairsQueue(run),
    async (job, token, signal) => {
      active++;
      try {
        return await q.processor(job, token, signal);
      } finally {
        active--;
      }
    },
    {
      connection: connectionOptions(q.addr),
      prefix: QUEUE_PREFIX,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs,
      stalledInterval: opts.stalledIntervalMs,
      maxStalledCount: opts.maxStalledCount,
      drainDelay: 1,
      name: q.id,
    },
  );
  worker.on('error', () => undefined);
  worker.on('failed', (job, e) => {
    if (job && e.name !== 'WaitingError') opts.write(`${Noun} ${job.id} failed here: ${e.message}`);
  });

  // The coordinator says stop (the SPRT decided, the data are complete): cancel the jobs in progress.
  // A message on the control channel is only a hint to look now: anyone with the worker user can
  // publish there, so the stop is taken from the run's own state, which only the coordinator's
  // user can write (docs/distributed.md, "Trust"); a forged message cancelled chunks for nothing.
  const sub = q.redis.duplicate();
  sub.on('error', () => undefined);
  const cancel = (): void => worker.cancelAllJobs('the run stopped');
  const stopped = (state: string | null): boolean => state !== 'running' && state !== null && state !== 'interrupted';
  await sub.subscribe(keys.control(run)).catch(() => undefined);
  sub.on('message', () => {
    q.redis.hget(keys.run(run), 'state').then(
      (state) => {
        if (stopped(state)) cancel();
      },
      () => undefined,
    );
  });
  const onKill = (): void => worker.cancelAllJobs('the worker is stopping');
  opts.kill.addEventListener('abort', onKill, { once: true });
  try {
    let idleSince: number | undefined;
    while (!opts.signal.aborted && !q.leave?.()) {
      await sleep(opts.pollMs, opts.signal);
      let state: string | null;
      try {
        state = await q.redis.hget(keys.run(run), 'state');
      } catch {
        continue; // Redis away: BullMQ reconnects; keep playing
      }
      if (state !== 'running') {
        if (stopped(state)) cancel();
        break;
      }
      if (active > 0) {
        idleSince = undefined;
        continue;
      }
      idleSince ??= Date.now();
      if (Date.now() - idleSince < 2 * opts.pollMs) continue;
      const waiting = await q.waiting().catch(() => 1);
      if (waiting > 0) continue;
      const other = await q.pickRun().catch(() => undefined);
      if ((other !== undefined && other !== run) || opts.exitWhenIdle) break;
    }
  } finally {
    opts.kill.removeEventListener('abort', onKill);
    if (opts.signal.aborted && active > 0)
      opts.write(
        `Finishing the ${active} ${q.noun}s in progress (Ctrl-C again to stop at once: they are played again elsewhere)`,
      );
    await worker.close();
    sub.disconnect();
  }
}
