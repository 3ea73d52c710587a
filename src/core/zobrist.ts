/**
 * Zobrist keys as two uint32 halves (stored in Int32Arrays): one pair per (piece code, square)
 * and one for the side to move. A Scarab's orientation is always stored mod 2, so its two
 * physical orientations share a key.
 */
import { PIECE_CODES } from './pieces';
import { SQUARES } from './squares';

/** Deterministic 32-bit generator (mulberry32), so keys are the same in every build. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) | 0;
  };
}

/** ZOBRIST_LO/HI[code * 80 + sq]. */
export const ZOBRIST_LO = new Int32Array(PIECE_CODES * SQUARES);
export const ZOBRIST_HI = new Int32Array(PIECE_CODES * SQUARES);
const rand = mulberry32(0x7407);
for (let i = 0; i < ZOBRIST_LO.length; i++) {
  ZOBRIST_LO[i] = rand();
  ZOBRIST_HI[i] = rand();
}
export const SIDE_LO = rand();
export const SIDE_HI = rand();

/** A key as 16 hex digits (high half first). */
export function keyHex(lo: number, hi: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}
