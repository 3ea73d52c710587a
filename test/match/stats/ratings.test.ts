/**
 * Ratings fitted over all games at once (src/match/stats/ratings.ts): the Bradley–Terry example of
 * Wikipedia's "Bradley–Terry model" article, and the maximum-likelihood properties Ordo relies on.
 */
import { describe, expect, it } from 'vitest';
import { eloFromScore, scoreFromElo } from '../../../src/match/stats/elo';
import { fitRatings, type RatedGame } from '../../../src/match/stats/ratings';
import { near, rng } from './helpers';

describe('fitRatings', () => {
  // Wikipedia, "Bradley–Terry model", worked example: four teams, 22 games, wins of the row's
  // team over the column's; the published maximum-likelihood strengths, normalised to a geometric
  // mean of 1, are p = (0.640, 1.043, 0.660, 2.270). In Elo a strength ratio is 400·log10(pᵢ/pⱼ);
  // the three published decimals leave about ±0.7 Elo.
  it('reproduces the Bradley–Terry example of Wikipedia (no prior: the pure MLE)', () => {
    const wins = [
      [0, 2, 0, 1],
      [3, 0, 5, 0],
      [0, 3, 0, 1],
      [4, 0, 3, 0],
    ];
    const games: RatedGame[] = [];
    wins.forEach((row, i) =>
      row.forEach((w, j) => {
        for (let k = 0; k < w; k++) games.push({ white: i, black: j, score: 1 });
      }),
    );
    expect(games).toHaveLength(22);
    const r = fitRatings(['A', 'B', 'C', 'D'], games, 0, 0, { priorDraws: 0 });
    const p = [0.64, 1.043, 0.66, 2.27];
    p.forEach((pi, i) => near(r[i], 400 * Math.log10(pi / p[0]), 0.7));
  });

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
