/**
 * A Khet position with make/unmake, move generation and the incremental Zobrist key.
 * The hot path (generate, countMoves, make, unmake) allocates nothing.
 */
import { NEIGHBOURS, RAYS, popcount } from './bitboard';
import { EDITIONS, type Edition, type EditionId } from './editions';
import { BLOCK, KILL, REFLECT, fire, nextOccupied } from './laser';
import { ROT_CCW, ROT_CW, STACK_ON, STEP, SWAP, UNSTACK } from './move';
import {
  ANUBIS, OBELISK, PHARAOH, PIECE_CODES, PYRAMID, SCARAB, SPHINX, STACK, colorOf, kindOf, makePiece,
} from './pieces';
import { SQUARES } from './squares';
import { SIDE_HI, SIDE_LO, ZOBRIST_HI, ZOBRIST_LO } from './zobrist';

export interface RuleOptions {
  /** The literal reading of the rules: a Pharaoh may "rotate" (a move that changes nothing). */
  pharaohRotation: boolean;
}

export const DEFAULT_RULES: RuleOptions = { pharaohRotation: false };

/** ROTATED[code * 2 + 0] = the piece turned clockwise, [code * 2 + 1] counter-clockwise. */
export const ROTATED = new Uint8Array(PIECE_CODES * 2);
for (let code = 0; code < PIECE_CODES; code++) {
  const k = kindOf(code);
  const o = code & 3;
  let cw = code;
  let ccw = code;
  if (k === SCARAB) {
    cw = ccw = code ^ 1;
  } else if (k === SPHINX || k === PYRAMID || k === ANUBIS) {
    cw = (code & ~3) | ((o + 1) & 3);
    ccw = (code & ~3) | ((o + 3) & 3);
  }
  ROTATED[code * 2] = cw;
  ROTATED[code * 2 + 1] = ccw;
}

/** Pieces a beam can meet, with room: each piece at most twice (a Scarab's two mirrors). */
const MAX_SEGMENTS = 64;

// Undo record layout (Int32 words per ply).
const U_MOVE = 0;
const U_PLIES = 1;
const U_KSQ = 2;
const U_KPIECE = 3;
const U_SIZE = 4;

/** Pushes the moves from `from` to each square set in word `x` (word index w). */
function pushTargets(out: Int32Array, n: number, w: number, x: number, fromAndType: number): number {
  while (x !== 0) {
    const low = x & -x;
    x ^= low;
    out[n++] = fromAndType | (((w << 5) + 31 - Math.clz32(low)) << 7);
  }
  return n;
}

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
  acc += popcount3(p0 << 10 & f0, ((p1 << 10) | (p0 >>> 22)) & f1, ((p2 << 10) | (p1 >>> 22)) & f2);
  acc += popcount3(e0 << 11 & f0, ((e1 << 11) | (e0 >>> 21)) & f1, ((e2 << 11) | (e1 >>> 21)) & f2);
  acc += popcount3(e0 << 1 & f0, ((e1 << 1) | (e0 >>> 31)) & f1, ((e2 << 1) | (e1 >>> 31)) & f2);
  acc += popcount3(w0 << 9 & f0, ((w1 << 9) | (w0 >>> 23)) & f1, ((w2 << 9) | (w1 >>> 23)) & f2);
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
  let x = (a & 0x33333333) + ((a >>> 2) & 0x33333333) + (b & 0x33333333) + ((b >>> 2) & 0x33333333) +
    (c & 0x33333333) + ((c >>> 2) & 0x33333333);
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f);
  return Math.imul(x, 0x01010101) >>> 24;
}

/** How many of the squares next to `sq` are in the bitboard (a0, a1, a2). */
function neighboursIn(sq: number, a0: number, a1: number, a2: number): number {
  const nb = sq * 3;
  return popcount3(NEIGHBOURS[nb] & a0, NEIGHBOURS[nb + 1] & a1, NEIGHBOURS[nb + 2] & a2);
}

export class Position {
  readonly edition: Edition;
  readonly rules: RuleOptions;
  /** Piece code per square, 0 = empty. */
  readonly board = new Uint8Array(SQUARES);
  /** Bitboards: first player's pieces [0..2], second player's [3..5], all pieces [6..8]. */
  readonly bb = new Int32Array(9);
  /** Colour to move: 0 = first player, 1 = second. */
  side = 0;
  /** Plies since the last removal (the KFEN's third field). */
  pliesSinceRemoval = 0;
  /** Move number (the KFEN's fourth field): incremented after the second player moves. */
  moveNumber = 1;
  keyLo = 0;
  keyHi = 0;
  /** Colour that won by a Pharaoh hit on the last move, or -1. */
  winner = -1;
  /** Square of each colour's Pharaoh, or -1. */
  readonly pharaohSq = new Int32Array([-1, -1]);
  /** Each colour's Scarabs (Djeds): scarabs[colour * 3 .. + 2] (they are never removed). */
  readonly scarabs = new Int32Array(6);
  /** Number of pieces per colour and kind: counts[colour * 8 + kind]. */
  readonly counts = new Int32Array(16);
  /** Moves made since the position was set up; index into the history arrays. */
  ply = 0;
  private cap = 0;
  private undo = new Int32Array(0);
  /** Key of the position after each ply (index 0 = as set up). */
  keysLo = new Int32Array(0);
  keysHi = new Int32Array(0);

  private readonly laserSq: Int32Array;
  private readonly laserDir: Int32Array;
  private readonly sphinx: boolean;
  private readonly reserved: Int32Array;
  private readonly swapWith: Uint8Array;
  private readonly pharaohRotation: boolean;
  /** Every kind of the edition but Sphinx, Pharaoh and Scarab may be swapped with (countSwapsBulk). */
  private readonly swapsBulk: boolean;
  /** Both Sphinxes' squares (a Sphinx never moves), as three words; empty without Sphinxes. */
  private readonly sphinxMask = new Int32Array(3);

