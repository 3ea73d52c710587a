/**
 * Alpha-beta search: iterative deepening, principal-variation search with aspiration windows,
 * quiescence over shots that remove a piece, mate-distance pruning, repetition and no-removal
 * draws in the tree, a shared transposition table (which also keeps static evaluations), staged
 * move ordering (movepick.ts) with killers and history (history.ts), null-move pruning,
 * late-move reductions and late-move pruning. Both beams are traced once per node and passed
 * down (beams.ts).
 *
 * Everything per node lives in preallocated typed arrays: the search allocates nothing. Scores
 * are negated as `-x | 0`: the negation of 0 is −0, a double, and V8 would deoptimise the
 * search and go on in floating point; with `| 0` it keeps 32-bit integers.
 */
import {
  MAX_MOVES,
  NO_REMOVAL_PLIES,
  PHARAOH,
  bbHas,
  colorOf,
  formatMove,
  kindOf,
  moveFrom,
  moveTo,
  type Position,
} from '../core/index';
import { Beams } from './beams';
import { evaluate, evaluateBeams, pieceValue } from './evaluate';
import { History } from './history';
import { DEFAULT_PARAMS, type SearchParams } from './params';
import { MovePicker, OUT_NONE, OUT_OWN } from './movepick';
import { NnueStack } from './nnue';
import { evaluatePosition, type Network } from '../nnue/network';
import { AGE_MASK, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, NO_EVAL, boundWord, type TranspositionTable } from './tt';
import { MATE, MATE_BOUND, scoreOf, type SearchInfo, type SearchResult } from '../core/score';

const INF = 32500;
export const MAX_PLY = 128;
/**
 * Nodes between two looks at the clock, the stop word and the node limit: 256 keeps a
 * `go movetime` within about a millisecond of its limit (1024 took up to 30 ms on a busy machine).
 */
const POLL_NODES = 256;
const QS_MAX = 8;
/** Quiescence answers checks only this many plies deep. */
const QS_CHECK_MAX = 3;
const SKIP_SIZE = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/** A score as the table keeps it: a win or loss counted from this node, not from the root. */
function scoreToTT(score: number, ply: number): number {
  return score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
}

/** A score from the table, a win or loss counted from the root again. */
function scoreFromTT(score: number, ply: number): number {
  return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
}

/** Whether a table entry's bound `b` on score `s` settles a node searched with (alpha, beta). */
function boundSettles(b: number, s: number, alpha: number, beta: number): boolean {
  return b === BOUND_EXACT || (b === BOUND_LOWER && s >= beta) || (b === BOUND_UPPER && s <= alpha);
}

/** The bound a node's result `best` is, searched with (alphaOrig, beta). */
function boundOf(best: number, alphaOrig: number, beta: number): number {
  return best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
}

/** Shared control words: [0] stop, [1] pondering. */
export const CTRL_STOP = 0;
export const CTRL_PONDER = 1;

/** Switches for search features, so matches can measure each one. */
export interface SearchFeatures {
  lmr: boolean;
  aspiration: boolean;
  /** Null-move pruning: pass (without firing) and search reduced; a fail high prunes. */
  nullMove: boolean;
  /** Late-move pruning: at low depth, quiet moves past a count are not searched. */
  lmp: boolean;
  /** History with a malus for the quiet moves tried before a cutoff, bounded by gravity. */
  historyMalus: boolean;
}

/** Defaults follow the matches logged in docs/strength.md: on when an SPRT accepted the feature. */
export const DEFAULT_FEATURES: SearchFeatures = {
  lmr: true,
  aspiration: true,
  nullMove: true,
  lmp: true,
  historyMalus: true,
};

/** Quiet moves remembered per node for the history malus. */
const QUIETS_MAX = 64;

export interface SearchLimits {
  /** Maximum depth (plies). */
  depth: number;
  /** Node budget, 0 = none. */
  nodes: number;
  /** Stop once a win in at most this many moves is found, 0 = off. */
  mate: number;
  /** Soft time: no new iteration after half of it; 0 = no time limit. */
  optimumMs: number;
  /** Hard time, 0 = none. */
  maximumMs: number;
  /** Root moves to consider (empty = all). */
  searchMoves: number[];
  multiPV: number;
  /** Plies without removal that draw; 0 = off. */
  noRemovalLimit: number;
}

