/** The main thread's handle on the search worker: start, stop, and the shared memory. */
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from '../threads/search-worker';
import { workerFile } from '../threads/worker-file';
import { CTRL_PONDER, CTRL_STOP } from '../search/search';
import { TranspositionTable } from '../search/tt';

export type GoMessage = Omit<Extract<ToWorker, { type: 'go' }>, 'type' | 'id'>;

export interface SearchDone {
  best: string;
  ponder: string;
  score: number;
  depth: number;
  nodes: number;
  error?: string;
}

export class SearchThread {
  private worker: Worker;
  readonly control = new Int32Array(new SharedArrayBuffer(16));
  private ttBuffer: SharedArrayBuffer;
  private nextId = 1;
  private current: { id: number; onInfo: (line: string) => void; resolve: (d: SearchDone) => void } | undefined;

  constructor(hashMb: number) {
    const wf = workerFile('search-worker');
    this.worker = new Worker(wf.filename, { execArgv: wf.execArgv });
    this.worker.unref();
    this.ttBuffer = TranspositionTable.allocate(hashMb);
    this.post({ type: 'init', tt: this.ttBuffer, control: this.control.buffer as SharedArrayBuffer });
    this.worker.on('message', (msg: FromWorker) => this.onMessage(msg));
    this.worker.on('error', (e) => {
      const c = this.current;
      this.current = undefined;
      c?.resolve({ best: '', ponder: '', score: 0, depth: 0, nodes: 0, error: `search thread failed: ${e.message}` });
    });
  }

  private post(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  /** The shared table (the main thread reads hashfull from it for `d`, writes nothing). */
  get table(): TranspositionTable {
    return new TranspositionTable(this.ttBuffer);
  }

  resize(mb: number): void {
    this.ttBuffer = TranspositionTable.allocate(mb);
    this.post({ type: 'tt', tt: this.ttBuffer });
  }

  clear(): void {
    this.post({ type: 'clear' });
  }

  start(go: GoMessage, ponder: boolean, onInfo: (line: string) => void): Promise<SearchDone> {
    if (this.current) throw new Error('a search is already running');
    Atomics.store(this.control, CTRL_STOP, 0);
    Atomics.store(this.control, CTRL_PONDER, ponder ? 1 : 0);
    const id = this.nextId++;
    return new Promise<SearchDone>((resolve) => {
      this.current = { id, onInfo, resolve };
      this.post({ type: 'go', id, ...go });
    });
  }

  stop(): void {
    Atomics.store(this.control, CTRL_STOP, 1);
  }

  ponderhit(): void {
    Atomics.store(this.control, CTRL_PONDER, 0);
  }

  private onMessage(msg: FromWorker): void {
    const c = this.current;
    if (!c || msg.id !== c.id) return;
    if (msg.type === 'info') {
      c.onInfo(msg.line);
      return;
    }
    this.current = undefined;
    if (msg.type === 'done') {
      c.resolve({ best: msg.best, ponder: msg.ponder, score: msg.score, depth: msg.depth, nodes: msg.nodes });
    } else {
      c.resolve({ best: '', ponder: '', score: 0, depth: 0, nodes: 0, error: msg.message });
    }
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
