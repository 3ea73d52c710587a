import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/zobrist';
import { Standings, encounterLines, standingsLines } from '../../src/match/report';
import { Schedule } from '../../src/match/schedule';
import {
  NELO_SCALE,
  Z95,
  eloFromScore,
  erf,
  erfc,
  fitRatings,
  formatEloLine,
  formatPentanomialLine,
  formatScoreLine,
  formatSprtLine,
  normalCdf,
  pentanomialFromSix,
  pentanomialIndex,
  pentanomialStats,
  points,
  scoreFromElo,
  sprtBounds,
  sprtDecision,
  sprtLLR,
  trinomialStats,
  type Pentanomial,
  type RatedGame,
} from '../../src/match/stats';

/** |actual − expected| ≤ tol. */
function near(actual: number, expected: number, tol: number): void {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

/** Published values are given to 2 decimals: they must match when rounded. */
function twoDecimals(actual: number, expected: number): void {
  near(actual, expected, 0.005 + 1e-9);
}

/** Deterministic PRNG (mulberry32) for the randomised tests. */
function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() >>> 0) / 4294967296;
}

describe('Elo helpers', () => {
  it('scoreFromElo is the logistic curve', () => {
    expect(scoreFromElo(0)).toBe(0.5);
    near(scoreFromElo(400), 10 / 11, 1e-15);
    near(scoreFromElo(-400), 1 / 11, 1e-15);
    near(scoreFromElo(100) + scoreFromElo(-100), 1, 1e-15);
  });

  it('eloFromScore is −400·log10(1/s − 1)', () => {
    expect(eloFromScore(0.5)).toBe(0);
    near(eloFromScore(10 / 11), 400, 1e-9);
    near(eloFromScore(0.75), 190.848501887865, 1e-9);
    expect(eloFromScore(1)).toBe(Infinity);
    expect(eloFromScore(0)).toBe(-Infinity);
  });

  it('round-trips', () => {
    for (const x of [-1200, -800, -400, -191.3, -1, 0, 0.25, 3, 19.1, 200, 735.5, 1500]) {
      near(eloFromScore(scoreFromElo(x)), x, 1e-9 * Math.max(1, Math.abs(x)) * 100);
    }
    for (const s of [0.001, 0.1, 0.3, 0.5, 0.527, 0.9, 0.999]) {
      near(scoreFromElo(eloFromScore(s)), s, 1e-14);
    }
  });
});

describe('erf / normal CDF', () => {
  // Reference values: Python math.erf / math.erfc (C library, correctly rounded to ~1 ulp).
  const table: [number, number, number][] = [
    [0, 0, 1],
    [0.1, 0.1124629160182849, 0.8875370839817152],
    [0.5, 0.5204998778130465, 0.4795001221869535],
    [1, 0.8427007929497149, 0.15729920705028513],
    [2, 0.9953222650189527, 0.004677734981047265],
    [2.5, 0.999593047982555, 0.0004069520174449589],
    [3, 0.9999779095030014, 2.2090496998585438e-5],
    [4, 0.9999999845827421, 1.541725790028002e-8],
    [5, 0.9999999999984626, 1.5374597944280351e-12],
    [6, 1, 2.1519736712498916e-17],
  ];

  it('erf matches reference values to 1e-15', () => {
    for (const [x, e] of table) {
      near(erf(x), e, 1e-15);
      near(erf(-x), -e, 1e-15);
    }
  });

  it('erfc keeps relative precision in the tail', () => {
    for (const [x, , c] of table) {
      near(erfc(x) / c, 1, 1e-12);
      near(erfc(-x), 2 - c, 1e-15);
    }
  });

  it('Φ at well-known points', () => {
    expect(normalCdf(0)).toBe(0.5);
    near(normalCdf(1), 0.8413447460685429, 1e-15);
    near(normalCdf(-1), 0.15865525393145707, 1e-15);
    near(normalCdf(Z95), 0.975, 1e-7);
    near(normalCdf(-Z95), 0.025, 1e-7);
    near(normalCdf(-8) / 6.22096057427178e-16, 1, 1e-10);
    expect(normalCdf(40)).toBe(1);
    expect(normalCdf(-40)).toBe(0);
  });

  it('is monotone across the series / continued-fraction switch', () => {
    let prev = -1;
    for (let x = 1.3; x <= 1.7; x += 0.001) {
      const v = erf(x);
      expect(v).toBeGreaterThanOrEqual(prev);
      prev = v;
    }
    // both sides of the switch at 1.5 agree with the reference to ~1e−15 relative
    near(erfc(1.4999) / 0.03390674833770473, 1, 1e-13);
    near(erfc(1.5) / 0.033894853524689274, 1, 1e-14);
    near(erfc(2.4999) / 0.0004071699003334514, 1, 1e-14);
  });
});

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
      near(s.eloError, -(eloFromScore(0.5 - Z95 * s.standardError)), 1e-9);
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

