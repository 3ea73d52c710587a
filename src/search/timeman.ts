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
