/**
 * A search thread of the piscina pool (one task = one thread's part of one `go`). Its Searcher
 * persists between tasks, so the JIT's work and the history tables survive between moves. The
 * transposition table lives in a SharedArrayBuffer shared by all threads; the search is stopped
 * through a shared control word. The main search (thread 0) streams its reports (SearchInfo
 * objects) through a MessagePort; the main thread of the process formats and writes them.
 */
import type { MessagePort } from 'node:worker_threads';
import { formatMove, parseKfen, parseMove, type EditionId } from '../core/index';
import { CTRL_STOP, DEFAULT_FEATURES, Searcher, type SearchFeatures, type SearchLimits } from '../search/search';
import {
  MAX_SKILL,
  movesWithoutSelfShots,
  pickRandomMove,
  pickWeakMove,
  skillDepth,
  withoutSelfShots,
} from '../search/skill';
import { TranspositionTable } from '../search/tt';
import { DEFAULT_PARAMS, type SearchParams } from '../search/params';
import { NetworkCache } from '../nnue/network';
import { MATE_BOUND, type SearchResult } from '../core/score';

/** With `Random`, moves up to this move number are chosen among lines within RANDOM_MARGIN cp. */
const RANDOM_MOVES = 6;
const RANDOM_MARGIN = 25;

export interface SearchTask {
  threadIndex: number;
  tt: SharedArrayBuffer;
  /**
   * Names the table and the control words: the same number, the same buffers (the pool's
   * current ones; a new number after `Hash` changes; −1 for a scratch table).
   */
  tableId: number;
  /** Int32 control words: [0] stop, [1] pondering. */
  control: SharedArrayBuffer;
  /** BigInt64 node counter shared by all threads. */
  nodes: SharedArrayBuffer;
  /**
   * Int32 slots, 4 per thread: [sequence, move, score, depth] of the thread's last completed
   * iteration (the sequence is odd while the slot is being written), read for the vote.
   */
  results?: SharedArrayBuffer;
  /** Table age of this search (the same in every thread). */
  age: number;
  /** Incremented by `ucinewgame`: a thread seeing a new value forgets its history. */
  newGame: number;
  edition: EditionId;
  pharaohRotation: boolean;
  kfen: string;
  moves: string[];
  limits: Omit<SearchLimits, 'searchMoves'> & { searchMoves: string[] };
  features?: SearchFeatures;
  params?: SearchParams;
  /** The bytes of the network file when the evaluation is the network's (parsed once per buffer). */
  network?: SharedArrayBuffer;
  /** Date.now() when the main thread received `go`: the lag is taken off the time limits. */
  received: number;
  /** Where thread 0 sends its reports (SearchInfo), then null when it is done. */
  port?: MessagePort;
  /** Playing strength 0–20 (20 = full; see src/search/skill.ts). */
  skill?: number;
  /** Vary the opening: choose among near-equal moves in the first moves of a game. */
  random?: boolean;
}

let searcher: Searcher | undefined;

/** Networks parsed from the bytes the pool sends (the same bytes for every search). */
const networks = new NetworkCache();
/** The tableId the searcher's table and control words belong to. */
let searcherTable = -2;
let lastNewGame = -1;

