/**
 * The search threads of the static build (SearchThreads, src/engine/host.ts, as the page
 * host provides them: page-host.ts): Web Workers where the Node host has its piscina pool
 * (src/node/search-pool.ts), so that the engine's own protocol (src/protocol/uci.ts) runs in
 * the page unchanged.
 *
 * Stopping a search. A worker that searches cannot read a message until the search returns, so:
 * - with shared memory (a cross-origin isolated page: served with COOP/COEP headers) the stop
 *   word, the table and the node counter are SharedArrayBuffers, `stop` sets the word as in Node,
 *   and several workers search together (Lazy SMP: they share the table; the move is chosen by
 *   the Node pool's rule, src/engine/pool-core.ts: the vote over the threads' last iterations);
 * - without it (file://, an ordinary static host) there is one worker with its own table, and
 *   `stop` ends the worker and answers with the last completed iteration's move (from its
 *   `info`); a fresh worker takes the next search (the table starts empty again). Searches with a
 *   time, depth or node limit end by themselves; only `go infinite` (analysis) and cancelled
 *   searches are stopped this way.
 */
import type { GoRequest, SearchThreads } from '../engine/host';
import { PoolCore } from '../engine/pool-core';
import { CTRL_PONDER, CTRL_STOP } from '../search/search';
import type { SearchInfo, SearchResult } from '../core/score';
import { TranspositionTable } from '../search/tt';
import type { FromWorker, ToWorker } from './web-search-worker';

/** The worker's code, put in by build.mjs (a worker is started from a Blob: file:// pages may not load worker files). */
declare const __SEARCH_WORKER_SOURCE__: string;

