/** Time management: never more than the remaining time minus the overhead; never flags at 1 s + 0.01 s. */
import { describe, expect, it } from 'vitest';
import { ClockLag, timeBudget, type GoTimeParams } from '../../src/search/timeman';

const TIMES = [1, 5, 9, 10, 11, 15, 20, 50, 100, 200, 500, 999, 1000, 1010, 3000, 10_000, 60_000, 600_000, 10_800_000];
const INCS = [undefined, 0, 10, 100, 1000, 5000];
const MTGS = [undefined, 0, 1, 2, 3, 5, 10, 40, 100];
const OVERHEADS = [0, 1, 10, 50, 100, 1000];

describe('timeBudget', () => {
  it('no clock: no time limit', () => {
    expect(timeBudget({}, 10)).toEqual({ optimumMs: 0, maximumMs: 0 });
    expect(timeBudget({ inc: 100 }, 10)).toEqual({ optimumMs: 0, maximumMs: 0 });
  });

  it('never allots more than the remaining time minus the overhead (at least 1 ms), over a table of clocks', () => {
    const faults: string[] = [];
    let checked = 0;
    for (const time of TIMES) {
      for (const inc of INCS) {
        for (const movesToGo of MTGS) {
          for (const overhead of OVERHEADS) {
            const clock: GoTimeParams = { time, inc, movesToGo };
            const b = timeBudget(clock, overhead);
            const what = `${JSON.stringify(clock)} overhead ${overhead}: ${JSON.stringify(b)}`;
            if (!Number.isInteger(b.maximumMs) || !Number.isInteger(b.optimumMs))
              faults.push(`${what}: not whole milliseconds`);
            if (b.maximumMs < 1 || b.optimumMs < 1) faults.push(`${what}: below 1 ms`);
            if (b.maximumMs > Math.max(1, time - overhead))
              faults.push(`${what}: more than the time left minus the overhead`);
            if (b.optimumMs > b.maximumMs) faults.push(`${what}: optimum above maximum`);
            checked++;
          }
        }
      }
    }
    expect(faults).toEqual([]);
    expect(checked).toBe(TIMES.length * INCS.length * MTGS.length * OVERHEADS.length);
  });

  it('1 s + 0.01 s with the default overhead: a sensible share, well inside the clock', () => {
    const b = timeBudget({ time: 1000, inc: 10 }, 10);
    expect(b.maximumMs).toBeLessThanOrEqual(1000 - 10);
    expect(b.maximumMs).toBeLessThanOrEqual(250);
    expect(b.optimumMs).toBeGreaterThanOrEqual(10);
  });

  it('movetime: at most movetime minus the overhead, the overhead at most a fifth of movetime', () => {
    for (const movetime of [0, 1, 5, 10, 11, 50, 100, 1000, 60_000]) {
      for (const overhead of OVERHEADS) {
        const b = timeBudget({ movetime }, overhead);
        const kept = Math.min(overhead, Math.round(movetime / 5));
        expect(b.maximumMs).toBeGreaterThanOrEqual(1);
        expect(b.maximumMs, `movetime ${movetime} overhead ${overhead}`).toBe(Math.max(1, movetime - kept));
      }
    }
  });

  it('movetime 10 with the default overhead searches 8 ms, not 1', () => {
    expect(timeBudget({ movetime: 10 }, 10).maximumMs).toBe(8);
    expect(timeBudget({ movetime: 30 }, 10).maximumMs).toBe(24);
    expect(timeBudget({ movetime: 100 }, 10).maximumMs).toBe(90);
  });

  it('more time or more increment never means less time to think', () => {
    for (const overhead of [0, 10, 100]) {
      for (const inc of [0, 10, 100]) {
        let prev = 0;
        for (const time of TIMES) {
          const b = timeBudget({ time, inc }, overhead);
          expect(b.maximumMs, `time ${time} inc ${inc} overhead ${overhead}`).toBeGreaterThanOrEqual(prev);
          prev = b.maximumMs;
        }
      }
    }
  });

  /**
   * Plays a game against the clock: every move the search thinks `use(budget)` ms and `lag` ms
   * more go by (the GUI's and the pipe's time, which the overhead is there to cover). Returns the
   * number of moves played before the clock ran out (`moves` when it never did).
   */
  function survives(
    moves: number,
    start: number,
    inc: number,
    overhead: number,
    lag: number,
    movesPerPeriod: number,
    use: (b: { optimumMs: number; maximumMs: number }) => number,
  ): number {
    let rem = start;
    for (let i = 0; i < moves; i++) {
      const movesToGo = movesPerPeriod > 0 ? movesPerPeriod - (i % movesPerPeriod) : undefined;
      const b = timeBudget({ time: rem, inc, movesToGo }, overhead);
      rem -= use(b) + lag;
      if (rem <= 0) return i;
      rem += inc;
      if (movesPerPeriod > 0 && (i + 1) % movesPerPeriod === 0) rem += start;
    }
    return moves;
  }
  const hardLimit = (b: { maximumMs: number }): number => b.maximumMs;
  const softLimit = (b: { optimumMs: number }): number => b.optimumMs;

  it('never loses on time at 1 s + 0.01 s per move (300 moves at the hard limit, any lag below the increment)', () => {
    for (const lag of [0, 1, 2, 5, 8, 9]) {
      expect(survives(300, 1000, 10, 10, lag, 0, hardLimit), `lag ${lag} ms`).toBe(300);
    }
  });

  it('never loses on time with an increment (300 moves at the hard limit, lag = half the overhead)', () => {
    for (const [start, inc, overhead] of [
      [10_000, 100, 10],
      [60_000, 600, 10],
      [5_000, 50, 30],
      [2_000, 20, 10],
    ]) {
      expect(
        survives(300, start, inc, overhead, overhead / 2, 0, hardLimit),
        `${start}+${inc}, overhead ${overhead}`,
      ).toBe(300);
    }
  });

  it('never loses on time with moves-to-go (300 moves at the soft limit, lag = the whole overhead)', () => {
    // The overhead is the lag the engine is told to expect on every move: a period of M moves
    // costs M overheads, which the allotment must leave over.
    const flags: string[] = [];
    for (const [start, overhead, period] of [
      [1_000, 10, 40],
      [3_000, 10, 40],
      [10_000, 100, 40],
      [60_000, 10, 40],
      [2_000, 50, 20],
      [500, 10, 10],
    ]) {
      const n = survives(300, start, 0, overhead, overhead, period, softLimit);
      if (n < 300)
        flags.push(
          `${period}/${start} ms, overhead ${overhead}: out of time on move ${n + 1} (${period - (n % period)} to go)`,
        );
    }
    expect(flags).toEqual([]);
  });
});

