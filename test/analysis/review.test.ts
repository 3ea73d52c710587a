import { describe, expect, it } from 'vitest';
import {
  THRESHOLDS,
  WIN_CHANCE_K,
  evalsFromPositions,
  judge,
  moveAccuracy,
  reviewGame,
  winChance,
  type PlyEval,
} from '../../src/analysis/review';
import type { Score } from '../../src/analysis/review';

const cp = (value: number): Score => ({ kind: 'cp', value });
const mate = (value: number): Score => ({ kind: 'mate', value });

describe('win chance', () => {
  it('is ½ at 0, symmetric, rises with the score, and is certain for a forced hit', () => {
    expect(winChance(cp(0))).toBe(0.5);
    expect(winChance(cp(250)) + winChance(cp(-250))).toBeCloseTo(1, 12);
    expect(winChance(cp(100))).toBeGreaterThan(0.5);
    expect(winChance(cp(300))).toBeGreaterThan(winChance(cp(100)));
    expect(winChance(mate(3))).toBe(1);
    expect(winChance(mate(-2))).toBe(0);
    expect(winChance(cp(100))).toBeCloseTo(1 / (1 + Math.exp(-WIN_CHANCE_K * 100)), 12);
  });

  it('judgements and accuracy follow the drop', () => {
    expect(judge(THRESHOLDS.inaccuracy - 1e-9)).toBeNull();
    expect(judge(THRESHOLDS.inaccuracy)).toBe('inaccuracy');
    expect(judge(THRESHOLDS.mistake)).toBe('mistake');
    expect(judge(THRESHOLDS.blunder)).toBe('blunder');
    expect(moveAccuracy(0)).toBeCloseTo(100, 2);
    expect(moveAccuracy(0.1)).toBeLessThan(moveAccuracy(0.05));
    expect(moveAccuracy(1)).toBe(0);
  });
});

describe('reviewGame', () => {
  it('a game of best moves: 100% for both, nothing marked', () => {
    const evals: PlyEval[] = [0, 1, 0, 1].map((s) => ({ side: s as 0 | 1, before: cp(20), after: cp(20) }));
    const r = reviewGame(evals);
    expect(r.sides[0]).toMatchObject({ moves: 2, inaccuracies: 0, mistakes: 0, blunders: 0, averageCpLoss: 0 });
    expect(r.sides[0].accuracy).toBeCloseTo(100, 1);
    expect(r.plies.every((p) => p.nag === 0 && p.mark === '')).toBe(true);
  });

  it('marks the mover of a bad move, with its NAG, and counts it for that side only', () => {
    const evals: PlyEval[] = [
      { side: 0, before: cp(0), after: cp(0) },
      { side: 1, before: cp(0), after: cp(-80) }, // small
      { side: 0, before: cp(80), after: cp(-300) }, // large
      { side: 1, before: cp(300), after: mate(-2) }, // walks into a forced hit
      { side: 0, before: mate(2), after: mate(1) },
    ];
    const r = reviewGame(evals);
    const marks = r.plies.map((p) => [p.mark, p.nag]);
    expect(marks[0]).toEqual(['', 0]);
    expect(r.plies[1].drop).toBeCloseTo(winChance(cp(0)) - winChance(cp(-80)), 12);
    expect(marks[2]).toEqual(['??', 4]);
    expect(marks[3]).toEqual(['??', 4]);
    expect(marks[4]).toEqual(['', 0]);
    expect(r.sides[0].blunders).toBe(1);
    expect(r.sides[1].blunders).toBe(1);
    expect(r.sides[0].accuracy).toBeLessThan(100);
    expect(r.plies[3].cpLoss).toBe(1300);
  });

  it('from the scores of the positions (side to move view), as a GUI has them', () => {
    const evals = evalsFromPositions([cp(10), cp(-10), cp(300), mate(-1)], 0);
    expect(evals.map((e) => e.side)).toEqual([0, 1, 0]);
    expect(evals[1]).toEqual({ side: 1, before: cp(-10), after: cp(-300) });
    expect(evals[2].after).toEqual(mate(1));
    const r = reviewGame(evals);
    expect(r.plies[1].judgement).not.toBeNull();
  });
});

describe('wins and forced wins', () => {
  it('the move that hits the Pharaoh is never marked, the final position lost for its side to move (mate 0 and -0)', () => {
    for (const lost of [mate(0), mate(-0)]) {
      for (const first of [0, 1] as const) {
        // The first mover hits on move 3 (plies 0, 1, 2); the other side hits when the game is one move longer.
        for (const positions of [
          [cp(40), cp(-200), mate(1), lost],
          [cp(40), cp(-200), cp(150), mate(1), lost],
        ]) {
          const evals = evalsFromPositions(positions, first);
          const last = evals[evals.length - 1];
          expect(last.hit).toBe(true);
          const r = reviewGame(evals);
          const hit = r.plies[r.plies.length - 1];
          expect(hit).toMatchObject({
            winBefore: 1,
            winAfter: 1,
            drop: 0,
            judgement: null,
            mark: '',
            nag: 0,
            cpLoss: 0,
          });
          expect(hit.accuracy).toBeCloseTo(100, 1);
          const winner = r.sides[hit.side];
          expect(winner.blunders + winner.mistakes + winner.inaccuracies).toBe(0);
        }
      }
    }
  });

  it('a hit is not marked even when the scores fed in say otherwise', () => {
    const r = reviewGame([{ side: 1, before: cp(-300), after: mate(-1), hit: true }]);
    expect(r.plies[0]).toMatchObject({ judgement: null, mark: '', winAfter: 1 });
  });

  it('a lost final position is lost for its side to move', () => {
    expect(winChance(mate(0))).toBe(0);
    expect(winChance(mate(-0))).toBe(0);
  });

  it('missing a faster win while still winning is at most ?, by win-chance loss; throwing the win away is ??', () => {
    const one = (after: Score) => reviewGame([{ side: 0, before: mate(2), after }]).plies[0];
    expect(one(mate(5)).mark).toBe(''); // a slower forced win
    expect(one(cp(1200)).mark).toBe(''); // W(1200) is within 5 points of certain
    expect(one(cp(900)).mark).toBe('?!');
    expect(one(cp(700)).mark).toBe('?');
    expect(one(cp(520)).mark).toBe('?'); // a drop of more than 15 points, but still winning
    expect(one(cp(520)).drop).toBeGreaterThan(THRESHOLDS.blunder);
    expect(one(cp(200)).mark).toBe('??');
    expect(one(mate(-3)).mark).toBe('??');
    // The cap is for forced wins only: from +12.00 to +5.20 is judged by its drop alone.
    expect(reviewGame([{ side: 0, before: cp(1200), after: cp(520) }]).plies[0].mark).toBe('??');
  });
});
