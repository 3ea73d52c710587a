/**
 * Make and unmake for Position: a move in two halves (the pieces move and the key follows, then
 * the shot's victim is taken off and the ply recorded), the null move, and the way back, with
 * the undo record of each ply. Nothing here allocates (the history grows by doubling).
 */
import { OBELISK, PHARAOH, SCARAB, SPHINX, STACK } from './pieces';
import { ROT_CCW, ROT_CW, STACK_ON, STEP, SWAP, UNSTACK } from './move';
import type { Position } from './position';
import { SQUARES } from './squares';
import { ROTATED } from './turns';
import { SIDE_HI, SIDE_LO, ZOBRIST_HI, ZOBRIST_LO } from './zobrist';

// Undo record layout (Int32 words per ply).
export const U_MOVE = 0;
const U_PLIES = 1;
export const U_KSQ = 2;
export const U_KPIECE = 3;
export const U_SIZE = 4;

/** Toggles `sq` in the bitboards of colour `c` and of all pieces. */
function toggle(pos: Position, c: number, sq: number): void {
  const bit = 1 << (sq & 31);
  const w = sq >> 5;
  pos.bb[c * 3 + w] ^= bit;
  pos.bb[6 + w] ^= bit;
}

/** A Scarab of colour `c` moved between `a` and `b` (either way). */
function moveScarab(pos: Position, c: number, a: number, b: number): void {
  pos.scarabs[c * 3 + (a >> 5)] ^= 1 << (a & 31);
  pos.scarabs[c * 3 + (b >> 5)] ^= 1 << (b & 31);
}

/**
 * A Sphinx of colour `c` swapped from `a` to `b` (only in the swapSphinx dialect): it fires from
 * where it stands.
 */
function moveSphinx(pos: Position, c: number, a: number, b: number): void {
  pos.sphinxMask[a >> 5] ^= 1 << (a & 31);
  pos.sphinxMask[b >> 5] ^= 1 << (b & 31);
  pos.laserSq[c] = b;
}

/** A swap between colours: each colour's bitboard loses one square and gains the other. */
function swapColours(pos: Position, a: number, b: number, from: number, to: number): void {
  const fw = from >> 5;
  const tw = to >> 5;
  const fb = 1 << (from & 31);
  const tb = 1 << (to & 31);
  pos.bb[a * 3 + fw] ^= fb;
  pos.bb[a * 3 + tw] ^= tb;
  pos.bb[b * 3 + fw] ^= fb;
  pos.bb[b * 3 + tw] ^= tb;
}