  constructor(edition: Edition | EditionId = 'khet2', rules: RuleOptions = DEFAULT_RULES) {
    this.edition = typeof edition === 'string' ? EDITIONS[edition] : edition;
    this.rules = { ...rules };
    const ed = this.edition;
    this.laserSq = Int32Array.from(ed.laserSquare);
    this.laserDir = Int32Array.from(ed.laserDir);
    this.sphinx = ed.sphinx;
    this.reserved = ed.reserved;
    this.swapWith = Uint8Array.from(ed.swapWith.map((b) => (b ? 1 : 0)));
    this.pharaohRotation = rules.pharaohRotation;
    this.swapsBulk = [PYRAMID, ANUBIS, OBELISK, STACK, SPHINX, PHARAOH, SCARAB].every(
      (k) => !ed.kinds[k] || ed.swapWith[k] === (k !== SPHINX && k !== PHARAOH && k !== SCARAB),
    );
    if (this.sphinx) {
      for (const sq of ed.laserSquare) this.sphinxMask[sq >> 5] |= 1 << (sq & 31);
    }
    this.grow(256);
  }

  private grow(cap: number): void {
    const undo = new Int32Array(cap * U_SIZE);
    undo.set(this.undo);
    const lo = new Int32Array(cap + 1);
    lo.set(this.keysLo);
    const hi = new Int32Array(cap + 1);
    hi.set(this.keysHi);
    this.undo = undo;
    this.keysLo = lo;
    this.keysHi = hi;
    this.cap = cap;
  }

  /** Replaces the whole position; clears the history. */
  setup(board: ArrayLike<number>, side: number, pliesSinceRemoval = 0, moveNumber = 1): void {
    this.board.set(board);
    this.side = side;
    this.pliesSinceRemoval = pliesSinceRemoval;
    this.moveNumber = moveNumber;
    this.winner = -1;
    this.ply = 0;
    this.bb.fill(0);
    this.pharaohSq.fill(-1);
    this.counts.fill(0);
    this.scarabs.fill(0);
    for (let sq = 0; sq < SQUARES; sq++) {
      const p = this.board[sq];
      if (p !== 0) {
        this.counts[(p >> 5) * 8 + kindOf(p)]++;
        if (kindOf(p) === SCARAB) this.scarabs[colorOf(p) * 3 + (sq >> 5)] |= 1 << (sq & 31);
        if (kindOf(p) === PHARAOH) this.pharaohSq[colorOf(p)] = sq;
        const bit = 1 << (sq & 31);
        this.bb[colorOf(p) * 3 + (sq >> 5)] |= bit;
        this.bb[6 + (sq >> 5)] |= bit;
      }
    }
    this.computeKey();
    this.keysLo[0] = this.keyLo;
    this.keysHi[0] = this.keyHi;
  }

  /** A copy with the same position and history. */
  clone(): Position {
    const p = new Position(this.edition, this.rules);
    p.copyFrom(this);
    return p;
  }

  copyFrom(o: Position): void {
    this.board.set(o.board);
    this.bb.set(o.bb);
    this.side = o.side;
    this.pliesSinceRemoval = o.pliesSinceRemoval;
    this.moveNumber = o.moveNumber;
    this.keyLo = o.keyLo;
    this.keyHi = o.keyHi;
    this.winner = o.winner;
    this.pharaohSq.set(o.pharaohSq);
    this.counts.set(o.counts);
    this.scarabs.set(o.scarabs);
    if (this.cap < o.cap) this.grow(o.cap);
    this.undo.set(o.undo.subarray(0, o.ply * U_SIZE));
    this.keysLo.set(o.keysLo.subarray(0, o.ply + 1));
    this.keysHi.set(o.keysHi.subarray(0, o.ply + 1));
    this.ply = o.ply;
  }

