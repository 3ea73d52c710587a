import { describe, expect, it } from 'vitest';
import {
  checkSpsaState,
  newSpsaState,
  spsaGains,
  spsaPerturb,
  spsaSigns,
  spsaUpdate,
  type SpsaParam,
  type SpsaState,
} from '../../src/match/spsa';

const P: SpsaParam = { name: 'X', min: 1, max: 20, cEnd: 2, rEnd: 0.002 };

describe('SPSA gains (fishtest definitions)', () => {
  it('reach c_end and r_end at the last iteration', () => {
    for (const n of [10, 100, 5000]) {
      const { c, a } = spsaGains(P, n, n);
      expect(c).toBeCloseTo(P.cEnd, 10);
      expect(a / (c * c)).toBeCloseTo(P.rEnd, 10);
    }
  });

  it('match values computed by hand at the first iteration (N 100, c_end 2, r_end 0.002)', () => {
    // c = 2 · 100^0.101 = 3.18442; a = 0.002 · 4 · 110^0.602 = 0.135514; a_1 = a / 11^0.602 = 0.0319951
    const { c, a } = spsaGains(P, 1, 100);
    expect(c).toBeCloseTo(3.18442, 4);
    expect(a).toBeCloseTo(0.0319951, 5);
  });

  it('perturbations are ±1, half each, and the same for the same seed and iteration', () => {
    let plus = 0;
    for (let k = 1; k <= 4000; k++) plus += spsaSigns(7, k, 3).filter((s) => s === 1).length;
    expect(plus / 12000).toBeGreaterThan(0.47);
    expect(plus / 12000).toBeLessThan(0.53);
    expect(spsaSigns(7, 42, 5)).toEqual(spsaSigns(7, 42, 5));
    expect(spsaSigns(7, 42, 5).every((s) => s === 1 || s === -1)).toBe(true);
  });
});

describe('SPSA steps', () => {
  it('play θ ± c_k Δ rounded and within range, and move θ toward the winning side', () => {
    const s = newSpsaState([P], [10], 100, 3);
    const { plus, minus, signs } = spsaPerturb(s);
    expect(plus[0]).toBe(Math.round(10 + 3.18442 * signs[0]));
    expect(minus[0]).toBe(Math.round(10 - 3.18442 * signs[0]));
    const won = spsaUpdate(s, 2, 2);
    expect(Math.sign(won.theta[0] - 10)).toBe(signs[0]);
    expect(won.k).toBe(2);
    expect(won.history).toEqual([{ k: 1, result: 2, games: 2, theta: won.theta }]);
    const lost = spsaUpdate(s, -2, 2);
    expect(Math.sign(lost.theta[0] - 10)).toBe(-signs[0]);
    const atEdge = spsaUpdate(newSpsaState([P], [20], 100, 3), 1000 * signs[0], 2);
    expect(atEdge.theta[0]).toBeLessThanOrEqual(20);
  });

  it('find the best value of a noisy match whose strength peaks at 12', () => {
    // A game pair's result: +2/0/−2 with win chances by the difference of a concave strength curve.
    let seed = 12345;
    const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const strength = (x: number): number => -0.05 * (x - 12) ** 2;
    const game = (a: number, b: number): number => {
      const p = 1 / (1 + Math.exp(-(strength(a) - strength(b)) * 4));
      return rnd() < p ? 1 : -1;
    };
    const q: SpsaParam = { name: 'X', min: 1, max: 30, cEnd: 2, rEnd: 0.02 };
    let s: SpsaState = newSpsaState([q], [4], 3000, 9);
    while (s.k <= s.iterations) {
      const { plus, minus } = spsaPerturb(s);
      s = spsaUpdate(s, game(plus[0], minus[0]) + game(plus[0], minus[0]), 2);
    }
    expect(Math.abs(s.theta[0] - 12)).toBeLessThan(2);
  });
});

describe('SPSA state files', () => {
  it('read back as they were written, and another run or another shape is refused', () => {
    const s = spsaUpdate(newSpsaState([P], [10], 50, 1), 1, 2);
    const back = JSON.parse(JSON.stringify(s));
    expect(checkSpsaState(back, ['X'])).toBeUndefined();
    expect(back).toEqual(s);
    expect(checkSpsaState(back, ['Y'])).toMatch(/tunes X, not Y/);
    expect(checkSpsaState({ params: [] }, ['X'])).toBe('not a tuning state');
    expect(checkSpsaState(null, ['X'])).toBe('not a tuning state');
    expect(checkSpsaState({ ...back, theta: ['a'] }, ['X'])).toBe('not a tuning state');
  });
});
