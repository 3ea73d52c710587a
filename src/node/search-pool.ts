/**
 * The search threads of the Node host (SearchThreads, src/engine/host.ts; the page's are
 * src/web/web-search-pool.ts): a piscina pool of persistent workers (created at start-up and when
 * `Threads` changes, never inside `go`), all searching the same position (Lazy SMP) and sharing
 * one transposition table in a SharedArrayBuffer. Stop, ponder and the node count are shared
 * words; only thread 0 manages time and streams its reports (SearchInfo objects). Each thread
 * answers with a SearchResult (src/core/score.ts). What the page's threads do too (the tasks, the
 * table age, the vote) is src/engine/pool-core.ts; this file is the transport.
 */
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { setupKfen } from '../core/index';
import { CTRL_PONDER, CTRL_STOP, DEFAULT_LIMITS } from '../search/search';
import type { SearchInfo, SearchResult } from '../core/score';
import { TranspositionTable } from '../search/tt';
import { workerPool } from '../process/pool';
import type { SearchTask } from '../threads/search-worker';
import type { GoRequest, SearchThreads } from '../engine/host';
import { PoolCore } from '../engine/pool-core';

/** The entry point each search thread runs (src/process/pool.ts: its bundle, from the build). */
const SEARCH_THREAD = new URL('../threads/search-worker.ts', import.meta.url);

const WARM_KFEN = setupKfen('khet2', 'classic')!;
/**
 * The warm-up's length: V8 optimises the search's hot functions only after some tens of thousands
 * of nodes; a depth-5 warm-up (about 13,000 nodes from the Classic start) left a fresh engine's
 * first `go movetime 30` at about a fifth of a warm engine's nodes (bench/README.md, "Short
 * searches"). Per thread: each worker compiles its own code (the limit counts all threads' nodes).
 * A `go` interrupts it.
 */
export const WARM_NODES = 30_000;
/** The most wall-clock time a warm-up takes: on a busy machine it stops here, short of its nodes. */
export const WARM_MS = 60_000;

export { voteBest, type ThreadResult } from '../engine/pool-core';

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

