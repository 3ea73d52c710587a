/**
 * Move generation for Position: one generator, for every legal move of the side to move
 * (Position.generate: the mask of every square) or only those that touch a mask of squares
 * (Position.generateTouching); which neighbour a Scarab may swap with and which Obelisks a piece
 * may stack onto (count.ts counts with the same tests); and the legality test of one move.
 * Nothing here allocates.
 */
import { NEIGHBOURS } from './bitboard';
import { ROT_CCW, ROT_CW, STACK_ON, STEP, SWAP, UNSTACK } from './move';
import { ANUBIS, OBELISK, PHARAOH, PYRAMID, SCARAB, SPHINX, STACK } from './pieces';
import type { Position } from './position';
import { SQUARES } from './squares';

/** The mask of every square: `generateMoves` with it gives every legal move. */
export const EVERY_SQUARE = new Int32Array([-1, -1, -1]);

/** Pushes the moves from `from` to each square set in word `x` (word index w). */
function pushTargets(out: Int32Array, n: number, w: number, x: number, fromAndType: number): number {
  while (x !== 0) {
    const low = x & -x;
    x ^= low;
    out[n++] = fromAndType | (((w << 5) + 31 - Math.clz32(low)) << 7);
  }
  return n;
}

/** Pushes the moves to each square of the 3-word set (x0, x1, x2). */
function pushTargets3(out: Int32Array, n: number, x0: number, x1: number, x2: number, fromAndType: number): number {
  n = pushTargets(out, n, 0, x0, fromAndType);
  n = pushTargets(out, n, 1, x1, fromAndType);
  return pushTargets(out, n, 2, x2, fromAndType);
}

/**
 * Whether the Scarab of colour `us` on `from` may swap with the piece `q` next to it, on bit
 * `low` of word `w`: a kind the rules let it swap with, on a square `us` may enter, and a piece
 * that may be pushed onto `from` (pushReserved: every square in the swapOntoReserved dialect).
 */
export function maySwap(pos: Position, from: number, us: number, q: number, w: number, low: number): boolean {
  return (
    pos.swapWith[(q >> 2) & 7] === 1 &&
    (pos.reserved[us * 3 + w] & low) === 0 &&
    (pos.pushReserved[(q >> 5) * 3 + (from >> 5)] & (1 << (from & 31))) === 0
  );
}

/** Pushes the swaps of the Scarab of colour `us` on `from` with the pieces on the squares of (t0, t1, t2). */
function pushSwaps(
  pos: Position,
  out: Int32Array,
  n: number,
  from: number,
  us: number,
  t0: number,
  t1: number,
  t2: number,
): number {
  const b = pos.board;
  for (let w = 0; w < 3; w++) {
    let x = NEIGHBOURS[from * 3 + w] & pos.bb[6 + w] & (w === 0 ? t0 : w === 1 ? t1 : t2);
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const to = (w << 5) + 31 - Math.clz32(low);
      if (maySwap(pos, from, us, b[to], w, low)) out[n++] = from | (to << 7) | (SWAP << 14);
    }
  }
  return n;
}

/** Word `w` of the squares next to `from` that hold a single Obelisk of colour `us`. */
export function obeliskTargets(pos: Position, from: number, us: number, w: number): number {
  const b = pos.board;
  let x = NEIGHBOURS[from * 3 + w] & pos.bb[us * 3 + w];
  let s = 0;
  while (x !== 0) {
    const low = x & -x;
    x ^= low;
    if (((b[(w << 5) + 31 - Math.clz32(low)] >> 2) & 7) === OBELISK) s |= low;
  }
  return s;
}

/**
 * Writes at out[n..] the legal moves of the side to move that touch the squares of `mask` (at
 * mask[at..at+2]) and returns the new end: every move of a piece standing on the mask, and the
 * moves of other pieces onto it. With EVERY_SQUARE these are all the legal moves; with a beam's
 * mask (beamMask) exactly the moves that can change that beam's shot.
 */
