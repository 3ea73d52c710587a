/**
 * 80-square bitboards as three 32-bit words: squares 0..31 in word 0, 32..63 in word 1,
 * 64..79 in word 2. Tables hold bitboards as consecutive triples in Int32Arrays so that
 * the hot path never allocates.
 */
import { DIR_DFILE, DIR_DRANK, KING_STEPS, SQUARES, fileOf, onBoard, rankOf, square } from './squares';

export type Bitboard = Int32Array; // length 3

export const newBitboard = (): Bitboard => new Int32Array(3);

export function bbSet(bb: Int32Array, at: number, sq: number): void {
  bb[at + (sq >> 5)] |= 1 << (sq & 31);
}

export function bbHas(bb: Int32Array, at: number, sq: number): boolean {
  return (bb[at + (sq >> 5)] & (1 << (sq & 31))) !== 0;
}

export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero word. */
export function lsb(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Index of the highest set bit of a non-zero word. */
export function msb(x: number): number {
  return 31 - Math.clz32(x);
}

export function bbCount(bb: Int32Array, at = 0): number {
  return popcount(bb[at]) + popcount(bb[at + 1]) + popcount(bb[at + 2]);
}

/** Squares of a bitboard as an array (not for the hot path). */
export function bbSquares(bb: Int32Array, at = 0): number[] {
  const out: number[] = [];
  for (let w = 0; w < 3; w++) {
    let x = bb[at + w];
    while (x !== 0) {
      const b = x & -x;
      out.push(w * 32 + 31 - Math.clz32(b));
      x ^= b;
    }
  }
  return out;
}

/** Neighbours (8 directions) of each square: NEIGHBOURS[sq*3 .. sq*3+2]. */
export const NEIGHBOURS = new Int32Array(SQUARES * 3);
/** Rays from each square (excluding it) in each direction: RAYS[(dir*80+sq)*3 ..]. */
export const RAYS = new Int32Array(4 * SQUARES * 3);
/** Whole files and ranks: FILE_MASK[f*3..], RANK_MASK[r*3..]. */
export const FILE_MASK = new Int32Array(10 * 3);
export const RANK_MASK = new Int32Array(8 * 3);

for (let sq = 0; sq < SQUARES; sq++) {
  const f = fileOf(sq);
  const r = rankOf(sq);
  bbSet(FILE_MASK, f * 3, sq);
  bbSet(RANK_MASK, r * 3, sq);
  for (const [df, dr] of KING_STEPS) {
    if (onBoard(f + df, r + dr)) bbSet(NEIGHBOURS, sq * 3, square(f + df, r + dr));
  }
  for (let d = 0; d < 4; d++) {
    let ff = f + DIR_DFILE[d];
    let rr = r + DIR_DRANK[d];
    while (onBoard(ff, rr)) {
      bbSet(RAYS, (d * SQUARES + sq) * 3, square(ff, rr));
      ff += DIR_DFILE[d];
      rr += DIR_DRANK[d];
    }
  }
}
