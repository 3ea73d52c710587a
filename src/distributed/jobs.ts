/**
 * What travels through Redis: a run's settings (read once by each worker), the job of one game
 * pair, and the result a worker returns for it. All plain JSON; the pair's id is the job id of
 * both the pair job and its result, so a pair is queued once and counted once.
 */
import { oneLine } from '../core/quote';
import type { GameRecord, MoveRecord, ResultToken, Termination } from '../core/record';
import type { GameOutcome, SheetSetup } from '../match/referee';
import { rejudge } from '../match/rejudge';
import type { Opening } from '../match/openings';
import type { ScheduledGame } from '../match/schedule';
import type { GameSettings } from '../match/slot';
import type { EngineBuild } from './builds';
import { type Signer, signRun } from './trust';

/** A run as its workers see it: what a game needs, the names, and the build of each engine. */
export interface RunSettings extends GameSettings {
  names: string[];
  builds: EngineBuild[];
  /**
   * What each Thoth engine said of its evaluation on the coordinator (engine-network.ts), null for
   * another engine: a worker whose engine says otherwise refuses the run.
   */
  evaluations?: (string | null)[];
}

/** A pair job: the games still to play of one pair (or a lone game), and their opening. */
export interface PairJob {
  games: ScheduledGame[];
  opening: Opening;
}

/**
 * A pair job as it is queued: its text, signed with the run's key (trust.ts, the field `job
 * <id>`), so that a worker plays only the games the coordinator asked for, and a job changed in
 * Redis is refused rather than played.
 */
export interface SignedJob {
  body: string;
  sig: string;
}

export function signedJob(signer: Signer, run: string, id: string, job: PairJob): SignedJob {
  const body = JSON.stringify(job);
  return { body, sig: signRun(signer, run, `job ${id}`, body).sig };
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

/** A game of a result that counts: its place in the schedule and its outcome, as the coordinator judged it. */
interface JudgedGame {
  index: number;
  outcome: GameOutcome;
}

/**
 * The games of a worker's result that count, judged by the referee's rules against the
 * coordinator's own plan (`setupOf`: the game the schedule holds at an index, match/rejudge.ts),
 * and why the others do not (`game 5: …`). A worker is trusted to play, not to be right: anyone
 * who can write to the results queue can forge a result. A game counts only at one of `scheduled`
 * (the pair's places), once, with the moves and result it reports holding up on replay; its record
 * is the coordinator's, written from the plan (players, opening, limits, tags), never the worker's.
 */
export function judgeResult(
  res: unknown,
  scheduled: readonly number[],
  setupOf: (index: number) => SheetSetup,
): { games: JudgedGame[]; refused: string[] } {
  const games: JudgedGame[] = [];
  const refused: string[] = [];
  const reported = (res as { games?: unknown } | null)?.games;
  if (!Array.isArray(reported)) return { games, refused: ['not a result (no games)'] };
  if (reported.length > scheduled.length) refused.push(`${reported.length} games for a pair of ${scheduled.length}`);
  const seen = new Set<number>();
  for (const g of reported.slice(0, scheduled.length) as Partial<ReportedGame>[]) {
    const index = g?.index;
    if (typeof index !== 'number' || !scheduled.includes(index) || seen.has(index)) {
      refused.push(`a game at ${oneLine(String(index)).slice(0, 20)}, not a game of this pair`);
      continue;
    }
    seen.add(index);
    const r = rejudge(setupOf(index), {
      moves: Array.isArray(g.record?.moves) ? g.record.moves : (undefined as unknown as MoveRecord[]),
      score: g.score as number,
      termination: g.termination as Termination,
      reason: g.reason as string,
    });
    if (r.ok) games.push({ index, outcome: r.value });
    else refused.push(`game ${index + 1}: ${r.error}`);
  }
  return { games, refused };
}

/** The schedule indices of the pair whose first game is `first` (the second when it shares the pair key). */
export function pairGames(first: ScheduledGame, next: ScheduledGame | undefined): ScheduledGame[] {
  return next && first.pairKey !== undefined && next.pairKey === first.pairKey ? [first, next] : [first];
}