export const DEFAULT_LIMITS: SearchLimits = {
  depth: MAX_PLY - 8,
  nodes: 0,
  mate: 0,
  optimumMs: 0,
  maximumMs: 0,
  searchMoves: [],
  multiPV: 1,
  noRemovalLimit: NO_REMOVAL_PLIES,
};

export interface RootLine {
  move: number;
  /** This iteration's score; −INF while the move is not searched again, or when it failed low against the lines above. */
  score: number;
  /** The move's last real score (−INF before its first), with `depth` and `pv`: what is reported while `score` is −INF. */
  last: number;
  /** BOUND_EXACT, or BOUND_LOWER / BOUND_UPPER when the last search of this line failed high/low. */
  bound: number;
  depth: number;
  pv: number[];
}

/**
 * What Searcher.run returns, in this thread: the search's result (SearchResult, src/core/score.ts,
 * the shape that crosses threads) with the moves as numbers (0: none), and every MultiPV root line.
 */
export interface RootResult extends Omit<SearchResult, 'best' | 'ponder' | 'error'> {
  best: number;
  ponder: number;
  lines: RootLine[];
}

export class Searcher {
  pos!: Position;
  tt: TranspositionTable;
  control: Int32Array;
  features: SearchFeatures = { ...DEFAULT_FEATURES };
  /** The numeric parameters (src/search/params.ts), set like the switches. */
  params: SearchParams = { ...DEFAULT_PARAMS };
  limits: SearchLimits = { ...DEFAULT_LIMITS };
  onInfo: (info: SearchInfo) => void = () => {};
  /** Called after each completed iteration with the best move, its score and the depth. */
  onIteration: (move: number, score: number, depth: number) => void = () => {};

  nodes = 0;
  seldepth = 0;
  stopped = false;
  /** 0 for the main search; helpers (Lazy SMP) skip some depths and never manage time. */
  threadIndex = 0;
  /** Nodes of all threads, added to every POLL_NODES nodes (null with one thread). */
  sharedNodes: BigInt64Array | null = null;
  private flushed = 0;
  /** The table's age for this search when threads share it (set by the pool); -1 = count up. */
  searchAge = -1;
  private startTime = 0;
  private pollCounter = 0;
  private pondering = false;
  private completedDepth = 0;

  private readonly pv = new Int32Array(MAX_PLY * MAX_PLY);
  private readonly pvLen = new Int32Array(MAX_PLY);
  private readonly history = new History(MAX_PLY);
  private readonly picker = new MovePicker(MAX_PLY);
  private readonly beams = new Beams(MAX_PLY);
  /** Quiet moves tried at each node, for the history malus. */
  private readonly quiets = new Int32Array(MAX_PLY * QUIETS_MAX);
  /** The network's accumulators when the evaluation is the network's (setNetwork). */
  private nnue: NnueStack | null = null;
  /** The quiescence search's move lists. */
  private readonly qmoves = new Int32Array(MAX_PLY * MAX_MOVES);
  /** The values of the pieces the quiescence search's shots take. */
  private readonly qvalues = new Int32Array(MAX_PLY * MAX_MOVES);
  /** Both beams together, for the answers to a check in the quiescence search. */
  private readonly checkMask = new Int32Array(3);
  private rootLines: RootLine[] = [];

  constructor(tt: TranspositionTable, control: Int32Array = new Int32Array(new SharedArrayBuffer(16))) {
    this.tt = tt;
    this.control = control;
  }

  /** Forgets killers and history (a new game). */
  clearHistory(): void {
    this.history.clear();
  }

  /** The evaluation: the network's (NNUE) when one is given, the hand-written one for null. */
  setNetwork(net: Network | null): void {
    if (net === null) this.nnue = null;
    else if (this.nnue === null || this.nnue.net !== net) this.nnue = new NnueStack(net, MAX_PLY);
  }

  /** The network in use, or null for the hand-written evaluation. */
  get network(): Network | null {
    return this.nnue === null ? null : this.nnue.net;
  }

  private now(): number {
    return performance.now();
  }

  elapsed(): number {
    return this.now() - this.startTime;
  }

