/**
 * Independent games (src/match/stats/wdl.ts), checked against fastchess's published values:
 * app/tests/elo_test.cpp, "EloWDL 1-3" (Disservin/fastchess at 2f5e888), to their two decimals.
 */
import { describe, expect, it } from 'vitest';
import { NELO_SCALE, Z95, eloFromScore, normalCdf } from '../../../src/match/stats/elo';
import { trinomialStats, points } from '../../../src/match/stats/wdl';
import { near, twoDecimals } from './helpers';

describe('trinomialStats', () => {
  it('fastchess EloWDL 2: W136 L96 D111', () => {
    const s = trinomialStats({ wins: 136, losses: 96, draws: 111 });
    expect(s.n).toBe(343);
    twoDecimals(s.elo, 40.7);
    twoDecimals(s.eloError, 30.43);
    twoDecimals(s.nElo, 49.77);
    twoDecimals(s.nEloError, 36.77);
    twoDecimals(s.los, 99.6);
    expect(s.los.toFixed(2)).toBe('99.60');
    near(s.score, (136 + 55.5) / 343, 1e-15);
    near(s.drawRatio, (100 * 111) / 343, 1e-12);
  });

  it('fastchess EloWDL 1: W76 L89 D123', () => {
    const s = trinomialStats({ wins: 76, losses: 89, draws: 123 });
    twoDecimals(s.nElo, -20.76);
    twoDecimals(s.nEloError, 40.13);
    expect(s.los.toFixed(2)).toBe('15.53');
  });

  it('fastchess EloWDL 3: W34 L356 D0', () => {
    const s = trinomialStats({ wins: 34, losses: 356, draws: 0 });
    twoDecimals(s.nElo, -508.44);
    twoDecimals(s.nEloError, 34.48);
    expect(s.drawRatio).toBe(0);
  });

  it('follows the formulas', () => {
    const r = { wins: 120, losses: 98, draws: 182 };
    const s = trinomialStats(r);
    const mu = 211 / 400;
    const variance = (120 * (1 - mu) ** 2 + 182 * (0.5 - mu) ** 2 + 98 * mu ** 2) / 400;
    const se = Math.sqrt(variance / 400);
    near(s.score, mu, 1e-15);
    near(s.variance, variance, 1e-15);
    near(s.standardError, se, 1e-15);
    near(s.elo, eloFromScore(mu), 1e-12);
    near(s.eloError, (eloFromScore(mu + Z95 * se) - eloFromScore(mu - Z95 * se)) / 2, 1e-12);
    near(s.nElo, ((mu - 0.5) / Math.sqrt(variance)) * NELO_SCALE, 1e-12);
    near(s.nEloError, (Z95 / Math.sqrt(400)) * NELO_SCALE, 1e-12);
    near(s.los, 100 * normalCdf((mu - 0.5) / se), 1e-12);
    expect(s.drawRatio).toBe(45.5);
  });

  it('a symmetric result gives Elo 0 and LOS 50', () => {
    for (const r of [
      { wins: 50, losses: 50, draws: 0 },
      { wins: 10, losses: 10, draws: 80 },
      { wins: 1, losses: 1, draws: 1 },
    ]) {
      const s = trinomialStats(r);
      expect(s.score).toBe(0.5);
      expect(s.elo).toBe(0);
      expect(s.nElo).toBe(0);
      expect(s.los).toBe(50);
      expect(s.eloError).toBeGreaterThan(0);
      near(s.eloError, -eloFromScore(0.5 - Z95 * s.standardError), 1e-9);
    }
  });

  it('mirrored results mirror Elo and LOS', () => {
    const a = trinomialStats({ wins: 30, losses: 20, draws: 50 });
    const b = trinomialStats({ wins: 20, losses: 30, draws: 50 });
    near(a.elo, -b.elo, 1e-12);
    near(a.eloError, b.eloError, 1e-12);
    near(a.nElo, -b.nElo, 1e-12);
    near(a.los + b.los, 100, 1e-12);
  });

  it('degenerate results do not throw', () => {
    const draws = trinomialStats({ wins: 0, losses: 0, draws: 10 });
    expect(draws.elo).toBe(0);
    expect(draws.los).toBe(50);
    expect(draws.nElo).toBe(0);
    expect(draws.drawRatio).toBe(100);
    const wins = trinomialStats({ wins: 10, losses: 0, draws: 0 });
    expect(wins.elo).toBe(Infinity);
    expect(wins.los).toBe(100);
    const losses = trinomialStats({ wins: 0, losses: 10, draws: 0 });
    expect(losses.elo).toBe(-Infinity);
    expect(losses.los).toBe(0);
    const none = trinomialStats({ wins: 0, losses: 0, draws: 0 });
    expect(none.n).toBe(0);
    expect(Number.isNaN(none.score)).toBe(true);
    expect(Number.isNaN(none.los)).toBe(true);
  });

  it('an interval end beyond 100% gives an infinite error, not NaN', () => {
    const s = trinomialStats({ wins: 9, losses: 0, draws: 1 });
    expect(s.eloError).toBe(Infinity);
    expect(Number.isFinite(s.elo)).toBe(true);
  });
});

describe('points', () => {
  it('counts draws as half a point by default', () => {
    expect(points({ wins: 3, losses: 2, draws: 5 })).toBe(5.5);
    expect(points({ wins: 3, losses: 2, draws: 5 }, 1 / 3)).toBeCloseTo(3 + 5 / 3, 12);
    expect(points({ wins: 0, losses: 4, draws: 0 })).toBe(0);
  });
});
