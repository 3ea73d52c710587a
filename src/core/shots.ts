/**
 * Beams and shot probes for Position: where a laser's beam runs and what it kills now, and what
 * it would kill after a move without making it (the search's move ordering and quiescence). The
 * beam of the side to move can be prepared once per node (Position's seg* and run* fields) so that each probe
 * traces only from where the move first touches it. Nothing here allocates.
 */
import { RAYS } from './bitboard';
import { BLOCK, KILL, REFLECT, fire, nextOccupied } from './laser';
import { ROT_CCW, ROT_CW, STACK_ON, STEP, SWAP, UNSTACK } from './move';
import type { Position } from './position';
import { SQUARES } from './squares';
import { ROTATED } from './turns';

/** Pieces a beam can meet, with room: each piece at most twice (a Scarab's two mirrors). */
export const MAX_SEGMENTS = 64;

/** The square `color`'s laser would kill now, or -1. */
export function laserTarget(pos: Position, color: number): number {
  const b = pos.board;
  const sq = pos.laserSq[color];
  return pos.sphinx ? fire(b, pos.bb, 6, sq, b[sq] & 3, false) : fire(b, pos.bb, 6, sq, pos.laserDir[color], true);
}

/**
 * Traces `color`'s beam as it would fire now into mask[at..at+2] (its start and the square where
 * it stops included) and returns the square of the piece it would kill, or -1.
 */
export function beamMask(pos: Position, color: number, mask: Int32Array, at: number): number {
  const b = pos.board;
  const sq = pos.laserSq[color];
  const dir = pos.sphinx ? b[sq] & 3 : pos.laserDir[color];
  mask[at] = sq < 32 ? 1 << sq : 0;
  mask[at + 1] = sq >= 32 && sq < 64 ? 1 << (sq - 32) : 0;
  mask[at + 2] = sq >= 64 ? 1 << (sq - 64) : 0;
  const t = !pos.sphinx && b[sq] !== 0 ? sq : nextOccupied(pos.bb, 6, sq, dir);
  return traceOn(pos, sq, dir, t, mask, at);
}

/** ORs into mask[at..at+2] the squares of the segment from `sq` (excluded) in direction `dir` to `t` (included; -1: the board's edge). */
function addSegment(sq: number, dir: number, t: number, mask: Int32Array, at: number): void {
  const r = (dir * SQUARES + sq) * 3;
  if (t < 0) {
    mask[at] |= RAYS[r];
    mask[at + 1] |= RAYS[r + 1];
    mask[at + 2] |= RAYS[r + 2];
  } else if (t !== sq) {
    const rt = (dir * SQUARES + t) * 3;
    mask[at] |= RAYS[r] & ~RAYS[rt];
    mask[at + 1] |= RAYS[r + 1] & ~RAYS[rt + 1];
    mask[at + 2] |= RAYS[r + 2] & ~RAYS[rt + 2];
  }
}

/**
 * Follows a beam that leaves `sq` in direction `dir` and meets `t` first (`sq` itself for a
 * laser in the board's edge that strikes a piece on its square; -1: none): ORs the squares it
 * crosses, each piece it meets included, into mask[at..at+2] and returns the square of the
 * piece it kills, or -1. A beam fired from a laser always ends; one that starts inside the
 * board may circle for ever: after MAX_SEGMENTS pieces the whole board goes into the mask.
 */