  /** Polled every POLL_NODES nodes: stop flag, pondering, node and time limits. */
  private checkStop(): void {
    if (this.sharedNodes) {
      Atomics.add(this.sharedNodes, 0, BigInt(this.nodes - this.flushed));
      this.flushed = this.nodes;
    }
    // The main search always finishes depth 1, so that it has a real move to play.
    if (this.threadIndex === 0 && this.completedDepth < 1) return;
    if (Atomics.load(this.control, CTRL_STOP) !== 0) {
      this.stopped = true;
      return;
    }
    if (this.pondering && Atomics.load(this.control, CTRL_PONDER) === 0) {
      // ponderhit: the clock starts now
      this.pondering = false;
      this.startTime = this.now();
    }
    if (this.limits.nodes > 0 && this.totalNodes() >= this.limits.nodes) this.stopped = true;
    else if (!this.pondering && this.limits.maximumMs > 0 && this.elapsed() >= this.limits.maximumMs)
      this.stopped = true;
  }

  /** Nodes searched by all threads (this one's exact, the others' as last flushed). */
  totalNodes(): number {
    return this.sharedNodes ? Number(Atomics.load(this.sharedNodes, 0)) + this.nodes - this.flushed : this.nodes;
  }

  /** Runs a search from `pos` (not modified at the end). */
  run(pos: Position, limits: SearchLimits): RootResult {
    this.pos = pos;
    this.limits = limits;
    this.nodes = 0;
    this.flushed = 0;
    this.seldepth = 0;
    this.stopped = false;
    this.startTime = this.now();
    this.pollCounter = 0;
    this.completedDepth = 0;
    this.pondering = Atomics.load(this.control, CTRL_PONDER) !== 0;
    if (this.searchAge >= 0) this.tt.age = this.searchAge & AGE_MASK;
    else this.tt.newSearch();
    this.history.newSearch();

    // Root moves
    const n = pos.generate(this.qmoves, 0);
    let rootMoves: number[] = Array.from(this.qmoves.subarray(0, n));
    this.beams.trace(pos, 0);
    if (this.nnue !== null) this.nnue.refresh(pos, 0);
    if (limits.searchMoves.length > 0) {
      const allowed = rootMoves.filter((m) => limits.searchMoves.includes(m));
      if (allowed.length > 0) rootMoves = allowed;
    }
    this.rootLines = rootMoves.map((move) => ({
      move,
      score: -INF,
      last: -INF,
      bound: BOUND_EXACT,
      depth: 0,
      pv: [move],
    }));
    const result: RootResult = { best: rootMoves[0] ?? 0, ponder: 0, score: 0, depth: 0, nodes: 0, lines: [] };
    if (rootMoves.length === 0) return result;
    const multiPV = Math.max(1, Math.min(limits.multiPV, rootMoves.length));

    for (let depth = 1; depth <= Math.max(1, limits.depth); depth++) {
      if (this.threadIndex > 0 && depth > 1 && depth < limits.depth) {
        // Lazy SMP: helpers skip depths in a pattern of their own (Stockfish's skip blocks),
        // so that threads are spread over several depths at once.
        const k = (this.threadIndex - 1) % 20;
        if (Math.floor((depth + SKIP_PHASE[k]) / SKIP_SIZE[k]) % 2 === 1) continue;
      }
      for (let pvIdx = 0; pvIdx < multiPV; pvIdx++) {
        this.seldepth = 0;
        const prev = this.rootLines[pvIdx].score;
        let delta = this.params.aspirationDelta;
        let alpha = -INF;
        let beta = INF;
        if (this.features.aspiration && depth >= 4 && Math.abs(prev) < MATE_BOUND) {
          alpha = Math.max(prev - delta, -INF);
          beta = Math.min(prev + delta, INF);
        }
        for (;;) {
          const score = this.searchRoot(depth, alpha, beta, pvIdx);
          this.sortLines(pvIdx);
          if (this.stopped) break;
          // A score outside the full window (an evaluation out of range) cannot be bracketed: take it.
          if ((score <= alpha && alpha <= -INF) || (score >= beta && beta >= INF)) {
            this.rootLines[pvIdx].bound = BOUND_EXACT;
            break;
          }
          if (score <= alpha) {
            beta = (alpha + beta) >> 1;
            alpha = Math.max(score - delta, -INF);
            this.rootLines[pvIdx].bound = BOUND_UPPER;
          } else if (score >= beta) {
            beta = Math.min(score + delta, INF);
            this.rootLines[pvIdx].bound = BOUND_LOWER;
          } else {
            this.rootLines[pvIdx].bound = BOUND_EXACT;
            break;
          }
          if (Math.abs(score) >= MATE_BOUND) {
            alpha = -INF;
            beta = INF;
          }
          delta += delta;
          if (this.threadIndex === 0 && this.elapsed() > 2000) this.report(multiPV);
        }
        this.sortLines(0);
        if (this.stopped) break;
      }
      if (this.stopped) break;
      this.completedDepth = depth;
      if (this.threadIndex === 0) this.report(multiPV);
      const best = this.rootLines[0];
      this.onIteration(best.move, best.score, depth);
      if (limits.mate > 0 && best.score >= MATE_BOUND && MATE - best.score <= 2 * limits.mate) break;
      if (rootMoves.length === 1 && depth >= 4 && limits.optimumMs > 0 && !this.pondering) break;
      if (!this.pondering && limits.optimumMs > 0 && this.elapsed() > limits.optimumMs * 0.5) break;
      if (best.score >= MATE_BOUND && depth > MATE - best.score + 2 && limits.optimumMs > 0) break;
    }
    if (this.sharedNodes) {
      Atomics.add(this.sharedNodes, 0, BigInt(this.nodes - this.flushed));
      this.flushed = this.nodes;
    }
    const best = this.rootLines[0];
    result.best = best.move;
    result.ponder = best.pv.length > 1 ? best.pv[1] : 0;
    result.score = best.score;
    result.depth = this.completedDepth;
    result.nodes = this.nodes;
    // A line whose move was not searched again (the search stopped first) or failed low against the
    // lines above keeps its last score and depth, as it was reported; one never scored is left out.
    result.lines = this.rootLines
      .slice(0, multiPV)
      .filter((l) => l.score > -INF || l.last > -INF)
      .map((l) => ({ ...l, score: l.score > -INF ? l.score : l.last, pv: l.pv.slice() }));
    return result;
  }

