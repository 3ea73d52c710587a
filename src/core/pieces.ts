/**
 * Pieces as one byte: colour << 5 | kind << 2 | orientation. 0 is an empty square.
 * Colour 0 is the first player (upper case in KFEN: Silver, Gold in Deflexion), 1 the second.
 * Orientation is a direction (N E S W) with the meaning of docs/rules.md §2.1; a Scarab/Djed
 * is always stored with orientation N or E (its orientation mod 2).
 */
export const WHITE = 0; // first player
export const BLACK = 1; // second player
export type Color = 0 | 1;

export const SPHINX = 1;
export const PHARAOH = 2;
export const PYRAMID = 3;
export const ANUBIS = 4;
export const SCARAB = 5; // also the Djed of Khet 1.0 and Deflexion
export const OBELISK = 6; // a single obelisk
export const STACK = 7; // two obelisks stacked
export type Kind = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const KIND_NAMES = ['', 'Sphinx', 'Pharaoh', 'Pyramid', 'Anubis', 'Scarab', 'Obelisk', 'Stack'] as const;

/**
 * A kind's name as people say it: `Pyramid`, `Obelisk stack`; the Scarab is the `Djed` of an
 * edition that writes it D (`scarabLetter`).
 */
export function kindName(kind: number, scarabLetter: 'S' | 'D' = 'S'): string {
  if (kind === SCARAB) return scarabLetter === 'D' ? 'Djed' : 'Scarab';
  if (kind === STACK) return 'Obelisk stack';
  return KIND_NAMES[kind];
}

export const makePiece = (color: number, kind: number, ori: number): number =>
  (color << 5) | (kind << 2) | (kind === SCARAB ? ori & 1 : hasOrientation(kind) ? ori & 3 : 0);
export const colorOf = (p: number): number => p >> 5;
export const kindOf = (p: number): number => (p >> 2) & 7;
export const oriOf = (p: number): number => p & 3;

export function hasOrientation(kind: number): boolean {
  return kind === SPHINX || kind === PYRAMID || kind === ANUBIS || kind === SCARAB;
}

/** All 64 codes (only the valid ones are meaningful). */
export const PIECE_CODES = 64;
