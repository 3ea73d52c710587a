/**
 * The search threads of the Node host (SearchThreads, engine-host.ts; the page's are
 * src/web/search-pool.ts): a piscina pool of persistent workers (created at start-up and when
 * `Threads` changes, never inside `go`), all searching the same position (Lazy SMP) and sharing
 * one transposition table in a SharedArrayBuffer. Stop, ponder and the node count are shared
 * words; only thread 0 manages time and streams its reports (SearchInfo objects). Each thread
 * answers with a SearchResult (src/core/score.ts); the vote's winner is handed on in that shape.
 */
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { formatMove, setupKfen } from '../core/index';
import { CTRL_PONDER, CTRL_STOP, DEFAULT_LIMITS } from '../search/search';
import { MATE_BOUND, type SearchInfo, type SearchResult } from '../core/score';
import { TranspositionTable } from '../search/tt';
import { workerPool } from '../process/pool';
import type { SearchTask } from '../threads/search-worker';
import type { GoRequest, SearchThreads } from './engine-host';

const WARM_KFEN = setupKfen('khet2', 'classic')!;
/**
 * The warm-up's length: V8 optimises the search's hot functions only after some tens of thousands
 * of nodes; a depth-5 warm-up (about 13,000 nodes from the Classic start) left a fresh engine's
 * first `go movetime 30` at about a fifth of a warm engine's nodes (bench/README.md, "Short
 * searches"). Per thread: each worker compiles its own code (the limit counts all threads' nodes).
 * A `go` interrupts it.
 */
const WARM_NODES = 30_000;

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

/**
 * The word ranges [from, to) that clear a table of `byteLength` bytes split over `threads`
 * threads, in whole buckets of 16 words. Plain arithmetic, not 32-bit shifts: a table of 2 GB or
 * more has 2^29 words or more (a `>> 2` of its byte length overflows).
 */
export function clearRanges(byteLength: number, threads: number): Array<[number, number]> {
  const words = Math.floor(byteLength / 4);
  const chunk = Math.ceil(words / threads / 16) * 16;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < threads; i++) {
    const from = Math.min(words, i * chunk);
    const to = Math.min(words, from + chunk);
    if (from < to) out.push([from, to]);
  }
  return out;
}

/** The search threads of the Node host (SearchThreads, engine-host.ts). */
export class SearchPool implements SearchThreads {
  private pool: Piscina;
  private threadCount: number;
  readonly control = new Int32Array(new SharedArrayBuffer(16));
  private readonly nodeCounter = new BigInt64Array(new SharedArrayBuffer(8));
  private ttBuffer: SharedArrayBuffer;
  /** Names the current table for the workers (see SearchTask.tableId). */
  private tableId = 0;
  private age = 0;
  private newGame = 0;
  private running = false;
  private stopRequested = false;
  private ponderhitRequested = false;
  /** Helpers of the last search that may still be finishing (awaited before the next one). */
  private stragglers: Promise<unknown> = Promise.resolve();
  private results = new Int32Array(new SharedArrayBuffer(4 * 4 * 64));
  /** Resolves when every worker of the current pool has run its warm-up search. */
  ready: Promise<void>;
  /** The node counter of the last warm-up (all its threads). */
  private warmNodes: BigInt64Array<ArrayBufferLike> = new BigInt64Array(1);
  /** The nodes the last warm-up searched, all threads together. */
  get warmedNodes(): number {
    return Number(Atomics.load(this.warmNodes, 0));
  }
  /** The stop word of the warm-up searches. */
  private warmControl = new Int32Array(new SharedArrayBuffer(16));

  /** The network the warm-up searches with (the one the real searches will use). */
  private warmNetwork: SharedArrayBuffer | undefined;

  constructor(threads: number, hashMb: number, network?: SharedArrayBuffer) {
    this.warmNetwork = network;
    this.threadCount = threads;
    this.ttBuffer = TranspositionTable.allocate(hashMb);
    this.pool = workerPool('search-worker', threads);
    this.ready = this.warm(this.pool, threads);
  }

