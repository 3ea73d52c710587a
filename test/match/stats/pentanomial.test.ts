/**
 * Game pairs (src/match/stats/pentanomial.ts), checked against fastchess's published values:
 * app/tests/elo_test.cpp, "EloPentanomial 1-3" (Disservin/fastchess at 2f5e888), to their two
 * decimals.
 */
import { describe, expect, it } from 'vitest';
import { NELO_SCALE, normalCdf } from '../../../src/match/stats/elo';
import {
  pentanomialStats,
  pentanomialIndex,
  pentanomialFromSix,
  type Pentanomial,
} from '../../../src/match/stats/pentanomial';
import { near, twoDecimals } from './helpers';

describe('pentanomialStats', () => {
  it('fastchess EloPentanomial 1: (LL,LD,WL,DD,WD,WW) = 34,54,31,32,64,75', () => {
    const s = pentanomialStats(pentanomialFromSix(34, 54, 31, 32, 64, 75));
    expect(s.n).toBe(290);
    twoDecimals(s.nElo, 57.94);
    twoDecimals(s.nEloError, 28.28);
    twoDecimals(s.elo, 55.58);
    twoDecimals(s.eloError, 27.65);
    expect(s.los.toFixed(2)).toBe('100.00');
  });

  it('fastchess EloPentanomial 2: 332,433,457,41,333,334', () => {
    const s = pentanomialStats(pentanomialFromSix(332, 433, 457, 41, 333, 334));
    twoDecimals(s.nElo, -9.17);
    twoDecimals(s.nEloError, 10.96);
    twoDecimals(s.elo, -8.64);
    twoDecimals(s.eloError, 10.33);
    expect(s.los.toFixed(2)).toBe('5.05');
  });

  it('fastchess EloPentanomial 3: 7895,8757,5485,200,568,9999', () => {
    const s = pentanomialStats(pentanomialFromSix(7895, 8757, 5485, 200, 568, 9999));
    twoDecimals(s.nElo, -19.01);
    twoDecimals(s.nEloError, 2.65);
    twoDecimals(s.elo, -21.04);
    twoDecimals(s.eloError, 2.95);
  });

  it('uses the per-pair variance, √2·σ_pair for nElo, and (WL+DD)/pairs as draw ratio', () => {
    const p: Pentanomial = [5, 20, 50, 30, 15];
    const s = pentanomialStats(p);
    const scores = [0, 0.25, 0.5, 0.75, 1];
    const mu = scores.reduce((acc, a, i) => acc + a * p[i], 0) / 120;
    const variance = scores.reduce((acc, a, i) => acc + p[i] * (a - mu) ** 2, 0) / 120;
    near(s.score, mu, 1e-15);
    near(s.variance, variance, 1e-15);
    near(s.standardError, Math.sqrt(variance / 120), 1e-15);
    near(s.nElo, ((mu - 0.5) / Math.sqrt(2 * variance)) * NELO_SCALE, 1e-12);
    near(s.los, 100 * normalCdf((mu - 0.5) / Math.sqrt(variance / 120)), 1e-12);
    near(s.drawRatio, (100 * 50) / 120, 1e-12);
  });

  it('a symmetric result gives Elo 0 and LOS 50', () => {
    const s = pentanomialStats([3, 17, 40, 17, 3]);
    expect(s.elo).toBe(0);
    expect(s.nElo).toBe(0);
    expect(s.los).toBe(50);
  });

  it('pentanomialIndex maps two game scores to the bucket', () => {
    expect(pentanomialIndex(0, 0)).toBe(0);
    expect(pentanomialIndex(0.5, 0)).toBe(1);
    expect(pentanomialIndex(0, 0.5)).toBe(1);
    expect(pentanomialIndex(1, 0)).toBe(2);
    expect(pentanomialIndex(0.5, 0.5)).toBe(2);
    expect(pentanomialIndex(1, 0.5)).toBe(3);
    expect(pentanomialIndex(1, 1)).toBe(4);
    expect(() => pentanomialIndex(1, 2)).toThrow(RangeError);
    expect(pentanomialFromSix(1, 2, 3, 4, 5, 6)).toEqual([1, 2, 7, 5, 6]);
  });
});