/** The search threads of the Node host (SearchThreads, src/engine/host.ts). */
export class SearchPool implements SearchThreads {
  private pool: Piscina;
  /** The threads a search runs on (`Threads`). */
  private threadCount: number;
  /**
   * The pool's workers: the most threads set so far. Fewer threads search on some of them, and the
   * others wait: a pool's threads ended do not give back all their memory (Node 20: about 0.8 MB
   * more at each new pool, 102 MB to 204 MB after 120), and `thoth gui` sets one thread (a level,
   * a review) and all of them (analysis) in turn, several times a minute.
   */
  private poolSize: number;
  readonly control = new Int32Array(new SharedArrayBuffer(16));
  private readonly nodeCounter = new BigInt64Array(new SharedArrayBuffer(8));
  /**
   * The table's memory: one buffer, as large as the largest `Hash` set so far; a smaller table uses
   * its first `ttBytes` bytes. A new buffer for every `Hash` was memory that stayed: a worker
   * thread lets go of a buffer it was sent only when its heap is collected, and a search thread,
   * which allocates next to nothing, may never be; `thoth gui`, which sets a review's table (16 MB)
   * and its own (256 MB) in turn, grew by a table at each change (1.5 GB after six reviews).
   */
  private ttBuffer: SharedArrayBuffer;
  private ttBytes: number;
  /** Table age, new-game count, table name, result slots, the vote: shared with the page's pool. */
  readonly core = new PoolCore(true);
  private running = false;
  private stopRequested = false;
  private ponderhitRequested = false;
  /** Helpers of the last search that may still be finishing (awaited before the next one). */
  private stragglers: Promise<unknown> = Promise.resolve();
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
    this.poolSize = threads;
    this.ttBuffer = TranspositionTable.allocate(hashMb);
    this.ttBytes = this.ttBuffer.byteLength;
    this.pool = workerPool(SEARCH_THREAD, threads);
    this.ready = Promise.all([this.warm(this.pool, threads), this.touchTable()]).then(() => {});
  }

  /**
   * Maps every page of the table (split over the threads), so that the first search does not
   * pay the page faults of a new table (see `touch` in src/threads/search-worker.ts).
   */
  private async touchTable(): Promise<void> {
    await this.overTable('touch');
  }

  /** Runs `name` (touch or clear, src/threads/search-worker.ts) over the table's words, split over the threads. */
  private async overTable(name: 'touch' | 'clear'): Promise<void> {
    const jobs = clearRanges(this.ttBytes, this.poolSize).map(([from, to]) =>
      this.pool.run({ tt: this.ttBuffer, from, to }, { name }),
    );
    await Promise.all(jobs);
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
        // as the main search (any worker may be the next search's thread 0): its time checks
        // and reports run too, so that the first real search does not meet them cold (V8 drops
        // code it never saw run, and the first search then ran on slower code)
        threadIndex: 0,
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
        limits: {
          ...DEFAULT_LIMITS,
          nodes: WARM_NODES * threads,
          optimumMs: WARM_MS,
          maximumMs: WARM_MS,
          searchMoves: [],
        },
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
    this.ready = this.warm(this.pool, this.poolSize);
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
    return new TranspositionTable(this.ttBuffer, this.ttBytes);
  }

  /**
   * Searches on `n` threads from now on (call only while idle): on the pool's workers when it has
   * enough (see `poolSize`), else on a new pool of `n`, warmed up.
   */
  async setThreads(n: number): Promise<void> {
    if (n === this.threadCount) return;
    await this.stragglers;
    this.threadCount = n;
    this.core.newGame++;
    if (n <= this.poolSize) return;
    const old = this.pool;
    this.pool = workerPool(SEARCH_THREAD, n);
    this.poolSize = n;
    await old.destroy();
    this.ready = this.warm(this.pool, n);
    await this.ready;
  }

  /**
   * A new, empty table of `mb` megabytes; resolves when its pages are mapped. It is the start of
   * the buffer when that is large enough (emptied), else a new buffer (see `ttBuffer`): the memory
   * is that of the largest table set since the start.
   */
  async resize(mb: number): Promise<void> {
    const bytes = TranspositionTable.bytesFor(mb);
    const grow = bytes > this.ttBuffer.byteLength;
    if (grow) this.ttBuffer = TranspositionTable.allocate(mb);
    this.ttBytes = bytes;
    this.core.newTable();
    await this.stragglers;
    await this.overTable(grow ? 'touch' : 'clear');
  }

  /** Empties the table (split over the threads) and the history tables. */
  async clear(): Promise<void> {
    await this.stragglers;
    await this.overTable('clear');
    this.core.cleared();
  }

  /** Starts a search on every thread; resolves when all have stopped, with the voted move. */
  async start(go: GoRequest, ponder: boolean, onInfo: (info: SearchInfo) => void): Promise<SearchResult> {
    if (this.running) throw new Error('a search is already running');
    this.running = true;
    this.stopRequested = false;
    this.ponderhitRequested = false;
    await this.stragglers;
    // a `stop` or `ponderhit` that came while the last helpers were finishing still counts
    Atomics.store(this.control, CTRL_STOP, this.stopRequested ? 1 : 0);
    Atomics.store(this.control, CTRL_PONDER, ponder && !this.ponderhitRequested ? 1 : 0);
    Atomics.store(this.nodeCounter, 0, 0n);
    this.core.begin(this.threadCount);
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
          ...this.core.task(go, i),
          tt: this.ttBuffer,
          ttBytes: this.ttBytes,
          control: this.control.buffer as SharedArrayBuffer,
          nodes: this.nodeCounter.buffer as SharedArrayBuffer,
          port: i === 0 ? channel.port2 : undefined,
        };
        tasks.push(this.pool.run(task, i === 0 ? { transferList: [channel.port2] } : {}) as Promise<SearchResult>);
      }
      // Answer as soon as the main search is done (it stops the helpers); the helpers' last
      // completed iterations are read from the shared slots for the vote.
      const main = await tasks[0];
      this.stragglers = Promise.allSettled(tasks.slice(1));
      await closed;
      channel.port1.close();
      return this.core.choose(go, main, this.threadCount, Number(Atomics.load(this.nodeCounter, 0)));
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
