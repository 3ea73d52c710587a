/**
 * The person's hands on the board: picking a piece, aiming at a move (its shot previewed), the
 * keyboard cursor, clicks, drops and rotations (a premove while Thoth thinks), and the board's
 * orientation.
 */
import { PHARAOH, colorOf, fileOf, formatMove, kindOf, rankOf, square, type Position } from '../../../core/index';
import { drawPick, drawingOn } from './drawings';
import { editorClick, editorDrop, editorRotate } from './editor';
import { playMove } from './game-moves';
import { atEnd, colorNames, humanMayMove, viewPosition } from './state-queries';
import { playPly, type PlyInfo } from './move-effect';
import { premovePosition, setPremove } from './premove';
import { isOwnMovable, rotationMove, targetsOf } from './selection';
import type { PageState } from './state-types';

export function select(s: PageState, sq: number): PageState {
  const pos = viewPosition(s);
  const stackTop = sq >= 0 && pos.board[sq] !== 0 && s.selected === sq ? s.stackTop : false;
  return { ...s, selected: sq, stackTop, message: '', aim: null, armed: null };
}

/** The pointer (or the keyboard cursor) is on a move of the selected piece, or on nothing. */
export function aimAt(s: PageState, aim: PageState['aim']): PageState {
  if (s.editor) return s;
  return s.aim === aim ? s : { ...s, aim };
}

/** The move being aimed at (a move armed by a first tap first), when it is one the selected piece may make. */
export function aimedMove(s: PageState): number {
  const aim = s.armed ?? s.aim;
  if (aim === null || s.selected < 0 || !humanMayMove(s)) return -1;
  const pos = viewPosition(s);
  if (aim === '+' || aim === '-') return rotationMove(pos, s.selected, aim);
  return targetsOf(pos, s.selected, s.stackTop).get(aim)?.move ?? -1;
}

/** What the aimed move's shot would cost its mover: its own piece, or its own Pharaoh (a loss). */
export function aimedOwnLoss(s: PageState): 'piece' | 'pharaoh' | null {
  const shot = aimedShot(s);
  if (!shot || shot.killedSq < 0 || colorOf(shot.killedPiece) !== shot.side) return null;
  return kindOf(shot.killedPiece) === PHARAOH ? 'pharaoh' : 'piece';
}

/** What the aimed move's shot would do: drawn before the move is played. */
export function aimedShot(s: PageState): PlyInfo | null {
  const m = aimedMove(s);
  return m >= 0 ? playPly(viewPosition(s), m) : null;
}

/** The keyboard cursor moves a square (the board's directions as the person sees them). */
export function moveCursor(s: PageState, dFile: number, dRank: number): PageState {
  const pos = viewPosition(s);
  if (s.cursor < 0) {
    // It appears on the selected piece, else the first own piece from the bottom left, else e1.
    let start = -1;
    for (let sq = 0; sq < 80 && start < 0; sq++)
      if (pos.board[sq] !== 0 && colorOf(pos.board[sq]) === pos.side) start = sq;
    return { ...s, cursor: s.selected >= 0 ? s.selected : start >= 0 ? start : 4 };
  }
  const d = s.flipped ? -1 : 1;
  const f = Math.max(0, Math.min(9, fileOf(s.cursor) + dFile * d));
  const r = Math.max(0, Math.min(7, rankOf(s.cursor) + dRank * d));
  const cursor = square(f, r);
  const onTarget = s.selected >= 0 && targetsOf(pos, s.selected, s.stackTop).has(cursor);
  return { ...s, cursor, aim: onTarget ? cursor : null };
}

export const flip = (s: PageState): PageState => ({ ...s, flipped: !s.flipped });

/** A click on a square while Thoth thinks: pick a piece and a target for the premove. */
function premoveClick(s: PageState, pp: Position, sq: number, pickedBefore: number): PageState {
  if (s.selected >= 0) {
    const t = targetsOf(pp, s.selected, s.stackTop).get(sq);
    if (t) return setPremove(s, formatMove(t.move));
  }
  if (isOwnMovable(pp, sq)) return pickedBefore === sq ? select(s, -1) : select(s, sq);
  return select(s, -1);
}

/**
 * A click (or Enter) on a square: pick a piece, move it, or drop the selection. With `confirm`
 * a first click on a target only shows its shot (armed); a second one plays it.
 */
export function clickSquare(s: PageState, sq: number, now: number, pickedBefore: number, confirm = false): PageState {
  // the board editor, while open, takes the board's clicks, drops and turns (editor.ts)
  if (s.editor) return editorClick(s, sq);
  // drawing by picks (drawings.ts) takes the clicks: a square, then another, make an arrow
  if (drawingOn(s)) return drawPick(s, sq);
  const pos = viewPosition(s);
  if (!humanMayMove(s)) {
    const pp = premovePosition(s);
    if (pp) return premoveClick(s, pp, sq, pickedBefore);
    if (s.mode !== 'analysis' && !atEnd(s))
      return { ...s, message: 'You are looking at an earlier position: press End (or ») to return to the game.' };
    return s;
  }
  if (s.selected >= 0) {
    const t = targetsOf(pos, s.selected, s.stackTop).get(sq);
    if (t && confirm && s.armed !== sq) return { ...s, armed: sq, aim: sq, message: '' };
    if (t) return playMove(s, t.move, now);
  }
  if (isOwnMovable(pos, sq)) return pickedBefore === sq ? select(s, -1) : select(s, sq);
  const p = pos.board[sq];
  const next = select(s, -1);
  if (p !== 0 && colorOf(p) !== pos.side)
    return { ...next, message: `That ${colorNames(s)[colorOf(p)]} piece is not yours to move.` };
  return next;
}

/**
 * A piece dragged from `from` and dropped on `to`. With `confirm` (Confirm moves) the drop is a
 * first tap: the move is armed and its shot shown, and a tap on `to` (or a second drop there)
 * plays it.
 */
export function dropPiece(s: PageState, from: number, to: number, now: number, confirm = false): PageState {
  if (s.editor) return editorDrop(s, from, to);
  if (!humanMayMove(s)) {
    const pp = premovePosition(s);
    const t = pp ? targetsOf(pp, from, s.stackTop).get(to) : undefined;
    return t ? setPremove(s, formatMove(t.move)) : s;
  }
  const t = targetsOf(viewPosition(s), from, s.stackTop).get(to);
  if (t && confirm && !(s.selected === from && s.armed === to))
    return { ...s, selected: from, armed: to, aim: to, message: '' };
  return t ? playMove(s, t.move, now) : s;
}

/** Rotates the selected piece (with `confirm`, a first press only shows the shot). */
export function rotateSelected(s: PageState, dir: '+' | '-', now: number, confirm = false): PageState {
  if (s.editor) return editorRotate(s, dir);
  if (s.selected >= 0 && !humanMayMove(s)) {
    const pp = premovePosition(s);
    const m = pp ? rotationMove(pp, s.selected, dir) : -1;
    return m >= 0 ? setPremove(s, formatMove(m)) : s;
  }
  if (s.selected < 0 || !humanMayMove(s)) return s;
  const m = rotationMove(viewPosition(s), s.selected, dir);
  if (m >= 0 && confirm && s.armed !== dir) return { ...s, armed: dir, aim: dir, message: '' };
  return m >= 0 ? playMove(s, m, now) : s;
}

export function toggleStackTop(s: PageState): PageState {
  return { ...s, stackTop: !s.stackTop };
}
