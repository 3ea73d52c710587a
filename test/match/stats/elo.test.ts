/**
 * The Elo scale and the normal distribution (src/match/stats/elo.ts): the logistic curve and its
 * inverse; erf, erfc and Φ against Python's math.erf/math.erfc (the C library, correctly rounded).
 */
import { describe, expect, it } from 'vitest';
import { Z95, eloFromScore, scoreFromElo, erf, erfc, normalCdf } from '../../../src/match/stats/elo';
import { near } from './helpers';

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