  /**
   * Runs a short search on every worker, on a scratch table, with the network the real searches
   * will use, so that the first real search starts with loaded, compiled code and the network
   * already parsed in each thread (a cold worker answers `stop` several times slower, and parsing
   * the network took a first `go movetime` past its time). `interruptWarmup` cuts it short.
   */
  private async warm(pool: Piscina, threads: number): Promise<void> {
    this.warmControl = new Int32Array(new SharedArrayBuffer(16));
    const control = this.warmControl.buffer as SharedArrayBuffer;
    const nodes = new SharedArrayBuffer(8);
    this.warmNodes = new BigInt64Array(nodes);
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < threads; i++) {
      const task: SearchTask = {
        threadIndex: 1, // a helper: no time management, no info lines
        tt: TranspositionTable.allocate(1),
        tableId: -1,
        control,
        nodes,
        age: 0,
        newGame: -1, // the first real search then starts with fresh history tables
        edition: 'khet2',
        pharaohRotation: false,
        kfen: WARM_KFEN,
        moves: [],
        limits: { ...DEFAULT_LIMITS, nodes: WARM_NODES * threads, searchMoves: [] },
        received: Date.now(),
        network: this.warmNetwork,
      };
      jobs.push(pool.run(task));
    }
    await Promise.all(jobs);
  }

  /**
   * The evaluation changed (a new EvalFile, UseNNUE): warms the threads up again with `network`
   * (undefined: the hand-written evaluation). Call only while idle.
   */
  async warmWith(network: SharedArrayBuffer | undefined): Promise<void> {
    if (network === this.warmNetwork) return;
    this.warmNetwork = network;
    await this.stragglers;
    this.ready = this.warm(this.pool, this.threadCount);
    await this.ready;
  }

  /** Ends the warm-up searches now (a `go` is waiting: its clock is running). */
  interruptWarmup(): void {
    Atomics.store(this.warmControl, CTRL_STOP, 1);
  }

  get threads(): number {
    return this.threadCount;
  }

  get busy(): boolean {
    return this.running;
  }

  /** The shared table (read-only use on the main thread). */
  get table(): TranspositionTable {
    return new TranspositionTable(this.ttBuffer);
  }

  /** Rebuilds the pool with `n` threads (call only while idle). */
  async setThreads(n: number): Promise<void> {
    if (n === this.threadCount) return;
    await this.stragglers;
    const old = this.pool;
    this.threadCount = n;
    this.pool = workerPool('search-worker', n);
    this.newGame++;
    await old.destroy();
    this.ready = this.warm(this.pool, n);
    await this.ready;
  }

  /** A new, empty table of `mb` megabytes. */
  resize(mb: number): void {
    this.ttBuffer = TranspositionTable.allocate(mb);
    this.tableId++;
  }

  /** Empties the table (split over the threads) and the history tables. */
  async clear(): Promise<void> {
    await this.stragglers;
    this.newGame++;
    const jobs = clearRanges(this.ttBuffer.byteLength, this.threadCount).map(([from, to]) =>
      this.pool.run({ tt: this.ttBuffer, from, to }, { name: 'clear' }),
    );
    await Promise.all(jobs);
    this.age = 0;
  }

  /** Starts a search on every thread; resolves when all have stopped, with the voted move. */
  async start(go: GoRequest, ponder: boolean, onInfo: (info: SearchInfo) => void): Promise<SearchResult> {
    if (this.running) throw new Error('a search is already running');
    this.running = true;
    this.stopRequested = false;
    this.ponderhitRequested = false;
    await this.stragglers;
    if (this.results.length < this.threadCount * 4)
      this.results = new Int32Array(new SharedArrayBuffer(16 * this.threadCount));
    this.results.fill(0); // no worker is running: stale slots of the last search go
    // a `stop` or `ponderhit` that came while the last helpers were finishing still counts
    Atomics.store(this.control, CTRL_STOP, this.stopRequested ? 1 : 0);
    Atomics.store(this.control, CTRL_PONDER, ponder && !this.ponderhitRequested ? 1 : 0);
    Atomics.store(this.nodeCounter, 0, 0n);
    this.age = (this.age + 1) & 63;
    const channel = new MessageChannel();
    // Thread 0 ends its stream with a null message: then every report has been delivered.
    const closed = new Promise<void>((resolve) => {
      channel.port1.on('message', (info: SearchInfo | null) => {
        if (info === null) resolve();
        else onInfo(info);
      });
    });
    try {
      const tasks: Promise<SearchResult>[] = [];
      for (let i = 0; i < this.threadCount; i++) {
        const task: SearchTask = {
          ...go,
          threadIndex: i,
          tt: this.ttBuffer,
          tableId: this.tableId,
          control: this.control.buffer as SharedArrayBuffer,
          nodes: this.nodeCounter.buffer as SharedArrayBuffer,
          age: this.age,
          newGame: this.newGame,
          port: i === 0 ? channel.port2 : undefined,
          results: this.results.buffer as SharedArrayBuffer,
        };
        tasks.push(this.pool.run(task, i === 0 ? { transferList: [channel.port2] } : {}) as Promise<SearchResult>);
      }
      // Answer as soon as the main search is done (it stops the helpers); the helpers' last
      // completed iterations are read from the shared slots for the vote.
      const main: ThreadResult = { ...(await tasks[0]), threadIndex: 0 };
      this.stragglers = Promise.allSettled(tasks.slice(1));
      await closed;
      channel.port1.close();
      const results = [main, ...this.helperResults()];
      // A weakened or randomised choice is the main thread's own: no vote.
      const best = (go.skill ?? 20) < 20 || go.random ? main : voteBest(results);
      return {
        best: best.best,
        ponder: best.threadIndex === main.threadIndex || best.best === main.best ? main.ponder : best.ponder,
        score: best.score,
        depth: best.depth,
        nodes: Number(Atomics.load(this.nodeCounter, 0)),
        error: results.find((r) => r.error)?.error,
      };
    } catch (e) {
      Atomics.store(this.control, CTRL_STOP, 1);
      channel.port1.close();
      return {
        best: '',
        ponder: '',
        score: 0,
        depth: 0,
        nodes: 0,
        error: `search thread failed: ${e instanceof Error ? e.message : String(e)}`,
      };
    } finally {
      this.running = false;
    }
  }

  /** The helpers' last completed iterations, from the shared slots (torn reads skipped). */
  private helperResults(): ThreadResult[] {
    const out: ThreadResult[] = [];
    const r = this.results;
    for (let i = 1; i < this.threadCount; i++) {
      const b = i * 4;
      const seq = Atomics.load(r, b);
      const move = Atomics.load(r, b + 1);
      const score = Atomics.load(r, b + 2);
      const depth = Atomics.load(r, b + 3);
      if ((seq & 1) !== 0 || Atomics.load(r, b) !== seq || depth === 0 || move === 0) continue;
      out.push({ threadIndex: i, best: formatMove(move), ponder: '', score, depth, nodes: 0 });
    }
    return out;
  }

  stop(): void {
    this.stopRequested = true;
    Atomics.store(this.control, CTRL_STOP, 1);
  }

  ponderhit(): void {
    this.ponderhitRequested = true;
    Atomics.store(this.control, CTRL_PONDER, 0);
  }

  async destroy(): Promise<void> {
    this.stop();
    await this.stragglers;
    await this.pool.destroy();
  }
}
