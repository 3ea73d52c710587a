/**
 * Static evaluation in centi-pyramids, from the side to move's point of view.
 * One table of named weights (WEIGHTS) so that tuning can change them.
 */
import {
  ANUBIS,
  NEIGHBOURS,
  OBELISK,
  PHARAOH,
  PYRAMID,
  REFLECT,
  SCARAB,
  SPHINX,
  STACK,
  bbSet,
  colorOf,
  fire,
  kindOf,
  nextOccupied,
  oriOf,
  popcount,
  square,
  type Position,
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
  /**
   * Threats next turn: the fraction of the value of the best of our pieces the enemy beam could
   * take after one move of theirs that turns their Sphinx, turns one of their mirrors on their
   * beam, or moves one of their pieces off it (the piece the beam takes now is the shot term).
   * Our own threats are not counted: the search sees them (it is our move).
   */
  threatOnUs: number;
  /** Such a move of the enemy would hit our Pharaoh: we must parry it now. */
  pharaohThreatOnUs: number;
  /** Empty squares next to the Pharaoh that it may step to (its escape squares). */
  pharaohEscape: number;
}

/**
 * The weights: part of the way from a hand-set table to a logistic fit on game results
 * (tools/tune.ts): the whole way over-fitted in play. Each step was kept by a match
 * (docs/strength.md).
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
  threatOnUs: 0.45,
  pharaohThreatOnUs: 100,
  pharaohEscape: -12,
};

export const TERM_NAMES = ['material', 'shots', 'threats', 'pharaoh safety', 'pieces', 'beam', 'tempo'] as const;

const mask = new Int32Array(6);

/** Value of a piece code for the material and shot terms. */
export function pieceValue(p: number, w: Weights = WEIGHTS): number {
  switch (kindOf(p)) {
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
      const t = square(ff, rr);
      bbSet(ZONE2, sq * 3, t);
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
    const k = kindOf(p);
    if (colorOf(p) !== color && (k === PYRAMID || k === SCARAB)) v -= w.pharaohMirrorLine;
  }
  const nb = psq * 3;
  const own =
    popcount(NEIGHBOURS[nb] & pos.bb[color * 3]) +
    popcount(NEIGHBOURS[nb + 1] & pos.bb[color * 3 + 1]) +
    popcount(NEIGHBOURS[nb + 2] & pos.bb[color * 3 + 2]);
  v += own * w.pharaohShelter;
  // enemy scarabs within two squares
  const them = (color ^ 1) * 3;
  for (let wd = 0; wd < 3; wd++) {
    let x = ZONE2[nb + wd] & pos.bb[them + wd];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      if (kindOf(b[(wd << 5) + 31 - Math.clz32(low)]) === SCARAB) v -= w.pharaohScarabNear;
    }
  }
  return v;
}

/** threatScan's results: the best victim's square (not a Pharaoh) or -1, and a Pharaoh hit. */
let threatSq = -1;
let threatValue = 0;
let threatPharaoh = 0;

function consider(b: Uint8Array, k: number, victim: number, now: number, w: Weights): void {
  if (k < 0 || k === now) return;
  const p = b[k];
  if (colorOf(p) !== victim) return;
  if (kindOf(p) === PHARAOH) {
    threatPharaoh = 1;
    return;
  }
  const v = pieceValue(p, w);
  if (threatSq < 0 || v > threatValue) {
    threatSq = k;
    threatValue = v;
  }
}

/**
 * The enemy pieces `color`'s beam could take after one move of `color` that changes the beam
 * where it passes: its Sphinx turned to its other side, one of its own mirrors on the path
 * turned, or one of its own pieces on the path moved off it. No move is made:
 * each change is one more trace from the square where it happens, and a moved piece is assumed
 * to land outside the new path. `now` is the square the beam takes as it is (the shot term's,
 * not counted here). Returns the square of the most valuable such victim other than the
 * Pharaoh, or -1; `lastThreatPharaoh()` tells whether the Pharaoh is among them.
 */
