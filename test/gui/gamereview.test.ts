/** The page's game review and evaluation graph, without a browser. */
import { describe, expect, it } from 'vitest';
import { parseMove } from '../../src/core/index';
import * as R from '../../src/gui/page/state/gamereview';
import { graphIndexAt, graphSvg } from '../../src/gui/page/view/graph';
import { exportInput } from '../../src/gui/page/state/record-io';
import * as S from '../../src/gui/page/state/state';
import { newTree } from '../../src/gui/page/state/tree';

/** A two-player game of `texts` (from `kfen`, or the Classic setup). */
function played(texts: string[], kfen?: string): S.PageState {
  let s: S.PageState = { ...S.initialState(S.DEFAULT_SETTINGS, () => 0), mode: 'humans', engineAvailable: true };
  if (kfen) {
    const t = newTree('khet2', kfen);
    if (!t.ok) throw new Error(t.error);
    s = S.newGame(s, t.value, { now: 0 });
  }
  for (const t of texts) {
    const m = parseMove(S.viewPosition(s), t);
    if (!m.ok) throw new Error(m.error.message);
    s = S.playMove(s, m.value, 0);
  }
  return s;
}

describe('the review of a game', () => {
  it('scores each main-line position, the move played alone where another was best, then judges the moves', () => {
    let s = R.startReview(played(['c1d2', 'a4a3', 'j4i4']));
    const key = s.review!.key;
    expect(s.review!.scores).toHaveLength(4);
    expect(R.nextReviewStep(s)).toEqual({ index: 0 });
    // The engine chose the moves played, but for Silver's j4i4, which removes its own Pyramid.
    const scores: [number, number, string][] = [
      [0, 0, 'c1d2'],
      [1, 0, 'a4a3'],
      [2, 0, 'j5j6'],
    ];
    for (const [i, cp, best] of scores) s = R.reviewScore(s, key, i, { kind: 'cp', value: cp }, best);
    // j4i4 is searched alone in the position before it, then the last position is scored.
    expect(R.nextReviewStep(s)).toEqual({ index: 2, only: 'j4i4' });
    expect(R.gameReview(s)).toBeNull();
    s = R.reviewPlayedScore(s, key, 2, { kind: 'cp', value: -250 });
    expect(R.nextReviewStep(s)).toEqual({ index: 3 });
    s = R.reviewScore(s, key, 3, { kind: 'cp', value: 240 }, 'a3a4');
    expect(R.nextReviewStep(s)).toBeNull();
    expect(R.nextReviewIndex(s)).toBe(-1);
    const g = R.gameReview(s);
    expect(g?.plies[2]).toMatchObject({ side: 0, mark: '??' });
    expect(R.reviewMarks(s).get(2)).toBe('??');
    expect(g?.sides[0].blunders).toBe(1);
    // An export writes the marks as NAGs.
    expect(exportInput(s, 'Thoth').moves.map((m) => m.nags)).toEqual([undefined, undefined, [4]]);
    // The graph's win chances: the first player's view at each position.
    const wins = R.mainlineWins(s);
    expect(wins[0]).toBeCloseTo(0.5);
    expect(wins[3]!).toBeLessThan(0.4); // Red to move, +250 for Red
    // A changed main line makes the review stale.
    const m = parseMove(S.viewPosition(s), 'a3a4');
    expect(m.ok).toBe(true);
    if (m.ok) expect(R.currentReview(S.playMove(s, m.value, 0))).toBeNull();
  });

  it('knows the end of a finished game without the engine', () => {
    const s = R.startReview(played(['j1+'], 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1'));
    expect(s.review!.scores[1]).toEqual({ kind: 'mate', value: 0 }); // Red to move, its Pharaoh hit
    expect(R.nextReviewIndex(s)).toBe(0);
    expect(R.shownWin(s)).toBe(1);
  });
});

describe('the evaluation graph', () => {
  it('draws known points, the shown position and the marks', () => {
    const svg = graphSvg([0.5, null, 0.7, 0.2], 2, [{ ply: 2, judgement: 'blunder' }]);
    expect(svg.match(/class="dot"/g)).toHaveLength(3);
    // each point's win chance, the first player's, on hover
    expect(svg).toContain('data-index="2" cx="400.0" cy="36.0" r="2.5"><title>70% after 2 plies</title>');
    expect(svg).toContain('<title>50% after 0 plies</title>');
    expect(svg).toContain('class="cursor-line" x1="400"');
    expect(svg).toContain('class="mark-bad" data-index="3"');
    expect(graphIndexAt(0, 4)).toBe(0);
    expect(graphIndexAt(0.52, 4)).toBe(2);
    expect(graphIndexAt(1.2, 4)).toBe(3);
  });
});

describe('a review when the main line changes', () => {
  it('keeps the scores and marks of the shared moves and scores the new ones', () => {
    let s = R.startReview(played(['c1d2', 'a4a3', 'j4i4', 'a3a4']));
    const key = s.review!.key;
    for (const [i, cp, best] of [
      [0, 0, 'c1d2'],
      [1, 0, 'a4a3'],
      [2, 0, 'j5j6'],
      [3, 250, 'a3a4'],
      [4, -250, 'c1d2'],
    ] as const)
      s = R.reviewScore(s, key, i, { kind: 'cp', value: cp }, best);
    s = R.reviewPlayedScore(s, key, 2, { kind: 'cp', value: -250 });
    expect(R.reviewMarks(s).get(2)).toBe('??');
    // A variation after j4i4 becomes the main line.
    let v = S.goTo(s, [0, 0, 0]);
    const m = parseMove(S.viewPosition(v), 'a3a2');
    if (!m.ok) throw new Error(m.error.message);
    v = { ...S.playMove({ ...v, mode: 'analysis' }, m.value, 0) };
    const promoted = R.keepSharedReview(S.promoteLine(v), v.review);
    expect(R.currentReview(promoted)?.scores).toEqual([
      { kind: 'cp', value: 0 },
      { kind: 'cp', value: 0 },
      { kind: 'cp', value: 0 },
      { kind: 'cp', value: 250 },
      undefined,
    ]);
    // The new move a3a2 is not the engine's a3a4: it is searched alone, then the new last position.
    expect(R.nextReviewStep(promoted)).toEqual({ index: 3, only: 'a3a2' });
    expect(R.reviewMarks(promoted).get(2)).toBe('??');
    const next = R.reviewPlayedScore(promoted, promoted.review!.key, 3, { kind: 'cp', value: 200 });
    expect(R.nextReviewStep(next)).toEqual({ index: 4 });
    // Without it the review would be gone.
    expect(R.currentReview(S.promoteLine(v))).toBeNull();
  });
});
