/**
 * Static evaluation in centi-pyramids, from the side to move's point of view.
 * One table of named weights (WEIGHTS) so that tuning can change them.
 */
import {
  ANUBIS, NEIGHBOURS, OBELISK, PHARAOH, PYRAMID, SCARAB, STACK, nextOccupied, popcount, type Position,
} from '../core/index';

export interface Weights {
  pyramid: number;
  anubis: number;
  obelisk: number;
  stack: number;
  /** Our beam, fired now, would remove this fraction of an enemy piece's value (we can take it). */
  shotOnEnemy: number;
  /** Our beam, fired now, would remove one of our own pieces. */
  shotOnOwn: number;
  /** The enemy beam, fired now, would remove our piece (we move first and may save it). */
  enemyShotOnUs: number;
  /** The enemy beam, fired now, would hit our Pharaoh: we must answer (Khet's check). */
  pharaohInBeam: number;
  /** Per line (N/E/S/W) from the Pharaoh whose first piece is an enemy mirror. */
  pharaohMirrorLine: number;
  /** Per line from the Pharaoh open to the board's edge. */
  pharaohOpenLine: number;
  /** Per own piece next to the Pharaoh (shelter). */
  pharaohShelter: number;
  /** Per enemy Scarab within two squares of the Pharaoh. */
  pharaohScarabNear: number;
  /** Per square our beam crosses. */
  beamLength: number;
  /** Side to move bonus. */
  tempo: number;
}

export const WEIGHTS: Weights = {
  pyramid: 100,
  anubis: 130,
  obelisk: 90,
  stack: 170,
  shotOnEnemy: 0.6,
  shotOnOwn: 0.25,
  enemyShotOnUs: 0.2,
  pharaohInBeam: 60,
  pharaohMirrorLine: 18,
  pharaohOpenLine: 4,
  pharaohShelter: 6,
  pharaohScarabNear: 10,
  beamLength: 1,
  tempo: 10,
};

export const TERM_NAMES = ['material', 'shots', 'pharaoh safety', 'beam', 'tempo'] as const;

const mask = new Int32Array(6);

/** Value of a piece code for the material and shot terms. */
export function pieceValue(p: number, w: Weights = WEIGHTS): number {
  switch ((p >> 2) & 7) {
    case PYRAMID:
      return w.pyramid;
    case ANUBIS:
      return w.anubis;
    case OBELISK:
      return w.obelisk;
    case STACK:
      return w.obelisk; // a shot removes only the top
    default:
      return 0;
  }
}

function materialOf(pos: Position, color: number, w: Weights): number {
  const b = pos.board;
  let v = 0;
  for (let wd = 0; wd < 3; wd++) {
    let x = pos.bb[color * 3 + wd];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const p = b[(wd << 5) + 31 - Math.clz32(low)];
      const k = (p >> 2) & 7;
      v += k === STACK ? w.stack : pieceValue(p, w);
    }
  }
  return v;
}

/** Pharaoh safety of `color` (positive = safe). */
function pharaohSafety(pos: Position, color: number, w: Weights): number {
  const b = pos.board;
  let psq = -1;
  for (let wd = 0; wd < 3 && psq < 0; wd++) {
    let x = pos.bb[color * 3 + wd];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const sq = (wd << 5) + 31 - Math.clz32(low);
      if (((b[sq] >> 2) & 7) === PHARAOH) {
        psq = sq;
        break;
      }
    }
  }
  if (psq < 0) return 0;
  let v = 0;
  for (let d = 0; d < 4; d++) {
    const t = nextOccupied(pos.bb, 6, psq, d);
    if (t < 0) {
      v -= w.pharaohOpenLine;
      continue;
    }
    const p = b[t];
    const k = (p >> 2) & 7;
    if (p >> 5 !== color && (k === PYRAMID || k === SCARAB)) v -= w.pharaohMirrorLine;
  }
  const nb = psq * 3;
  const own = popcount(NEIGHBOURS[nb] & pos.bb[color * 3]) + popcount(NEIGHBOURS[nb + 1] & pos.bb[color * 3 + 1]) +
    popcount(NEIGHBOURS[nb + 2] & pos.bb[color * 3 + 2]);
  v += own * w.pharaohShelter;
  // enemy scarabs within two squares
  const pf = psq % 10;
  const pr = (psq / 10) | 0;
  for (let r = Math.max(0, pr - 2); r <= Math.min(7, pr + 2); r++) {
    for (let f = Math.max(0, pf - 2); f <= Math.min(9, pf + 2); f++) {
      const p = b[r * 10 + f];
      if (p !== 0 && p >> 5 !== color && ((p >> 2) & 7) === SCARAB) v -= w.pharaohScarabNear;
    }
  }
  return v;
}

/**
 * The evaluation from the side to move's point of view. When `terms` is given, the terms are
 * written into it (each from the side to move's point of view, in TERM_NAMES order).
 */
export function evaluate(pos: Position, w: Weights = WEIGHTS, terms?: number[]): number {
  const us = pos.side;
  const them = us ^ 1;
  const b = pos.board;
  const material = materialOf(pos, us, w) - materialOf(pos, them, w);

  let shots = 0;
  const ourKill = pos.beamMask(us, mask, 0);
  const theirKill = pos.beamMask(them, mask, 3);
  if (ourKill >= 0) {
    const p = b[ourKill];
    if (p >> 5 === them) shots += w.shotOnEnemy * pieceValue(p, w);
    else shots -= w.shotOnOwn * pieceValue(p, w);
  }
  if (theirKill >= 0) {
    const p = b[theirKill];
    if (p >> 5 === us) {
      if (((p >> 2) & 7) === PHARAOH) shots -= w.pharaohInBeam;
      else shots -= w.enemyShotOnUs * pieceValue(p, w);
    }
  }
  const safety = pharaohSafety(pos, us, w) - pharaohSafety(pos, them, w);
  const beam = w.beamLength * (popcount(mask[0]) + popcount(mask[1]) + popcount(mask[2]) -
    popcount(mask[3]) - popcount(mask[4]) - popcount(mask[5]));
  const total = material + shots + safety + beam + w.tempo;
  if (terms) {
    terms.length = 0;
    terms.push(material, shots, safety, beam, w.tempo);
  }
  return Math.round(total);
}
