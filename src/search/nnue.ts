/**
 * The network's accumulators on the search stack (NNUE): one pair per ply (one per perspective),
 * updated from the parent's instead of computed from scratch.
 *
 * A move changes a few pieces and, where it touches them, the beams; the search records the
 * pieces a move changed (recordMove) and the beams are at hand in Beams, ply by ply. The update
 * itself is lazy: a node whose evaluation is never asked for (a table cutoff, an inner node without
 * null-move pruning) costs nothing, and a node that asks walks back to the nearest computed
 * ancestor and applies the changes of each ply after it.
 *
 * Everything lives in preallocated arrays: nothing is allocated per node.
 */
import { ROT_CCW, ROT_CW, ROTATED, SQUARES, STACK_ON, STEP, SWAP, UNSTACK, moveFrom, moveTo, moveType, type Position } from '../core/index';
import { BEAM_SQUARE_BASE, MAX_ACTIVE, activeFeatures, beamTargetFeature, pieceFeature } from '../nnue/features';
import { forward, refreshAccumulator, type Network } from '../nnue/network';
import type { Beams } from './beams';

/** Piece changes a move can make: a swap changes two squares, its shot a third. */
const MAX_CHANGES = 4;

export class NnueStack {
  readonly net: Network;
  private readonly H: number;
  /** acc[(ply * 2 + perspective) * H + j] */
  private readonly acc: Int32Array;
  private readonly computed: Uint8Array;
  /** Per ply: the squares whose piece the move into that ply changed, with the old and new piece. */
  private readonly changeCount: Int32Array;
  private readonly changeSq: Int32Array;
  private readonly changeOld: Int32Array;
  private readonly changeNew: Int32Array;
  /** The colour to move at each ply. */
  private readonly sideAt: Uint8Array;
  private readonly features = new Int32Array(MAX_ACTIVE);

  constructor(net: Network, maxPly: number) {
    this.net = net;
    this.H = net.hidden;
    this.acc = new Int32Array((maxPly + 1) * 2 * net.hidden);
    this.computed = new Uint8Array(maxPly + 1);
    this.changeCount = new Int32Array(maxPly + 1);
    this.changeSq = new Int32Array((maxPly + 1) * MAX_CHANGES);
    this.changeOld = new Int32Array((maxPly + 1) * MAX_CHANGES);
    this.changeNew = new Int32Array((maxPly + 1) * MAX_CHANGES);
    this.sideAt = new Uint8Array(maxPly + 1);
  }

  /** The accumulators of `pos` at `ply`, from scratch (the root of a search). */
  refresh(pos: Position, ply: number): void {
    const H = this.H;
    for (let p = 0; p < 2; p++) {
      const n = activeFeatures(pos, p, this.features);
      refreshAccumulator(this.net, this.features, n, this.acc, (ply * 2 + p) * H);
    }
    this.computed[ply] = 1;
    this.sideAt[ply] = pos.side;
  }

  /**
   * The pieces the last move of `pos` changed, recorded for the node at `ply` (call right after
   * the move is made; the board is the child's).
   */
  recordMove(pos: Position, ply: number): void {
    this.computed[ply] = 0;
    this.sideAt[ply] = pos.side;
    const b = pos.board;
    const m = pos.moveAt(pos.ply - 1);
    const t = pos.killedAt(pos.ply - 1);
    const k = t >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
    const from = moveFrom(m);
    const to = moveTo(m);
    const type = moveType(m);
    // the pieces after the move and before the shot: the killed piece back on its square
    const atFrom = from === t ? k : b[from];
    const atTo = to === t ? k : b[to];
    const base = ply * MAX_CHANGES;
    let n = 0;
    switch (type) {
      case STEP:
        n = this.change(base, n, from, atTo, 0);
        n = this.change(base, n, to, 0, atTo);
        break;
      case SWAP:
        n = this.change(base, n, from, atTo, atFrom);
        n = this.change(base, n, to, atFrom, atTo);
        break;
      case ROT_CW:
      case ROT_CCW:
        n = this.change(base, n, from, ROTATED[atFrom * 2 + (type === ROT_CW ? 1 : 0)], atFrom);
        break;
      case STACK_ON:
        n = this.change(base, n, from, atTo - 4, 0);
        n = this.change(base, n, to, atTo - 4, atTo);
        break;
      case UNSTACK:
        n = this.change(base, n, from, atFrom + 4, atFrom);
        n = this.change(base, n, to, atTo === atFrom ? 0 : atTo - 4, atTo);
        break;
    }
    if (t >= 0) n = this.change(base, n, t, k, b[t]);
    this.changeCount[ply] = n;
  }

