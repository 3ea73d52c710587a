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

/**
 * The weights: 30 % of the way from the first hand-set table to a logistic fit on game results
 * (tools/tune.ts; the full step lost, the partial step won +73 Elo: docs/strength.md).
 */
export const WEIGHTS: Weights = {
  pyramid: 105,
  anubis: 93,
  obelisk: 90,
  stack: 170,
  shotOnEnemy: 0.69,
  shotOnOwn: 0.18,
  enemyShotOnUs: 0.41,
  pharaohInBeam: 132,
  pharaohMirrorLine: 50,
  pharaohOpenLine: 7,
  pharaohShelter: 8,
  pharaohScarabNear: 68,
  beamLength: 3.4,
  tempo: 2,
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
  const c = pos.counts;
  const o = color * 8;
  return c[o + PYRAMID] * w.pyramid + c[o + ANUBIS] * w.anubis + c[o + OBELISK] * w.obelisk + c[o + STACK] * w.stack;
}

/** Squares within two king steps of each square (5x5 box), as 3-word masks. */
const ZONE2 = new Int32Array(80 * 3);
for (let sq = 0; sq < 80; sq++) {
  const f = sq % 10;
  const r = (sq / 10) | 0;
  for (let rr = Math.max(0, r - 2); rr <= Math.min(7, r + 2); rr++) {
    for (let ff = Math.max(0, f - 2); ff <= Math.min(9, f + 2); ff++) {
      const t = rr * 10 + ff;
      ZONE2[sq * 3 + (t >> 5)] |= 1 << (t & 31);
    }
  }
}

/** Pharaoh safety of `color` (positive = safe). */
function pharaohSafety(pos: Position, color: number, w: Weights): number {
  const b = pos.board;
  const psq = pos.pharaohSq[color];
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
  const them = (color ^ 1) * 3;
  for (let wd = 0; wd < 3; wd++) {
    let x = ZONE2[nb + wd] & pos.bb[them + wd];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      if (((b[(wd << 5) + 31 - Math.clz32(low)] >> 2) & 7) === SCARAB) v -= w.pharaohScarabNear;
    }
  }
  return v;
}

/**
 * The evaluation from the side to move's point of view. When `terms` is given, the terms are
 * written into it (each from the side to move's point of view, in TERM_NAMES order).
 */
export function evaluate(pos: Position, w: Weights = WEIGHTS, terms?: number[]): number {
  const ourKill = pos.beamMask(pos.side, mask, 0);
  const theirKill = pos.beamMask(pos.side ^ 1, mask, 3);
  return evaluateBeams(pos, ourKill, beamLength(mask, 0), theirKill, beamLength(mask, 3), w, terms);
}

/** Squares in a beam mask. */
export function beamLength(m: Int32Array, at: number): number {
  return popcount(m[at]) + popcount(m[at + 1]) + popcount(m[at + 2]);
}

/**
 * The evaluation given both beams, as Position.beamMask computes them: the square each beam
 * would kill (or -1) and the number of squares it crosses. The search computes the beams
 * anyway, so it passes them in.
 */
export function evaluateBeams(
  pos: Position, ourKill: number, ourLen: number, theirKill: number, theirLen: number, w: Weights = WEIGHTS, terms?: number[],
): number {
  const us = pos.side;
  const them = us ^ 1;
  const b = pos.board;
  const material = materialOf(pos, us, w) - materialOf(pos, them, w);

  let shots = 0;
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
  const beam = w.beamLength * (ourLen - theirLen);
  const total = material + shots + safety + beam + w.tempo;
  if (terms) {
    terms.length = 0;
    terms.push(material, shots, safety, beam, w.tempo);
  }
  return Math.round(total);
}
