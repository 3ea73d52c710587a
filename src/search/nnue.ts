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
 * The row additions and the forward pass run in the kernels of src/nnue/kernels.ts (WebAssembly
 * SIMD where the runtime has it, else plain JavaScript; the same results either way): this class
 * gathers a move's changed features into the kernels' lists and makes one call per ply.
 *
 * Everything lives in preallocated arrays: nothing is allocated per node.
 */
import {
  ROT_CCW,
  ROT_CW,
  ROTATED,
  SQUARES,
  STACK_ON,
  STEP,
  SWAP,
  UNSTACK,
  moveFrom,
  moveTo,
  moveType,
  type Position,
} from '../core/index';
import { BEAM_SQUARE_BASE, activeFeatures, beamTargetFeature, pieceFeature } from '../nnue/features';
import {
  ADD0,
  ADD1,
  SUB0,
  SUB1,
  createKernels,
  type AccumulatorKernels,
  type KernelChoice,
  type KernelKind,
} from '../nnue/kernels';
import type { Network } from '../nnue/network';
import type { Beams } from './beams';

/** Piece changes a move can make: a swap changes two squares, its shot a third. */
const MAX_CHANGES = 4;

let defaultKernels: KernelChoice = 'auto';

/** The kernels a NnueStack takes when not told (benchmarks and tests compare the two). */
export function setDefaultKernels(choice: KernelChoice): void {
  defaultKernels = choice;
}

export { simdAvailable } from '../nnue/kernels';

export class NnueStack {
  readonly net: Network;
  private readonly kernels: AccumulatorKernels;
  /** The kernels' feature lists (a view). */
  private readonly lists: Int32Array;
  /** Perspective 1's list of a refresh, as an array of its own (activeFeatures writes from 0). */
  private readonly lists1: Int32Array;
  private readonly computed: Uint8Array;
  /** Per ply: the squares whose piece the move into that ply changed, with the old and new piece. */
  private readonly changeCount: Int32Array;
  private readonly changeSq: Int32Array;
  private readonly changeOld: Int32Array;
  private readonly changeNew: Int32Array;
  /** The colour to move at each ply. */
  private readonly sideAt: Uint8Array;

  constructor(net: Network, maxPly: number, kernels: KernelChoice = defaultKernels) {
    this.net = net;
    this.kernels = createKernels(net, maxPly + 1, kernels);
    this.lists = this.kernels.lists;
    this.lists1 = this.lists.subarray(ADD1, SUB1);
    this.computed = new Uint8Array(maxPly + 1);
    this.changeCount = new Int32Array(maxPly + 1);
    this.changeSq = new Int32Array((maxPly + 1) * MAX_CHANGES);
    this.changeOld = new Int32Array((maxPly + 1) * MAX_CHANGES);
    this.changeNew = new Int32Array((maxPly + 1) * MAX_CHANGES);
    this.sideAt = new Uint8Array(maxPly + 1);
  }

  /** Which kernels run: 'simd' (WebAssembly) or 'js'. */
  get kind(): KernelKind {
    return this.kernels.kind;
  }

  /** The accumulators of `pos` at `ply`, from scratch (the root of a search). */
  refresh(pos: Position, ply: number): void {
    const n0 = activeFeatures(pos, 0, this.lists);
    const n1 = activeFeatures(pos, 1, this.lists1);
    this.kernels.refresh(ply, n0, n1);
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
    return this.kernels.forward(ply, this.sideAt[ply]);
  }

  /**
   * acc[ply] = acc[ply − 1] + the changes of the move into ply (pieces, beams, beam targets):
   * the features that come are written to the kernels' ADD lists, those that go to the SUB lists,
   * for perspective 0 and 1, and the kernels apply them in one call.
   */
  private update(beams: Beams, ply: number): void {
    const L = this.lists;
    let a0 = ADD0;
    let s0 = SUB0;
    let a1 = ADD1;
    let s1 = SUB1;
    // pieces
    const base = ply * MAX_CHANGES;
    for (let c = 0; c < this.changeCount[ply]; c++) {
      const sq = this.changeSq[base + c];
      const old = this.changeOld[base + c];
      const now = this.changeNew[base + c];
      if (old !== 0) {
        L[s0++] = pieceFeature(old, sq, 0);
        L[s1++] = pieceFeature(old, sq, 1);
      }
      if (now !== 0) {
        L[a0++] = pieceFeature(now, sq, 0);
        L[a1++] = pieceFeature(now, sq, 1);
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
      // perspective 0 sees this beam as rel = color, perspective 1 as rel = color ^ 1, turned
      const row0 = BEAM_SQUARE_BASE + color * SQUARES;
      const row1 = BEAM_SQUARE_BASE + (color ^ 1) * SQUARES + SQUARES - 1;
      for (let wd = 0; wd < 3; wd++) {
        const was = pm[pa + wd];
        const now = nm[na + wd];
        let gone = was & ~now;
        let came = now & ~was;
        while (gone !== 0) {
          const low = gone & -gone;
          gone ^= low;
          const sq = (wd << 5) + 31 - Math.clz32(low);
          L[s0++] = row0 + sq;
          L[s1++] = row1 - sq;
        }
        while (came !== 0) {
          const low = came & -came;
          came ^= low;
          const sq = (wd << 5) + 31 - Math.clz32(low);
          L[a0++] = row0 + sq;
          L[a1++] = row1 - sq;
        }
      }
      // the piece the beam would kill (the feature names the piece, not its square)
      const pk = color === prevSide ? beams.ourKillPiece[ply - 1] : beams.theirKillPiece[ply - 1];
      const nk = color === side ? beams.ourKillPiece[ply] : beams.theirKillPiece[ply];
      if (pk !== nk) {
        if (pk !== 0) {
          L[s0++] = beamTargetFeature(color, pk, 0);
          L[s1++] = beamTargetFeature(color, pk, 1);
        }
        if (nk !== 0) {
          L[a0++] = beamTargetFeature(color, nk, 0);
          L[a1++] = beamTargetFeature(color, nk, 1);
        }
      }
    }
    this.kernels.update(ply - 1, ply, a0 - ADD0, s0 - SUB0, a1 - ADD1, s1 - SUB1);
    this.computed[ply] = 1;
  }
}
