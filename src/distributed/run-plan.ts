/**
 * What the coordinator of a distributed match computes about its run apart from Redis's state: the
 * run's id, the pairs of the schedule by pair id, and the removal of pairs still queued.
 */
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { MatchConfig } from '../match/config';
import { recordPath } from '../match/record-file';
import type { ScheduledGame } from '../match/schedule';
import { pairGames, type RunSettings } from './jobs';
import { runHash } from './builds';

/** The run's id: a hash of what makes it this run (settings, schedule, openings, the record file). */
export function runId(cfg: MatchConfig, settings: RunSettings): string {
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
  return runHash(what);
}

/** The schedule index of the first game of the pair `g` belongs to. */
export function pairFirst(schedule: { game(i: number): ScheduledGame }, g: ScheduledGame): number {
  if (g.index > 0 && g.pairKey !== undefined && schedule.game(g.index - 1).pairKey === g.pairKey) return g.index - 1;
  return g.index;
}

/** The schedule indices of a pair id (for results of pairs queued before a resume). */
export function pairIndices(schedule: { total: number; game(i: number): ScheduledGame }, id: string): number[] {
  const m = /^pair-(\d+)$/.exec(id);
  if (!m) return [];
  const first = Number(m[1]) - 1;
  if (!(first < schedule.total)) return [];
  const g = schedule.game(first);
  return pairGames(g, first + 1 < schedule.total ? schedule.game(first + 1) : undefined).map((x) => x.index);
}

/** Removes the pairs still queued (not those being played); returns how many. */
export async function removeQueued(pairs: Queue, untrack: (id: string) => void): Promise<number> {
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