function traceOn(pos: Position, sq: number, dir: number, t: number, mask: Int32Array, at: number): number {
  const b = pos.board;
  const occ = pos.bb;
  // the mask in locals while the beam runs (this is the hot trace: every makeTraced)
  let m0 = mask[at];
  let m1 = mask[at + 1];
  let m2 = mask[at + 2];
  let result = -1;
  for (let n = 0; ; n++) {
    const r = (dir * SQUARES + sq) * 3;
    if (t < 0) {
      m0 |= RAYS[r];
      m1 |= RAYS[r + 1];
      m2 |= RAYS[r + 2];
      break;
    }
    if (t !== sq) {
      // the segment from sq (excluded) to t (included)
      const rt = (dir * SQUARES + t) * 3;
      m0 |= RAYS[r] & ~RAYS[rt];
      m1 |= RAYS[r + 1] & ~RAYS[rt + 1];
      m2 |= RAYS[r + 2] & ~RAYS[rt + 2];
    }
    if (n === MAX_SEGMENTS) {
      // every square of the board: 32 + 32 + 16
      m0 = m1 = -1;
      m2 = 0xffff;
      break;
    }
    const out = REFLECT[(b[t] << 2) | dir];
    if (out >= 4) {
      if (out === KILL) result = t;
      break;
    }
    sq = t;
    dir = out;
    t = nextOccupied(occ, 6, sq, dir);
  }
  mask[at] = m0;
  mask[at + 1] = m1;
  mask[at + 2] = m2;
  return result;
}

/** Walks the beam of the side to move into segments (Position's prepared beam), for shotAfterPrepared. */
export function prepareShots(pos: Position): void {
  const pb = pos;
  if (++pb.stamp === 0x7fffffff) {
    pb.runStamp.fill(0);
    pb.stamp = 1;
  }
  const b = pos.board;
  const occ = pos.bb;
  const sm = pb.segMask;
  const color = pos.side;
  let sq = pos.laserSq[color];
  let dir = pos.sphinx ? b[sq] & 3 : pos.laserDir[color];
  let k = 0;
  sm[0] = sq < 32 ? 1 << sq : 0;
  sm[1] = sq >= 32 && sq < 64 ? 1 << (sq - 32) : 0;
  sm[2] = sq >= 64 ? 1 << (sq - 64) : 0;
  let t = !pos.sphinx && b[sq] !== 0 ? sq : nextOccupied(occ, 6, sq, dir);
  let kill = -1;
  for (;;) {
    pb.segSq[k] = sq;
    pb.segDir[k] = dir;
    addSegment(sq, dir, t, sm, k * 3);
    k++;
    if (t < 0) break;
    const out = REFLECT[(b[t] << 2) | dir];
    if (out >= 4) {
      if (out === KILL) kill = t;
      break;
    }
    sq = t;
    dir = out;
    t = nextOccupied(occ, 6, sq, dir);
    sm[k * 3] = 0;
    sm[k * 3 + 1] = 0;
    sm[k * 3 + 2] = 0;
  }
  pb.segCount = k;
  pb.preparedKill = kill;
}

/**
 * The shot after move `m` of the side to move, after prepareShots on this board: the beam runs
 * as prepared up to the first segment the move touches; a piece stepped or turned where the
 * beam meets it is looked up in the reflection table, and only a beam that goes on is traced
 * (on the board as the move leaves it). Sets pos.probePiece.
 */
export function shotAfterPrepared(pos: Position, m: number): number {
  const from = m & 127;
  const to = (m >>> 7) & 127;
  const fw = from >> 5;
  const fb = 1 << (from & 31);
  const tw = to >> 5;
  const tb = 1 << (to & 31);
  const pb = pos;
  const sm = pb.segMask;
  const n = pb.segCount;
  for (let k = 0; k < n; k++) {
    const onFrom = (sm[k * 3 + fw] & fb) !== 0;
    const onTo = (sm[k * 3 + tw] & tb) !== 0;
    if (!onFrom && !onTo) continue;
    const type = m >>> 14;
    const dir = pb.segDir[k];
    const b = pos.board;
    if (
      onTo &&
      (type === STEP || type === ROT_CW || type === ROT_CCW) &&
      (k > 0 || !pos.sphinx || from !== pb.segSq[0])
    ) {
      // the beam meets the moved piece on `to` (a step onto an empty square of the segment, or
      // a turn of the piece that ends it; not the Sphinx's own turn, which aims the beam anew)
      const p = type === STEP ? b[from] : ROTATED[b[from] * 2 + type - ROT_CW];
      const r = REFLECT[(p << 2) | dir];
      if (r === KILL) {
        pos.probePiece = p;
        return to;
      }
      if (r === BLOCK) {
        pos.probePiece = 0;
        return -1;
      }
      return probeShot(pos, m, to, r);
    }
    if (onFrom && !onTo && type === STEP) {
      // the piece that ended the segment steps off it: the beam runs on past `from`
      return runOn(pos, m, from, to, from, dir);
    }
    return probeShot(pos, m, k === 0 ? -1 : pb.segSq[k], dir);
  }
  const t = pb.preparedKill;
  pos.probePiece = t >= 0 ? pos.board[t] : 0;
  return t;
}

