/**
 * Bulk counting for Position (perft's last two plies): the number of legal moves of a colour
 * without generating them, and the opponent's number after a quiet move without making it.
 * Nothing here allocates.
 */
import { NEIGHBOURS } from './bitboard';
import { STEP, SWAP } from './move';
import { maySwap, obeliskTargets } from './movegen';
import { ANUBIS, OBELISK, PHARAOH, PYRAMID, SCARAB, STACK } from './pieces';
import type { Position } from './position';

/** Squares of file a and of file j, as 3-word masks. */
const NOT_A0 = ~0x40100401;
const NOT_A1 = ~0x10040100;
const NOT_A2 = ~0x40;
const NOT_J0 = ~0x20080200;
const NOT_J1 = ~0x08020080;
const NOT_J2 = ~0x8020;

/**
 * The number of (mover, free square) pairs one king step apart: the movers (p) shifted in each
 * of the 8 directions, on the free squares (f). Files a and j are masked before a sideways
 * shift so that no step wraps round the board's edge.
 */
function stepCount(p0: number, p1: number, p2: number, f0: number, f1: number, f2: number): number {
  // movers that may step east (not on file j) and west (not on file a)
  const e0 = p0 & NOT_J0;
  const e1 = p1 & NOT_J1;
  const e2 = p2 & NOT_J2;
  const w0 = p0 & NOT_A0;
  const w1 = p1 & NOT_A1;
  const w2 = p2 & NOT_A2;
  let acc = 0;
  // N (+10), NE (+11 from e), E (+1 from e), NW (+9 from w)
  acc += popcount3((p0 << 10) & f0, ((p1 << 10) | (p0 >>> 22)) & f1, ((p2 << 10) | (p1 >>> 22)) & f2);
  acc += popcount3((e0 << 11) & f0, ((e1 << 11) | (e0 >>> 21)) & f1, ((e2 << 11) | (e1 >>> 21)) & f2);
  acc += popcount3((e0 << 1) & f0, ((e1 << 1) | (e0 >>> 31)) & f1, ((e2 << 1) | (e1 >>> 31)) & f2);
  acc += popcount3((w0 << 9) & f0, ((w1 << 9) | (w0 >>> 23)) & f1, ((w2 << 9) | (w1 >>> 23)) & f2);
  // S (−10), SW (−11 from w), W (−1 from w), SE (−9 from e)
  acc += popcount3(((p0 >>> 10) | (p1 << 22)) & f0, ((p1 >>> 10) | (p2 << 22)) & f1, (p2 >>> 10) & f2);
  acc += popcount3(((w0 >>> 11) | (w1 << 21)) & f0, ((w1 >>> 11) | (w2 << 21)) & f1, (w2 >>> 11) & f2);
  acc += popcount3(((w0 >>> 1) | (w1 << 31)) & f0, ((w1 >>> 1) | (w2 << 31)) & f1, (w2 >>> 1) & f2);
  acc += popcount3(((e0 >>> 9) | (e1 << 23)) & f0, ((e1 >>> 9) | (e2 << 23)) & f1, (e2 >>> 9) & f2);
  return acc;
}

/** popcount(a) + popcount(b) + popcount(c), sharing the last steps of the bit count. */
function popcount3(a: number, b: number, c: number): number {
  a = a - ((a >>> 1) & 0x55555555);
  b = b - ((b >>> 1) & 0x55555555);
  c = c - ((c >>> 1) & 0x55555555);
  // 4-bit fields of at most 4 each: three of them add up to at most 12
  let x =
    (a & 0x33333333) +
    ((a >>> 2) & 0x33333333) +
    (b & 0x33333333) +
    ((b >>> 2) & 0x33333333) +
    (c & 0x33333333) +
    ((c >>> 2) & 0x33333333);
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f);
  return Math.imul(x, 0x01010101) >>> 24;
}

/** How many of the squares next to `sq` are in the bitboard (a0, a1, a2). */
function neighboursIn(sq: number, a0: number, a1: number, a2: number): number {
  const nb = sq * 3;
  return popcount3(NEIGHBOURS[nb] & a0, NEIGHBOURS[nb + 1] & a1, NEIGHBOURS[nb + 2] & a2);
}

