/**
 * Staged move ordering (Stockfish's movepick): the moves of a node are produced in the order the
 * search tries them, and each stage is generated only when the ones before it did not cut off:
 *   1. the transposition table's move (checked with Position.isLegal, nothing generated);
 *   2. shots: only the moves that touch our beam can change what it takes; each is probed with
 *      Position.shotAfter and the ones that take an enemy piece (or the Pharaoh) come first, most
 *      valuable victim first;
 *   3. the two killers, when legal and not shots;
 *   4. the rest, by history, with the touching moves that took nothing (and those that would
 *      shoot our own pieces, last) among them.
 * When our beam already takes a piece without any move (every move that leaves it alone shoots
 * too), all moves are generated and scored at once instead.
 *
 * Everything lives in per-ply slices of preallocated arrays: no allocation per node.
 */
import { MAX_MOVES, PHARAOH, bbHas, colorOf, kindOf, moveFrom, moveTo, type Position } from '../core/index';
import { pieceValue } from './evaluate';
import type { History } from './history';

/** What a move's shot does. */
export const OUT_NONE = 0;
export const OUT_CAPTURE = 1;
export const OUT_OWN = 2;
export const OUT_WIN = 3;
const OUT_SUICIDE = 4;

// ordering scores
const SCORE_WIN = 1 << 29;
const SCORE_CAPTURE = 1 << 24;
const SCORE_KILLER1 = 1 << 23;
const SCORE_KILLER2 = (1 << 23) - 1;
const SCORE_OWN_KILL = -(1 << 24);
const SCORE_SUICIDE = -(1 << 29);

/** Moves picked one by one in a stage before the rest of it is sorted at once. */
const PICK_FIRST = 6;
/** Room per ply: the shots, then every move generated again for the quiet stage. */
const SLOT = 2 * MAX_MOVES;

const ST_TT = 0;
const ST_GEN_SHOTS = 1;
const ST_SHOTS = 2;
const ST_KILLER1 = 3;
const ST_KILLER2 = 4;
const ST_GEN_QUIETS = 5;
const ST_QUIETS = 6;
const ST_GEN_ALL = 7;
const ST_ALL = 8;
const ST_DONE = 9;

/** The outcome of a shot that takes piece `p` (0: nothing) for the side `us`. */
export function shotOutcome(p: number, us: number): number {
  if (p === 0) return OUT_NONE;
  if (kindOf(p) === PHARAOH) return colorOf(p) === us ? OUT_SUICIDE : OUT_WIN;
  return colorOf(p) === us ? OUT_OWN : OUT_CAPTURE;
}

export class MovePicker {
  readonly moves: Int32Array;
  private readonly order: Int32Array;
  private readonly outcome: Int8Array;
  private readonly stage: Int32Array;
  private readonly cur: Int32Array;
  private readonly end: Int32Array;
  /** Start of the current stage's range (where the pick-then-sort count starts). */
  private readonly stageStart: Int32Array;
  /** End of the shots that took something; the touching moves that took nothing follow. */
  private readonly shotsEnd: Int32Array;
  private readonly ttMove: Int32Array;
  private readonly killer1: Int32Array;
  private readonly killer2: Int32Array;
  private readonly staticKill: Int32Array;
  /** The outcome of the move `next` returned last, per ply. */
  readonly lastOutcome: Int8Array;
  /**
   * Per ply: only a few moves will be tried (late-move pruning applies), so moves are picked one
   * by one to the end instead of sorting the rest.
   */
  private readonly pickOnly: Uint8Array;

  private pos!: Position;
  private history!: History;
  private mask!: Int32Array;

  constructor(maxPly: number) {
    this.moves = new Int32Array(maxPly * SLOT);
    this.order = new Int32Array(maxPly * SLOT);
    this.outcome = new Int8Array(maxPly * SLOT);
    this.stage = new Int32Array(maxPly);
    this.cur = new Int32Array(maxPly);
    this.end = new Int32Array(maxPly);
    this.stageStart = new Int32Array(maxPly);
    this.shotsEnd = new Int32Array(maxPly);
    this.ttMove = new Int32Array(maxPly);
    this.killer1 = new Int32Array(maxPly);
    this.killer2 = new Int32Array(maxPly);
    this.staticKill = new Int32Array(maxPly);
    this.lastOutcome = new Int8Array(maxPly);
    this.pickOnly = new Uint8Array(maxPly);
  }

  /**
   * Starts the moves of the node at `ply`. `mask` holds our beam at mask[ply * 3 ..] and
   * `staticKill` the square it takes now (or -1); `fewMoves`
   * when late-move pruning will cut the list short.
   */
  init(
    pos: Position,
    history: History,
    mask: Int32Array,
    ply: number,
    ttMove: number,
    staticKill: number,
    fewMoves = false,
  ): void {
    this.pickOnly[ply] = fewMoves ? 1 : 0;
    this.pos = pos;
    this.history = history;
    this.mask = mask;
    this.stage[ply] = ttMove !== 0 && pos.isLegal(ttMove) ? ST_TT : staticKill >= 0 ? ST_GEN_ALL : ST_GEN_SHOTS;
    this.ttMove[ply] = this.stage[ply] === ST_TT ? ttMove : 0;
    this.staticKill[ply] = staticKill;
    this.killer1[ply] = history.killers[ply * 2];
    this.killer2[ply] = history.killers[ply * 2 + 1];
  }

