/**
 * voteBest: the move played after a Lazy SMP search, chosen by a vote of the threads weighted by
 * depth and score (Stockfish's), a found win always winning.
 */
import { describe, expect, it } from 'vitest';
import { voteBest, type ThreadResult } from '../../src/engine/pool-core';
import { MATE } from '../../src/core/score';

function r(threadIndex: number, best: string, score: number, depth: number, ponder = ''): ThreadResult {
  return { threadIndex, best, ponder, score, depth, nodes: 1000 };
}

describe('voteBest', () => {
  it('the main thread alone: its move, whatever it is', () => {
    const main = r(0, 'c1d2', -35, 1, 'h8g7');
    expect(voteBest([main])).toBe(main);
    const deep = r(0, 'f4g5', 12, 9);
    expect(voteBest([deep])).toBe(deep);
  });

  it('the main thread with only invalid helpers (depth 0 or no move): the main move', () => {
    const main = r(0, 'c1d2', 10, 3);
    const helpers = [r(1, 'f4g5', 900, 0), r(2, 'j1-', 500, 0), r(3, '', 0, 0), r(4, '', 800, 12)];
    expect(voteBest([main, ...helpers])).toBe(main);
    // also when the main result is not first in the array
    expect(voteBest([...helpers, main])).toBe(main);
  });

  it('invalid helpers (depth 0) neither vote, nor move the score baseline, nor win by a mate score', () => {
    // valid threads only: a = (20 - 0 + 14) × 6 = 204 beats b = 2 × 14 × 6 = 168
    const valid = [r(0, 'a', 20, 6), r(1, 'b', 0, 6), r(2, 'b', 0, 6)];
    expect(voteBest(valid).best).toBe('a');
    // a depth-0 helper scoring -1000 would lower the baseline and hand the vote to b
    expect(voteBest([...valid, r(3, 'c', -1000, 0)]).best).toBe('a');
    // a depth-0 helper with a mate score is not a found win
    expect(voteBest([...valid, r(3, 'z', MATE - 1, 0)]).best).toBe('a');
  });

  it("a majority move wins over the main thread's move (equal depth and score)", () => {
    const res = voteBest([r(0, 'a', 10, 8), r(1, 'b', 10, 8), r(2, 'b', 10, 8)]);
    expect(res.best).toBe('b');
    expect(res.threadIndex).not.toBe(0);
  });

  it("a tie keeps the main thread's move", () => {
    const res = voteBest([r(0, 'a', 10, 8), r(1, 'b', 10, 8)]);
    expect(res.best).toBe('a');
    expect(res.threadIndex).toBe(0);
  });

  it('deeper and better-scored threads weigh more', () => {
    // votes: (score - min + 14) × depth; a: 14×6 + 14×6 = 168, b: (14+40)×9 = 486
    const res = voteBest([r(0, 'a', 0, 6), r(1, 'a', 0, 6), r(2, 'b', 40, 9)]);
    expect(res.best).toBe('b');
    // a single shallow helper does not outvote a deep main search
    expect(voteBest([r(0, 'a', 10, 12), r(1, 'b', 10, 3)]).best).toBe('a');
  });

  it('a found win (mate score) wins, even against a majority', () => {
    const mate = r(3, 'j5+', MATE - 3, 4, 'x');
    const res = voteBest([r(0, 'a', 50, 12), r(1, 'a', 50, 12), r(2, 'a', 50, 11), mate]);
    expect(res).toBe(mate);
    // and the fastest win is kept among several
    const slow = r(1, 's', MATE - 9, 10);
    const fast = r(2, 'f', MATE - 1, 2);
    expect(voteBest([r(0, 'a', MATE - 9, 10), slow, fast]).best).toBe('f');
    expect(voteBest([fast, r(0, 'a', 0, 10), slow]).best).toBe('f');
  });

  it('a helper shallower than the main search does not vote (its result is older)', () => {
    // b would win the vote on score, but its depth-8 result predates the main search's depth 9
    expect(voteBest([r(0, 'a', -10, 9), r(1, 'b', 50, 8)]).best).toBe('a');
    expect(voteBest([r(0, 'a', -10, 9), r(1, 'b', 50, 8), r(2, 'b', 50, 8)]).best).toBe('a');
    // at equal or greater depth it does
    expect(voteBest([r(0, 'a', -10, 9), r(1, 'b', 50, 10)]).best).toBe('b');
  });

  it("the main thread's win is kept against helpers without one", () => {
    const main = r(0, 'j5+', MATE - 1, 3);
    expect(voteBest([main, r(1, 'b', 100, 9), r(2, 'b', 100, 9), r(3, 'b', 100, 9)])).toBe(main);
  });
});