/** Is memory shared between the page and its workers here? */
export function sharedMemory(): boolean {
  return (
    typeof SharedArrayBuffer === 'function' &&
    (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true
  );
}

let scriptUrl: string | null = null;
const workerScript = (): string =>
  (scriptUrl ??= URL.createObjectURL(new Blob([__SEARCH_WORKER_SOURCE__], { type: 'text/javascript' })));

class Thread {
  readonly worker = new Worker(workerScript());
  readonly ready: Promise<void>;
  onMessage: (m: FromWorker) => void = () => {};
  constructor() {
    this.ready = new Promise((resolve, reject) => {
      this.worker.onerror = (e) => reject(new Error(`search worker failed: ${e.message}`));
      this.worker.onmessage = (e: MessageEvent<FromWorker>) => {
        if (e.data.kind === 'ready') {
          this.worker.onmessage = (ev: MessageEvent<FromWorker>) => this.onMessage(ev.data);
          resolve();
        }
      };
    });
  }
  send(m: ToWorker): void {
    this.worker.postMessage(m);
  }
}

/** What the last completed iteration of the main thread said (read from its info). */
interface LastIteration {
  best: string;
  ponder: string;
  depth: number;
}

interface Running {
  resolve: (d: SearchResult) => void;
  go: GoRequest;
  last: LastIteration | null;
  stopRequested: boolean;
}

export class SearchPool implements SearchThreads {
  private readonly shared = sharedMemory();
  private threadCount: number;
  private hashMb: number;
  private pool: Thread[] = [];
  /**
   * The shared table's memory, as in the Node pool (src/node/search-pool.ts, `ttBuffer`): one
   * buffer as large as the largest `Hash` so far, of which a smaller table uses the first
   * `ttBytes` bytes (a worker lets go of a buffer only when its heap is collected).
   */
  private tt: SharedArrayBuffer | null = null;
  private ttBytes = 0;
  private readonly control: Int32Array | null;
  private readonly nodes: BigInt64Array | null;
  /** Table age, new-game count, table name, result slots, the vote: shared with the Node pool. */
  readonly core = new PoolCore(this.shared);
  private running: Running | null = null;
  /** Helpers of the last search still finishing (awaited before the next one). */
  private stragglers: Promise<unknown> = Promise.resolve();
  ready: Promise<void> = Promise.resolve();

  constructor(threads: number, hashMb: number) {
    this.threadCount = this.shared ? threads : 1;
    this.hashMb = hashMb;
    this.control = this.shared ? new Int32Array(new SharedArrayBuffer(16)) : null;
    this.nodes = this.shared ? new BigInt64Array(new SharedArrayBuffer(8)) : null;
    if (this.shared) {
      this.tt = TranspositionTable.allocate(hashMb);
      this.ttBytes = this.tt.byteLength;
    }
    this.spawn();
  }

  private spawn(): void {
    for (const t of this.pool) t.worker.terminate();
    this.pool = Array.from({ length: this.threadCount }, () => new Thread());
    this.ready = Promise.all(this.pool.map((t) => t.ready)).then(() => {});
  }

  /** The workers are not warmed up here (a page starts them when it needs them). */
  async warmWith(): Promise<void> {}

  get threads(): number {
    return this.threadCount;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  get table(): TranspositionTable {
    return this.tt ? new TranspositionTable(this.tt, this.ttBytes) : new TranspositionTable(1);
  }

  /** More than one thread only with shared memory. */
  async setThreads(n: number): Promise<void> {
    const want = this.shared ? n : 1;
    if (want === this.threadCount) return;
    await this.stragglers;
    this.threadCount = want;
    this.core.newGame++;
    this.spawn();
    await this.ready;
  }

  async resize(mb: number): Promise<void> {
    this.hashMb = mb;
    this.core.newTable();
    if (!this.tt) {
      this.spawn(); // the worker's own table has the old size
      return;
    }
    const bytes = TranspositionTable.bytesFor(mb);
    await this.stragglers;
    if (bytes > this.tt.byteLength) this.tt = TranspositionTable.allocate(mb);
    else new Int32Array(this.tt, 0, bytes / 4).fill(0);
    this.ttBytes = bytes;
  }

  async clear(): Promise<void> {
    await this.stragglers;
    this.core.cleared();
    if (this.tt) {
      new Int32Array(this.tt, 0, this.ttBytes / 4).fill(0);
      return;
    }
    await this.ready;
    const t = this.pool[0];
    await new Promise<void>((resolve) => {
      t.onMessage = (m) => {
        if (m.kind === 'cleared') resolve();
      };
      t.send({ kind: 'clear', hashMb: this.hashMb });
    });
  }

  async start(go: GoRequest, ponder: boolean, onInfo: (info: SearchInfo) => void): Promise<SearchResult> {
    if (this.running) throw new Error('a search is already running');
    let resolve!: (d: SearchResult) => void;
    const done = new Promise<SearchResult>((r) => (resolve = r));
    const run: Running = { resolve, go, last: null, stopRequested: false };
    this.running = run;
    await this.stragglers;
    await this.ready;
    if (this.running !== run) return done; // stopped while waiting
    this.core.begin(this.threadCount);
    if (this.control && this.nodes) {
      Atomics.store(this.control, CTRL_STOP, run.stopRequested ? 1 : 0);
      Atomics.store(this.control, CTRL_PONDER, ponder ? 1 : 0);
      Atomics.store(this.nodes, 0, 0n);
    }
    const helpers: Promise<void>[] = [];
    this.pool.forEach((t, i) => {
      const task: ToWorker = {
        kind: 'search',
        hashMb: this.hashMb,
        task: {
          ...this.core.task(go, i),
          ...(this.tt && this.control && this.nodes
            ? {
                tt: this.tt,
                ttBytes: this.ttBytes,
                control: this.control.buffer as SharedArrayBuffer,
                nodes: this.nodes.buffer as SharedArrayBuffer,
              }
            : {}),
        },
      };
      if (i === 0) {
        t.onMessage = (m) => {
          if (this.running !== run) return;
          if (m.kind === 'info') {
            const last = lastIteration(m.info);
            if (last) run.last = last;
            onInfo(m.info);
          } else if (m.kind === 'done') this.finish(run, m.result);
        };
      } else {
        helpers.push(new Promise<void>((r) => (t.onMessage = (m) => m.kind === 'done' && r())));
      }
      t.send(task);
    });
    this.stragglers = Promise.all(helpers);
    return done;
  }

  private finish(run: Running, r: SearchResult): void {
    if (this.running !== run) return;
    this.running = null;
    run.resolve(
      this.core.choose(run.go, r, this.threadCount, this.nodes ? Number(Atomics.load(this.nodes, 0)) : r.nodes),
    );
  }

  stop(): void {
    const run = this.running;
    if (!run) return;
    run.stopRequested = true;
    if (this.control) {
      Atomics.store(this.control, CTRL_STOP, 1);
      return;
    }
    // The worker cannot hear us while it searches: it goes, and the last iteration answers.
    this.spawn();
    const last = run.last;
    this.finish(run, {
      best: last?.best ?? '',
      ponder: last?.ponder ?? '',
      score: 0,
      depth: last?.depth ?? 0,
      nodes: 0,
    });
  }

  /** Workers start cold here (no warm-up search to cut short). */
  interruptWarmup(): void {}

  /** Pondering needs the shared stop and ponder words (the page does not ponder). */
  ponderhit(): void {
    if (this.control) Atomics.store(this.control, CTRL_PONDER, 0);
  }

  async destroy(): Promise<void> {
    this.stop();
    for (const t of this.pool) t.worker.terminate();
    this.pool = [];
  }
}

/** The move of a completed iteration of the first line, from the main thread's report. */
function lastIteration(info: SearchInfo): LastIteration | null {
  if (info.multipv !== 1 || info.bound !== 'exact' || info.pv.length === 0) return null;
  return { best: info.pv[0], ponder: info.pv[1] ?? '', depth: info.depth };
}
