/**
 * The coordinator's notes about what workers do (a result refused, a run refused, a job failed or
 * lost), bounded: anyone who can write to the queues can make thousands of them, and a terminal
 * flooded with them hides the run. The first few of each kind are printed, one line each (text a
 * worker wrote as one line: src/core/quote.ts oneLine); after that the kind is summed up once a
 * minute at most, with its last note.
 */
import type { Redis } from 'ioredis';
import { plural } from '../core/plural';
import { oneLine } from '../core/quote';
import { type liveWorkers, readRefusals } from './status';

/** Notes of one kind printed one by one before they are summed up. */
const BURST = 5;
/** How often a kind's count is printed once it is being summed up. */
const SUM_EVERY_MS = 60_000;

interface Kind {
  printed: number;
  held: number;
  last?: string;
  since: number;
}

export class NoteLimiter {
  private readonly kinds = new Map<string, Kind>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A note of a kind (`what`: its plural in words, `refused results`); `line` is printed whole
   * while the kind is below its burst, then counted.
   */
  note(what: string, line: string): void {
    const t = this.now();
    const k = this.kinds.get(what) ?? { printed: 0, held: 0, since: t };
    this.kinds.set(what, k);
    if (k.printed < BURST) {
      k.printed++;
      this.write(line);
      return;
    }
    if (k.held === 0) k.since = t;
    k.held++;
    k.last = line;
    this.flush(false);
  }

  /** Prints the count of each kind held back for a minute (or now, `all`: the run is ending). */
  flush(all = true): void {
    const t = this.now();
    for (const [what, k] of this.kinds) {
      if (k.held === 0 || (!all && t - k.since < SUM_EVERY_MS)) continue;
      this.write(
        `Note: ${k.held} more ${what} in the last ${plural(Math.max(1, Math.round((t - k.since) / 1000)), 'second')} (the last: ${k.last?.replace(/^Note: /, '')})`,
      );
      k.held = 0;
      k.since = t;
    }
  }
}

/**
 * The notes of one run's coordinator about its workers: the workers' refusals of the run (a few
 * read, each noted once), heartbeats left out of the counts (each worker once), stalled jobs.
 */
export class RunNotes extends NoteLimiter {
  private readonly refusalsSeen = new Set<string>();
  private readonly leftOut = new Set<string>();

  /** Workers refusing the run (they cannot get a build, or an engine does not start there). */
  async refusals(redis: Redis, run: string): Promise<void> {
    for (const [w, why] of Object.entries(await readRefusals(redis, run))) {
      if (this.refusalsSeen.has(`${w}\0${why}`) || this.refusalsSeen.size > 1000) continue;
      this.refusalsSeen.add(`${w}\0${why}`);
      this.note('refusals of this run', `Note: worker ${w} refuses this run: ${why}`);
    }
  }

  /** Workers whose heartbeat is not one (status.ts readHeartbeat). */
  workers(ws: Awaited<ReturnType<typeof liveWorkers>>): void {
    for (const m of ws.malformed ?? []) {
      if (this.leftOut.has(m.id) || this.leftOut.size > 1000) continue;
      this.leftOut.add(m.id);
      this.note('workers left out', `Note: worker ${m.id} is left out of the counts: ${m.why}`);
    }
  }

  /** A job of the run whose worker stopped answering: BullMQ puts it back in the queue. */
  stalled(jobId: string, noun: string): void {
    this.note(
      `stalled ${noun}s`,
      `Note: ${oneLine(jobId).slice(0, 40)} stalled (its worker stopped answering); it goes back to the queue`,
    );
  }
}