  /** Whether `m` moves a piece on our beam or onto it. */
  private touches(ply: number, m: number): boolean {
    return bbHas(this.mask, ply * 3, moveFrom(m)) || bbHas(this.mask, ply * 3, moveTo(m));
  }

  /**
   * After late-move pruning skipped a quiet move: the rest are quiet too (the killers, the quiet
   * stage, or the tail of the sorted list in the all-at-once mode), and none is wanted.
   */
  skipQuiets(ply: number): void {
    if (this.stage[ply] >= ST_KILLER1) this.stage[ply] = ST_DONE;
  }

  /** The next move to try at `ply`, or 0 when there is none; its shot's outcome in lastOutcome. */
  next(ply: number): number {
    for (;;) {
      switch (this.stage[ply]) {
        case ST_TT: {
          this.stage[ply] = this.staticKill[ply] >= 0 ? ST_GEN_ALL : ST_GEN_SHOTS;
          // the first move is never pruned: its outcome is not needed
          this.lastOutcome[ply] = OUT_NONE;
          return this.ttMove[ply];
        }
        case ST_GEN_SHOTS:
          this.generateShots(ply);
          this.stage[ply] = ST_SHOTS;
          break;
        case ST_SHOTS: {
          const i = this.cur[ply];
          if (i < this.shotsEnd[ply]) {
            this.pickOrSort(ply, i, this.shotsEnd[ply]);
            this.cur[ply] = i + 1;
            this.lastOutcome[ply] = this.outcome[i];
            return this.moves[i];
          }
          this.stage[ply] = ST_KILLER1;
          break;
        }
        case ST_KILLER1: {
          this.stage[ply] = ST_KILLER2;
          const m = this.killer1[ply];
          if (this.isQuietCandidate(ply, m)) {
            this.lastOutcome[ply] = OUT_NONE;
            return m;
          }
          this.killer1[ply] = 0; // not tried here: the quiet stage must not skip it
          break;
        }
        case ST_KILLER2: {
          this.stage[ply] = ST_GEN_QUIETS;
          const m = this.killer2[ply];
          if (m !== this.killer1[ply] && this.isQuietCandidate(ply, m)) {
            this.lastOutcome[ply] = OUT_NONE;
            return m;
          }
          if (m !== this.killer1[ply]) this.killer2[ply] = 0;
          break;
        }
        case ST_GEN_QUIETS:
          this.generateQuiets(ply);
          this.stage[ply] = ST_QUIETS;
          break;
        case ST_QUIETS:
        case ST_ALL: {
          const i = this.cur[ply];
          if (i < this.end[ply]) {
            this.pickOrSort(ply, i, this.end[ply]);
            this.cur[ply] = i + 1;
            this.lastOutcome[ply] = this.outcome[i];
            return this.moves[i];
          }
          this.stage[ply] = ST_DONE;
          break;
        }
        case ST_GEN_ALL:
          this.generateAll(ply);
          this.stage[ply] = ST_ALL;
          break;
        default:
          return 0;
      }
    }
  }

  /** A killer worth trying in stage 3: legal, not the TT move, not a shot. */
  private isQuietCandidate(ply: number, m: number): boolean {
    return m !== 0 && m !== this.ttMove[ply] && !this.touches(ply, m) && this.pos.isLegal(m);
  }

  /** Stage 2: the touching moves, probed; the ones that take something first. */
  private generateShots(ply: number): void {
    const pos = this.pos;
    const us = pos.side;
    const base = ply * SLOT;
    const n = pos.generateTouching(this.moves, base, this.mask, ply * 3);
    const tt = this.ttMove[ply];
    const mv = this.moves;
    pos.prepareShots();
    let w = base; // shots that take something are gathered at the front
    let e = base;
    for (let i = base; i < n; i++) {
      const m = mv[i];
      if (m === tt) continue;
      const t = pos.shotAfterPrepared(m);
      const out = t >= 0 ? shotOutcome(pos.probePiece, us) : OUT_NONE;
      const s = this.shotScore(out, out === OUT_CAPTURE ? pieceValue(pos.probePiece) : 0, us, m);
      if (out === OUT_WIN || out === OUT_CAPTURE) {
        // move the first non-taking move out of the way to keep the takers together
        if (w !== e) {
          mv[e] = mv[w];
          this.order[e] = this.order[w];
          this.outcome[e] = this.outcome[w];
        }
        mv[w] = m;
        this.order[w] = s;
        this.outcome[w] = out;
        w++;
      } else {
        mv[e] = m;
        this.order[e] = s;
        this.outcome[e] = out;
      }
      e++;
    }
    this.cur[ply] = base;
    this.stageStart[ply] = base;
    this.shotsEnd[ply] = w;
    this.end[ply] = e;
  }

