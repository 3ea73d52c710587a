/**
 * A search thread of the static build, in a Web Worker: it runs the same search task as the
 * engine's Node worker threads (src/threads/search-worker.ts). With shared memory (a
 * cross-origin isolated page) the table, the stop word and the node counter come from the page
 * and are shared by all threads; without it the worker keeps its own table, and the page stops a
 * search by ending the worker (src/web/web-search-pool.ts).
 */
import type { SearchInfo, SearchResult } from '../core/score';
import { TranspositionTable } from '../search/tt';
import search, { clear, type SearchTask } from '../threads/search-worker';

/** Page → worker. */
export type ToWorker =
  | {
      kind: 'search';
      task: Omit<SearchTask, 'port' | 'tt' | 'control' | 'nodes'> &
        Partial<Pick<SearchTask, 'tt' | 'control' | 'nodes'>>;
      hashMb: number;
    }
  | { kind: 'clear'; hashMb: number; tt?: SharedArrayBuffer; from?: number; to?: number };

/** Worker → page. */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'info'; info: SearchInfo }
  | { kind: 'done'; result: SearchResult }
  | { kind: 'cleared' };

const post = (m: FromWorker): void => (self as unknown as Worker).postMessage(m);

/** The worker's own buffers when nothing is shared. */
let own: { mb: number; tt: SharedArrayBuffer; control: SharedArrayBuffer; nodes: SharedArrayBuffer } | null = null;
function ownBuffers(mb: number): NonNullable<typeof own> {
  if (!own || own.mb !== mb) {
    own = {
      mb,
      tt: TranspositionTable.allocate(mb),
      control: new ArrayBuffer(16) as unknown as SharedArrayBuffer,
      nodes: new ArrayBuffer(8) as unknown as SharedArrayBuffer,
    };
  }
  return own;
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.kind === 'clear') {
    if (m.tt) clear({ tt: m.tt, from: m.from ?? 0, to: m.to ?? 0 });
    else if (own) new Int32Array(own.tt).fill(0);
    post({ kind: 'cleared' });
    return;
  }
  const local = m.task.tt ? null : ownBuffers(m.hashMb);
  if (local) new Int32Array(local.control).fill(0);
  // The info of the main thread goes straight to the page (it arrives while the search runs).
  const port = {
    postMessage: (x: SearchInfo | null) => (x === null ? undefined : post({ kind: 'info', info: x })),
    close: () => {},
  };
  const task = {
    ...m.task,
    tt: m.task.tt ?? local!.tt,
    control: m.task.control ?? local!.control,
    nodes: m.task.nodes ?? local!.nodes,
    port: m.task.threadIndex === 0 ? port : undefined,
  } as SearchTask;
  post({ kind: 'done', result: search(task) });
};

post({ kind: 'ready' });