  /** The quiescence score of `pos` (side to move's view), for evaluation tuning and tests. */
  quiesce(pos: Position): number {
    this.pos = pos;
    this.stopped = false;
    this.pollCounter = 0;
    this.completedDepth = 1;
    this.beams.trace(pos, 0);
    if (this.nnue !== null) this.nnue.refresh(pos, 0);
    return this.qsearchNode(-INF, INF, 0, 0);
  }

  private sortLines(from: number): void {
    const rest = this.rootLines.slice(from);
    rest.sort((a, b) => b.score - a.score); // stable in V8
    for (let i = 0; i < rest.length; i++) this.rootLines[from + i] = rest[i];
  }

  /** Reports the first `multiPV` root lines. */
  private report(multiPV: number): void {
    const ms = Math.max(1, Math.round(this.elapsed()));
    const nodes = this.totalNodes();
    const nps = Math.round((nodes * 1000) / ms);
    const hashfull = this.tt.hashfull();
    for (let i = 0; i < multiPV; i++) {
      const l = this.rootLines[i];
      // not searched yet, or failed low at this depth: its last score, at the depth it was found
      const score = l.score > -INF ? l.score : l.last;
      if (l.depth === 0 || score <= -INF) continue;
      this.onInfo({
        depth: l.depth,
        seldepth: Math.max(this.seldepth, l.depth),
        multipv: i + 1,
        score: scoreOf(score),
        bound: boundWord(l.bound),
        nodes,
        nps,
        hashfull,
        time: ms,
        pv: l.pv.map(formatMove),
      });
    }
  }

