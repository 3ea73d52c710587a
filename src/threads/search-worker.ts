/**
 * A search thread of the piscina pool (one task = one thread's part of one `go`). Its Searcher
 * persists between tasks, so the JIT's work and the history tables survive between moves. The
 * transposition table lives in a SharedArrayBuffer shared by all threads; the search is stopped
 * through a shared control word. The main search (thread 0) streams its reports (SearchInfo
 * objects) through a MessagePort; the main thread of the process formats and writes them.
 */
import type { MessagePort } from 'node:worker_threads';
import { formatMove, parseKfen, parseMove, pickRules, type EditionId, type Position } from '../core/index';
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
  /** The bytes of `tt` the table uses, from its start (the whole buffer when absent). */
  ttBytes?: number;
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
  /** The rules dialect's other switches (docs/rules.md §3.1; RuleOptions). */
  twoScarabRotations?: boolean;
  swapOntoReserved?: boolean;
  swapSphinx?: boolean;
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

/** This thread's searcher, made once and kept; another table (the warm-up's, a new Hash size) swaps its table and control words. */
function searcherFor(task: SearchTask, control: Int32Array): Searcher {
  // (a SharedArrayBuffer arrives as a new object with every task, so the pool names its buffers)
  if (!searcher) {
    searcher = new Searcher(new TranspositionTable(task.tt, task.ttBytes), control);
    searcherTable = task.tableId;
  } else if (searcherTable !== task.tableId) {
    searcher.tt = new TranspositionTable(task.tt, task.ttBytes);
    searcher.control = control;
    searcherTable = task.tableId;
  }
  if (task.newGame !== lastNewGame) {
    searcher.clearHistory();
    lastNewGame = task.newGame;
  }
  return searcher;
}

/** The task's position (KFEN and moves) and its searchmoves as move numbers. */
function positionOf(task: SearchTask): { pos: Position; searchMoves: number[] } {
  const r = parseKfen(task.kfen, task.edition, pickRules(task));
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
  return { pos, searchMoves };
}

/** Thread `base / 4`'s result slot, written at each completed iteration (read by the pool's vote). */
function slotWriter(task: SearchTask): (move: number, score: number, depth: number) => void {
  if (!task.results) return () => {};
  const slots = new Int32Array(task.results);
  const base = task.threadIndex * 4;
  Atomics.store(slots, base, 0);
  Atomics.store(slots, base + 3, 0);
  return (move, score, depth) => {
    const seq = Atomics.load(slots, base);
    Atomics.store(slots, base, seq + 1); // odd: writing
    Atomics.store(slots, base + 1, move);
    Atomics.store(slots, base + 2, score);
    Atomics.store(slots, base + 3, depth);
    Atomics.store(slots, base, seq + 2);
  };
}

/** How this thread plays the task: a weakened level or a varied opening choose among several lines. */
interface Choice {
  weak: boolean;
  randomOpening: boolean;
  skill: number;
}

/**
 * The limits this thread searches with. Only the main search manages time, and its clock runs from
 * when the main thread received `go`: everything before the search itself (this set-up, a network
 * parsed for the first time, waiting for a free thread) counts against it.
 */
function limitsFor(task: SearchTask, pos: Position, searchMoves: number[], choice: Choice): SearchLimits {
  const main = task.threadIndex === 0;
  const limits: SearchLimits = {
    ...task.limits,
    searchMoves,
    optimumMs: 0,
    maximumMs: 0,
    multiPV: main ? task.limits.multiPV : 1,
  };
  if (choice.weak) {
    limits.depth = Math.min(limits.depth, skillDepth(choice.skill, Math.random() < 0.5));
    limits.multiPV = Math.max(limits.multiPV, 4);
    // a weak level does not look at shots at its own pieces while it has other moves
    limits.searchMoves = movesWithoutSelfShots(pos, searchMoves) ?? searchMoves;
  } else if (choice.randomOpening) {
    limits.multiPV = Math.max(limits.multiPV, 3);
  }
  const lag = Math.max(0, Date.now() - task.received);
  if (main && task.limits.optimumMs > 0) limits.optimumMs = Math.max(1, task.limits.optimumMs - lag);
  if (main && task.limits.maximumMs > 0) limits.maximumMs = Math.max(1, task.limits.maximumMs - lag);
  return limits;
}

/** One thread's part of one search; its answer is this thread's own (the pool adds up the nodes and votes). */
export default function search(task: SearchTask): SearchResult {
  const control = new Int32Array(task.control);
  try {
    const s = searcherFor(task, control);
    const { pos, searchMoves } = positionOf(task);
    const main = task.threadIndex === 0;
    const skill = task.skill ?? MAX_SKILL;
    const choice: Choice = {
      weak: main && skill < MAX_SKILL,
      randomOpening: main && task.random === true && pos.moveNumber <= RANDOM_MOVES,
      skill,
    };
    const limits = limitsFor(task, pos, searchMoves, choice);
    s.features = task.features ?? { ...DEFAULT_FEATURES };
    s.params = task.params ?? { ...DEFAULT_PARAMS };
    s.setNetwork(task.network === undefined ? null : networks.get(task.network));
    s.threadIndex = task.threadIndex;
    s.searchAge = task.age;
    s.sharedNodes = new BigInt64Array(task.nodes);
    const port = task.port;
    s.onIteration = slotWriter(task);
    s.onInfo = port ? (info) => port.postMessage(info) : () => {};
    let res = s.run(pos, limits);
    // a weak level kept from shooting its own pieces, and then lost: all moves again
    if (limits.searchMoves !== searchMoves && (res.lines[0]?.score ?? 0) <= -MATE_BOUND)
      res = s.run(pos, { ...limits, searchMoves });
    if ((choice.weak || choice.randomOpening) && res.lines.length > 0) {
      const lines = withoutSelfShots(res.lines, pos);
      const line = choice.weak
        ? pickWeakMove(lines, skill, Math.random)
        : pickRandomMove(lines, RANDOM_MARGIN, Math.random);
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

/** Words per page of memory (4 KB): touching one word maps the whole page. */
const PAGE_WORDS = 1024;

/**
 * Touches every page of words [from, to) of a new table, its contents unchanged (an atomic add
 * of 0: a search thread writing the same word loses nothing). A new SharedArrayBuffer is mapped
 * by the system page by page on first write; left to the first search, those page faults cost
 * it about 20 ms of system time for a 16 MB table (a fresh engine's first `go movetime 30`
 * searched a quarter of a warm one's nodes; bench/README.md, "Short searches").
 */
export function touch(task: ClearTask): void {
  const a = new Int32Array(task.tt);
  for (let i = task.from; i < task.to; i += PAGE_WORDS) Atomics.add(a, i, 0);
  if (task.to > task.from) Atomics.add(a, task.to - 1, 0);
}
