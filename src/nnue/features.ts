/**
 * The network's inputs (docs/nnue.md): sparse feature indices of a position as one player sees
 * it. Perspective P turns the board so that P plays from the bottom: for P = 1 every square is
 * turned 180° (79 − sq) and every orientation by two quarters; colours are relative ("own" =
 * colour P). Four groups:
 *   pieces        ((rel · 17) + state) · 80 + sq'                    0 … 2719
 *   beam squares  2720 + rel · 80 + sq'   (each square a beam crosses) 2720 … 2879
 *   beam targets  2880 + beamRel · 34 + victimRel · 17 + state      2880 … 2947
 *   edition       2948 + e (khet2, khet1, deflexion)                 2948 … 2950
 * Browser-safe and allocation-free: results go into arrays the caller owns.
 */
import { EDITION_IDS, type EditionId } from '../core/editions';
import { ANUBIS, OBELISK, PHARAOH, PYRAMID, SCARAB, SPHINX, STACK } from '../core/pieces';
import type { Position } from '../core/position';
import { SQUARES } from '../core/squares';

const PIECE_STATES = 17;
const PIECE_FEATURES = 2 * PIECE_STATES * SQUARES;
export const BEAM_SQUARE_BASE = PIECE_FEATURES;
export const BEAM_TARGET_BASE = BEAM_SQUARE_BASE + 2 * SQUARES;
export const EDITION_BASE = BEAM_TARGET_BASE + 4 * PIECE_STATES;
export const NUM_FEATURES = EDITION_BASE + EDITION_IDS.length;

/**
 * At most this many features are active in one perspective: 80 squares of pieces, both beams
 * over every square, two targets and the edition.
 */
export const MAX_ACTIVE = SQUARES + 2 * SQUARES + 2 + 1;

/**
 * EXCLUSIVE_GROUP[f]: a group of features of which at most one is active in a perspective at a
 * time: the 34 piece features of one square (a square holds one piece; a stack is one state),
 * each beam square alone (a beam's mask holds a square once), the 34 targets of one beam (a beam
 * stops at one piece), the editions. MAX_ACTIVE groups in all. The bound on the accumulators that
 * lets the SIMD kernels keep them in int16 (src/nnue/kernels.ts) rests on this.
 */
export const EXCLUSIVE_GROUP = new Uint16Array(NUM_FEATURES);
{
  for (let f = 0; f < BEAM_SQUARE_BASE; f++) EXCLUSIVE_GROUP[f] = f % SQUARES;
  for (let f = BEAM_SQUARE_BASE; f < BEAM_TARGET_BASE; f++) EXCLUSIVE_GROUP[f] = SQUARES + f - BEAM_SQUARE_BASE;
  for (let f = BEAM_TARGET_BASE; f < EDITION_BASE; f++)
    EXCLUSIVE_GROUP[f] = 3 * SQUARES + Math.floor((f - BEAM_TARGET_BASE) / (2 * PIECE_STATES));
  for (let f = EDITION_BASE; f < NUM_FEATURES; f++) EXCLUSIVE_GROUP[f] = MAX_ACTIVE - 1;
}

/**
 * STATE[perspective * 64 + piece code]: the piece's state (0 … 16) as that perspective sees its
 * orientation, or -1 for a code that is no piece. Sphinx 0–3, Pharaoh 4, Pyramid 5–8, Anubis 9–12,
 * Scarab/Djed 13–14, Obelisk 15, stack 16.
 */
const STATE = new Int8Array(128).fill(-1);
for (let persp = 0; persp < 2; persp++) {
  for (let code = 0; code < 64; code++) {
    const kind = (code >> 2) & 7;
    const ori = code & 3;
    const o = persp === 1 ? (ori + 2) & 3 : ori;
    let s = -1;
    switch (kind) {
      case SPHINX:
        s = o;
        break;
      case PHARAOH:
        s = ori === 0 ? 4 : -1;
        break;
      case PYRAMID:
        s = 5 + o;
        break;
      case ANUBIS:
        s = 9 + o;
        break;
      case SCARAB:
        s = ori < 2 ? 13 + ori : -1;
        break; // stored mod 2: the turn leaves it as it is
      case OBELISK:
        s = ori === 0 ? 15 : -1;
        break;
      case STACK:
        s = ori === 0 ? 16 : -1;
        break;
    }
    STATE[persp * 64 + code] = s;
  }
}

/** The edition's index in the edition feature and the network file's flags. */
export function editionIndex(id: EditionId): number {
  return EDITION_IDS.indexOf(id);
}