  /** Recomputes the key from scratch into keyLo/keyHi and returns [lo, hi]. */
  computeKey(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let sq = 0; sq < SQUARES; sq++) {
      const p = this.board[sq];
      if (p !== 0) {
        lo ^= ZOBRIST_LO[p * SQUARES + sq];
        hi ^= ZOBRIST_HI[p * SQUARES + sq];
      }
    }
    if (this.side === 1) {
      lo ^= SIDE_LO;
      hi ^= SIDE_HI;
    }
    this.keyLo = lo;
    this.keyHi = hi;
    return [lo, hi];
  }

  /** True when `color` may stand on `sq`. */
  allowed(color: number, sq: number): boolean {
    return (this.reserved[color * 3 + (sq >> 5)] & (1 << (sq & 31))) === 0;
  }

  /** Writes the legal moves at out[n..] and returns the new end. */
  generate(out: Int32Array, n: number): number {
    const b = this.board;
    const bb = this.bb;
    const us = this.side;
    const cb = us * 3;
    const res = this.reserved;
    const f0 = ~(bb[6] | res[cb]);
    const f1 = ~(bb[7] | res[cb + 1]);
    const f2 = ~(bb[8] | res[cb + 2]);
    for (let w = 0; w < 3; w++) {
      let x = bb[cb + w];
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        const from = (w << 5) + 31 - Math.clz32(low);
        const p = b[from];
        const kind = (p >> 2) & 7;
        const nb = from * 3;
        if (kind === SPHINX) {
          // N <-> W for the first player, S <-> E for the second: from N or S it turns
          // counter-clockwise, from E or W clockwise.
          out[n++] = from | (from << 7) | (((p & 1) === 1 ? ROT_CW : ROT_CCW) << 14);
          continue;
        }
        const stepType = from | (STEP << 14);
        n = pushTargets(out, n, 0, NEIGHBOURS[nb] & f0, stepType);
        n = pushTargets(out, n, 1, NEIGHBOURS[nb + 1] & f1, stepType);
        n = pushTargets(out, n, 2, NEIGHBOURS[nb + 2] & f2, stepType);
        switch (kind) {
          case PYRAMID:
          case ANUBIS:
            out[n++] = from | (from << 7) | (ROT_CW << 14);
            out[n++] = from | (from << 7) | (ROT_CCW << 14);
            break;
          case SCARAB:
            n = this.genSwaps(out, n, from, us, -1, -1, -1);
            out[n++] = from | (from << 7) | (ROT_CW << 14);
            break;
          case PHARAOH:
            if (this.pharaohRotation) out[n++] = from | (from << 7) | (ROT_CW << 14);
            break;
          case OBELISK:
            n = this.genOntoOwnSingles(out, n, from, us, STACK_ON, -1, -1, -1);
            break;
          case STACK: {
            const upType = from | (UNSTACK << 14);
            n = pushTargets(out, n, 0, NEIGHBOURS[nb] & f0, upType);
            n = pushTargets(out, n, 1, NEIGHBOURS[nb + 1] & f1, upType);
            n = pushTargets(out, n, 2, NEIGHBOURS[nb + 2] & f2, upType);
            n = this.genOntoOwnSingles(out, n, from, us, UNSTACK, -1, -1, -1);
            break;
          }
        }
      }
    }
    return n;
  }

  /**
   * Only the moves that touch the squares of `mask` (at mask[at..at+2]): every move of a piece
   * standing on the mask, and the moves of other pieces onto it. With a beam's mask
   * (beamMask) these are exactly the moves that can change that beam's shot.
   */
  generateTouching(out: Int32Array, n: number, mask: Int32Array, at: number): number {
    const b = this.board;
    const bb = this.bb;
    const us = this.side;
    const cb = us * 3;
    const res = this.reserved;
    const m0 = mask[at];
    const m1 = mask[at + 1];
    const m2 = mask[at + 2];
    const f0 = ~(bb[6] | res[cb]);
    const f1 = ~(bb[7] | res[cb + 1]);
    const f2 = ~(bb[8] | res[cb + 2]);
    for (let w = 0; w < 3; w++) {
      let x = bb[cb + w];
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        const from = (w << 5) + 31 - Math.clz32(low);
        const nb = from * 3;
        const onMask = (mask[at + w] & low) !== 0;
        let t0 = -1;
        let t1 = -1;
        let t2 = -1;
        if (!onMask) {
          t0 = NEIGHBOURS[nb] & m0;
          t1 = NEIGHBOURS[nb + 1] & m1;
          t2 = NEIGHBOURS[nb + 2] & m2;
          if ((t0 | t1 | t2) === 0) continue;
        }
        const p = b[from];
        const kind = (p >> 2) & 7;
        if (kind === SPHINX) {
          if (onMask) out[n++] = from | (from << 7) | (((p & 1) === 1 ? ROT_CW : ROT_CCW) << 14);
          continue;
        }
        const stepType = from | (STEP << 14);
        n = pushTargets(out, n, 0, NEIGHBOURS[nb] & f0 & t0, stepType);
        n = pushTargets(out, n, 1, NEIGHBOURS[nb + 1] & f1 & t1, stepType);
        n = pushTargets(out, n, 2, NEIGHBOURS[nb + 2] & f2 & t2, stepType);
        switch (kind) {
          case PYRAMID:
          case ANUBIS:
            if (onMask) {
              out[n++] = from | (from << 7) | (ROT_CW << 14);
              out[n++] = from | (from << 7) | (ROT_CCW << 14);
            }
            break;
          case SCARAB:
            n = this.genSwaps(out, n, from, us, t0, t1, t2);
            if (onMask) out[n++] = from | (from << 7) | (ROT_CW << 14);
            break;
          case PHARAOH:
            if (onMask && this.pharaohRotation) out[n++] = from | (from << 7) | (ROT_CW << 14);
            break;
          case OBELISK:
            n = this.genOntoOwnSingles(out, n, from, us, STACK_ON, t0, t1, t2);
            break;
          case STACK: {
            const upType = from | (UNSTACK << 14);
            n = pushTargets(out, n, 0, NEIGHBOURS[nb] & f0 & t0, upType);
            n = pushTargets(out, n, 1, NEIGHBOURS[nb + 1] & f1 & t1, upType);
            n = pushTargets(out, n, 2, NEIGHBOURS[nb + 2] & f2 & t2, upType);
            n = this.genOntoOwnSingles(out, n, from, us, UNSTACK, t0, t1, t2);
            break;
          }
        }
      }
    }
    return n;
  }

  private genSwaps(out: Int32Array, n: number, from: number, us: number, t0: number, t1: number, t2: number): number {
    const b = this.board;
    const bb = this.bb;
    for (let w = 0; w < 3; w++) {
      let x = NEIGHBOURS[from * 3 + w] & bb[6 + w] & (w === 0 ? t0 : w === 1 ? t1 : t2);
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        const to = (w << 5) + 31 - Math.clz32(low);
        const q = b[to];
        if (
          this.swapWith[(q >> 2) & 7] === 1 &&
          (this.reserved[us * 3 + w] & low) === 0 &&
          (this.reserved[(q >> 5) * 3 + (from >> 5)] & (1 << (from & 31))) === 0
        ) {
          out[n++] = from | (to << 7) | (SWAP << 14);
        }
      }
    }
    return n;
  }

  private genOntoOwnSingles(
    out: Int32Array, n: number, from: number, us: number, type: number, t0: number, t1: number, t2: number,
  ): number {
    const b = this.board;
    for (let w = 0; w < 3; w++) {
      let x = NEIGHBOURS[from * 3 + w] & this.bb[us * 3 + w] & (w === 0 ? t0 : w === 1 ? t1 : t2);
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        const to = (w << 5) + 31 - Math.clz32(low);
        if (((b[to] >> 2) & 7) === OBELISK) out[n++] = from | (to << 7) | (type << 14);
      }
    }
    return n;
  }

  /**
   * Whether `m` is one of the moves `generate` would give here, without generating them: the
   * search checks a move from the transposition table or a killer slot with it (a move of
   * another position, or a key collision, must never be made).
   */
  isLegal(m: number): boolean {
    const from = m & 127;
    const to = (m >>> 7) & 127;
    const type = m >>> 14;
    if (from >= SQUARES || to >= SQUARES || (m | 0) !== m || m < 0) return false;
    const b = this.board;
    const us = this.side;
    const p = b[from];
    if (p === 0 || p >> 5 !== us) return false;
    const kind = (p >> 2) & 7;
    if (type === ROT_CW || type === ROT_CCW) {
      if (to !== from) return false;
      switch (kind) {
        case PYRAMID:
        case ANUBIS:
          return true;
        case SPHINX: // from N or S it turns counter-clockwise, from E or W clockwise
          return (type === ROT_CW) === ((p & 1) === 1);
        case SCARAB:
          return type === ROT_CW;
        case PHARAOH:
          return type === ROT_CW && this.pharaohRotation;
        default:
          return false;
      }
    }
    if ((NEIGHBOURS[from * 3 + (to >> 5)] & (1 << (to & 31))) === 0 || kind === SPHINX) return false;
    const q = b[to];
    switch (type) {
      case STEP:
        return q === 0 && this.allowed(us, to);
      case SWAP:
        return kind === SCARAB && q !== 0 && this.swapWith[(q >> 2) & 7] === 1 && this.allowed(us, to) &&
          this.allowed(q >> 5, from);
      case STACK_ON:
        return kind === OBELISK && q !== 0 && q >> 5 === us && ((q >> 2) & 7) === OBELISK;
      case UNSTACK:
        return kind === STACK && (q === 0 ? this.allowed(us, to) : q >> 5 === us && ((q >> 2) & 7) === OBELISK);
      default:
        return false;
    }
  }

  /** The number of legal moves, without generating them (perft's bulk count). */
  countMoves(): number {
    return this.countMovesOf(this.side);
  }

  /** The number of legal moves colour `us` would have on this board if it were to move. */
  countMovesOf(us: number): number {
    const b = this.board;
    const bb = this.bb;
    const cb = us * 3;
    const res = this.reserved;
    const f0 = ~(bb[6] | res[cb]);
    const f1 = ~(bb[7] | res[cb + 1]);
    const f2 = ~(bb[8] | res[cb + 2]) & 0xffff;
    // the Sphinx never steps
    const sm = this.sphinxMask;
    const p0 = bb[cb] & ~sm[0];
    const p1 = bb[cb + 1] & ~sm[1];
    const p2 = bb[cb + 2] & ~sm[2];
    // every step of every piece at once: the movers shifted one square in each direction,
    // landing on free squares
    let n = stepCount(p0, p1, p2, f0, f1, f2);
    const c = this.counts;
    const o = us * 8;
    n += 2 * (c[o + PYRAMID] + c[o + ANUBIS]) + c[o + SCARAB] + (this.sphinx ? 1 : 0) +
      (this.pharaohRotation ? c[o + PHARAOH] : 0);
    // swaps: each Scarab's neighbours that it may swap with, as bitboards
    if (c[o + SCARAB] !== 0) {
      const sc = this.scarabs;
      if (this.swapsBulk) {
        // the pieces no Scarab swaps with: Scarabs, Pharaohs and Sphinxes
        let x0 = sc[0] | sc[3] | sm[0];
        let x1 = sc[1] | sc[4] | sm[1];
        let x2 = sc[2] | sc[5] | sm[2];
        for (let k = 0; k < 2; k++) {
          const q = this.pharaohSq[k];
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
            n += this.countSwapsBulk((w << 5) + 31 - Math.clz32(low), s0, s1, s2);
          }
        }
      } else {
        for (let w = 0; w < 3; w++) {
          let x = sc[cb + w];
          while (x !== 0) {
            const low = x & -x;
            x ^= low;
            n += this.countSwaps((w << 5) + 31 - Math.clz32(low), us);
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
        if (kind === OBELISK) {
          n += this.countOwnSingles(from, us);
        } else if (kind === STACK) {
          const nb = from * 3;
          n += popcount(NEIGHBOURS[nb] & f0) + popcount(NEIGHBOURS[nb + 1] & f1) + popcount(NEIGHBOURS[nb + 2] & f2) +
            this.countOwnSingles(from, us);
        }
      }
    }
    return n;
  }

  /**
   * The swaps of the Scarab on `from`: its neighbours in `s` (the pieces it may swap with, on
   * squares its side may enter: swapsBulk says which kinds), minus the pieces that may not stand
   * on `from`.
   */
  private countSwapsBulk(from: number, s0: number, s1: number, s2: number): number {
    const bb = this.bb;
    const res = this.reserved;
    const fw = from >> 5;
    const fb = 1 << (from & 31);
    // a piece of a colour for which `from` is reserved cannot be pushed there
    const ok0 = (res[fw] & fb) === 0 ? -1 : 0;
    const ok1 = (res[3 + fw] & fb) === 0 ? -1 : 0;
    return neighboursIn(
      from, s0 & ((bb[0] & ok0) | (bb[3] & ok1)), s1 & ((bb[1] & ok0) | (bb[4] & ok1)), s2 & ((bb[2] & ok0) | (bb[5] & ok1)),
    );
  }

  /**
   * Whether repliesAfterQuiet may be used on this board: no Obelisks (single or stacked), and
   * the edition's swaps are the bulk ones (every piece but Sphinxes, Pharaohs and Scarabs).
   */
  repliesByDelta(): boolean {
    const c = this.counts;
    return this.swapsBulk && c[OBELISK] + c[STACK] + c[8 + OBELISK] + c[8 + STACK] === 0;
  }

  /**
   * The number of moves the opponent would have after the side to move plays `m`, without
   * making it, when the shot of `m` removes nothing (shotAfter(m) < 0) and repliesByDelta()
   * holds. `replies` is countMovesOf(opponent) on the board as it is now. Only the squares m
   * touches change the opponent's moves: a turn changes none of them, a step frees one square
   * and fills another, a swap moves a piece the opponent's Scarabs may swap with (and, when it
   * is the opponent's, that piece's own steps).
   */
  repliesAfterQuiet(m: number, replies: number): number {
    const type = m >>> 14;
    if (type !== STEP && type !== SWAP) return replies;
    const from = m & 127;
    const to = (m >>> 7) & 127;
    const us = this.side;
    const t3 = (us ^ 1) * 3;
    const bb = this.bb;
    const res = this.reserved;
    const sc = this.scarabs;
    // may the opponent enter `from` / `to`?
    const inFrom = (res[t3 + (from >> 5)] & (1 << (from & 31))) === 0;
    const inTo = (res[t3 + (to >> 5)] & (1 << (to & 31))) === 0;
    let n = replies;
    if (type === STEP) {
      // the opponent's pieces next to `from` may now step there, those next to `to` no longer
      const sm = this.sphinxMask;
      const o0 = bb[t3] & ~sm[0];
      const o1 = bb[t3 + 1] & ~sm[1];
      const o2 = bb[t3 + 2] & ~sm[2];
      if (inFrom) n += neighboursIn(from, o0, o1, o2);
      if (inTo) n -= neighboursIn(to, o0, o1, o2);
      if (this.swapWith[(this.board[from] >> 2) & 7] === 0) return n;
      // the opponent's Scarabs (on squares where our piece may stand) swap with it at `to`, not at `from`
      const u3 = us * 3;
      const s0 = sc[t3] & ~res[u3];
      const s1 = sc[t3 + 1] & ~res[u3 + 1];
      const s2 = sc[t3 + 2] & ~res[u3 + 2];
      if (inTo) n += neighboursIn(to, s0, s1, s2);
      if (inFrom) n -= neighboursIn(from, s0, s1, s2);
      return n;
    }
    // a swap: our Scarab goes to `to`, the piece q there comes to `from`
    const qc = this.board[to] >> 5;
    const q3 = qc * 3;
    const s0 = sc[t3] & ~res[q3];
    const s1 = sc[t3 + 1] & ~res[q3 + 1];
    const s2 = sc[t3 + 2] & ~res[q3 + 2];
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

  private countSwaps(from: number, us: number): number {
    const b = this.board;
    let n = 0;
    for (let w = 0; w < 3; w++) {
      let x = NEIGHBOURS[from * 3 + w] & this.bb[6 + w];
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        const q = b[(w << 5) + 31 - Math.clz32(low)];
        if (
          this.swapWith[(q >> 2) & 7] === 1 &&
          (this.reserved[us * 3 + w] & low) === 0 &&
          (this.reserved[(q >> 5) * 3 + (from >> 5)] & (1 << (from & 31))) === 0
        ) {
          n++;
        }
      }
    }
    return n;
  }

  private countOwnSingles(from: number, us: number): number {
    const b = this.board;
    let n = 0;
    for (let w = 0; w < 3; w++) {
      let x = NEIGHBOURS[from * 3 + w] & this.bb[us * 3 + w];
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        if (((b[(w << 5) + 31 - Math.clz32(low)] >> 2) & 7) === OBELISK) n++;
      }
    }
    return n;
  }

  /** Toggles `sq` in the bitboards of colour `c` and of all pieces. */
  private toggle(c: number, sq: number): void {
    const bit = 1 << (sq & 31);
    const w = sq >> 5;
    this.bb[c * 3 + w] ^= bit;
    this.bb[6 + w] ^= bit;
  }

  /** A Scarab of colour `c` moved between `a` and `b` (either way). */
  private moveScarab(c: number, a: number, b: number): void {
    this.scarabs[c * 3 + (a >> 5)] ^= 1 << (a & 31);
    this.scarabs[c * 3 + (b >> 5)] ^= 1 << (b & 31);
  }

  /** A swap between colours: each colour's bitboard loses one square and gains the other. */
  private swapColours(a: number, b: number, from: number, to: number): void {
    const fw = from >> 5;
    const tw = to >> 5;
    const fb = 1 << (from & 31);
    const tb = 1 << (to & 31);
    this.bb[a * 3 + fw] ^= fb;
    this.bb[a * 3 + tw] ^= tb;
    this.bb[b * 3 + fw] ^= fb;
    this.bb[b * 3 + tw] ^= tb;
  }

  /** The square the mover's laser would kill now, or -1 (fires for `color`). */
  laserTarget(color: number): number {
    const sq = this.laserSq[color];
    return this.sphinx
      ? fire(this.board, this.bb, 6, sq, this.board[sq] & 3, false)
      : fire(this.board, this.bb, 6, sq, this.laserDir[color], true);
  }

  /**
   * Traces `color`'s beam as it would fire now and writes the squares it passes (its start and
   * the square where it stops included) into mask[at..at+2]. Returns the square of the piece it
   * would kill, or -1. A move whose from/to squares are all outside the mask leaves the shot
   * exactly as it is now.
   */
  beamMask(color: number, mask: Int32Array, at: number): number {
    const b = this.board;
    const sq = this.laserSq[color];
    const dir = this.sphinx ? b[sq] & 3 : this.laserDir[color];
    mask[at] = sq < 32 ? 1 << sq : 0;
    mask[at + 1] = sq >= 32 && sq < 64 ? 1 << (sq - 32) : 0;
    mask[at + 2] = sq >= 64 ? 1 << (sq - 64) : 0;
    const t = !this.sphinx && b[sq] !== 0 ? sq : nextOccupied(this.bb, 6, sq, dir);
    return this.traceOn(sq, dir, t, mask, at);
  }

  /**
   * Follows a beam that leaves `sq` in direction `dir` and meets `t` first (`sq` itself for a
   * laser in the board's edge that strikes a piece on its square; -1: none): ORs the squares it
   * crosses, each piece it meets included, into mask[at..at+2] and returns the square of the
   * piece it kills, or -1. A beam fired from a laser always ends; one that starts inside the
   * board may circle for ever: after MAX_SEGMENTS pieces the whole board goes into the mask.
   */
  private traceOn(sq: number, dir: number, t: number, mask: Int32Array, at: number): number {
    const b = this.board;
    const occ = this.bb;
    let m0 = mask[at];
    let m1 = mask[at + 1];
    let m2 = mask[at + 2];
    let result = -1;
    for (let n = 0; ; n++) {
      const r = (dir * SQUARES + sq) * 3;
      if (t < 0) {
        m0 |= RAYS[r];
        m1 |= RAYS[r + 1];
        m2 |= RAYS[r + 2];
        break;
      }
      if (t !== sq) {
        // the segment from sq (excluded) to t (included)
        const rt = (dir * SQUARES + t) * 3;
        m0 |= RAYS[r] & ~RAYS[rt];
        m1 |= RAYS[r + 1] & ~RAYS[rt + 1];
        m2 |= RAYS[r + 2] & ~RAYS[rt + 2];
      }
      if (n === MAX_SEGMENTS) {
        // every square of the board: 32 + 32 + 16
        m0 = m1 = -1;
        m2 = 0xffff;
        break;
      }
      const out = REFLECT[(b[t] << 2) | dir];
      if (out >= 4) {
        if (out === 4) result = t;
        break;
      }
      sq = t;
      dir = out;
      t = nextOccupied(occ, 6, sq, dir);
    }
    mask[at] = m0;
    mask[at + 1] = m1;
    mask[at + 2] = m2;
    return result;
  }

  /** The piece the last `shotAfter` or `shotAfterPrepared` would kill (0 when it kills nothing). */
  probePiece = 0;

  // The beam of the side to move as `prepareShots` walked it, in segments: segment k runs from
  // segSq[k] (excluded, except the laser's own square in segment 0) in direction segDir[k] to the
  // next piece it meets (included), or to the board's edge.
  private readonly segMask = new Int32Array(3 * MAX_SEGMENTS);
  private readonly segSq = new Int32Array(MAX_SEGMENTS);
  private readonly segDir = new Int32Array(MAX_SEGMENTS);
  private segCount = 0;
  private preparedKill = -1;
  // Beams that run on from a square in a direction (index sq * 4 + dir), traced on the prepared
  // board and kept until the next prepareShots (stamp): the square each kills (or -1) and the
  // squares it crosses, its last included. Many moves share one: every step of a piece off the beam.
  private readonly runStamp = new Int32Array(SQUARES * 4);
  private readonly runKill = new Int32Array(SQUARES * 4);
  private readonly runMask = new Int32Array(SQUARES * 4 * 3);
  private stamp = 0;

  /**
   * What the mover's shot would do after move `m`, without making it: returns the square the
   * beam would kill (or -1) and sets `probePiece`. Only the board and the occupancy change, and
   * both are restored: much cheaper than make + unmake, for move ordering and quiescence.
   */
  shotAfter(m: number): number {
    return this.probeShot(m, -1, 0);
  }

  /**
   * Walks the beam of the side to move into segments, so that `shotAfterPrepared` can trace only
   * from where a move first touches it. Valid until the board changes.
   */
  prepareShots(): void {
    if (++this.stamp === 0x7fffffff) {
      this.runStamp.fill(0);
      this.stamp = 1;
    }
    const b = this.board;
    const occ = this.bb;
    const color = this.side;
    let sq = this.laserSq[color];
    let dir = this.sphinx ? b[sq] & 3 : this.laserDir[color];
    let k = 0;
    let m0 = sq < 32 ? 1 << sq : 0;
    let m1 = sq >= 32 && sq < 64 ? 1 << (sq - 32) : 0;
    let m2 = sq >= 64 ? 1 << (sq - 64) : 0;
    let t = !this.sphinx && b[sq] !== 0 ? sq : nextOccupied(occ, 6, sq, dir);
    let kill = -1;
    for (;;) {
      this.segSq[k] = sq;
      this.segDir[k] = dir;
      const r = (dir * SQUARES + sq) * 3;
      if (t < 0) {
        m0 |= RAYS[r];
        m1 |= RAYS[r + 1];
        m2 |= RAYS[r + 2];
      } else if (t !== sq) {
        const rt = (dir * SQUARES + t) * 3;
        m0 |= RAYS[r] & ~RAYS[rt];
        m1 |= RAYS[r + 1] & ~RAYS[rt + 1];
        m2 |= RAYS[r + 2] & ~RAYS[rt + 2];
      }
      this.segMask[k * 3] = m0;
      this.segMask[k * 3 + 1] = m1;
      this.segMask[k * 3 + 2] = m2;
      k++;
      if (t < 0) break;
      const out = REFLECT[(b[t] << 2) | dir];
      if (out >= 4) {
        if (out === 4) kill = t;
        break;
      }
      sq = t;
      dir = out;
      t = nextOccupied(occ, 6, sq, dir);
      m0 = 0;
      m1 = 0;
      m2 = 0;
    }
    this.segCount = k;
    this.preparedKill = kill;
  }

  /**
   * `shotAfter(m)` for the side to move, after `prepareShots` on this board. The beam runs as
   * prepared up to the first segment the move touches; a piece stepped or turned where the beam
   * meets it is looked up in the reflection table, and only a beam that goes on is traced (on the
   * board as the move leaves it).
   */
  shotAfterPrepared(m: number): number {
    const from = m & 127;
    const to = (m >>> 7) & 127;
    const fw = from >> 5;
    const fb = 1 << (from & 31);
    const tw = to >> 5;
    const tb = 1 << (to & 31);
    const sm = this.segMask;
    const n = this.segCount;
    for (let k = 0; k < n; k++) {
      const onFrom = (sm[k * 3 + fw] & fb) !== 0;
      const onTo = (sm[k * 3 + tw] & tb) !== 0;
      if (!onFrom && !onTo) continue;
      const type = m >>> 14;
      const dir = this.segDir[k];
      const b = this.board;
      if (onTo && (type === STEP || type === ROT_CW || type === ROT_CCW) && (k > 0 || !this.sphinx || from !== this.segSq[0])) {
        // the beam meets the moved piece on `to` (a step onto an empty square of the segment, or
        // a turn of the piece that ends it; not the Sphinx's own turn, which aims the beam anew)
        const p = type === STEP ? b[from] : ROTATED[b[from] * 2 + type - ROT_CW];
        const r = REFLECT[(p << 2) | dir];
        if (r === KILL) {
          this.probePiece = p;
          return to;
        }
        if (r === BLOCK) {
          this.probePiece = 0;
          return -1;
        }
        return this.probeShot(m, to, r);
      }
      if (onFrom && !onTo && type === STEP) {
        // the piece that ended the segment steps off it: the beam runs on past `from`
        return this.runOn(m, from, to, from, dir);
      }
      return this.probeShot(m, k === 0 ? -1 : this.segSq[k], dir);
    }
    const t = this.preparedKill;
    this.probePiece = t >= 0 ? this.board[t] : 0;
    return t;
  }

  /**
   * The shot after move `m` (from, to) whose beam runs on from `sq` in direction `dir`: the run
   * traced on the prepared board serves when it crosses neither `from` nor `to` (the only squares
   * the move changed); otherwise the board is changed and the beam traced.
   */
  private runOn(m: number, from: number, to: number, sq: number, dir: number): number {
    const key = sq * 4 + dir;
    if (this.runStamp[key] !== this.stamp) this.traceRun(sq, dir, key);
    const rm = this.runMask;
    if ((rm[key * 3 + (from >> 5)] & (1 << (from & 31))) !== 0 || (rm[key * 3 + (to >> 5)] & (1 << (to & 31))) !== 0) {
      return this.probeShot(m, sq, dir);
    }
    const t = this.runKill[key];
    this.probePiece = t >= 0 ? this.board[t] : 0;
    return t;
  }

  /**
   * Traces the beam from `sq` (excluded) in direction `dir` on this board into run `key` (a beam
   * that circles ends with every square in its mask: runOn never uses such a run).
   */
  private traceRun(sq: number, dir: number, key: number): void {
    const rm = this.runMask;
    rm[key * 3] = 0;
    rm[key * 3 + 1] = 0;
    rm[key * 3 + 2] = 0;
    this.runKill[key] = this.traceOn(sq, dir, nextOccupied(this.bb, 6, sq, dir), rm, key * 3);
    this.runStamp[key] = this.stamp;
  }

  /**
   * The shot after `m`, with the board as the move leaves it, traced from `sq` (excluded) in
   * direction `dir`, or fired by the mover's laser when `sq` is −1 (a Sphinx that the move turns
   * fires the new way).
   */
  private probeShot(m: number, sq: number, dir: number): number {
    const b = this.board;
    const bb = this.bb;
    const from = m & 127;
    const to = (m >>> 7) & 127;
    const type = m >>> 14;
    const pf = b[from];
    const pt = b[to];
    const fromBit = 1 << (from & 31);
    const toBit = 1 << (to & 31);
    const fw = 6 + (from >> 5);
    const tw = 6 + (to >> 5);
    switch (type) {
      case STEP:
        b[from] = 0;
        b[to] = pf;
        bb[fw] ^= fromBit;
        bb[tw] ^= toBit;
        break;
      case SWAP:
        b[from] = pt;
        b[to] = pf;
        break;
      case ROT_CW:
      case ROT_CCW:
        b[from] = ROTATED[pf * 2 + type - ROT_CW];
        break;
      case STACK_ON:
        b[from] = 0;
        b[to] = pf + 4;
        bb[fw] ^= fromBit;
        break;
      case UNSTACK:
        b[from] = pf - 4;
        if (pt === 0) {
          b[to] = pf - 4;
          bb[tw] ^= toBit;
        } else {
          b[to] = pt + 4;
        }
        break;
    }
    const t = sq < 0 ? this.laserTarget(this.side) : fire(b, bb, 6, sq, dir, false);
    this.probePiece = t >= 0 ? b[t] : 0;
    // restore
    b[from] = pf;
    b[to] = pt;
    if (type === STEP) {
      bb[fw] ^= fromBit;
      bb[tw] ^= toBit;
    } else if (type === STACK_ON) {
      bb[fw] ^= fromBit;
    } else if (type === UNSTACK && pt === 0) {
      bb[tw] ^= toBit;
    }
    return t;
  }

  /**
   * Makes a legal move: moves the piece, fires the mover's laser, removes what it kills and
   * records a Pharaoh hit in `winner`. Returns the killed piece's square or -1.
   */
  make(m: number): number {
    this.movePieces(m);
    return this.record(m, this.laserTarget(this.side));
  }

  /**
   * `make`, with the mover's shot traced by `beamMask` into mask[at..at+2]: the squares the beam
   * crossed on the board after the move, before the piece it killed was taken off. The search
   * keeps the mask as the beam of the side that moved (see src/search/beams.ts).
   */
  makeTraced(m: number, mask: Int32Array, at: number): number {
    this.movePieces(m);
    return this.record(m, this.beamMask(this.side, mask, at));
  }

  /**
   * `make` for a move that leaves the mover's beam alone (it moves no piece on or onto the beam
   * as it runs now, e.g. outside beamMask's mask): the shot is the one the beam makes now,
   * `shot` (the square it kills, or -1), and is not traced again.
   */
  makeUntouched(m: number, shot: number): number {
    this.movePieces(m);
    return this.record(m, shot);
  }

  /** The first half of a move: the pieces move, the key follows; the laser has not fired. */
  private movePieces(m: number): void {
    if (this.ply >= this.cap) this.grow(this.cap * 2);
    const b = this.board;
    const from = m & 127;
    const to = (m >>> 7) & 127;
    const type = m >>> 14;
    const us = this.side;
    let lo = this.keyLo;
    let hi = this.keyHi;
    switch (type) {
      case STEP: {
        const p = b[from];
        b[from] = 0;
        b[to] = p;
        lo ^= ZOBRIST_LO[p * SQUARES + from] ^ ZOBRIST_LO[p * SQUARES + to];
        hi ^= ZOBRIST_HI[p * SQUARES + from] ^ ZOBRIST_HI[p * SQUARES + to];
        this.toggle(us, from);
        this.toggle(us, to);
        if (((p >> 2) & 7) === PHARAOH) this.pharaohSq[us] = to;
        else if (((p >> 2) & 7) === SCARAB) this.moveScarab(us, from, to);
        break;
      }
      case SWAP: {
        const p = b[from];
        const q = b[to];
        b[from] = q;
        b[to] = p;
        lo ^= ZOBRIST_LO[p * SQUARES + from] ^ ZOBRIST_LO[p * SQUARES + to] ^ ZOBRIST_LO[q * SQUARES + to] ^ ZOBRIST_LO[q * SQUARES + from];
        hi ^= ZOBRIST_HI[p * SQUARES + from] ^ ZOBRIST_HI[p * SQUARES + to] ^ ZOBRIST_HI[q * SQUARES + to] ^ ZOBRIST_HI[q * SQUARES + from];
        if (q >> 5 !== us) this.swapColours(us, q >> 5, from, to);
        this.moveScarab(us, from, to);
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
        this.counts[us * 8 + OBELISK] -= 2;
        this.counts[us * 8 + STACK]++;
        lo ^= ZOBRIST_LO[single * SQUARES + from] ^ ZOBRIST_LO[single * SQUARES + to] ^ ZOBRIST_LO[stack * SQUARES + to];
        hi ^= ZOBRIST_HI[single * SQUARES + from] ^ ZOBRIST_HI[single * SQUARES + to] ^ ZOBRIST_HI[stack * SQUARES + to];
        this.toggle(us, from);
        break;
      }
      case UNSTACK: {
        const stack = b[from];
        const single = stack - 4;
        b[from] = single;
        lo ^= ZOBRIST_LO[stack * SQUARES + from] ^ ZOBRIST_LO[single * SQUARES + from] ^ ZOBRIST_LO[single * SQUARES + to];
        hi ^= ZOBRIST_HI[stack * SQUARES + from] ^ ZOBRIST_HI[single * SQUARES + from] ^ ZOBRIST_HI[single * SQUARES + to];
        if (b[to] === 0) {
          b[to] = single;
          this.toggle(us, to);
          this.counts[us * 8 + OBELISK] += 2;
          this.counts[us * 8 + STACK]--;
        } else {
          b[to] = stack;
          lo ^= ZOBRIST_LO[stack * SQUARES + to];
          hi ^= ZOBRIST_HI[stack * SQUARES + to];
        }
        break;
      }
    }
    this.keyLo = lo;
    this.keyHi = hi;
  }

  /** The second half of a move: `t` is the square the mover's shot kills (or -1). */
  private record(m: number, t: number): number {
    const b = this.board;
    const us = this.side;
    let lo = this.keyLo;
    let hi = this.keyHi;
    const u = this.ply * U_SIZE;
    this.undo[u + U_MOVE] = m;
    this.undo[u + U_PLIES] = this.pliesSinceRemoval;
    this.undo[u + U_KSQ] = t;
    if (t >= 0) {
      const k = b[t];
      this.undo[u + U_KPIECE] = k;
      this.counts[(k >> 5) * 8 + ((k >> 2) & 7)]--;
      lo ^= ZOBRIST_LO[k * SQUARES + t];
      hi ^= ZOBRIST_HI[k * SQUARES + t];
      if (((k >> 2) & 7) === STACK) {
        const single = k - 4;
        b[t] = single;
        this.counts[(k >> 5) * 8 + OBELISK]++;
        lo ^= ZOBRIST_LO[single * SQUARES + t];
        hi ^= ZOBRIST_HI[single * SQUARES + t];
      } else {
        b[t] = 0;
        this.toggle(k >> 5, t);
        if (((k >> 2) & 7) === PHARAOH) {
          this.winner = (k >> 5) ^ 1;
          this.pharaohSq[k >> 5] = -1;
        }
      }
      this.pliesSinceRemoval = 0;
    } else {
      this.pliesSinceRemoval++;
    }
    if (us === 1) this.moveNumber++;
    this.side = us ^ 1;
    lo ^= SIDE_LO;
    hi ^= SIDE_HI;
    this.keyLo = lo;
    this.keyHi = hi;
    this.ply++;
    this.keysLo[this.ply] = lo;
    this.keysHi[this.ply] = hi;
    return t;
  }


  /**
   * A null move for the search: the side to move passes and its laser does not fire. Not a
   * legal Khet move. It is recorded as move 0 and resets the no-removal count, so that
   * repetitions are never counted across it. Undo it with unmakeNull.
   */
  makeNull(): void {
    if (this.ply >= this.cap) this.grow(this.cap * 2);
    const u = this.ply * U_SIZE;
    this.undo[u + U_MOVE] = 0;
    this.undo[u + U_PLIES] = this.pliesSinceRemoval;
    this.undo[u + U_KSQ] = -1;
    this.pliesSinceRemoval = 0;
    if (this.side === 1) this.moveNumber++;
    this.side ^= 1;
    this.keyLo ^= SIDE_LO;
    this.keyHi ^= SIDE_HI;
    this.ply++;
    this.keysLo[this.ply] = this.keyLo;
    this.keysHi[this.ply] = this.keyHi;
  }

  /** Takes back a null move. */
  unmakeNull(): void {
    this.ply--;
    const u = this.ply * U_SIZE;
    this.side ^= 1;
    if (this.side === 1) this.moveNumber--;
    this.pliesSinceRemoval = this.undo[u + U_PLIES];
    this.keyLo = this.keysLo[this.ply];
    this.keyHi = this.keysHi[this.ply];
  }
  /** Takes back the last move made. */
  unmake(): void {
    this.ply--;
    const u = this.ply * U_SIZE;
    const m = this.undo[u + U_MOVE];
    const b = this.board;
    const us = this.side ^ 1;
    this.side = us;
    if (us === 1) this.moveNumber--;
    this.pliesSinceRemoval = this.undo[u + U_PLIES];
    this.keyLo = this.keysLo[this.ply];
    this.keyHi = this.keysHi[this.ply];
    this.winner = -1;
    const t = this.undo[u + U_KSQ];
    if (t >= 0) {
      const k = this.undo[u + U_KPIECE];
      if (b[t] === 0) this.toggle(k >> 5, t);
      else this.counts[(k >> 5) * 8 + OBELISK]--; // a stack had lost its top
      this.counts[(k >> 5) * 8 + ((k >> 2) & 7)]++;
      b[t] = k;
      if (((k >> 2) & 7) === PHARAOH) this.pharaohSq[k >> 5] = t;
    }
    const from = m & 127;
    const to = (m >>> 7) & 127;
    const type = m >>> 14;
    switch (type) {
      case STEP:
        b[from] = b[to];
        b[to] = 0;
        this.toggle(us, from);
        this.toggle(us, to);
        if (((b[from] >> 2) & 7) === PHARAOH) this.pharaohSq[us] = from;
        else if (((b[from] >> 2) & 7) === SCARAB) this.moveScarab(us, from, to);
        break;
      case SWAP: {
        const p = b[to];
        const q = b[from];
        b[from] = p;
        b[to] = q;
        if (q >> 5 !== us) this.swapColours(us, q >> 5, from, to);
        this.moveScarab(us, from, to);
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
        this.toggle(us, from);
        this.counts[us * 8 + OBELISK] += 2;
        this.counts[us * 8 + STACK]--;
        break;
      case UNSTACK:
        if (((b[to] >> 2) & 7) === STACK) {
          b[to] -= 4;
        } else {
          b[to] = 0;
          this.toggle(us, to);
          this.counts[us * 8 + OBELISK] -= 2;
          this.counts[us * 8 + STACK]++;
        }
        b[from] += 4;
        break;
    }
  }

  /** The move made at ply index `plyIndex`: 0 is the first move since the position was set up, `ply - 1` the last. */
  moveAt(plyIndex: number): number {
    return this.undo[plyIndex * U_SIZE + U_MOVE];
  }

  /** Square the laser killed on the move at `plyIndex`, or -1. */
  killedAt(plyIndex: number): number {
    return this.undo[plyIndex * U_SIZE + U_KSQ];
  }

  /** Piece the laser killed on the move at `plyIndex` (meaningful when killedAt >= 0). */
  killedPieceAt(plyIndex: number): number {
    return this.undo[plyIndex * U_SIZE + U_KPIECE];
  }

  /**
   * How many times the current position (board and side to move) occurred before, looking back
   * to the last removal (positions before a removal cannot recur) and the start of the history.
   */
  repetitions(): number {
    let count = 0;
    const lo = this.keyLo;
    const hi = this.keyHi;
    const stop = Math.max(0, this.ply - this.pliesSinceRemoval);
    for (let i = this.ply - 2; i >= stop; i -= 2) {
      if (this.keysLo[i] === lo && this.keysHi[i] === hi) count++;
    }
    return count;
  }

  /** The piece code for `color`/`kind`/`ori` (orientation normalised as the board stores it). */
  static piece(color: number, kind: number, ori = 0): number {
    return makePiece(color, kind, ori);
  }
}
