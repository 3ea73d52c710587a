/**
 * The jobs a coordinator waits for that are gone (docs/distributed.md, "Trust"): neither waiting
 * nor being played, nor answered by a result that waits to be counted. A job is lost when the
 * worker user removed it, failed it, or a worker ended it without a result (cancelled, as a forged
 * stop used to make it), or when its result was refused. Nothing would ever come back for it, so
 * the coordinator queues it again from its own plan. A job is taken for lost only when two checks
 * in a row find it missing, so that one between its result and its completion is not.
 */
import type { Queue } from 'bullmq';
import { oneLine } from '../core/quote';
import type { NoteLimiter } from './notes';

/** States of a job that is still to be played or being played. */
const PENDING = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;
/** The most results read to see which jobs they answer (a flood of forged results is not read whole). */
const RESULTS_READ = 10_000;

/** The options of every job a coordinator queues (a pair, a chunk): tried three times, a failed one kept (to be seen). */
export const JOB_OPTS = {
  removeOnComplete: true,
  removeOnFail: false,
  attempts: 3,
  backoff: { type: 'fixed', delay: 1000 },
};
/** How often a coordinator looks for jobs that are gone. */
export const RECONCILE_MS = 2000;
/** A job whose jobs fail this many times in a row stops the run (an engine that cannot play there). */
const MAX_FAILURES = 3;

export class LostJobs {
  private suspects = new Set<string>();
  /** Failed jobs of each job id, in a row. */
  private readonly failures = new Map<string, number>();

  /** `noun`: what a job is, in the notes (`pair`, `chunk`). */
  constructor(
    private readonly notes: NoteLimiter,
    private readonly noun: string,
  ) {}

  /**
   * The jobs among `waited` (those whose results the coordinator still waits for) that are lost,
   * to be queued again, each with a note; or, when one failed MAX_FAILURES times in a row, why the
   * run stops. `answers` names the job a result answers (its id), or undefined for none.
   */
  async check(
    jobs: Queue,
    results: Queue,
    waited: Iterable<string>,
    answers: (data: unknown) => string | undefined,
  ): Promise<{ requeue: string[]; stop?: string }> {
    const requeue: string[] = [];
    for (const id of await this.missing(jobs, results, waited, answers)) {
      const old = await jobs.getJob(id);
      if (old && (await old.isFailed())) {
        const n = (this.failures.get(id) ?? 0) + 1;
        this.failures.set(id, n);
        const why = oneLine(old.failedReason ?? '').slice(0, 200);
        if (n >= MAX_FAILURES) return { requeue, stop: `${id} could not be played (${n} times): ${why}` };
        this.notes.note(`failed ${this.noun}s`, `Note: ${id} failed on a worker (${why}); it is queued again`);
      } else {
        this.notes.note(
          `lost ${this.noun}s`,
          `Note: ${id} is gone from the queue without a result to count; it is queued again`,
        );
      }
      requeue.push(id);
    }
    return { requeue };
  }

  /** A job counted: its failures are forgotten. */
  done(id: string): void {
    this.failures.delete(id);
  }

  /** The ids among `waited` missing at this check and the one before. */
  private async missing(
    jobs: Queue,
    results: Queue,
    waited: Iterable<string>,
    answers: (data: unknown) => string | undefined,
  ): Promise<string[]> {
    const pending = new Set<string>();
    for (const j of await jobs.getJobs([...PENDING])) if (j?.id) pending.add(j.id);
    for (const r of await results.getJobs(['waiting', 'active', 'delayed', 'prioritized'], 0, RESULTS_READ - 1)) {
      const id = r ? answers(r.data) : undefined;
      if (id !== undefined) pending.add(id);
    }
    const lost: string[] = [];
    const missing = new Set<string>();
    for (const id of waited) {
      if (pending.has(id)) continue;
      if (this.suspects.has(id)) lost.push(id);
      else missing.add(id);
    }
    this.suspects = missing;
    return lost;
  }
}

/**
 * Queues a lost job again under its id: the old one (completed, failed, or a forger's) is removed
 * first, since BullMQ ignores a job whose id is taken. False when the old one cannot be removed
 * (a worker holds it: it is being played after all).
 */
export async function requeue(
  jobs: Queue,
  id: string,
  name: string,
  data: unknown,
  opts: Record<string, unknown>,
): Promise<boolean> {
  const old = await jobs.getJob(id);
  if (old) {
    try {
      await old.remove();
    } catch {
      return false;
    }
  }
  await jobs.add(name, data, { ...opts, jobId: id });
  return true;
}
