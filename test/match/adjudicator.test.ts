/**
 * Adjudication apart from a game (src/match/adjudicator.ts): the ply cap, the draw window over both
 * sides' moves, one- and two-sided resignation, and mates as the protocol states them (core's
 * `Score`), worth more than any evaluation.
 */
import { describe, expect, it } from 'vitest';
import type { Score } from '../../src/core/score';
import { Adjudicator, adjudicationValue } from '../../src/match/adjudicator';

const NAMES = ['Silver', 'Red'] as const;
const cp = (value: number): Score => ({ kind: 'cp', value });
const mate = (value: number): Score => ({ kind: 'mate', value });

/** Plays `scores` alternately (Silver first, from move `fromMove`); the first verdict and its ply. */
function play(
  a: Adjudicator,
  scores: Array<Score | undefined>,
  fromMove = 1,
): { ply: number; loser: number; reason: string } | undefined {
  for (let ply = 0; ply < scores.length; ply++) {
    const side = ply % 2;
    const moveNumber = fromMove + Math.floor((ply + 1) / 2); // the move number after this ply
    const v = a.afterMove(side, scores[ply], moveNumber, false);
    if (v) return { ply, loser: v.loser, reason: v.reason };
  }
  return undefined;
}

describe('adjudicationValue', () => {
  it('is the centipawns, or ±∞ for a mate (mate 0: the mover is lost)', () => {
    expect(adjudicationValue(cp(-35))).toBe(-35);
    expect(adjudicationValue(mate(3))).toBe(Infinity);
    expect(adjudicationValue(mate(-1))).toBe(-Infinity);
    expect(adjudicationValue(mate(0))).toBe(-Infinity);
    expect(adjudicationValue(undefined)).toBeUndefined();
  });
});

describe('Adjudicator', () => {
  it('draws at the ply cap, and never without one', () => {
    const a = new Adjudicator({ maxPlies: 10 }, NAMES);
    expect(a.beforeMove(9)).toBeUndefined();
    expect(a.beforeMove(10)).toEqual({ loser: -1, reason: 'Draw by adjudication: 10 plies played' });
    expect(new Adjudicator({ maxPlies: 0 }, NAMES).beforeMove(100000)).toBeUndefined();
  });

  it('draws once both sides stayed within the window for movecount moves each, from the move number', () => {
    const draw = { moveNumber: 3, moveCount: 2, score: 20 };
    // moves 1-2 do not count (before movenumber 3); then four plies inside ±20
    const v = play(new Adjudicator({ draw, maxPlies: 0 }, NAMES), [
      cp(0),
      cp(0),
      cp(5),
      cp(-5),
      cp(20),
      cp(-20),
      cp(1),
      cp(1),
    ]);
    expect(v).toEqual({ ply: 6, loser: -1, reason: 'Draw by adjudication: scores within 20 cp for 2 moves' });
  });

  it('starts the draw count again after a score outside the window, a missing score or a mate', () => {
    const draw = { moveNumber: 1, moveCount: 2, score: 20 };
    for (const breaker of [cp(21), undefined, mate(5)]) {
      const v = play(new Adjudicator({ draw, maxPlies: 0 }, NAMES), [
        cp(0),
        cp(0),
        cp(0),
        breaker,
        cp(0),
        cp(0),
        cp(0),
        cp(0),
      ]);
      expect(v?.ply, JSON.stringify(breaker)).toBe(7);
    }
  });

  it('one-sided resignation: the side whose own score stayed at or below −score loses', () => {
    const resign = { moveCount: 3, score: 600, twoSided: false };
    const v = play(new Adjudicator({ resign, maxPlies: 0 }, NAMES), [
      cp(0),
      cp(-600),
      cp(0),
      cp(-700),
      cp(0),
      mate(-4),
    ]);
    expect(v).toEqual({
      ply: 5,
      loser: 1,
      reason: 'Red resigns by adjudication: score at or below -600 cp for 3 moves',
    });
  });

  it('two-sided resignation needs the opponent to agree, whichever of them moves last', () => {
    const resign = { moveCount: 2, score: 600, twoSided: true };
    // Red is lost by its own account twice, but Silver agrees only once: no verdict yet
    expect(
      play(new Adjudicator({ resign, maxPlies: 0 }, NAMES), [cp(100), cp(-650), cp(650), cp(-650)]),
    ).toBeUndefined();
    // Silver's second agreeing move completes it: Red, who did not move last, loses
    const v = play(new Adjudicator({ resign, maxPlies: 0 }, NAMES), [cp(650), cp(-650), mate(3), cp(-900)]);
    expect(v).toEqual({
      ply: 3,
      loser: 1,
      reason: 'Red resigns by adjudication: score at or below -600 cp for 2 moves',
    });
    const w = play(new Adjudicator({ resign, maxPlies: 0 }, NAMES), [cp(-650), cp(650), cp(-650), cp(650)]);
    expect(w).toEqual({
      ply: 3,
      loser: 0,
      reason: 'Silver resigns by adjudication: score at or below -600 cp for 2 moves',
    });
  });

  it('gives no verdict after a move that decided the game', () => {
    const a = new Adjudicator(
      {
        draw: { moveNumber: 1, moveCount: 1, score: 20 },
        resign: { moveCount: 1, score: 600, twoSided: false },
        maxPlies: 0,
      },
      NAMES,
    );
    expect(a.afterMove(0, cp(0), 2, false)).toBeUndefined();
    expect(a.afterMove(1, mate(0), 2, true)).toBeUndefined();
  });
});
