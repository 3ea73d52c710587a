/**
 * A person's notes on a move (src/gui/page/state/move-notes.ts, drawings.ts, marks.ts), without a
 * browser: where they may be written, a comment kept beside the move's drawings, the move marks
 * and position signs toggled, a review's judgements kept the review's, drawing by picks, the keys,
 * and all of it through the record the page writes and reads back.
 */
import { describe, expect, it } from 'vitest';
import { parseMove, parseSquare } from '../../src/core/index';
import {
  drawEscape,
  drawingOn,
  drawPick,
  notesOpen,
  setDrawColor,
  toggleDrawMode,
  toggleDrawing,
} from '../../src/gui/page/state/drawings';
import * as R from '../../src/gui/page/state/gamereview';
import { shownNags } from '../../src/gui/page/state/marks';
import { nagLocked, noteWords, setComment, shownMoveNags, toggleNag } from '../../src/gui/page/state/move-notes';
import { exportGame, exportInput, importGame, importedTree } from '../../src/gui/page/state/record-io';
import * as S from '../../src/gui/page/state/state';
import { mainlineLength, nodeAt, updateNode } from '../../src/gui/page/state/tree';
import { keyAction } from '../../src/gui/page/view/keys';

const sq = parseSquare;

/** A game between two people of `texts` from the Classic setup, then in `mode`. */
function played(texts: string[], mode: S.Mode = 'analysis'): S.PageState {
  let s: S.PageState = {
    ...S.initialState({ ...S.DEFAULT_SETTINGS, tc: '' }, () => 0),
    mode: 'humans',
    engineAvailable: true,
  };
  for (const t of texts) {
    const m = parseMove(S.viewPosition(s), t);
    if (!m.ok) throw new Error(m.error.message);
    s = S.playMove(s, m.value, 0);
  }
  return mode === 'humans' ? s : S.setMode(s, mode, 0);
}
const node = (s: S.PageState) => nodeAt(s.tree, s.path);

/** The record the page writes for `s`, read back as the page reads it. */
function roundTrip(s: S.PageState): { pgn: string; back: ReturnType<typeof nodeAt>[] } {
  const pgn = exportGame(exportInput(s, 'Thoth'));
  const g = importGame(pgn);
  if (!g.ok) throw new Error(JSON.stringify(g.error));
  const t = importedTree(g.value);
  if (!t.ok) throw new Error(t.error);
  const back = [];
  for (let i = 1; i <= mainlineLength(t.value.tree); i++) back.push(nodeAt(t.value.tree, new Array(i).fill(0)));
  return { pgn, back };
}

