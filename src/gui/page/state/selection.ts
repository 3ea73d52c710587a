/**
 * What a selected piece may do, from the rules core: its target squares (steps, swaps, stacking)
 * and its rotations. Pure.
 */
import {
  ROT_CCW,
  ROT_CW,
  STACK,
  STACK_ON,
  SWAP,
  UNSTACK,
  colorOf,
  kindOf,
  legalMoves,
  moveFrom,
  moveTo,
  moveType,
  type Position,
} from '../../../core/index';

export type TargetKind = 'step' | 'swap' | 'stack';

export interface Target {
  move: number;
  kind: TargetKind;
}

export const isStack = (pos: Position, sq: number): boolean => kindOf(pos.board[sq]) === STACK;

/** The legal moves of the piece on `sq`. */
function movesFrom(pos: Position, sq: number): number[] {
  return legalMoves(pos).filter((m) => moveFrom(m) === sq);
}

/** May the side to move pick up the piece on `sq`? */
export function isOwnMovable(pos: Position, sq: number): boolean {
  const p = pos.board[sq];
  return p !== 0 && colorOf(p) === pos.side && movesFrom(pos, sq).length > 0;
}

/**
 * Target squares of the piece on `sq`. A stack (Khet 1.0) steps whole, or sends only its top
 * obelisk when `stackTop` is set; onto an own single obelisk only the top can go.
 */
export function targetsOf(pos: Position, sq: number, stackTop: boolean): Map<number, Target> {
  const out = new Map<number, Target>();
  for (const m of movesFrom(pos, sq)) {
    const t = moveType(m);
    if (t === ROT_CW || t === ROT_CCW) continue;
    const to = moveTo(m);
    const kind: TargetKind =
      t === SWAP ? 'swap' : t === STACK_ON || (t === UNSTACK && pos.board[to] !== 0) ? 'stack' : 'step';
    if (isStack(pos, sq)) {
      const wantTop = stackTop || pos.board[to] !== 0;
      if ((t === UNSTACK) !== wantTop) continue;
    }
    out.set(to, { move: m, kind });
  }
  return out;
}

/**
 * The rotations of the piece on `sq`: the clockwise and counter-clockwise moves, -1 when not
 * legal. A Sphinx turns only one way (away from the board's edge); a Scarab's two turns are the
 * same move, listed as clockwise.
 */
export function rotationsOf(pos: Position, sq: number): { cw: number; ccw: number } {
  let cw = -1;
  let ccw = -1;
  for (const m of movesFrom(pos, sq)) {
    if (moveType(m) === ROT_CW) cw = m;
    if (moveType(m) === ROT_CCW) ccw = m;
  }
  return { cw, ccw };
}

/** The rotation a `+` or `-` asks for, or the one rotation a piece has when it has only one. */
export function rotationMove(pos: Position, sq: number, dir: '+' | '-'): number {
  const r = rotationsOf(pos, sq);
  const m = dir === '+' ? r.cw : r.ccw;
  return m >= 0 ? m : dir === '+' ? r.ccw : r.cw;
}