/**
 * The shot after move `m` (from, to) whose beam runs on from `sq` in direction `dir`: the run
 * traced on the prepared board serves when it crosses neither `from` nor `to` (the only squares
 * the move changed); otherwise the board is changed and the beam traced.
 */
function runOn(pos: Position, m: number, from: number, to: number, sq: number, dir: number): number {
  const pb = pos;
  const key = sq * 4 + dir;
  const rm = pb.runMask;
  if (pb.runStamp[key] !== pb.stamp) {
    // traced on this board (a beam that circles ends with every square in its mask: never used)
    rm[key * 3] = 0;
    rm[key * 3 + 1] = 0;
    rm[key * 3 + 2] = 0;
    pb.runKill[key] = traceOn(pos, sq, dir, nextOccupied(pos.bb, 6, sq, dir), rm, key * 3);
    pb.runStamp[key] = pb.stamp;
  }
  if ((rm[key * 3 + (from >> 5)] & (1 << (from & 31))) !== 0 || (rm[key * 3 + (to >> 5)] & (1 << (to & 31))) !== 0) {
    return probeShot(pos, m, sq, dir);
  }
  const t = pb.runKill[key];
  pos.probePiece = t >= 0 ? pos.board[t] : 0;
  return t;
}

/**
 * The shot after `m`, with the board as the move leaves it, traced from `sq` (excluded) in
 * direction `dir`, or fired by the mover's laser when `sq` is −1 (a Sphinx that the move turns
 * fires the new way). Only the board and the occupancy change, and both are restored. Sets
 * pos.probePiece.
 */
export function probeShot(pos: Position, m: number, sq: number, dir: number): number {
  const b = pos.board;
  const bb = pos.bb;
  const from = m & 127;
  const to = (m >>> 7) & 127;
  const type = m >>> 14;
  const pf = b[from];
  const pt = b[to];
  const fromBit = 1 << (from & 31);
  const toBit = 1 << (to & 31);
  const fw = 6 + (from >> 5);
  const tw = 6 + (to >> 5);
  switch (type) {
    case STEP:
      b[from] = 0;
      b[to] = pf;
      bb[fw] ^= fromBit;
      bb[tw] ^= toBit;
      break;
    case SWAP:
      b[from] = pt;
      b[to] = pf;
      break;
    case ROT_CW:
    case ROT_CCW:
      b[from] = ROTATED[pf * 2 + type - ROT_CW];
      break;
    case STACK_ON:
      b[from] = 0;
      b[to] = pf + 4;
      bb[fw] ^= fromBit;
      break;
    case UNSTACK:
      b[from] = pf - 4;
      if (pt === 0) {
        b[to] = pf - 4;
        bb[tw] ^= toBit;
      } else {
        b[to] = pt + 4;
      }
      break;
  }
  const t = sq < 0 ? laserTarget(pos, pos.side) : fire(b, bb, 6, sq, dir, false);
  pos.probePiece = t >= 0 ? b[t] : 0;
  // restore
  b[from] = pf;
  b[to] = pt;
  if (type === STEP) {
    bb[fw] ^= fromBit;
    bb[tw] ^= toBit;
  } else if (type === STACK_ON) {
    bb[fw] ^= fromBit;
  } else if (type === UNSTACK && pt === 0) {
    bb[tw] ^= toBit;
  }
  return t;
}