describe('notes on a move', () => {
  it('are open in Analysis and on a finished game, not while a game is played, nor at the start', () => {
    const playing = played(['c1d2', 'a4a3'], 'humans');
    expect(S.gameInProgress(playing)).toBe(true);
    expect(notesOpen(playing)).toBe(false);
    expect(setComment(playing, playing.path, 'no')).toBe(playing);
    expect(toggleNag(playing, 1)).toBe(playing);
    expect(toggleDrawMode(playing).drawMode ?? null).toBeNull();
    const over = S.resign(playing, 0);
    expect(notesOpen(over)).toBe(true);
    expect(notesOpen(played(['c1d2']))).toBe(true);
    expect(notesOpen(S.goFirst(played(['c1d2'])))).toBe(false);
  });

  it('a comment is kept beside the drawings and the analysis note, in the record and back', () => {
    let s = played(['c1d2', 'a4a3']);
    s = toggleDrawing(s, sq('j1'), sq('j8'), 'R');
    s = { ...s, tree: updateNode(s.tree, s.path, (n) => ({ ...n, comment: `${n.comment} ${S.ANALYSED_NOTE}` })) };
    s = setComment(s, s.path, '  the Pharaoh }is   safe ');
    expect(node(s)?.comment).toBe(`the Pharaoh is safe ${S.ANALYSED_NOTE} [%cal Rj1j8]`);
    expect(noteWords(node(s)?.comment)).toBe('the Pharaoh is safe');
    // the same words again change nothing; on another move by its path
    expect(setComment(s, s.path, 'the Pharaoh is safe')).toBe(s);
    s = setComment(s, [0], 'a quiet start');
    const { pgn, back } = roundTrip(s);
    expect(pgn).toMatch(/1\. c1d2 \{a quiet start\}\s+a4a3 \{the Pharaoh is safe /);
    expect(back[0]?.comment).toBe('a quiet start');
    expect(back[1]?.comment).toBe(`the Pharaoh is safe ${S.ANALYSED_NOTE} [%cal Rj1j8]`);
    // cleared words leave the drawings and the note
    s = setComment(s, s.path, '');
    expect(node(s)?.comment).toBe(`${S.ANALYSED_NOTE} [%cal Rj1j8]`);
    expect(setComment(s, [0], '').tree.children[0].comment).toBeUndefined();
  });

  it('one move mark and one position sign a move, toggled; a record’s other NAGs stay; in the record and back', () => {
    let s = played(['c1d2', 'a4a3']);
    s = { ...s, tree: updateNode(s.tree, s.path, (n) => ({ ...n, nags: [22] })) };
    s = toggleNag(s, 1);
    s = toggleNag(s, 16);
    expect(node(s)?.nags).toEqual([1, 16, 22]);
    s = toggleNag(s, 3); // !! replaces !
    s = toggleNag(s, 10); // = replaces ±
    expect(node(s)?.nags).toEqual([3, 10, 22]);
    s = toggleNag(toggleNag(s, 3), 10);
    expect(toggleNag(s, 22)).toBe(s); // a NAG without a button
    expect(node(s)?.nags).toEqual([22]);
    s = toggleNag(toggleNag(s, 4), 19);
    s = toggleNag(S.goTo(s, [0]), 5);
    const { pgn, back } = roundTrip(s);
    expect(pgn).toMatch(/1\. c1d2 \$5\s+a4a3 \$4 \$19 \$22\s+\*/);
    expect(back.map((n) => n?.nags)).toEqual([[5], [4, 19, 22]]);
  });

  it('under a review, the judgements are the review’s; the person’s ! and the signs stay theirs', () => {
    let s = R.startReview(played(['c1d2', 'a4a3', 'j4i4']));
    const key = s.review!.key;
    for (const [i, best] of [
      [0, 'c1d2'],
      [1, 'a4a3'],
      [2, 'j5j6'],
    ] as const)
      s = R.reviewScore(s, key, i, { kind: 'cp', value: 0 }, best);
    s = R.reviewPlayedScore(s, key, 2, { kind: 'cp', value: -250 });
    s = R.reviewScore(s, key, 3, { kind: 'cp', value: 240 }, 'a3a4');
    expect(R.reviewNags(s).get(2)).toBe(4);
    // the judged move: its mark is the review's, a sign is the person's
    s = S.goTo(s, [0, 0, 0]);
    expect(nagLocked(s, 1)).toMatch(/judged this move \?\?/);
    expect(toggleNag(s, 1).tree).toBe(s.tree);
    expect(toggleNag(s, 1).message).toMatch(/review/);
    s = toggleNag(s, 17);
    expect(shownMoveNags(s)).toEqual([4, 17]);
    // a move it found no mistake in: ! is the person's, ? the review's
    s = S.goTo(s, [0]);
    expect(nagLocked(s, 2)).toMatch(/no mistake/);
    expect(nagLocked(s, 1)).toBeNull();
    s = toggleNag(s, 1);
    expect(shownMoveNags(s)).toEqual([1]);
    expect(exportInput(s, 'Thoth').moves.map((m) => m.nags)).toEqual([[1], undefined, [4, 17]]);
    // a record's own marks under a review: on a judged move only the review's shows
    expect(shownNags([1, 2, 16], true, 6)).toEqual([6, 16]);
    expect(shownNags([1, 2, 16], true)).toEqual([1, 16]);
    expect(shownNags([2], false)).toEqual([2]);
    // a variation is not reviewed: any mark
    const v = S.playMove(
      S.goTo(s, [0]),
      (parseMove(S.viewPosition(S.goTo(s, [0])), 'a4b4') as { value: number }).value,
      0,
    );
    expect(nagLocked(v, 2)).toBeNull();
    expect(node(toggleNag(v, 2))?.nags).toEqual([2]);
  });

  it('drawing by picks: two squares an arrow, one twice a circle, in the colour picked; Esc steps back', () => {
    let s = played(['c1d2']);
    s = toggleDrawMode(s);
    expect(drawingOn(s)).toBe(true);
    // a click is a pick, not a move
    s = S.clickSquare(s, sq('d2'), 0, -1);
    expect(s.drawMode?.from).toBe(sq('d2'));
    expect(mainlineLength(s.tree)).toBe(1);
    s = S.clickSquare(s, sq('d5'), 0, -1);
    expect(node(s)?.comment).toBe('[%cal Gd2d5]');
    s = setDrawColor(s, 'B');
    s = drawPick(drawPick(s, sq('e4')), sq('e4'));
    expect(node(s)?.comment).toBe('[%csl Be4] [%cal Gd2d5]');
    s = drawPick(s, sq('a1'));
    s = drawEscape(s);
    expect(s.drawMode).toEqual({ color: 'B', from: -1 });
    s = drawEscape(s);
    expect(s.drawMode).toBeNull();
    // off, a click plays again
    s = S.clickSquare(S.clickSquare(s, sq('a4'), 0, -1), sq('a3'), 0, sq('a4'));
    expect(mainlineLength(s.tree)).toBe(2);
    // not where notes are closed: the start has no move
    expect(toggleDrawMode(S.goFirst(s)).message).toMatch(/kept with a move/);
    // a new game ends it
    expect(S.newGameFromSettings(toggleDrawMode(s), 0).drawMode).toBeNull();
  });

  it('the keys: A draws, G R B Y colour only while drawing, 1 to 6 the move marks', () => {
    const k = (key: string, drawing = false) =>
      keyAction({ key, modifier: false, onBoard: false, inField: false, onButton: false, drawing });
    expect([k('a'), k('A'), k('1'), k('4'), k('6'), k('7')]).toEqual([
      'draw-mode',
      'draw-mode',
      'nag-1',
      'nag-4',
      'nag-6',
      null,
    ]);
    expect([k('g'), k('r'), k('g', true), k('R', true), k('b', true), k('y', true)]).toEqual([
      null,
      null,
      'color-G',
      'color-R',
      'color-B',
      'color-Y',
    ]);
    expect(keyAction({ key: '1', modifier: false, onBoard: false, inField: true, onButton: false })).toBeNull();
  });
});
