/** Analyse only the moves picked (state/only-moves.ts): the restriction, its key, its `go`, without a browser. */
import { describe, expect, it } from 'vitest';
import type { InfoLine } from '../../src/core/info';
import { analysisLine, linesKey, onlyMoves, shownLines } from '../../src/gui/page/state/analysis-lines';
import { analysisGo, clearOnlyMoves, setOnlyMoves, toggleOnlyMove } from '../../src/gui/page/state/only-moves';
import * as S from '../../src/gui/page/state/state';
import { addMoves } from '../../src/gui/page/state/tree';

/** An analysis board on the Classic setup after c1d2, showing the position after it. */
function board(): S.PageState {
  const s = S.setMode({ ...S.initialState(S.DEFAULT_SETTINGS, () => 0), engineAvailable: true }, 'analysis', 0);
  const t = addMoves(s.tree, [], ['c1d2', 'a5b4']);
  if (!t.ok) throw new Error(t.error.message);
  return { ...s, tree: t.value.tree, path: [0] };
}

const line = (multipv: number, pv: string[], cp = 10): InfoLine => ({
  depth: 6,
  multipv,
  score: { kind: 'cp', value: cp },
  pv,
});

describe('analyse only the moves picked', () => {
  it('restricts the analysis of the shown position to the moves typed, in the notation records write', () => {
    const s = board();
    expect(analysisGo(s)).toBe('go infinite');
    const r = setOnlyMoves(s, ' a5b4,  h8R g3g2 a5b4 ');
    expect(onlyMoves(r)).toEqual(['a5b4', 'h8+', 'g3g2']);
    expect(analysisGo(r)).toBe('go infinite searchmoves a5b4 h8+ g3g2');
    // the lines' key names them: lines of the whole position are not these
    expect(linesKey(r)).not.toBe(linesKey(s));
    expect(linesKey(r)).toBe(`${linesKey(s)}|only a5b4 h8+ g3g2`);
    // nothing typed: the whole position again
    expect(onlyMoves(setOnlyMoves(r, '  '))).toEqual([]);
    // picking moves analyses them, also after Stop
    expect(setOnlyMoves(S.setAnalysing(s, false), 'a5b4').analysing).toBe(true);
  });

  it('refuses a move that is not legal here, saying which and why, and keeps what was picked', () => {
    const r = setOnlyMoves(board(), 'a5b4');
    const bad = setOnlyMoves(r, 'a5b4 c1d2');
    expect(bad.only).toBe(r.only);
    expect(bad.message).toMatch(/^Cannot analyse only c1d2: .+\.$/);
    expect(setOnlyMoves(r, 'banana').message).toMatch(/^Cannot analyse only banana: /);
  });

  it('belongs to its position: another position is analysed whole, and coming back finds it again', () => {
    const r = setOnlyMoves(board(), 'a5b4');
    const next = S.goTo(r, [0, 0]);
    expect(onlyMoves(next)).toEqual([]);
    expect(analysisGo(next)).toBe('go infinite');
    expect(onlyMoves(S.goTo(next, [0]))).toEqual(['a5b4']);
  });

  it('takes a line’s first move in or out; the last out analyses the whole position', () => {
    let r = toggleOnlyMove(board(), 'a5b4');
    expect(onlyMoves(r)).toEqual(['a5b4']);
    r = toggleOnlyMove(r, 'g3g2');
    expect(onlyMoves(r)).toEqual(['a5b4', 'g3g2']);
    r = toggleOnlyMove(r, 'a5b4');
    expect(onlyMoves(r)).toEqual(['g3g2']);
    r = toggleOnlyMove(r, 'g3g2');
    expect(r.only).toBeNull();
    expect(clearOnlyMoves(setOnlyMoves(board(), 'a5b4 g3g2')).only).toBeNull();
  });

  it('shows the restricted lines, but keeps no evaluation of the position from them', () => {
    const s = board();
    const r = setOnlyMoves(s, 'a5b4');
    const shown = analysisLine(r, linesKey(r), line(1, ['a5b4', 'd2c1'], -500));
    expect(shownLines(shown).map((l) => l.pv[0])).toEqual(['a5b4']);
    expect(shown.evals).toEqual(s.evals);
    // the whole position's first line is its evaluation
    const whole = analysisLine(s, linesKey(s), line(1, ['g3g2'], 30));
    expect(Object.keys(whole.evals)).toEqual(['0']);
    // a line of the whole position does not land among the restricted ones
    expect(analysisLine(r, linesKey(s), line(1, ['g3g2']))).toBe(r);
  });

  it('is cleared by a new game', () => {
    const r = setOnlyMoves(board(), 'a5b4');
    expect(S.newGameFromSettings(r, 0).only).toBeNull();
  });
});