  private change(base: number, n: number, sq: number, old: number, now: number): number {
    this.changeSq[base + n] = sq;
    this.changeOld[base + n] = old;
    this.changeNew[base + n] = now;
    return n + 1;
  }

  /** A null move into `ply`: nothing on the board changed. */
  recordNull(pos: Position, ply: number): void {
    this.computed[ply] = 0;
    this.sideAt[ply] = pos.side;
    this.changeCount[ply] = 0;
  }

  /** The network's evaluation at `ply` (side to move's view), updating what is not computed yet. */
  evaluate(beams: Beams, ply: number): number {
    if (this.computed[ply] === 0) {
      let a = ply - 1;
      while (this.computed[a] === 0) a--;
      for (let i = a + 1; i <= ply; i++) this.update(beams, i);
    }
    const H = this.H;
    const side = this.sideAt[ply];
    return forward(this.net, this.acc, (ply * 2 + side) * H, this.acc, (ply * 2 + (side ^ 1)) * H);
  }

  /** acc[ply] = acc[ply − 1] + the changes of the move into ply (pieces, beams, beam targets). */
  private update(beams: Beams, ply: number): void {
    const H = this.H;
    const acc = this.acc;
    const w = this.net.ftWeights;
    const src = (ply - 1) * 2 * H;
    const dst = ply * 2 * H;
    acc.copyWithin(dst, src, src + 2 * H);
    // pieces
    const base = ply * MAX_CHANGES;
    for (let c = 0; c < this.changeCount[ply]; c++) {
      const sq = this.changeSq[base + c];
      const old = this.changeOld[base + c];
      const now = this.changeNew[base + c];
      for (let p = 0; p < 2; p++) {
        const at = dst + p * H;
        if (old !== 0) sub(acc, at, w, pieceFeature(old, sq, p) * H, H);
        if (now !== 0) addRow(acc, at, w, pieceFeature(now, sq, p) * H, H);
      }
    }
    // beams: each colour's mask at the parent and here
    const prevSide = this.sideAt[ply - 1];
    const side = this.sideAt[ply];
    for (let color = 0; color < 2; color++) {
      const pm = color === prevSide ? beams.ourMask : beams.theirMask;
      const nm = color === side ? beams.ourMask : beams.theirMask;
      const pa = (ply - 1) * 3;
      const na = ply * 3;
      for (let wd = 0; wd < 3; wd++) {
        const was = pm[pa + wd];
        const now = nm[na + wd];
        let gone = was & ~now;
        let came = now & ~was;
        while (gone !== 0) {
          const low = gone & -gone;
          gone ^= low;
          const sq = (wd << 5) + 31 - Math.clz32(low);
          for (let p = 0; p < 2; p++) sub(acc, dst + p * H, w, beamRow(color, sq, p) * H, H);
        }
        while (came !== 0) {
          const low = came & -came;
          came ^= low;
          const sq = (wd << 5) + 31 - Math.clz32(low);
          for (let p = 0; p < 2; p++) addRow(acc, dst + p * H, w, beamRow(color, sq, p) * H, H);
        }
      }
      // the piece the beam would kill (the feature names the piece, not its square)
      const pk = color === prevSide ? beams.ourKillPiece[ply - 1] : beams.theirKillPiece[ply - 1];
      const nk = color === side ? beams.ourKillPiece[ply] : beams.theirKillPiece[ply];
      if (pk !== nk) {
        for (let p = 0; p < 2; p++) {
          if (pk !== 0) sub(acc, dst + p * H, w, beamTargetFeature(color, pk, p) * H, H);
          if (nk !== 0) addRow(acc, dst + p * H, w, beamTargetFeature(color, nk, p) * H, H);
        }
      }
    }
    this.computed[ply] = 1;
  }
}

/** beamSquareFeature of src/nnue/features.ts, inlined for the hot loop. */
function beamRow(color: number, sq: number, p: number): number {
  return BEAM_SQUARE_BASE + (color ^ p) * SQUARES + (p === 1 ? SQUARES - 1 - sq : sq);
}

function addRow(acc: Int32Array, at: number, w: Int16Array, row: number, H: number): void {
  for (let j = 0; j < H; j++) acc[at + j] += w[row + j];
}

function sub(acc: Int32Array, at: number, w: Int16Array, row: number, H: number): void {
  for (let j = 0; j < H; j++) acc[at + j] -= w[row + j];
}