/** The number of legal moves colour `us` would have on this board if it were to move. */
export function countMovesOf(pos: Position, us: number): number {
  const b = pos.board;
  const bb = pos.bb;
  const cb = us * 3;
  const res = pos.reserved;
  const f0 = ~(bb[6] | res[cb]);
  const f1 = ~(bb[7] | res[cb + 1]);
  const f2 = ~(bb[8] | res[cb + 2]) & 0xffff;
  // the Sphinx never steps
  const sm = pos.sphinxMask;
  const p0 = bb[cb] & ~sm[0];
  const p1 = bb[cb + 1] & ~sm[1];
  const p2 = bb[cb + 2] & ~sm[2];
  // every step of every piece at once: the movers shifted one square in each direction,
  // landing on free squares
  let n = stepCount(p0, p1, p2, f0, f1, f2);
  const c = pos.counts;
  const o = us * 8;
  n +=
    2 * (c[o + PYRAMID] + c[o + ANUBIS]) +
    c[o + SCARAB] * pos.scarabTurns +
    (pos.sphinx ? 1 : 0) +
    c[o + PHARAOH] * pos.pharaohTurns;
  // swaps: each Scarab's neighbours that it may swap with, as bitboards
  if (c[o + SCARAB] !== 0) {
    const sc = pos.scarabs;
    if (pos.swapsBulk) {
      // the pieces no Scarab swaps with: Scarabs, Pharaohs and Sphinxes
      let x0 = sc[0] | sc[3] | sm[0];
      let x1 = sc[1] | sc[4] | sm[1];
      let x2 = sc[2] | sc[5] | sm[2];
      for (let k = 0; k < 2; k++) {
        const q = pos.pharaohSq[k];
        if (q < 0) continue;
        if (q < 32) x0 |= 1 << q;
        else if (q < 64) x1 |= 1 << (q - 32);
        else x2 |= 1 << (q - 64);
      }
      // ... and the squares `us` may not enter
      const s0 = ~(x0 | res[cb]);
      const s1 = ~(x1 | res[cb + 1]);
      const s2 = ~(x2 | res[cb + 2]);
      for (let w = 0; w < 3; w++) {
        let x = sc[cb + w];
        while (x !== 0) {
          const low = x & -x;
          x ^= low;
          n += countSwapsBulk(pos, (w << 5) + 31 - Math.clz32(low), s0, s1, s2);
        }
      }
    } else {
      for (let w = 0; w < 3; w++) {
        let x = sc[cb + w];
        while (x !== 0) {
          const low = x & -x;
          x ^= low;
          n += countSwaps(pos, (w << 5) + 31 - Math.clz32(low), us);
        }
      }
    }
  }
  if (c[o + OBELISK] + c[o + STACK] === 0) return n;
  // stacking, and the top obelisk's own steps, piece by piece
  for (let w = 0; w < 3; w++) {
    let x = bb[cb + w];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const from = (w << 5) + 31 - Math.clz32(low);
      const kind = (b[from] >> 2) & 7;
      if (kind !== OBELISK && kind !== STACK) continue;
      n += popcount3(
        obeliskTargets(pos, from, us, 0),
        obeliskTargets(pos, from, us, 1),
        obeliskTargets(pos, from, us, 2),
      );
      if (kind === STACK) n += neighboursIn(from, f0, f1, f2);
    }
  }
  return n;
}

/**
 * The swaps of the Scarab on `from`: its neighbours in `s` (the pieces it may swap with, on
 * squares its side may enter: swapsBulk says which kinds), minus the pieces that may not stand
 * on `from`.
 */
function countSwapsBulk(pos: Position, from: number, s0: number, s1: number, s2: number): number {
  const bb = pos.bb;
  const res = pos.pushReserved;
  const fw = from >> 5;
  const fb = 1 << (from & 31);
  // a piece of a colour for which `from` is reserved cannot be pushed there
  const ok0 = (res[fw] & fb) === 0 ? -1 : 0;
  const ok1 = (res[3 + fw] & fb) === 0 ? -1 : 0;
  return neighboursIn(
    from,
    s0 & ((bb[0] & ok0) | (bb[3] & ok1)),
    s1 & ((bb[1] & ok0) | (bb[4] & ok1)),
    s2 & ((bb[2] & ok0) | (bb[5] & ok1)),
  );
}