/** The feature of `piece` (a code, not 0) standing on `sq`, seen from `perspective`. */
export function pieceFeature(piece: number, sq: number, perspective: number): number {
  const rel = (piece >> 5) ^ perspective;
  const s = perspective === 1 ? SQUARES - 1 - sq : sq;
  return (rel * PIECE_STATES + STATE[perspective * 64 + piece]) * SQUARES + s;
}

/** The feature of colour `beamColor`'s beam being about to kill `victim` (a piece code). */
export function beamTargetFeature(beamColor: number, victim: number, perspective: number): number {
  return (
    BEAM_TARGET_BASE +
    (beamColor ^ perspective) * 2 * PIECE_STATES +
    ((victim >> 5) ^ perspective) * PIECE_STATES +
    STATE[perspective * 64 + victim]
  );
}

/**
 * The incremental update of a piece appearing on or leaving `sq`: writes its feature for
 * perspective 0 at out[at] and for perspective 1 at out[at + 1]. (The beams a move changes are
 * features of their own: see beamMaskFeatures.)
 */
export function pieceDelta(piece: number, sq: number, out: Int32Array | Uint16Array, at: number): void {
  out[at] = pieceFeature(piece, sq, 0);
  out[at + 1] = pieceFeature(piece, sq, 1);
}

/**
 * Writes at out[n..] the beam-square features of colour `beamColor` for every square set in the
 * 80-square mask at mask[at..at+2] (a beam's mask, or the difference of two), seen from
 * `perspective`; returns the new end.
 */
function beamMaskFeatures(
  beamColor: number,
  mask: Int32Array,
  at: number,
  perspective: number,
  out: Int32Array | Uint16Array,
  n: number,
): number {
  const base = BEAM_SQUARE_BASE + (beamColor ^ perspective) * SQUARES;
  for (let w = 0; w < 3; w++) {
    let x = mask[at + w];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const sq = (w << 5) + 31 - Math.clz32(low);
      out[n++] = base + (perspective === 1 ? SQUARES - 1 - sq : sq);
    }
  }
  return n;
}

const beam = new Int32Array(3);

/**
 * Writes the active features of `pos` seen from `perspective` (0 or 1) into out[0..] and returns
 * their count (at most MAX_ACTIVE; all distinct). Pieces in square order, then colour 0's beam
 * squares and target, colour 1's, and the edition.
 */
export function activeFeatures(pos: Position, perspective: number, out: Int32Array | Uint16Array): number {
  const board = pos.board;
  let n = 0;
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq];
    if (p !== 0) out[n++] = pieceFeature(p, sq, perspective);
  }
  for (let color = 0; color < 2; color++) {
    const t = pos.beamMask(color, beam, 0);
    n = beamMaskFeatures(color, beam, 0, perspective, out, n);
    if (t >= 0) out[n++] = beamTargetFeature(color, board[t], perspective);
  }
  out[n++] = EDITION_BASE + editionIndex(pos.edition.id);
  return n;
}

/**
 * FLIP[f]: the feature that perspective 1 sees where perspective 0 sees f (and back: FLIP is its
 * own inverse). Perspective 1's features are exactly perspective 0's mapped through FLIP, so the
 * trainer stores one list per position.
 */
export const FLIP = new Uint16Array(NUM_FEATURES);
{
  const flipState = (s: number): number =>
    s < 4 ? (s + 2) & 3 : s >= 5 && s < 9 ? 5 + ((s - 3) & 3) : s >= 9 && s < 13 ? 9 + ((s - 7) & 3) : s;
  for (let rel = 0; rel < 2; rel++) {
    for (let s = 0; s < PIECE_STATES; s++) {
      for (let sq = 0; sq < SQUARES; sq++) {
        FLIP[(rel * PIECE_STATES + s) * SQUARES + sq] =
          ((rel ^ 1) * PIECE_STATES + flipState(s)) * SQUARES + SQUARES - 1 - sq;
      }
    }
    for (let sq = 0; sq < SQUARES; sq++) {
      FLIP[BEAM_SQUARE_BASE + rel * SQUARES + sq] = BEAM_SQUARE_BASE + (rel ^ 1) * SQUARES + SQUARES - 1 - sq;
    }
    for (let victim = 0; victim < 2; victim++) {
      for (let s = 0; s < PIECE_STATES; s++) {
        FLIP[BEAM_TARGET_BASE + rel * 2 * PIECE_STATES + victim * PIECE_STATES + s] =
          BEAM_TARGET_BASE + (rel ^ 1) * 2 * PIECE_STATES + (victim ^ 1) * PIECE_STATES + flipState(s);
      }
    }
  }
  for (let e = 0; e < EDITION_IDS.length; e++) FLIP[EDITION_BASE + e] = EDITION_BASE + e;
}