/** The first half of a move: the pieces move, the key follows; the laser has not fired. */
export function movePieces(pos: Position, m: number): void {
  const b = pos.board;
  const from = m & 127;
  const to = (m >>> 7) & 127;
  const type = m >>> 14;
  const us = pos.side;
  let lo = pos.keyLo;
  let hi = pos.keyHi;
  switch (type) {
    case STEP: {
      const p = b[from];
      b[from] = 0;
      b[to] = p;
      lo ^= ZOBRIST_LO[p * SQUARES + from] ^ ZOBRIST_LO[p * SQUARES + to];
      hi ^= ZOBRIST_HI[p * SQUARES + from] ^ ZOBRIST_HI[p * SQUARES + to];
      toggle(pos, us, from);
      toggle(pos, us, to);
      if (((p >> 2) & 7) === PHARAOH) pos.pharaohSq[us] = to;
      else if (((p >> 2) & 7) === SCARAB) moveScarab(pos, us, from, to);
      break;
    }
    case SWAP: {
      const p = b[from];
      const q = b[to];
      b[from] = q;
      b[to] = p;
      lo ^=
        ZOBRIST_LO[p * SQUARES + from] ^
        ZOBRIST_LO[p * SQUARES + to] ^
        ZOBRIST_LO[q * SQUARES + to] ^
        ZOBRIST_LO[q * SQUARES + from];
      hi ^=
        ZOBRIST_HI[p * SQUARES + from] ^
        ZOBRIST_HI[p * SQUARES + to] ^
        ZOBRIST_HI[q * SQUARES + to] ^
        ZOBRIST_HI[q * SQUARES + from];
      if (q >> 5 !== us) swapColours(pos, us, q >> 5, from, to);
      moveScarab(pos, us, from, to);
      if (((q >> 2) & 7) === SPHINX) moveSphinx(pos, q >> 5, to, from);
      break;
    }
    case ROT_CW:
    case ROT_CCW: {
      const p = b[from];
      const r = ROTATED[p * 2 + type - ROT_CW];
      b[from] = r;
      lo ^= ZOBRIST_LO[p * SQUARES + from] ^ ZOBRIST_LO[r * SQUARES + from];
      hi ^= ZOBRIST_HI[p * SQUARES + from] ^ ZOBRIST_HI[r * SQUARES + from];
      break;
    }
    case STACK_ON: {
      const single = b[from];
      const stack = single + 4; // STACK = OBELISK + 1 in the kind field
      b[from] = 0;
      b[to] = stack;
      pos.counts[us * 8 + OBELISK] -= 2;
      pos.counts[us * 8 + STACK]++;
      lo ^= ZOBRIST_LO[single * SQUARES + from] ^ ZOBRIST_LO[single * SQUARES + to] ^ ZOBRIST_LO[stack * SQUARES + to];
      hi ^= ZOBRIST_HI[single * SQUARES + from] ^ ZOBRIST_HI[single * SQUARES + to] ^ ZOBRIST_HI[stack * SQUARES + to];
      toggle(pos, us, from);
      break;
    }
    case UNSTACK: {
      const stack = b[from];
      const single = stack - 4;
      b[from] = single;
      lo ^=
        ZOBRIST_LO[stack * SQUARES + from] ^ ZOBRIST_LO[single * SQUARES + from] ^ ZOBRIST_LO[single * SQUARES + to];
      hi ^=
        ZOBRIST_HI[stack * SQUARES + from] ^ ZOBRIST_HI[single * SQUARES + from] ^ ZOBRIST_HI[single * SQUARES + to];
      if (b[to] === 0) {
        b[to] = single;
        toggle(pos, us, to);
        pos.counts[us * 8 + OBELISK] += 2;
        pos.counts[us * 8 + STACK]--;
      } else {
        b[to] = stack;
        lo ^= ZOBRIST_LO[stack * SQUARES + to];
        hi ^= ZOBRIST_HI[stack * SQUARES + to];
      }
      break;
    }
  }
  pos.keyLo = lo;
  pos.keyHi = hi;
}

/**
 * Opens the undo record of the next ply: move `m`, the no-removal count and the shot's square
 * `t`. Returns the record's index.
 */
function openPly(pos: Position, m: number, t: number): number {
  if (pos.ply >= pos.cap) pos.grow(pos.cap * 2);
  const u = pos.ply * U_SIZE;
  pos.undo[u + U_MOVE] = m;
  pos.undo[u + U_PLIES] = pos.pliesSinceRemoval;
  pos.undo[u + U_KSQ] = t;
  return u;
}

/** Closes a ply whose key before the side changes is (lo, hi): the other side moves. */
function closePly(pos: Position, lo: number, hi: number): void {
  if (pos.side === 1) pos.moveNumber++;
  pos.side ^= 1;
  lo ^= SIDE_LO;
  hi ^= SIDE_HI;
  pos.keyLo = lo;
  pos.keyHi = hi;
  pos.ply++;
  pos.keysLo[pos.ply] = lo;
  pos.keysHi[pos.ply] = hi;
}

/**
 * The second half of a move: `t` is the square the mover's shot kills (or -1). Takes the piece
 * off (a stack loses its top), records a Pharaoh hit in `winner`, and records the ply.
 */