  /**
   * Stage 4: the moves not tried yet, in generation order, by history; the touching moves that
   * took nothing keep the score their probe gave them (those that would shoot our own pieces go
   * last).
   */
  private generateQuiets(ply: number): void {
    const pos = this.pos;
    const us = pos.side;
    const mv = this.moves;
    const deferredFrom = this.shotsEnd[ply];
    const start = this.end[ply];
    const n = pos.generate(mv, start);
    const tt = this.ttMove[ply];
    const k1 = this.killer1[ply];
    const k2 = this.killer2[ply];
    let e = start;
    for (let i = start; i < n; i++) {
      const m = mv[i];
      if (m === tt || m === k1 || m === k2) continue;
      if (this.touches(ply, m)) {
        // probed in stage 2: a taker was searched there; the others wait here
        let j = deferredFrom;
        while (j < start && mv[j] !== m) j++;
        if (j === start) continue;
        mv[e] = m;
        this.order[e] = this.order[j];
        this.outcome[e] = this.outcome[j];
      } else {
        mv[e] = m;
        this.order[e] = this.history.score(us, m);
        this.outcome[e] = OUT_NONE;
      }
      e++;
    }
    this.cur[ply] = start;
    this.stageStart[ply] = start;
    this.end[ply] = e;
  }

  /** With a shot on the board already: every move, scored by what its shot does. */
  private generateAll(ply: number): void {
    const pos = this.pos;
    const us = pos.side;
    const mv = this.moves;
    const base = ply * SLOT;
    const n = pos.generate(mv, base);
    const sk = this.staticKill[ply];
    const staticPiece = sk >= 0 ? pos.board[sk] : 0;
    const staticOut = shotOutcome(staticPiece, us);
    const staticValue = pieceValue(staticPiece);
    const tt = this.ttMove[ply];
    const k1 = this.killer1[ply];
    const k2 = this.killer2[ply];
    let e = base;
    pos.prepareShots();
    for (let i = base; i < n; i++) {
      const m = mv[i];
      if (m === tt) continue;
      let out = staticOut;
      let value = staticValue;
      if (this.touches(ply, m)) {
        const t = pos.shotAfterPrepared(m);
        out = t >= 0 ? shotOutcome(pos.probePiece, us) : OUT_NONE;
        value = t >= 0 ? pieceValue(pos.probePiece) : 0;
      }
      let s: number;
      if (out !== OUT_NONE) s = this.shotScore(out, value, us, m);
      else if (m === k1) s = SCORE_KILLER1;
      else if (m === k2) s = SCORE_KILLER2;
      else s = this.history.score(us, m);
      mv[e] = m;
      this.order[e] = s;
      this.outcome[e] = out;
      e++;
    }
    this.cur[ply] = base;
    this.stageStart[ply] = base;
    this.end[ply] = e;
  }

  /**
   * The ordering score of a move by what its shot does: a win first, then the most valuable
   * victim; a quiet move by its history; shooting our own pieces after every quiet move, our own
   * Pharaoh last.
   */
  private shotScore(out: number, value: number, us: number, m: number): number {
    switch (out) {
      case OUT_WIN:
        return SCORE_WIN;
      case OUT_SUICIDE:
        return SCORE_SUICIDE;
      case OUT_CAPTURE:
        return SCORE_CAPTURE + value;
      case OUT_OWN:
        return SCORE_OWN_KILL + this.history.score(us, m);
      default:
        return this.history.score(us, m);
    }
  }

  /** The first few moves of a stage are picked one by one; then the rest is sorted once. */
  private pickOrSort(ply: number, i: number, end: number): void {
    const k = i - this.stageStart[ply];
    if (k < PICK_FIRST || this.pickOnly[ply] === 1) this.pick(i, end);
    else if (k === PICK_FIRST) this.sortRest(i, end);
  }

  /** Moves the best-ordered remaining move to index i. */
  private pick(i: number, end: number): void {
    const ord = this.order;
    let bi = i;
    let bs = ord[i];
    for (let j = i + 1; j < end; j++) {
      if (ord[j] > bs) {
        bs = ord[j];
        bi = j;
      }
    }
    if (bi !== i) {
      const mv = this.moves;
      const out = this.outcome;
      const m = mv[i];
      mv[i] = mv[bi];
      mv[bi] = m;
      ord[bi] = ord[i];
      ord[i] = bs;
      const o = out[i];
      out[i] = out[bi];
      out[bi] = o;
    }
  }

  /** Sorts [from, end) by ordering score, best first (insertion sort, stable). */
  private sortRest(from: number, end: number): void {
    const mv = this.moves;
    const ord = this.order;
    const out = this.outcome;
    for (let i = from + 1; i < end; i++) {
      const m = mv[i];
      const o = ord[i];
      const c = out[i];
      let j = i - 1;
      while (j >= from && ord[j] < o) {
        mv[j + 1] = mv[j];
        ord[j + 1] = ord[j];
        out[j + 1] = out[j];
        j--;
      }
      mv[j + 1] = m;
      ord[j + 1] = o;
      out[j + 1] = c;
    }
  }
}
