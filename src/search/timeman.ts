/** Time management: how long to think for sudden death, increment, moves-to-go and movetime. */
/** The time fields of `go` for the side to move. */
export interface GoTimeParams {
  /** Remaining time of the side to move, ms (undefined = no clock). */
  time?: number;
  inc?: number;
  movesToGo?: number;
  movetime?: number;
}

export interface TimeBudget {
  /** Soft limit: the search starts no new iteration after half of it. 0 = unlimited. */
  optimumMs: number;
  /** Hard limit: the search stops. 0 = unlimited. */
  maximumMs: number;
}

export function timeBudget(clock: GoTimeParams, moveOverhead: number): TimeBudget {
  if (clock.movetime !== undefined) {
    // Keep the overhead back, but at most a fifth of T: the engine's own answer takes 1–3 ms
    // once it runs (bench/fast.mjs), and a whole 10 ms overhead left `go movetime 10` a 1 ms,
    // depth-1 search.
    const t = Math.max(1, clock.movetime - Math.min(moveOverhead, Math.round(clock.movetime / 5)));
    return { optimumMs: t * 2, maximumMs: t };
  }
  if (clock.time === undefined) return { optimumMs: 0, maximumMs: 0 };
  const inc = Math.max(0, clock.inc ?? 0);
  const mtg = clock.movesToGo !== undefined && clock.movesToGo > 0 ? Math.min(clock.movesToGo, 50) : 35;
  // Keep the overhead of every move to the next time control (a few in sudden death) in reserve.
  const reserveMoves = clock.movesToGo !== undefined && clock.movesToGo > 0 ? mtg : 3;
  const available = Math.max(1, clock.time - moveOverhead * reserveMoves);
  // Spend most of the increment only while the clock holds several increments: low on time,
  // bank it, so that the clock recovers instead of draining to zero.
  const incShare = 0.75 * Math.min(1, available / Math.max(1, inc * 10));
  let optimum = available / mtg + inc * incShare;
  const maxShare = mtg === 1 ? 0.8 : Math.min(0.5, 3 / mtg + 0.1);
  const maximum = Math.min(available * maxShare, optimum * 4);
  optimum = Math.min(optimum, maximum);
  return { optimumMs: Math.max(1, Math.floor(optimum)), maximumMs: Math.max(1, Math.floor(maximum)) };
}

/** How much of the lag estimate is left one move later. */
const LAG_DECAY = 0.9;

/**
 * The time a referee charges beyond the engine's own measure. The clock of the next `go` for the
 * same side tells what the last move cost (the clock before, plus the increment, less the clock
 * now); the engine's own measure of it (from reading `go` to writing `bestmove`) taken off leaves
 * the lag: the pipes, and on a busy machine the waits for a core before `go` is read and after
 * `bestmove` is written. The estimate is the largest recent lag, a tenth less each move; while
 * it is above Move Overhead it takes its place, so that a loaded machine's lag is kept in reserve
 * instead of flagging at 1+0.01 (bench/README.md, "Short searches").
 */
export class ClockLag {
  /** The estimate, ms. */
  ms = 0;
  private last: { side: number; time: number; inc: number; spent: number } | null = null;

  /** A search with a clock has been answered: `time` and `inc` as `go` gave them, `spentMs` by the engine's measure. */
  answered(side: number, time: number, inc: number, spentMs: number): void {
    this.last = { side, time, inc, spent: spentMs };
  }

  /** The next `go` with a clock: what the last move cost on it. */
  observe(side: number, time: number): void {
    const l = this.last;
    this.last = null;
    if (l === null || l.side !== side) return;
    const charged = l.time + l.inc - time;
    // a clock that went up or a charge above the whole clock: not the next move of one game
    if (charged < 0 || charged > l.time + l.inc) return;
    this.ms = Math.max(charged - l.spent, this.ms * LAG_DECAY, 0);
  }

  /** A new game: the next clock is not the last one's successor. */
  newGame(): void {
    this.last = null;
  }

  /** The overhead to plan with: Move Overhead, or the lag when that is larger. */
  overhead(moveOverhead: number): number {
    return Math.max(moveOverhead, Math.ceil(this.ms));
  }
}
