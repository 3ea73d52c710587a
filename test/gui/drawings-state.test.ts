/**
 * A person's drawings on the shown position (src/gui/page/state/drawings.ts), without a browser:
 * toggled on and off, recoloured, kept in the move's comment beside its words as the record
 * writes them, and none without a move to keep them.
 */
import { describe, expect, it } from 'vitest';
import { parseMove, parseSquare } from '../../src/core/index';
import { commentWords, drawingColor, toggleDrawing } from '../../src/gui/page/state/drawings';
import * as S from '../../src/gui/page/state/state';
import { nodeAt, updateNode } from '../../src/gui/page/state/tree';

const sq = parseSquare;
function afterMove(comment?: string): S.PageState {
  let s = S.setMode({ ...S.initialState(S.DEFAULT_SETTINGS, () => 0), engineAvailable: true }, 'humans', 0);
  const m = parseMove(S.viewPosition(s), 'c1d2');
  if (!m.ok) throw new Error(m.error.message);
  s = S.playMove(s, m.value, 0);
  return comment === undefined ? s : { ...s, tree: updateNode(s.tree, s.path, (n) => ({ ...n, comment })) };
}
const comment = (s: S.PageState): string | undefined => nodeAt(s.tree, s.path)?.comment;

describe('drawings on the board', () => {
  it('an arrow and a circle toggle on and off, a second colour recolours, the words stay', () => {
    let s = afterMove('a plan');
    s = toggleDrawing(s, sq('j1'), sq('j8'), 'G');
    s = toggleDrawing(s, sq('e1'), sq('e1'), 'R');
    expect(comment(s)).toBe('a plan [%csl Re1] [%cal Gj1j8]');
    s = toggleDrawing(s, sq('j1'), sq('j8'), 'B');
    expect(comment(s)).toBe('a plan [%csl Re1] [%cal Bj1j8]');
    s = toggleDrawing(s, sq('j1'), sq('j8'), 'B');
    s = toggleDrawing(s, sq('e1'), sq('e1'), 'R');
    expect(comment(s)).toBe('a plan');
    expect(commentWords('a plan [%csl Re1] [%cal Gj1j8] more')).toBe('a plan more');
  });

  it('the colours by keys, as on lichess; the start position has no move to keep them', () => {
    expect([
      drawingColor(false, false),
      drawingColor(true, false),
      drawingColor(false, true),
      drawingColor(true, true),
    ]).toEqual(['G', 'R', 'B', 'Y']);
    const start = S.initialState(S.DEFAULT_SETTINGS, () => 0);
    const s = toggleDrawing(start, sq('a1'), sq('a1'), 'G');
    expect(s.tree).toBe(start.tree);
    expect(s.message).toMatch(/^Drawings are kept with a move/);
  });
});