/** One thread's part of one search; its answer is this thread's own (the pool adds up the nodes and votes). */
export default function search(task: SearchTask): SearchResult {
  const control = new Int32Array(task.control);
  try {
    // (a SharedArrayBuffer arrives as a new object with every task, so the pool names its buffers)
    // A searcher is made once per thread and keeps its network's accumulators; another table
    // (the warm-up's, a new Hash size) only swaps its table and control words.
    if (!searcher) {
      searcher = new Searcher(new TranspositionTable(task.tt), control);
      searcherTable = task.tableId;
    } else if (searcherTable !== task.tableId) {
      searcher.tt = new TranspositionTable(task.tt);
      searcher.control = control;
      searcherTable = task.tableId;
    }
    const s = searcher;
    if (task.newGame !== lastNewGame) {
      s.clearHistory();
      lastNewGame = task.newGame;
    }
    const r = parseKfen(task.kfen, task.edition, { pharaohRotation: task.pharaohRotation });
    if (!r.ok) throw new Error(r.error.message);
    const pos = r.value;
    for (const t of task.moves) {
      const m = parseMove(pos, t);
      if (!m.ok) throw new Error(m.error.message);
      pos.make(m.value);
    }
    const searchMoves: number[] = [];
    for (const t of task.limits.searchMoves) {
      const m = parseMove(pos, t);
      if (m.ok) searchMoves.push(m.value);
    }
    const main = task.threadIndex === 0;
    const limits: SearchLimits = {
      ...task.limits,
      searchMoves,
      // only the main search manages time (from `received`: see below)
      optimumMs: 0,
      maximumMs: 0,
      multiPV: main ? task.limits.multiPV : 1,
    };
    s.features = task.features ?? { ...DEFAULT_FEATURES };
    s.params = task.params ?? { ...DEFAULT_PARAMS };
    s.setNetwork(task.network === undefined ? null : networks.get(task.network));
    s.threadIndex = task.threadIndex;
    s.searchAge = task.age;
    s.sharedNodes = new BigInt64Array(task.nodes);
    const port = task.port;
    const slots = task.results ? new Int32Array(task.results) : undefined;
    const base = task.threadIndex * 4;
    if (slots) {
      Atomics.store(slots, base, 0);
      Atomics.store(slots, base + 3, 0);
    }
    s.onIteration = slots
      ? (move, score, depth) => {
          const seq = Atomics.load(slots, base);
          Atomics.store(slots, base, seq + 1); // odd: writing
          Atomics.store(slots, base + 1, move);
          Atomics.store(slots, base + 2, score);
          Atomics.store(slots, base + 3, depth);
          Atomics.store(slots, base, seq + 2);
        }
      : () => {};
    s.onInfo = port ? (info) => port.postMessage(info) : () => {};
    const skill = task.skill ?? MAX_SKILL;
    const weak = main && skill < MAX_SKILL;
    const randomOpening = main && task.random === true && pos.moveNumber <= RANDOM_MOVES;
    if (weak) {
      limits.depth = Math.min(limits.depth, skillDepth(skill, Math.random() < 0.5));
      limits.multiPV = Math.max(limits.multiPV, 4);
      limits.searchMoves = movesWithoutSelfShots(pos, searchMoves) ?? searchMoves;
    } else if (randomOpening) {
      limits.multiPV = Math.max(limits.multiPV, 3);
    }
    // The clock runs from when the main thread received `go`: everything before the search
    // itself (this set-up, a network parsed for the first time, waiting for a free thread)
    // counts against it.
    const lag = Math.max(0, Date.now() - task.received);
    if (main && task.limits.optimumMs > 0) limits.optimumMs = Math.max(1, task.limits.optimumMs - lag);
    if (main && task.limits.maximumMs > 0) limits.maximumMs = Math.max(1, task.limits.maximumMs - lag);
    let res = s.run(pos, limits);
    // a weak level kept from shooting its own pieces, and then lost: all moves again
    if (limits.searchMoves !== searchMoves && (res.lines[0]?.score ?? 0) <= -MATE_BOUND)
      res = s.run(pos, { ...limits, searchMoves });
    if ((weak || randomOpening) && res.lines.length > 0) {
      const lines = withoutSelfShots(res.lines, pos);
      const line = weak ? pickWeakMove(lines, skill, Math.random) : pickRandomMove(lines, RANDOM_MARGIN, Math.random);
      res.best = line.move;
      res.ponder = line.pv.length > 1 ? line.pv[1] : 0;
      res.score = line.score;
    }
    // The main search is done: the helpers stop too.
    if (main) Atomics.store(control, CTRL_STOP, 1);
    port?.postMessage(null);
    port?.close();
    return {
      best: res.best === 0 || (res.depth === 0 && !main) ? '' : formatMove(res.best),
      ponder: res.ponder === 0 ? '' : formatMove(res.ponder),
      score: res.score,
      depth: res.depth,
      nodes: res.nodes,
    };
  } catch (e) {
    if (task.threadIndex === 0) Atomics.store(control, CTRL_STOP, 1);
    task.port?.postMessage(null);
    task.port?.close();
    return { best: '', ponder: '', score: 0, depth: 0, nodes: 0, error: e instanceof Error ? e.message : String(e) };
  }
}

export interface ClearTask {
  tt: SharedArrayBuffer;
  from: number;
  to: number;
}

/** Zeroes words [from, to) of the table: large tables are cleared by all threads at once. */
export function clear(task: ClearTask): void {
  new Int32Array(task.tt).fill(0, task.from, task.to);
}