describe('points', () => {
  it('counts draws as half a point by default', () => {
    expect(points({ wins: 3, losses: 2, draws: 5 })).toBe(5.5);
    expect(points({ wins: 3, losses: 2, draws: 5 }, 1 / 3)).toBeCloseTo(3 + 5 / 3, 12);
    expect(points({ wins: 0, losses: 4, draws: 0 })).toBe(0);
  });
});

describe('SPRT', () => {
  it('bounds are ±2.944 for α = β = 0.05', () => {
    const b = sprtBounds(0.05, 0.05);
    near(b.lower, -2.944, 5e-4);
    near(b.upper, 2.944, 5e-4);
    near(b.upper, Math.log(19), 1e-15);
    near(b.lower, -Math.log(19), 1e-15);
    const c = sprtBounds(0.05, 0.1);
    near(c.lower, Math.log(0.1 / 0.95), 1e-15);
    near(c.upper, Math.log(0.9 / 0.05), 1e-15);
    expect(() => sprtBounds(0, 0.05)).toThrow(RangeError);
    expect(() => sprtBounds(0.6, 0.5)).toThrow(RangeError);
  });

  it('decision', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(sprtDecision(2.95, b)).toBe('H1');
    expect(sprtDecision(b.upper, b)).toBe('H1');
    expect(sprtDecision(-2.95, b)).toBe('H0');
    expect(sprtDecision(b.lower, b)).toBe('H0');
    expect(sprtDecision(0, b)).toBeNull();
    expect(sprtDecision(2.9, b)).toBeNull();
  });

  // Published values from fastchess's app/tests/sprt_test.cpp.
  it('normalized [0, 2], trinomial W36433 L36027 D68692 → 0.92', () => {
    twoDecimals(sprtLLR({ wins: 36433, losses: 36027, draws: 68692 }, 0, 2, 'normalized'), 0.92);
    // 'normalized' is the default model
    twoDecimals(sprtLLR({ wins: 36433, losses: 36027, draws: 68692 }, 0, 2), 0.92);
  });

  it('normalized [−1.75, 0.25], trinomial W10871 L10650 D20431 → 2.30', () => {
    twoDecimals(sprtLLR({ wins: 10871, losses: 10650, draws: 20431 }, -1.75, 0.25), 2.3);
  });

  it('normalized [0, 2], pentanomial 365/16618/36029/200/16974/390 → 2.25', () => {
    const p = pentanomialFromSix(365, 16618, 36029, 200, 16974, 390);
    expect(p).toEqual([365, 16618, 36029 + 200, 16974, 390]);
    twoDecimals(sprtLLR(p, 0, 2, 'normalized'), 2.25);
  });

  it('normalized [−1.75, 0.25], pentanomial 127/4883/10311/401/5150/104 → 3.01', () => {
    twoDecimals(sprtLLR([127, 4883, 10311 + 401, 5150, 104], -1.75, 0.25, 'normalized'), 3.01);
  });

  it('logistic [0.5, 2.5], trinomial W21404 L21184 D40708 → −1.57', () => {
    twoDecimals(sprtLLR({ wins: 21404, losses: 21184, draws: 40708 }, 0.5, 2.5, 'logistic'), -1.57);
  });

  it('logistic [0, 2], trinomial W57433 L57030 D106593 → −2.59', () => {
    twoDecimals(sprtLLR({ wins: 57433, losses: 57030, draws: 106593 }, 0, 2, 'logistic'), -2.59);
  });

  it('logistic pentanomials → −3.07 and −4.98', () => {
    twoDecimals(
      sprtLLR(pentanomialFromSix(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, 'logistic'),
      -3.07,
    );
    twoDecimals(
      sprtLLR(pentanomialFromSix(871, 26175, 55003, 980, 26678, 821), 0, 2, 'logistic'),
      -4.98,
    );
  });

  it('is 0 without results, and antisymmetric in the hypotheses', () => {
    expect(sprtLLR({ wins: 0, losses: 0, draws: 0 }, 0, 2)).toBe(0);
    expect(sprtLLR([0, 0, 0, 0, 0], 0, 2, 'logistic')).toBe(0);
    const r = { wins: 500, losses: 450, draws: 1000 };
    for (const model of ['normalized', 'logistic'] as const) {
      near(sprtLLR(r, 0, 2, model), -sprtLLR(r, 2, 0, model), 1e-9);
      expect(sprtLLR(r, 1, 1, model)).toBe(0);
    }
  });

  it('is mirror-symmetric: swapping wins and losses and negating the bounds gives the same LLR', () => {
    const a = sprtLLR({ wins: 900, losses: 800, draws: 1500 }, 0, 3, 'normalized');
    const b = sprtLLR({ wins: 800, losses: 900, draws: 1500 }, 0, -3, 'normalized');
    near(a, b, 1e-6);
    const c = sprtLLR([10, 200, 500, 250, 12], 0.5, 2.5, 'logistic');
    const d = sprtLLR([12, 250, 500, 200, 10], -0.5, -2.5, 'logistic');
    near(c, d, 1e-6);
  });

  it('logistic LLR equals N·Σ p̂ ln(p₁/p₀) with the exact MLE (checked on the constraint)', () => {
    // The MLE for score s has mean exactly s: verify via the LLR's derivative-free property that
    // H0 equal to the empirical score gives LLR = −N·KL(p̂‖p₁) ≤ 0.
    const r = { wins: 300, losses: 200, draws: 500 };
    const empiricalElo = eloFromScore(0.55);
    expect(sprtLLR(r, empiricalElo, empiricalElo + 10, 'logistic')).toBeLessThan(0);
    expect(sprtLLR(r, empiricalElo - 10, empiricalElo, 'logistic')).toBeGreaterThan(0);
  });

  it('handles zero counts (regularised to 1e−3)', () => {
    const llr = sprtLLR({ wins: 30, losses: 0, draws: 70 }, 0, 5, 'normalized');
    expect(Number.isFinite(llr)).toBe(true);
    expect(llr).toBeGreaterThan(0);
    const llr2 = sprtLLR([0, 0, 10, 20, 5], 0, 2, 'logistic');
    expect(Number.isFinite(llr2)).toBe(true);
    expect(llr2).toBeGreaterThan(0);
  });
});

