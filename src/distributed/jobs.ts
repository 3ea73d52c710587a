/**
 * What travels through Redis: a run's settings (read once by each worker), the job of one game
 * pair, and the result a worker returns for it. All plain JSON; the pair's id is the job id of
 * both the pair job and its result, so a pair is queued once and counted once.
 */
import {
  replayRecord,
  unwritableRecord,
  type GameRecord,
  type MoveRecord,
  type ResultToken,
  type Termination,
} from '../core/record';
import type { GameOutcome } from '../match/referee';
import type { Opening } from '../match/openings';
import type { ScheduledGame } from '../match/schedule';
import type { GameSettings } from '../match/slot';
import type { EngineBuild } from './builds';

/** A run as its workers see it: what a game needs, the names, and the build of each engine. */
export interface RunSettings extends GameSettings {
  names: string[];
  builds: EngineBuild[];
}

/** A pair job: the games still to play of one pair (or a lone game), and their opening. */
export interface PairJob {
  games: ScheduledGame[];
  opening: Opening;
}

/** A finished game as a worker reports it. */
export interface ReportedGame {
  index: number;
  score: number;
  termination: Termination;
  reason: string;
  faultSide: number;
  engineLost: boolean;
  record: { tags: [string, string][]; moves: MoveRecord[]; result: ResultToken; ending?: string };
}

/** A worker's result for a pair job. */
export interface PairResult {
  pair: string;
  worker: string;
  games: ReportedGame[];
  /** Time the pair took on the worker. */
  ms: number;
}

/** The job id of the pair whose first game has schedule index `first` (BullMQ: not a number, no ':'). */
export const pairId = (first: number): string => `pair-${first + 1}`;

export function reportGame(index: number, o: GameOutcome): ReportedGame {
  const r: GameRecord = o.record;
  return {
    index,
    score: o.score,
    termination: o.termination,
    reason: o.reason,
    faultSide: o.faultSide,
    engineLost: o.engineLost,
    record: { tags: [...r.tags], moves: r.moves, result: r.result, ending: r.ending },
  };
}

/** A reported game as the coordinator counts it; `tags` (the run's settings) are added to its record's. */
export function gameOutcome(r: ReportedGame, tags: readonly [string, string][] = []): GameOutcome {
  return {
    score: r.score,
    termination: r.termination,
    reason: r.reason,
    faultSide: r.faultSide,
    engineLost: r.engineLost,
    record: {
      tags: new Map([...r.record.tags, ...tags]),
      moves: r.record.moves,
      result: r.record.result,
      ending: r.record.ending,
    },
  };
}

/**
 * The games of a pair result that belong to `job` and hold up (a worker is trusted to play, not
 * to be right, and anyone who can write to the results queue can forge one): one game per
 * scheduled index, a score of 0, ½ or 1, tag names, move texts and a result that write as they
 * read, and moves that replay legally from the game's start.
 */
export function checkResult(res: PairResult, scheduled: readonly number[]): ReportedGame[] {
  if (!Array.isArray(res?.games)) return [];
  const seen = new Set<number>();
  return res.games.filter((g) => {
    if (typeof g !== 'object' || g === null || !scheduled.includes(g.index) || seen.has(g.index)) return false;
    if (
      !(g.score === 0 || g.score === 0.5 || g.score === 1) ||
      typeof g.reason !== 'string' ||
      typeof g.termination !== 'string'
    )
      return false;
    if (!Array.isArray(g.record?.tags) || !Array.isArray(g.record?.moves)) return false;
    if (!g.record.tags.every((t) => Array.isArray(t) && t.length === 2)) return false;
    const rec: GameRecord = {
      tags: new Map(g.record.tags),
      moves: g.record.moves,
      result: g.record.result,
      ending: g.record.ending,
    };
    if (unwritableRecord(rec) !== undefined || !replayRecord(rec).ok) return false;
    seen.add(g.index);
    return true;
  });
}

/** The schedule indices of the pair whose first game is `first` (the second when it shares the pair key). */
export function pairGames(first: ScheduledGame, next: ScheduledGame | undefined): ScheduledGame[] {
  return next && first.pairKey !== undefined && next.pairKey === first.pairKey ? [first, next] : [first];
}