export function recordPly(pos: Position, m: number, t: number): number {
  const b = pos.board;
  let lo = pos.keyLo;
  let hi = pos.keyHi;
  const u = openPly(pos, m, t);
  if (t >= 0) {
    const k = b[t];
    pos.undo[u + U_KPIECE] = k;
    pos.counts[(k >> 5) * 8 + ((k >> 2) & 7)]--;
    lo ^= ZOBRIST_LO[k * SQUARES + t];
    hi ^= ZOBRIST_HI[k * SQUARES + t];
    if (((k >> 2) & 7) === STACK) {
      const single = k - 4;
      b[t] = single;
      pos.counts[(k >> 5) * 8 + OBELISK]++;
      lo ^= ZOBRIST_LO[single * SQUARES + t];
      hi ^= ZOBRIST_HI[single * SQUARES + t];
    } else {
      b[t] = 0;
      toggle(pos, k >> 5, t);
      if (((k >> 2) & 7) === PHARAOH) {
        pos.winner = (k >> 5) ^ 1;
        pos.pharaohSq[k >> 5] = -1;
      }
    }
    pos.pliesSinceRemoval = 0;
  } else {
    pos.pliesSinceRemoval++;
  }
  closePly(pos, lo, hi);
  return t;
}

/** The null move: recorded as move 0 with no shot; it resets the no-removal count. */
export function makeNullMove(pos: Position): void {
  openPly(pos, 0, -1);
  pos.pliesSinceRemoval = 0;
  closePly(pos, pos.keyLo, pos.keyHi);
}

/** Takes back the last ply's side, counts and key (all that a null move changed). */
function takeBackPly(pos: Position): number {
  pos.ply--;
  const u = pos.ply * U_SIZE;
  pos.side ^= 1;
  if (pos.side === 1) pos.moveNumber--;
  pos.pliesSinceRemoval = pos.undo[u + U_PLIES];
  pos.keyLo = pos.keysLo[pos.ply];
  pos.keyHi = pos.keysHi[pos.ply];
  return u;
}

/** Takes back a null move. */
export function unmakeNullMove(pos: Position): void {
  takeBackPly(pos);
}

/** Takes back the last move made. */
export function unmakeMove(pos: Position): void {
  const u = takeBackPly(pos);
  const m = pos.undo[u + U_MOVE];
  const b = pos.board;
  const us = pos.side;
  pos.winner = -1;
  const t = pos.undo[u + U_KSQ];
  if (t >= 0) {
    const k = pos.undo[u + U_KPIECE];
    if (b[t] === 0) toggle(pos, k >> 5, t);
    else pos.counts[(k >> 5) * 8 + OBELISK]--; // a stack had lost its top
    pos.counts[(k >> 5) * 8 + ((k >> 2) & 7)]++;
    b[t] = k;
    if (((k >> 2) & 7) === PHARAOH) pos.pharaohSq[k >> 5] = t;
  }
  const from = m & 127;
  const to = (m >>> 7) & 127;
  const type = m >>> 14;
  switch (type) {
    case STEP:
      b[from] = b[to];
      b[to] = 0;
      toggle(pos, us, from);
      toggle(pos, us, to);
      if (((b[from] >> 2) & 7) === PHARAOH) pos.pharaohSq[us] = from;
      else if (((b[from] >> 2) & 7) === SCARAB) moveScarab(pos, us, from, to);
      break;
    case SWAP: {
      const p = b[to];
      const q = b[from];
      b[from] = p;
      b[to] = q;
      if (q >> 5 !== us) swapColours(pos, us, q >> 5, from, to);
      moveScarab(pos, us, from, to);
      if (((q >> 2) & 7) === SPHINX) moveSphinx(pos, q >> 5, from, to);
      break;
    }
    case ROT_CW:
      b[from] = ROTATED[b[from] * 2 + 1];
      break;
    case ROT_CCW:
      b[from] = ROTATED[b[from] * 2];
      break;
    case STACK_ON:
      b[to] -= 4;
      b[from] = b[to];
      toggle(pos, us, from);
      pos.counts[us * 8 + OBELISK] += 2;
      pos.counts[us * 8 + STACK]--;
      break;
    case UNSTACK:
      if (((b[to] >> 2) & 7) === STACK) {
        b[to] -= 4;
      } else {
        b[to] = 0;
        toggle(pos, us, to);
        pos.counts[us * 8 + OBELISK] -= 2;
        pos.counts[us * 8 + STACK]++;
      }
      b[from] += 4;
      break;
  }
}