  /** Search of the root moves rootLines[pvIdx..]; updates their scores and PVs. */
  private searchRoot(depth: number, alpha: number, beta: number, pvIdx: number): number {
    const pos = this.pos;
    const us = pos.side;
    let best = -INF;
    this.pvLen[0] = 0;
    for (let i = pvIdx; i < this.rootLines.length; i++) {
      const line = this.rootLines[i];
      const m = line.move;
      pos.makeTraced(m, this.beams.theirMask, 3);
      if (this.nnue !== null) this.nnue.recordMove(pos, 1);
      this.nodes++;
      let score: number;
      if (pos.winner >= 0) {
        score = pos.winner === us ? MATE - 1 : -(MATE - 1);
        this.pvLen[1] = 1;
      } else if (i === pvIdx) {
        score = -this.search(depth - 1, -beta | 0, -alpha | 0, 1, true) | 0;
      } else {
        score = -this.search(depth - 1, -alpha - 1, -alpha | 0, 1, false) | 0;
        if (score > alpha && score < beta && !this.stopped)
          score = -this.search(depth - 1, -beta | 0, -alpha | 0, 1, true) | 0;
      }
      pos.unmake();
      if (this.stopped) break;
      if (i === pvIdx || score > alpha) {
        line.score = score;
        line.last = score;
        line.depth = depth;
        const pv = [m];
        for (let k = 1; k < this.pvLen[1]; k++) pv.push(this.pv[MAX_PLY + k]);
        line.pv = pv;
      } else {
        line.score = -INF;
      }
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) break;
        }
      }
    }
    return best;
  }

  private staticEval(ply: number): number {
    const b = this.beams;
    if (this.nnue !== null) return this.nnue.evaluate(b, ply);
    return evaluateBeams(this.pos, b.ourKill[ply], b.ourMask, ply * 3, b.theirKill[ply], b.theirMask, ply * 3);
  }

  private search(depth: number, alpha: number, beta: number, ply: number, pvNode: boolean): number {
    const pos = this.pos;
    this.pvLen[ply] = ply;
    if (ply > this.seldepth) this.seldepth = ply;
    // draws in the tree: a repetition inside the tree, or a third occurrence
    if (pos.drawsByRepetition(ply)) return 0;
    if (this.limits.noRemovalLimit > 0 && pos.pliesSinceRemoval >= this.limits.noRemovalLimit) return 0;
    // mate-distance pruning
    if (alpha < -MATE + ply) alpha = -MATE + ply;
    if (beta > MATE - ply - 1) beta = MATE - ply - 1;
    if (alpha >= beta) return alpha;
    if (ply >= MAX_PLY - 2) return this.nnue !== null ? evaluatePosition(this.nnue.net, pos) : evaluate(pos);
    if (depth <= 0) return this.qsearch(alpha, beta, ply, 0);
    // the table is probed below: its bucket is fetched now (the quiescence search, entered above,
    // does not use it)
    this.tt.prefetch(pos.keyLo);

    if (++this.pollCounter >= POLL_NODES) {
      this.pollCounter = 0;
      this.checkStop();
    }
    if (this.stopped) return 0;

    // transposition table
    const tt = this.tt;
    let ttMove = 0;
    let ttEval = NO_EVAL;
    if (tt.probe(pos.keyLo, pos.keyHi)) {
      ttMove = tt.hitMove;
      ttEval = tt.hitEval;
      if (!pvNode && tt.hitDepth >= depth) {
        const s = scoreFromTT(tt.hitScore, ply);
        if (boundSettles(tt.hitBound, s, alpha, beta)) return s;
      }
    }

    const beams = this.beams;
    beams.afterMove(pos, ply);
    const inCheck = beams.inCheck(pos, ply);

    // the static evaluation of an inner node is computed only when the pruning that uses it may
    // run (it is then stored in the table with the node's result; otherwise NO_EVAL is)
    let staticEval = NO_EVAL;
    if (!inCheck && !pvNode && this.features.nullMove) {
      staticEval = ttEval !== NO_EVAL ? ttEval : this.staticEval(ply);
      // null-move pruning: even passing (without firing) keeps us above beta
      if (depth >= 3 && staticEval >= beta && Math.abs(beta) < MATE_BOUND && pos.moveAt(pos.ply - 1) !== 0) {
        const r = (this.params.nullMoveBase + depth / this.params.nullMoveDivisor) | 0;
        pos.makeNull();
        if (this.nnue !== null) this.nnue.recordNull(pos, ply + 1);
        this.nodes++;
        const s = -this.search(depth - 1 - r, -beta | 0, -beta + 1, ply + 1, false) | 0;
        pos.unmakeNull();
        if (this.stopped) return 0;
        if (s >= beta) return s >= MATE_BOUND ? beta : s;
      }
    }

    const us = pos.side;
    const history = this.history;
    const picker = this.picker;
    const params = this.params;
    const lmpLimit =
      this.features.lmp && !pvNode && !inCheck && depth <= params.lmpDepth
        ? params.lmpBase + params.lmpScale * depth * depth
        : 1 << 30;
    picker.init(pos, history, beams.ourMask, ply, ttMove, beams.ourKill[ply], lmpLimit < 64);
    let best = -INF;
    let bestMove = 0;
    const alphaOrig = alpha;
    let moveCount = 0;
    let quietCount = 0;
    const qBase = ply * QUIETS_MAX;
    const childMask = (ply + 1) * 3;

    for (let m = picker.next(ply); m !== 0; m = picker.next(ply)) {
      if (moveCount >= lmpLimit && best > -MATE_BOUND) {
        const out = picker.lastOutcome[ply];
        if (out === OUT_NONE || out === OUT_OWN) {
          // late-move pruning: the quiet moves from here on are not searched
          picker.skipQuiets(ply);
          moveCount++;
          continue;
        }
      }
      moveCount++;
      let t: number;
      if (bbHas(beams.ourMask, ply * 3, moveFrom(m)) || bbHas(beams.ourMask, ply * 3, moveTo(m))) {
        t = pos.makeTraced(m, beams.theirMask, childMask);
      } else {
        // the move leaves our beam alone: the shot and its squares are the ones traced here
        beams.passOn(ply);
        t = pos.makeUntouched(m, beams.ourKill[ply]);
      }
      if (this.nnue !== null) this.nnue.recordMove(pos, ply + 1);
      this.nodes++;
      const quiet = t < 0 || colorOf(pos.killedPieceAt(pos.ply - 1)) === us;
      let score: number;
      if (pos.winner >= 0) {
        score = pos.winner === us ? MATE - ply - 1 : -(MATE - ply - 1);
        this.pvLen[ply + 1] = ply + 1;
      } else if (moveCount === 1) {
        score = -this.search(depth - 1, -beta | 0, -alpha | 0, ply + 1, pvNode) | 0;
      } else {
        let r = 0;
        if (this.features.lmr && depth >= 3 && moveCount > params.lmrMoves && quiet && !inCheck) {
          r = 1;
          if (moveCount > params.lmrMoves2) r++;
          if (depth > 6 && moveCount > 20) r++;
          if (pvNode && r > 0) r--;
          if (r > depth - 2) r = depth - 2;
          if (r < 0) r = 0;
        }
        score = -this.search(depth - 1 - r, -alpha - 1, -alpha | 0, ply + 1, false) | 0;
        if (r > 0 && score > alpha && !this.stopped)
          score = -this.search(depth - 1, -alpha - 1, -alpha | 0, ply + 1, false) | 0;
        if (pvNode && score > alpha && score < beta && !this.stopped) {
          score = -this.search(depth - 1, -beta | 0, -alpha | 0, ply + 1, true) | 0;
        }
      }
      pos.unmake();
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        bestMove = m;
        if (score > alpha) {
          alpha = score;
          // update the PV
          const row = ply * MAX_PLY;
          const child = (ply + 1) * MAX_PLY;
          this.pv[row + ply] = m;
          const len = this.pvLen[ply + 1];
          for (let k = ply + 1; k < len; k++) this.pv[row + k] = this.pv[child + k];
          this.pvLen[ply] = Math.max(len, ply + 1);
          if (score >= beta) {
            if (quiet) {
              history.addKiller(ply, m);
              if (this.features.historyMalus) {
                const bonus = Math.min(params.historyScale * depth * depth, params.historyMax);
                history.update(us, m, bonus);
                for (let k = 0; k < quietCount; k++) history.update(us, this.quiets[qBase + k], -bonus);
              } else {
                history.add(us, m, depth);
              }
            }
            break;
          }
        }
      }
      if (quiet && this.features.historyMalus && quietCount < QUIETS_MAX) this.quiets[qBase + quietCount++] = m;
    }
    if (moveCount === 0) return 0; // no legal move: cannot happen with a Sphinx
    if (best === -INF) best = alpha; // every move pruned
    tt.store(pos.keyLo, pos.keyHi, bestMove, boundOf(best, alphaOrig, beta), scoreToTT(best, ply), depth, staticEval);
    return best;
  }

  /**
   * Quiescence: stand pat, then only moves whose shot removes an enemy piece (every move that
   * touches either beam when in check). The node's beams come from its parent (beams.ts).
   */
  private qsearch(alpha: number, beta: number, ply: number, qply: number): number {
    this.beams.afterMove(this.pos, ply);
    return this.qsearchNode(alpha, beta, ply, qply);
  }

  /** The quiescence search of a node whose beams are in place. */
  private qsearchNode(alpha: number, beta: number, ply: number, qply: number): number {
    const pos = this.pos;
    this.pvLen[ply] = ply;
    if (ply > this.seldepth) this.seldepth = ply;
    if (++this.pollCounter >= POLL_NODES) {
      this.pollCounter = 0;
      this.checkStop();
    }
    if (this.stopped) return 0;
    if (ply >= MAX_PLY - 2) return this.nnue !== null ? evaluatePosition(this.nnue.net, pos) : evaluate(pos);
    const beams = this.beams;
    const inCheck = beams.inCheck(pos, ply);
    const us = pos.side;
    const them = us ^ 1;
    const mb = ply * 3;
    const mask = beams.ourMask;
    const start = ply * MAX_MOVES;
    const moves = this.qmoves;
    const ourKill = beams.ourKill[ply];
    if (ourKill >= 0) {
      const p = pos.board[ourKill];
      if (kindOf(p) === PHARAOH && colorOf(p) === them) {
        // any move that leaves the beam alone wins
        const end = pos.generate(moves, start);
        for (let i = start; i < end; i++) {
          const m = moves[i];
          if (!bbHas(mask, mb, moveFrom(m)) && !bbHas(mask, mb, moveTo(m))) {
            return MATE - ply - 1;
          }
        }
      }
    }
    let best = -INF;
    if (!inCheck) {
      best = this.staticEval(ply);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
      if (qply >= QS_MAX) return best;
    } else if (qply >= QS_CHECK_MAX) {
      // chains of checks would explode: stop answering them (the evaluation counts the threat)
      return this.staticEval(ply);
    }
    let end: number;
    if (inCheck) {
      // Answers to a check: moves that touch the enemy beam (block it, turn its mirrors, step
      // the Pharaoh away) or change our own shot (it may remove a piece on the enemy beam).
      const cm = this.checkMask;
      const tm = beams.theirMask;
      cm[0] = mask[mb] | tm[mb];
      cm[1] = mask[mb + 1] | tm[mb + 1];
      cm[2] = mask[mb + 2] | tm[mb + 2];
      end = pos.generateTouching(moves, start, cm, 0);
    } else {
      // only the moves that can change our shot
      end = pos.generateTouching(moves, start, mask, mb);
    }
    if (!inCheck) {
      // only shots that remove an enemy piece, most valuable first
      pos.prepareShots();
      const values = this.qvalues;
      let n = start;
      for (let i = start; i < end; i++) {
        const m = moves[i];
        if (pos.shotAfterPrepared(m) < 0) continue;
        const p = pos.probePiece;
        if (colorOf(p) !== them) continue;
        if (kindOf(p) === PHARAOH) return MATE - ply - 1;
        // insertion by value (few moves)
        const v = pieceValue(p);
        let j = n++;
        while (j > start && values[j - 1] < v) {
          moves[j] = moves[j - 1];
          values[j] = values[j - 1];
          j--;
        }
        moves[j] = m;
        values[j] = v;
      }
      end = n;
    }
    const childMask = (ply + 1) * 3;
    for (let i = start; i < end; i++) {
      const m = moves[i];
      let score: number;
      pos.makeTraced(m, beams.theirMask, childMask);
      if (this.nnue !== null) this.nnue.recordMove(pos, ply + 1);
      this.nodes++;
      if (pos.winner >= 0) {
        score = pos.winner === us ? MATE - ply - 1 : -(MATE - ply - 1);
      } else {
        score = -this.qsearch(-beta | 0, -alpha | 0, ply + 1, qply + 1) | 0;
      }
      pos.unmake();
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) break;
        }
      }
    }
    // in check with no answer: the enemy hits our Pharaoh next move
    if (best === -INF) return -(MATE - ply - 2);
    return best;
  }
}
