/** Learn from your mistakes without a browser: which moves come back, and which tries are good enough. */
import { describe, expect, it } from 'vitest';
import { parseMove, parseKfen, setupKfen } from '../../src/core/index';
import * as R from '../../src/gui/page/state/gamereview';
import { endedTry, goodTry, learnerSide, mistakesToLearn } from '../../src/gui/page/state/learn';
import * as S from '../../src/gui/page/state/state';

/** A reviewed two-player game of `texts` from the Classic setup: `cps[i]` scores position i (side to move's view). */
function reviewed(texts: string[], cps: number[], bests: string[], s0?: Partial<S.PageState>): S.PageState {
  let s: S.PageState = { ...S.initialState(S.DEFAULT_SETTINGS, () => 0), mode: 'humans', engineAvailable: true, ...s0 };
  for (const t of texts) {
    const m = parseMove(S.viewPosition(s), t);
    if (!m.ok) throw new Error(m.error.message);
    s = S.playMove(s, m.value, 0);
  }
  s = R.startReview(s);
  const key = s.review!.key;
  cps.forEach((cp, i) => {
    s = R.reviewScore(s, key, i, { kind: 'cp', value: cp }, bests[i]);
  });
  // a move Thoth did not choose is searched alone (review-method.ts): here its score is the next position's
  texts.forEach((t, i) => {
    if (bests[i] !== t && i + 1 < cps.length) s = R.reviewPlayedScore(s, key, i, { kind: 'cp', value: -cps[i + 1] });
  });
  return s;
}

// Silver's j4i4 shoots its own Pyramid (scored a blunder here), Red's a3a4 throws away as much
const GAME = ['c1d2', 'a4a3', 'j4i4', 'a3a4'];
const CPS = [0, 0, 0, 300, 300];
const BESTS = ['c1d2', 'a4a3', 'j1+', 'a3a2', 'd2d3'];

describe('learn from your mistakes', () => {
  it("offers the learner's own mistakes and blunders only, with the review's best move", () => {
    const s = reviewed(GAME, CPS, BESTS);
    expect(R.reviewMarks(s).get(2)).toBe('??');
    expect(R.reviewMarks(s).get(3)).toBe('??');
    expect(learnerSide(s)).toBe(0);
    const list = mistakesToLearn(s);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ index: 2, played: 'j4i4', mark: '??', best: 'j1+', side: 0, label: '2.' });
    expect(list[0].moves).toEqual(['c1d2', 'a4a3']);
    // Red's when the board is turned for Red, or when the record names Red the human against Thoth
    expect(mistakesToLearn({ ...s, flipped: true }).map((m) => m.index)).toEqual([3]);
    expect(mistakesToLearn({ ...s, players: ['Thoth (Level 3)', 'Human'] }).map((m) => m.index)).toEqual([3]);
    // an imported record names the human in its tags, whichever way the board is turned
    const imported = (white: string, black: string, flipped: boolean): number[] =>
      mistakesToLearn({
        ...s,
        flipped,
        tags: [
          ['White', white],
          ['Black', black],
        ],
      }).map((m) => m.index);
    expect(imported('Thoth 0.1.0 (Level 1 · Elo 808)', 'Human', false)).toEqual([3]);
    expect(imported('Human', 'Thoth 0.1.0 (Level 1 · Elo 808)', true)).toEqual([2]);
    // two humans, or none: the side at the bottom
    expect(imported('Ann', 'Bo', true)).toEqual([3]);
    expect(imported('Human', 'Human', false)).toEqual([2]);
    // not before the review is complete
    expect(mistakesToLearn(reviewed(GAME, CPS.slice(0, 3), BESTS))).toEqual([]);
  });

  it("takes a try the review would not mark, and no other (the review's thresholds)", () => {
    const [m] = mistakesToLearn(reviewed(GAME, CPS, BESTS));
    // before: 0 (a win chance of 50 %); the try's score is the mover's, as the review scores a move
    expect(goodTry(m, { kind: 'cp', value: 0 })).toBe(true);
    expect(goodTry(m, { kind: 'cp', value: 200 })).toBe(true);
    expect(goodTry(m, { kind: 'cp', value: -70 })).toBe(true); // a drop of 4.9 points: not an inaccuracy
    expect(goodTry(m, { kind: 'cp', value: -72 })).toBe(false); // 5.2 points: the review marks it ?!
    expect(goodTry(m, { kind: 'mate', value: -1 })).toBe(false);
    expect(goodTry(m, { kind: 'mate', value: 1 })).toBe(true);
  });

  it('scores a try that ends the game without the engine', () => {
    const [m] = mistakesToLearn(reviewed(GAME, CPS, BESTS));
    const start = parseKfen(setupKfen('khet2', 'classic') as string, 'khet2');
    if (!start.ok) throw new Error(start.error.message);
    expect(endedTry(m, start.value)).toBeNull();
    // Red's Pharaoh in Silver's laser: j1+ hits it; a win for Silver, a loss had Red made it
    const hit = parseKfen('xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1', 'khet2');
    if (!hit.ok) throw new Error(hit.error.message);
    const j1 = parseMove(hit.value, 'j1+');
    if (!j1.ok) throw new Error(j1.error.message);
    hit.value.make(j1.value);
    expect(endedTry(m, hit.value)).toEqual({ kind: 'mate', value: 1 });
    expect(endedTry({ ...m, side: 1 }, hit.value)).toEqual({ kind: 'mate', value: -1 });
  });
});