export function threatScan(pos: Position, color: number, now: number, w: Weights = WEIGHTS): number {
  const ed = pos.edition;
  const b = pos.board;
  const bb = pos.bb;
  const victim = color ^ 1;
  threatSq = -1;
  threatValue = 0;
  threatPharaoh = 0;
  const sq = ed.laserSquare[color];
  let dir: number;
  let t: number;
  // Each change is made on the board for its trace and undone: the beam from the changed square
  // on is then the true beam of the changed board, which cannot loop (a trace over the board
  // without the change could come back to the square and go round for ever).
  if (ed.sphinx) {
    const p = b[sq];
    dir = oriOf(p);
    // the Sphinx's other legal side: N/W for the first player, S/E for the second
    const alt = color === 0 ? (dir === 0 ? 3 : 0) : dir === 2 ? 1 : 2;
    b[sq] = (p & ~3) | alt;
    consider(b, fire(b, bb, 6, sq, alt, false), victim, now, w);
    b[sq] = p;
    t = nextOccupied(bb, 6, sq, dir);
  } else {
    dir = ed.laserDir[color];
    t = b[sq] !== 0 ? sq : nextOccupied(bb, 6, sq, dir);
  }
  // A piece can be on the path twice (a Scarab's two mirrors, or a Pyramid's mirror and then its
  // back). Its change is traced at the first visit only: from there on the board is the changed
  // one, so that trace is the true beam, which never reaches the second visit as it was.
  let seen0 = 0;
  let seen1 = 0;
  let seen2 = 0;
  while (t >= 0) {
    const p = b[t];
    const out = REFLECT[(p << 2) | dir];
    const bit = 1 << (t & 31);
    const wd = t >> 5;
    const first = (wd === 0 ? seen0 : wd === 1 ? seen1 : seen2) & bit;
    if (colorOf(p) === color && first === 0) {
      if (wd === 0) seen0 |= bit;
      else if (wd === 1) seen1 |= bit;
      else seen2 |= bit;
      const k = kindOf(p);
      if (k === PYRAMID) {
        // turned either way, it may send the beam on (even when the beam now hits its back)
        const r1 = (p & ~3) | ((p + 1) & 3);
        const o1 = REFLECT[(r1 << 2) | dir];
        if (o1 < 4) {
          b[t] = r1;
          consider(b, fire(b, bb, 6, t, o1, false), victim, now, w);
        }
        const r2 = (p & ~3) | ((p + 3) & 3);
        const o2 = REFLECT[(r2 << 2) | dir];
        if (o2 < 4) {
          b[t] = r2;
          consider(b, fire(b, bb, 6, t, o2, false), victim, now, w);
        }
        b[t] = p;
      } else if (k === SCARAB) {
        // a Scarab or Djed turned sends the beam out the opposite side
        b[t] = p ^ 1;
        consider(b, fire(b, bb, 6, t, out ^ 2, false), victim, now, w);
        b[t] = p;
      }
      if (k !== SPHINX) {
        // the piece moved off the path lets the beam go straight on
        b[t] = 0;
        bb[6 + wd] ^= bit;
        consider(b, fire(b, bb, 6, t, dir, false), victim, now, w);
        bb[6 + wd] ^= bit;
        b[t] = p;
      }
    }
    if (out >= 4) break;
    dir = out;
    t = nextOccupied(bb, 6, t, dir);
  }
  return threatSq;
}

/** Whether the last threatScan found the enemy Pharaoh among the victims. */
export function lastThreatPharaoh(): number {
  return threatPharaoh;
}

/** The Pharaoh's escape squares of `color`: empty neighbours it may step to. */
function escapeSquares(pos: Position, color: number): number {
  const psq = pos.pharaohSq[color];
  if (psq < 0) return 0;
  const bb = pos.bb;
  const n = psq * 3;
  const r = pos.edition.reserved;
  const c = color * 3;
  return (
    popcount(NEIGHBOURS[n] & ~bb[6] & ~r[c]) +
    popcount(NEIGHBOURS[n + 1] & ~bb[7] & ~r[c + 1]) +
    popcount(NEIGHBOURS[n + 2] & ~bb[8] & ~r[c + 2])
  );
}

/**
 * The evaluation from the side to move's point of view. When `terms` is given, the terms are
 * written into it (each from the side to move's point of view, in TERM_NAMES order).
 */
export function evaluate(pos: Position, w: Weights = WEIGHTS, terms?: number[]): number {
  const ourKill = pos.beamMask(pos.side, mask, 0);
  const theirKill = pos.beamMask(pos.side ^ 1, mask, 3);
  return evaluateBeams(pos, ourKill, mask, 0, theirKill, mask, 3, w, terms);
}

/** Squares in a beam mask. */
function beamLength(m: Int32Array, at: number): number {
  return popcount(m[at]) + popcount(m[at + 1]) + popcount(m[at + 2]);
}

/**
 * The evaluation given both beams, as Position.beamMask computes them: the square each beam
 * would kill (or -1) and the squares it crosses (ourMask at ourAt, theirMask at theirAt). The
 * search computes the beams anyway, so it passes them in.
 */
export function evaluateBeams(
  pos: Position,
  ourKill: number,
  ourMask: Int32Array,
  ourAt: number,
  theirKill: number,
  theirMask: Int32Array,
  theirAt: number,
  w: Weights = WEIGHTS,
  terms?: number[],
): number {
  const us = pos.side;
  const them = us ^ 1;
  const b = pos.board;
  const material = materialOf(pos, us, w) - materialOf(pos, them, w);

  let shots = 0;
  if (ourKill >= 0) {
    const p = b[ourKill];
    if (colorOf(p) === them) shots += w.shotOnEnemy * pieceValue(p, w);
    else shots -= w.shotOnOwn * pieceValue(p, w);
  }
  if (theirKill >= 0) {
    const p = b[theirKill];
    if (colorOf(p) === us) {
      if (kindOf(p) === PHARAOH) shots -= w.pharaohInBeam;
      else shots -= w.enemyShotOnUs * pieceValue(p, w);
    }
  }
  let threats = 0;
  if (w.threatOnUs !== 0 || w.pharaohThreatOnUs !== 0) {
    const k = threatScan(pos, them, theirKill, w);
    if (k >= 0) threats -= w.threatOnUs * threatValue;
    threats -= w.pharaohThreatOnUs * threatPharaoh;
  }
  const safety = pharaohSafety(pos, us, w) - pharaohSafety(pos, them, w);
  const pieces = w.pharaohEscape * (escapeSquares(pos, us) - escapeSquares(pos, them));
  const beam = w.beamLength * (beamLength(ourMask, ourAt) - beamLength(theirMask, theirAt));
  const total = material + shots + threats + safety + pieces + beam + w.tempo;
  if (terms) {
    terms.length = 0;
    terms.push(material, shots, threats, safety, pieces, beam, w.tempo);
  }
  return Math.round(total);
}
