/**
 * The part of the search threads both hosts share (the Node pool: src/node/search-pool.ts,
 * piscina workers; the page's: src/web/web-search-pool.ts, Web Workers): the table age and the
 * new-game count each search carries, every thread's task, the slots where helpers leave their
 * last completed iteration, and the rule that picks the move to play from the threads' results
 * (Stockfish's vote). Only the transport differs between the hosts, so one position, thread count
 * and limits give one bestmove rule in `thoth` and in the page (test/web/pool-hosts.test.ts runs
 * both). No Node or browser imports.
 */
import { formatMove } from '../core/index';
import { MATE_BOUND, type SearchResult } from '../core/score';
import { MAX_SKILL } from '../search/skill';
import { nextAge } from '../search/tt';
import type { SearchTask } from '../threads/search-worker';

/** A search as the protocol asks for it: the task of every thread, less what the threads own. */
export type GoRequest = Omit<
  SearchTask,
  'threadIndex' | 'tt' | 'ttBytes' | 'tableId' | 'control' | 'nodes' | 'age' | 'newGame' | 'port'
>;

/** One thread's result with the thread it came from: what the vote weighs. */
export type ThreadResult = SearchResult & { threadIndex: number };

/**
 * Stockfish's vote: each thread's move gets (score − worst score + 14) × depth; the thread whose
 * move has most votes wins (a found win always wins).
 */
export function voteBest(results: ThreadResult[]): ThreadResult {
  const main = results.find((r) => r.threadIndex === 0)!;
  // A helper votes only with an iteration at least as deep as the main search's last one: a
  // shallower result is older and may stand on a move the main search has since refuted. A
  // found win counts at any depth.
  const valid = results.filter(
    (r) => r.best !== '' && r.depth > 0 && (r.depth >= main.depth || r.score >= MATE_BOUND || r === main),
  );
  if (valid.length <= 1 || main.best === '') return main;
  const minScore = Math.min(...valid.map((r) => r.score));
  const votes = new Map<string, number>();
  for (const r of valid) votes.set(r.best, (votes.get(r.best) ?? 0) + (r.score - minScore + 14) * r.depth);
  let best = valid.find((r) => r.threadIndex === 0) ?? valid[0];
  for (const r of valid) {
    if (best.score >= MATE_BOUND) {
      // keep the fastest win
      if (r.score > best.score) best = r;
    } else if (r.score >= MATE_BOUND || votes.get(r.best)! > votes.get(best.best)!) {
      best = r;
    }
  }
  return best;
}

/** The helpers' last completed iterations, from the shared slots (4 Int32 per thread; torn reads skipped). */
export function helperResults(slots: Int32Array, threads: number): ThreadResult[] {
  const out: ThreadResult[] = [];
  for (let i = 1; i < threads && i * 4 + 3 < slots.length; i++) {
    const b = i * 4;
    const seq = Atomics.load(slots, b);
    const move = Atomics.load(slots, b + 1);
    const score = Atomics.load(slots, b + 2);
    const depth = Atomics.load(slots, b + 3);
    if ((seq & 1) !== 0 || Atomics.load(slots, b) !== seq || depth === 0 || move === 0) continue;
    out.push({ threadIndex: i, best: formatMove(move), ponder: '', score, depth, nodes: 0 });
  }
  return out;
}

/**
 * The move to play: the main thread's own when it plays weakened or randomised (Skill, Random),
 * else the vote over the main thread and the helpers. `nodes` is the count of all threads.
 */
export function chooseResult(
  go: Pick<GoRequest, 'skill' | 'random'>,
  main: SearchResult,
  helpers: ThreadResult[],
  nodes: number,
): SearchResult {
  const first: ThreadResult = { ...main, threadIndex: 0 };
  const best = (go.skill ?? MAX_SKILL) < MAX_SKILL || go.random ? first : voteBest([first, ...helpers]);
  return {
    best: best.best,
    ponder: best.threadIndex === 0 || best.best === main.best ? main.ponder : best.ponder,
    score: best.score,
    depth: best.depth,
    nodes,
    error: main.error ?? helpers.find((r) => r.error)?.error,
  };
}

/** What each search's threads carry besides the request: table age, new-game count, table name, result slots. */
export class PoolCore {
  /** Table age of the current search (the same in every thread). */
  age = 0;
  /** Counted up by a new game (and new threads): a thread seeing a new value forgets its history. */
  newGame = 0;
  /** Names the current table for the workers (SearchTask.tableId): a new one after `Hash` changes. */
  tableId = 0;
  /** The helpers' result slots (see SearchTask.results); null where memory is not shared. */
  private slots: Int32Array | null;
  /**
   * What the last search's move was chosen from (the main thread's result, the helpers' last
   * completed iterations) and the choice: how a test sees that both hosts apply one rule.
   */
  lastChoice: { main: SearchResult; helpers: ThreadResult[]; chosen: SearchResult } | null = null;

  constructor(shared: boolean) {
    this.slots = shared ? new Int32Array(new SharedArrayBuffer(4 * 4 * 64)) : null;
  }

  /** The table was emptied (or the history must go): a new game from the threads' view. */
  cleared(): void {
    this.newGame++;
    this.age = 0;
  }

  /** A new table (`Hash` changed). */
  newTable(): void {
    this.tableId++;
  }

  /** A search is starting on `threads` threads: the next age, and empty result slots. */
  begin(threads: number): void {
    if (this.slots && this.slots.length < threads * 4) this.slots = new Int32Array(new SharedArrayBuffer(16 * threads));
    this.slots?.fill(0); // no worker is running: stale slots of the last search go
    this.age = nextAge(this.age);
  }

  /** Thread `i`'s task for `go`, less the host's shared words (table, stop word, node counter) and port. */
  task(go: GoRequest, i: number): Omit<SearchTask, 'tt' | 'control' | 'nodes' | 'port'> {
    return {
      ...go,
      threadIndex: i,
      tableId: this.tableId,
      age: this.age,
      newGame: this.newGame,
      ...(this.slots ? { results: this.slots.buffer as SharedArrayBuffer } : {}),
    };
  }

  /** The move to play once the main thread has answered (the helpers' slots read now). */
  choose(go: GoRequest, main: SearchResult, threads: number, nodes: number): SearchResult {
    const helpers = this.slots ? helperResults(this.slots, threads) : [];
    const chosen = chooseResult(go, main, helpers, nodes);
    this.lastChoice = { main, helpers, chosen };
    return chosen;
  }
}
