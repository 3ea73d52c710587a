/**
 * The three editions of Khet as data: which pieces exist, how the laser enters, which squares
 * each colour may not stand on, how the sides are named.
 */
import { bbSet } from './bitboard';
import { ANUBIS, OBELISK, PHARAOH, PYRAMID, SCARAB, SPHINX, STACK } from './pieces';
import { N, S, SQUARES, fileOf, square } from './squares';

export type EditionId = 'khet2' | 'khet1' | 'deflexion';
export const EDITION_IDS: readonly EditionId[] = ['khet2', 'khet1', 'deflexion'];

export interface Edition {
  readonly id: EditionId;
  readonly name: string;
  /** Names of the first and second player. */
  readonly colorNames: readonly [string, string];
  /** KFEN side-to-move letters of the first and second player. */
  readonly sideChars: readonly [string, string];
  /** True when pieces of this kind exist in the edition, indexed by kind. */
  readonly kinds: readonly boolean[];
  /** KFEN letter of the Scarab kind: `S` (Scarab) or `D` (Djed). */
  readonly scarabLetter: 'S' | 'D';
  /** True when the laser is a Sphinx (Khet 2.0); false for a laser fixed in the board. */
  readonly sphinx: boolean;
  /** Laser corner and (fixed lasers) beam direction per colour. */
  readonly laserSquare: readonly [number, number];
  readonly laserDir: readonly [number, number];
  /** Squares each colour may never stand on, as a 6-word array (colour * 3 + word). */
  readonly reserved: Int32Array;
  /** Kinds a Scarab may swap with, indexed by kind. */
  readonly swapWith: readonly boolean[];
}

const J1 = square(9, 0);
const A8 = square(0, 7);

function reservedSquares(laserFilesOnly: boolean): Int32Array {
  const r = new Int32Array(6);
  for (let sq = 0; sq < SQUARES; sq++) {
    const f = fileOf(sq);
    if (f === 0) bbSet(r, 0, sq); // file a is the second player's
    if (f === 9) bbSet(r, 3, sq); // file j is the first player's
  }
  if (!laserFilesOnly) {
    bbSet(r, 0, square(8, 0)); // i1
    bbSet(r, 0, square(8, 7)); // i8
    bbSet(r, 3, square(1, 0)); // b1
    bbSet(r, 3, square(1, 7)); // b8
  }
  return r;
}

function kindSet(kinds: number[]): boolean[] {
  const s = new Array<boolean>(8).fill(false);
  for (const k of kinds) s[k] = true;
  return s;
}

export const KHET2: Edition = {
  id: 'khet2',
  name: 'Khet 2.0',
  colorNames: ['Silver', 'Red'],
  sideChars: ['s', 'r'],
  kinds: kindSet([SPHINX, PHARAOH, PYRAMID, ANUBIS, SCARAB]),
  scarabLetter: 'S',
  sphinx: true,
  laserSquare: [J1, A8],
  laserDir: [N, S],
  reserved: reservedSquares(false),
  swapWith: kindSet([PYRAMID, ANUBIS]),
};

export const KHET1: Edition = {
  id: 'khet1',
  name: 'Khet 1.0',
  colorNames: ['Silver', 'Red'],
  sideChars: ['s', 'r'],
  kinds: kindSet([PHARAOH, PYRAMID, SCARAB, OBELISK, STACK]),
  scarabLetter: 'D',
  sphinx: false,
  laserSquare: [J1, A8],
  laserDir: [N, S],
  reserved: reservedSquares(false),
  swapWith: kindSet([PYRAMID, OBELISK, STACK]),
};

export const DEFLEXION: Edition = {
  id: 'deflexion',
  name: 'Deflexion',
  colorNames: ['Gold', 'Silver'],
  sideChars: ['g', 's'],
  kinds: kindSet([PHARAOH, PYRAMID, SCARAB, OBELISK, STACK]),
  scarabLetter: 'D',
  sphinx: false,
  laserSquare: [J1, A8],
  laserDir: [N, S],
  reserved: reservedSquares(true),
  swapWith: kindSet([PYRAMID, OBELISK, STACK]),
};

export const EDITIONS: Readonly<Record<EditionId, Edition>> = { khet2: KHET2, khet1: KHET1, deflexion: DEFLEXION };

export function isEditionId(s: string): s is EditionId {
  return s === 'khet2' || s === 'khet1' || s === 'deflexion';
}
