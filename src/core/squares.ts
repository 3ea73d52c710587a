/**
 * Board geometry: 10 files (a..j) x 8 ranks (1..8), square index = rank * 10 + file,
 * so a1 = 0, j1 = 9, a8 = 70, j8 = 79.
 */
export const FILES = 10;
export const RANKS = 8;
export const SQUARES = 80;

/** Directions, clockwise: N (towards rank 8), E (towards file j), S, W. */
export const N = 0;
export const E = 1;
export const S = 2;
export const W = 3;
export type Direction = 0 | 1 | 2 | 3;

export const DIR_NAMES = ['N', 'E', 'S', 'W'] as const;
/** The directions in words, as messages and titles say them. */
export const DIR_WORDS = ['north', 'east', 'south', 'west'] as const;
/** Square-index delta per direction. */
export const DIR_DELTA = [10, 1, -10, -1] as const;
export const DIR_DFILE = [0, 1, 0, -1] as const;
export const DIR_DRANK = [1, 0, -1, 0] as const;

export const fileOf = (sq: number): number => sq % 10;
export const rankOf = (sq: number): number => (sq / 10) | 0;
export const square = (file: number, rank: number): number => rank * FILES + file;
export const onBoard = (file: number, rank: number): boolean => file >= 0 && file < FILES && rank >= 0 && rank < RANKS;

export function squareName(sq: number): string {
  return String.fromCharCode(97 + fileOf(sq)) + String(rankOf(sq) + 1);
}

/** Parses `a1`..`j8`; returns -1 for anything else. */
export function parseSquare(text: string): number {
  if (text.length !== 2) return -1;
  const f = text.charCodeAt(0) - 97;
  const r = text.charCodeAt(1) - 49;
  return onBoard(f, r) ? square(f, r) : -1;
}

/** The square turned 180 degrees about the board's centre. */
export const mirrorSquare = (sq: number): number => 79 - sq;

/** The eight king-step offsets as (dfile, drank). */
export const KING_STEPS: ReadonlyArray<readonly [number, number]> = [
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
];