describe('ClockLag', () => {
  it('the charge of the last move beyond its own time becomes the overhead, then fades', () => {
    const lag = new ClockLag();
    expect(lag.overhead(10)).toBe(10);
    // 1000 ms + 10 ms increment, 30 ms by the engine's measure, 700 ms left: 280 ms of lag
    lag.answered(0, 1000, 10, 30);
    lag.observe(0, 700);
    expect(lag.ms).toBe(280);
    expect(lag.overhead(10)).toBe(280);
    // no lag on the next move: a tenth less
    lag.answered(0, 700, 10, 20);
    lag.observe(0, 690);
    expect(lag.ms).toBeCloseTo(252);
    // as it fades, Move Overhead takes over again
    for (let i = 0; i < 60; i++) {
      lag.answered(0, 690, 10, 20);
      lag.observe(0, 680);
    }
    expect(lag.overhead(10)).toBe(10);
  });

  it('a clock that is not the next move of the same game is not compared', () => {
    const lag = new ClockLag();
    lag.answered(0, 1000, 10, 30);
    lag.observe(1, 500); // the other side
    lag.answered(0, 300, 10, 30);
    lag.observe(0, 1000); // a clock that went up: a new game
    lag.answered(0, 1000, 10, 30);
    lag.newGame();
    lag.observe(0, 100);
    lag.observe(0, 100); // nothing answered since
    expect(lag.ms).toBe(0);
    // a referee that charges less than the engine measured (or adds the increment first): no lag
    lag.answered(0, 1000, 10, 50);
    lag.observe(0, 990);
    expect(lag.ms).toBe(0);
  });
});