export function generateMoves(pos: Position, out: Int32Array, n: number, mask: Int32Array, at: number): number {
  const b = pos.board;
  const bb = pos.bb;
  const us = pos.side;
  const cb = us * 3;
  const res = pos.reserved;
  const m0 = mask[at];
  const m1 = mask[at + 1];
  const m2 = mask[at + 2];
  const f0 = ~(bb[6] | res[cb]);
  const f1 = ~(bb[7] | res[cb + 1]);
  const f2 = ~(bb[8] | res[cb + 2]);
  for (let w = 0; w < 3; w++) {
    let x = bb[cb + w];
    const on = x & (w === 0 ? m0 : w === 1 ? m1 : m2);
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const from = (w << 5) + 31 - Math.clz32(low);
      const nb = from * 3;
      // a piece on the mask: all its moves; a piece off it: only its moves onto the mask (t)
      const onMask = (on & low) !== 0;
      let t0 = -1;
      let t1 = -1;
      let t2 = -1;
      if (!onMask) {
        t0 = NEIGHBOURS[nb] & m0;
        t1 = NEIGHBOURS[nb + 1] & m1;
        t2 = NEIGHBOURS[nb + 2] & m2;
        if ((t0 | t1 | t2) === 0) continue;
      }
      const p = b[from];
      const kind = (p >> 2) & 7;
      if (kind === SPHINX) {
        // N <-> W for the first player, S <-> E for the second: from N or S it turns
        // counter-clockwise, from E or W clockwise.
        if (onMask) out[n++] = from | (from << 7) | (((p & 1) === 1 ? ROT_CW : ROT_CCW) << 14);
        continue;
      }
      // the steps written out (not pushTargets3): the hot case, which V8 then inlines
      const stepType = from | (STEP << 14);
      n = pushTargets(out, n, 0, NEIGHBOURS[nb] & f0 & t0, stepType);
      n = pushTargets(out, n, 1, NEIGHBOURS[nb + 1] & f1 & t1, stepType);
      n = pushTargets(out, n, 2, NEIGHBOURS[nb + 2] & f2 & t2, stepType);
      switch (kind) {
        case PYRAMID:
        case ANUBIS:
          if (onMask) {
            out[n++] = from | (from << 7) | (ROT_CW << 14);
            out[n++] = from | (from << 7) | (ROT_CCW << 14);
          }
          break;
        case SCARAB:
          n = pushSwaps(pos, out, n, from, us, t0, t1, t2);
          if (onMask) {
            out[n++] = from | (from << 7) | (ROT_CW << 14);
            if (pos.scarabTurns === 2) out[n++] = from | (from << 7) | (ROT_CCW << 14);
          }
          break;
        case PHARAOH:
          if (onMask && pos.pharaohTurns !== 0) {
            out[n++] = from | (from << 7) | (ROT_CW << 14);
            if (pos.pharaohTurns === 2) out[n++] = from | (from << 7) | (ROT_CCW << 14);
          }
          break;
        case OBELISK:
          n = pushTargets3(
            out,
            n,
            obeliskTargets(pos, from, us, 0) & t0,
            obeliskTargets(pos, from, us, 1) & t1,
            obeliskTargets(pos, from, us, 2) & t2,
            from | (STACK_ON << 14),
          );
          break;
        case STACK: {
          const up = from | (UNSTACK << 14);
          n = pushTargets3(
            out,
            n,
            NEIGHBOURS[nb] & f0 & t0,
            NEIGHBOURS[nb + 1] & f1 & t1,
            NEIGHBOURS[nb + 2] & f2 & t2,
            up,
          );
          n = pushTargets3(
            out,
            n,
            obeliskTargets(pos, from, us, 0) & t0,
            obeliskTargets(pos, from, us, 1) & t1,
            obeliskTargets(pos, from, us, 2) & t2,
            up,
          );
          break;
        }
      }
    }
  }
  return n;
}

/** Whether `m` is one of the moves `generateMoves` would give with EVERY_SQUARE, without generating them. */
export function isLegalMove(pos: Position, m: number): boolean {
  const from = m & 127;
  const to = (m >>> 7) & 127;
  const type = m >>> 14;
  if (from >= SQUARES || to >= SQUARES || (m | 0) !== m || m < 0) return false;
  const b = pos.board;
  const us = pos.side;
  const p = b[from];
  if (p === 0 || p >> 5 !== us) return false;
  const kind = (p >> 2) & 7;
  if (type === ROT_CW || type === ROT_CCW) {
    if (to !== from) return false;
    switch (kind) {
      case PYRAMID:
      case ANUBIS:
        return true;
      case SPHINX: // from N or S it turns counter-clockwise, from E or W clockwise
        return (type === ROT_CW) === ((p & 1) === 1);
      case SCARAB:
        return type === ROT_CW || pos.scarabTurns === 2;
      case PHARAOH:
        return pos.pharaohTurns === 2 || (type === ROT_CW && pos.pharaohTurns === 1);
      default:
        return false;
    }
  }
  if ((NEIGHBOURS[from * 3 + (to >> 5)] & (1 << (to & 31))) === 0 || kind === SPHINX) return false;
  const q = b[to];
  switch (type) {
    case STEP:
      return q === 0 && pos.allowed(us, to);
    case SWAP:
      return (
        kind === SCARAB &&
        q !== 0 &&
        pos.swapWith[(q >> 2) & 7] === 1 &&
        pos.allowed(us, to) &&
        (pos.pushReserved[(q >> 5) * 3 + (from >> 5)] & (1 << (from & 31))) === 0
      );
    case STACK_ON:
      return kind === OBELISK && q !== 0 && q >> 5 === us && ((q >> 2) & 7) === OBELISK;
    case UNSTACK:
      return kind === STACK && (q === 0 ? pos.allowed(us, to) : q >> 5 === us && ((q >> 2) & 7) === OBELISK);
    default:
      return false;
  }
}