describe('fitRatings', () => {
  function expectedScoreGames(truth: number[], perPair: number): RatedGame[] {
    const games: RatedGame[] = [];
    for (let i = 0; i < truth.length; i++) {
      for (let j = 0; j < truth.length; j++) {
        if (i === j) continue;
        for (let k = 0; k < perPair; k++) {
          games.push({ white: i, black: j, score: scoreFromElo(truth[i] - truth[j]) });
        }
      }
    }
    return games;
  }

  it('recovers 0 / 100 / 200 from expected-score games within 1 Elo', () => {
    const games = expectedScoreGames([0, 100, 200], 500);
    const r = fitRatings(['A', 'B', 'C'], games, 0);
    expect(r).toHaveLength(3);
    expect(r[0]).toBe(0);
    near(r[1], 100, 1);
    near(r[2], 200, 1);
  });

  it('is anchored on the chosen player and rating', () => {
    const games = expectedScoreGames([0, 100, 200], 500);
    const r = fitRatings(['A', 'B', 'C'], games, 2, 2000);
    expect(r[2]).toBe(2000);
    near(r[1], 1900, 1);
    near(r[0], 1800, 1);
    const shifted = fitRatings(['A', 'B', 'C'], games, 1, 100);
    expect(shifted[1]).toBe(100);
    near(shifted[0], 0, 1);
    near(shifted[2], 200, 1);
  });

  it('is exact without the prior', () => {
    const truth = [0, -150, 75, 320, 20];
    const r = fitRatings(['a', 'b', 'c', 'd', 'e'], expectedScoreGames(truth, 3), 0, 0, {
      priorDraws: 0,
    });
    for (let i = 0; i < truth.length; i++) near(r[i], truth[i], 1e-6);
  });

  it('two players without the prior: the match Elo', () => {
    const games: RatedGame[] = [];
    for (let k = 0; k < 7; k++) games.push({ white: 0, black: 1, score: 1 });
    for (let k = 0; k < 3; k++) games.push({ white: 1, black: 0, score: 1 });
    for (let k = 0; k < 5; k++) games.push({ white: 1, black: 0, score: 0.5 });
    const r = fitRatings(['x', 'y'], games, 1, 0, { priorDraws: 0 });
    near(r[0], eloFromScore(9.5 / 15), 1e-6);
  });

  it('is the MLE: each player scores what the fitted ratings expect (no prior)', () => {
    const rand = rng(12345);
    const truth = [0, 50, -80, 130, 210, -40];
    const games: RatedGame[] = [];
    for (let g = 0; g < 3000; g++) {
      const w = Math.floor(rand() * truth.length);
      let b = Math.floor(rand() * (truth.length - 1));
      if (b >= w) b++;
      const e = scoreFromElo(truth[w] - truth[b]);
      const u = rand();
      const score = u < e - 0.15 ? 1 : u < e + 0.15 ? 0.5 : 0;
      games.push({ white: w, black: b, score });
    }
    const r = fitRatings(truth.map(String), games, 0, 0, { priorDraws: 0 });
    const actual = new Array<number>(truth.length).fill(0);
    const expected = new Array<number>(truth.length).fill(0);
    for (const g of games) {
      const e = scoreFromElo(r[g.white] - r[g.black]);
      actual[g.white] += g.score;
      actual[g.black] += 1 - g.score;
      expected[g.white] += e;
      expected[g.black] += 1 - e;
    }
    for (let i = 0; i < truth.length; i++) near(expected[i], actual[i], 1e-6);
    // and the random sample lands near the truth
    for (let i = 0; i < truth.length; i++) near(r[i], truth[i], 40);
  });

  it('all wins / all losses stay finite and ordered', () => {
    const games: RatedGame[] = [
      { white: 0, black: 1, score: 1 },
      { white: 1, black: 0, score: 0 },
      { white: 0, black: 2, score: 1 },
      { white: 1, black: 2, score: 0.5 },
      { white: 2, black: 3, score: 1 },
      { white: 3, black: 1, score: 0 },
    ];
    const r = fitRatings(['top', 'mid', 'mid2', 'bottom'], games, 1);
    for (const v of r) expect(Number.isFinite(v)).toBe(true);
    expect(r[1]).toBe(0);
    expect(r[0]).toBeGreaterThan(r[1]);
    expect(r[0]).toBeGreaterThan(r[2]);
    expect(r[3]).toBeLessThan(r[2]);
    expect(r[3]).toBeLessThan(r[1]);
    expect(r[0]).toBeLessThan(3000);
    expect(r[3]).toBeGreaterThan(-3000);
  });

  it('players disconnected from the anchor and players without games stay finite', () => {
    const r = fitRatings(
      ['a', 'b', 'c', 'd', 'idle'],
      [
        { white: 0, black: 1, score: 1 },
        { white: 2, black: 3, score: 0 },
      ],
      0,
    );
    for (const v of r) expect(Number.isFinite(v)).toBe(true);
    expect(r[0]).toBe(0);
    expect(r[1]).toBeLessThan(0);
    expect(r[3]).toBeGreaterThan(r[2]);
    near(r[4], 0, 1e-9);
    expect(fitRatings(['solo'], [], 0, 1500)).toEqual([1500]);
  });

  it('rejects bad input', () => {
    expect(() => fitRatings(['a', 'b'], [], 2)).toThrow(RangeError);
    expect(() => fitRatings(['a', 'b'], [{ white: 0, black: 5, score: 1 }], 0)).toThrow(RangeError);
    expect(() => fitRatings(['a', 'b'], [{ white: 0, black: 1, score: 2 }], 0)).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('score line', () => {
    expect(formatScoreLine('A', 'B', { wins: 120, losses: 98, draws: 182 })).toBe(
      'Score of A vs B: 120 - 98 - 182  [0.527] 400',
    );
    expect(formatScoreLine('Thoth dev', 'Thoth base', { wins: 0, losses: 0, draws: 0 })).toBe(
      'Score of Thoth dev vs Thoth base: 0 - 0 - 0  [0.000] 0',
    );
  });

  it('Elo line', () => {
    expect(formatEloLine({ elo: 19.1, eloError: 24.0, los: 94.0, drawRatio: 45.5 })).toBe(
      'Elo difference: 19.1 +/- 24.0, LOS: 94.0 %, DrawRatio: 45.5 %',
    );
    const s = trinomialStats({ wins: 136, losses: 96, draws: 111 });
    expect(formatEloLine(s)).toBe('Elo difference: 40.7 +/- 30.4, LOS: 99.6 %, DrawRatio: 32.4 %');
  });

  it('SPRT line', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(formatSprtLine(2.95, b)).toBe(
      'SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted',
    );
    expect(formatSprtLine(-2.95, b)).toBe(
      'SPRT: llr -2.95 (-100.2%), lbound -2.94, ubound 2.94 - H0 was accepted',
    );
    expect(formatSprtLine(1.23, b)).toBe('SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94');
  });

  it('pentanomial line', () => {
    expect(formatPentanomialLine([12, 345, 678, 901, 23])).toBe(
      'Ptnml(0-2): [12, 345, 678, 901, 23]',
    );
  });
});

describe('summary lines never show inf or nan', () => {
  it('a value the results cannot give yet is n/a', () => {
    expect(formatEloLine({ elo: Infinity, eloError: NaN, los: 100, drawRatio: 0 })).toBe('Elo difference: n/a +/- n/a, LOS: 100.0 %, DrawRatio: 0.0 %');
    expect(formatEloLine({ elo: -Infinity, eloError: Infinity, los: 0, drawRatio: 0 })).toBe('Elo difference: n/a +/- n/a, LOS: 0.0 %, DrawRatio: 0.0 %');
    expect(formatEloLine({ elo: 19.06, eloError: 24.04, los: 94, drawRatio: 45.5 })).toBe('Elo difference: 19.1 +/- 24.0, LOS: 94.0 %, DrawRatio: 45.5 %');
  });

  it('the whole summary of one-sided, drawn and single results, with an SPRT and standings', () => {
    const sprt = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
    for (const scores of [[1], [0], [0.5], [1, 1], [0, 0], [0.5, 0.5], [1, 0], [1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5]]) {
      const s = new Schedule(2, 'roundrobin', 2, 100);
      const st = new Standings(['A', 'B'], s.encounters, s.paired);
      scores.forEach((x, i) => st.add(s.game(i), x));
      const text = [...encounterLines(st, 0, ['Silver', 'Red'], sprt), ...standingsLines(st, 0, 0.5)].join('\n');
      expect(text, JSON.stringify(scores)).not.toMatch(/\b(inf|nan|Infinity|NaN)\b/i);
    }
  });
});