/** The swaps of the Scarab of colour `us` on `from`, neighbour by neighbour (any edition). */
function countSwaps(pos: Position, from: number, us: number): number {
  const b = pos.board;
  let n = 0;
  for (let w = 0; w < 3; w++) {
    let x = NEIGHBOURS[from * 3 + w] & pos.bb[6 + w];
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      if (maySwap(pos, from, us, b[(w << 5) + 31 - Math.clz32(low)], w, low)) n++;
    }
  }
  return n;
}

/**
 * Whether repliesAfterQuiet may be used on this board: no Obelisks (single or stacked), and
 * the edition's swaps are the bulk ones (every piece but Sphinxes, Pharaohs and Scarabs).
 */
export function repliesByDelta(pos: Position): boolean {
  const c = pos.counts;
  return pos.swapsBulk && c[OBELISK] + c[STACK] + c[8 + OBELISK] + c[8 + STACK] === 0;
}

/**
 * The number of moves the opponent would have after the side to move plays `m`, without
 * making it, when the shot of `m` removes nothing and repliesByDelta holds. `replies` is
 * countMovesOf(opponent) on the board as it is now. Only the squares m touches change the
 * opponent's moves: a turn changes none of them, a step frees one square and fills another, a
 * swap moves a piece the opponent's Scarabs may swap with (and, when it is the opponent's, that
 * piece's own steps).
 */
export function repliesAfterQuiet(pos: Position, m: number, replies: number): number {
  const type = m >>> 14;
  if (type !== STEP && type !== SWAP) return replies;
  const from = m & 127;
  const to = (m >>> 7) & 127;
  const us = pos.side;
  const t3 = (us ^ 1) * 3;
  const bb = pos.bb;
  const res = pos.reserved;
  const push = pos.pushReserved;
  const sc = pos.scarabs;
  // may the opponent enter `from` / `to`?
  const inFrom = (res[t3 + (from >> 5)] & (1 << (from & 31))) === 0;
  const inTo = (res[t3 + (to >> 5)] & (1 << (to & 31))) === 0;
  let n = replies;
  if (type === STEP) {
    // the opponent's pieces next to `from` may now step there, those next to `to` no longer
    const sm = pos.sphinxMask;
    const o0 = bb[t3] & ~sm[0];
    const o1 = bb[t3 + 1] & ~sm[1];
    const o2 = bb[t3 + 2] & ~sm[2];
    if (inFrom) n += neighboursIn(from, o0, o1, o2);
    if (inTo) n -= neighboursIn(to, o0, o1, o2);
    if (pos.swapWith[(pos.board[from] >> 2) & 7] === 0) return n;
    // the opponent's Scarabs (on squares where our piece may stand) swap with it at `to`, not at `from`
    const u3 = us * 3;
    const s0 = sc[t3] & ~push[u3];
    const s1 = sc[t3 + 1] & ~push[u3 + 1];
    const s2 = sc[t3 + 2] & ~push[u3 + 2];
    if (inTo) n += neighboursIn(to, s0, s1, s2);
    if (inFrom) n -= neighboursIn(from, s0, s1, s2);
    return n;
  }
  // a swap: our Scarab goes to `to`, the piece q there comes to `from`
  const qc = pos.board[to] >> 5;
  const q3 = qc * 3;
  const s0 = sc[t3] & ~push[q3];
  const s1 = sc[t3 + 1] & ~push[q3 + 1];
  const s2 = sc[t3 + 2] & ~push[q3 + 2];
  if (inFrom) n += neighboursIn(from, s0, s1, s2);
  if (inTo) n -= neighboursIn(to, s0, s1, s2);
  if (q3 === t3) {
    // the opponent's piece now steps from `from`, not from `to` (the occupancy is the same)
    const f0 = ~(bb[6] | res[t3]);
    const f1 = ~(bb[7] | res[t3 + 1]);
    const f2 = ~(bb[8] | res[t3 + 2]);
    n += neighboursIn(from, f0, f1, f2) - neighboursIn(to, f0, f1, f2);
  }
  return n;
}
