/**
 * Moves as small integers: from | to << 7 | type << 14. A rotation has to === from.
 *   STEP     a piece (or a whole obelisk stack) steps to an empty square
 *   SWAP     a Scarab/Djed swaps with the adjacent piece on `to`
 *   ROT_CW   clockwise rotation (`+`); the only rotation of a Scarab or a Pharaoh
 *   ROT_CCW  counter-clockwise rotation (`-`)
 *   STACK    a single obelisk steps onto an adjacent own single obelisk
 *   UNSTACK  the top obelisk of a stack steps to an empty square or onto an own single (`u`)
 */
export const STEP = 0;
export const SWAP = 1;
export const ROT_CW = 2;
export const ROT_CCW = 3;
export const STACK_ON = 4;
export const UNSTACK = 5;

export const NO_MOVE = -1;
/** Moves per position are at most 13 pieces x 10, well under this bound. */
export const MAX_MOVES = 256;

export const makeMove = (from: number, to: number, type: number): number => from | (to << 7) | (type << 14);
export const moveFrom = (m: number): number => m & 127;
export const moveTo = (m: number): number => (m >>> 7) & 127;
export const moveType = (m: number): number => m >>> 14;
export const isRotation = (m: number): boolean => moveType(m) === ROT_CW || moveType(m) === ROT_CCW;
