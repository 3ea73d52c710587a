/**
 * The laser: a precomputed reflection table and a tracer that jumps from piece to piece along
 * the occupancy bitboard instead of walking empty squares.
 */
import { RAYS, lsb, msb } from './bitboard';
import { ANUBIS, OBELISK, PHARAOH, PIECE_CODES, PYRAMID, SCARAB, SPHINX, STACK, kindOf, oriOf } from './pieces';
import { SQUARES, square } from './squares';

/** Outcomes in the reflection table besides a new direction 0..3. */
export const KILL = 4;
export const BLOCK = 5;

/** What a beam travelling `dir` does on a piece of this kind and orientation. */
export function reflect(kind: number, ori: number, dir: number): number {
  const back = (dir + 2) & 3; // the side of the piece the beam strikes
  switch (kind) {
    case PYRAMID: // mirror faces ori and ori+90
      if (back === ori) return (ori + 1) & 3;
      if (back === ((ori + 1) & 3)) return ori;
      return KILL;
    case SCARAB: {
      // two back-to-back mirrors: a pyramid of ori and one of ori+180
      const o = ori & 1;
      if (back === o || back === o + 2) return (back + 1) & 3;
      return (back + 3) & 3;
    }
    case ANUBIS:
      return back === ori ? BLOCK : KILL;
    case SPHINX:
      return BLOCK;
    case PHARAOH:
    case OBELISK:
    case STACK:
      return KILL;
    default:
      return KILL;
  }
}

/** REFLECT[pieceCode * 4 + dir]: new direction 0..3, KILL or BLOCK. */
export const REFLECT = new Int8Array(PIECE_CODES * 4);
for (let code = 0; code < PIECE_CODES; code++) {
  for (let d = 0; d < 4; d++) REFLECT[code * 4 + d] = reflect(kindOf(code), oriOf(code), d);
}

/**
 * The first occupied square from `sq` (excluded) in direction `dir`, or -1. `occ` holds the
 * occupancy bitboard at `at`.
 */
export function nextOccupied(occ: Int32Array, at: number, sq: number, dir: number): number {
  const r = (dir * SQUARES + sq) * 3;
  let x: number;
  if (dir < 2) {
    // N and E go towards higher squares: the nearest is the lowest bit.
    x = RAYS[r] & occ[at];
    if (x !== 0) return lsb(x);
    x = RAYS[r + 1] & occ[at + 1];
    if (x !== 0) return 32 + lsb(x);
    x = RAYS[r + 2] & occ[at + 2];
    if (x !== 0) return 64 + lsb(x);
    return -1;
  }
  x = RAYS[r + 2] & occ[at + 2];
  if (x !== 0) return 64 + msb(x);
  x = RAYS[r + 1] & occ[at + 1];
  if (x !== 0) return 32 + msb(x);
  x = RAYS[r] & occ[at];
  if (x !== 0) return msb(x);
  return -1;
}

/**
 * Fires a beam from `sq` travelling `dir`. With `strikeFirst` a piece standing on `sq` is
 * struck first (a laser fixed in the board edge); otherwise `sq` is the Sphinx firing.
 * Returns the square of the piece the beam kills, or -1 when it leaves the board or is blocked.
 */
export function fire(
  board: Uint8Array,
  occ: Int32Array,
  at: number,
  sq: number,
  dir: number,
  strikeFirst: boolean,
): number {
  let t = strikeFirst && board[sq] !== 0 ? sq : nextOccupied(occ, at, sq, dir);
  while (t >= 0) {
    const r = REFLECT[(board[t] << 2) | dir];
    if (r >= 4) return r === KILL ? t : -1;
    dir = r;
    t = nextOccupied(occ, at, t, dir);
  }
  return -1;
}

/** One square of a beam's path, for display and tests. */
export interface BeamStep {
  square: number;
  /** The piece on the square (0 if empty). */
  piece: number;
  /** Direction the beam leaves the square, or KILL / BLOCK. */
  out: number;
}

export interface BeamPath {
  steps: BeamStep[];
  /** The square of the killed piece, or -1. */
  killed: number;
  /** True when the beam left the board (neither killed nor blocked). */
  offBoard: boolean;
}

/** Walks a beam square by square, recording the path (not for the hot path). */
export function tracePath(board: Uint8Array, sq: number, dir: number, strikeFirst: boolean): BeamPath {
  const steps: BeamStep[] = [];
  let f = sq % 10;
  let r = (sq / 10) | 0;
  const DF = [0, 1, 0, -1];
  const DR = [1, 0, -1, 0];
  if (!strikeFirst) {
    steps.push({ square: sq, piece: board[sq], out: dir });
    f += DF[dir];
    r += DR[dir];
  }
  for (let guard = 0; guard < 1000; guard++) {
    if (f < 0 || f > 9 || r < 0 || r > 7) return { steps, killed: -1, offBoard: true };
    const s = square(f, r);
    const p = board[s];
    if (p === 0) {
      steps.push({ square: s, piece: 0, out: dir });
    } else {
      const out = REFLECT[(p << 2) | dir];
      steps.push({ square: s, piece: p, out });
      if (out === KILL) return { steps, killed: s, offBoard: false };
      if (out === BLOCK) return { steps, killed: -1, offBoard: false };
      dir = out;
    }
    f += DF[dir];
    r += DR[dir];
  }
  return { steps, killed: -1, offBoard: false };
}
