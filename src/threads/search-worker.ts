/**
 * The search thread. It owns a Searcher whose transposition table lives in a SharedArrayBuffer
 * handed over by the main thread, and it is stopped through a shared control word. Protocol
 * lines are sent to the main thread, which alone writes to stdout.
 */
import { parentPort } from 'node:worker_threads';
import { formatMove, parseKfen, parseMove, type EditionId } from '../core/index';
import { DEFAULT_FEATURES, Searcher, type SearchFeatures, type SearchLimits } from '../search/search';
import { TranspositionTable } from '../search/tt';

export type ToWorker =
  | { type: 'init'; tt: SharedArrayBuffer; control: SharedArrayBuffer }
  | { type: 'tt'; tt: SharedArrayBuffer }
  | { type: 'clear' }
  | {
      type: 'go';
      id: number;
      edition: EditionId;
      pharaohRotation: boolean;
      kfen: string;
      moves: string[];
      limits: Omit<SearchLimits, 'searchMoves'> & { searchMoves: string[] };
      features?: SearchFeatures;
      /** Date.now() when the main thread received `go`: the worker subtracts the lag. */
      received: number;
    };

export type FromWorker =
  | { type: 'info'; id: number; line: string }
  | { type: 'done'; id: number; best: string; ponder: string; score: number; depth: number; nodes: number }
  | { type: 'error'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('search-worker must run in a worker thread');

let searcher: Searcher | undefined;

port.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'init':
      searcher = new Searcher(new TranspositionTable(msg.tt), new Int32Array(msg.control));
      break;
    case 'tt':
      if (searcher) searcher.tt = new TranspositionTable(msg.tt);
      break;
    case 'clear':
      if (searcher) {
        searcher.tt.clear();
        searcher.clearHistory();
      }
      break;
    case 'go':
      go(msg);
      break;
  }
});

function go(msg: Extract<ToWorker, { type: 'go' }>): void {
  const s = searcher;
  if (!s) {
    port!.postMessage({ type: 'error', id: msg.id, message: 'search thread not initialised' } satisfies FromWorker);
    return;
  }
  try {
    const r = parseKfen(msg.kfen, msg.edition, { pharaohRotation: msg.pharaohRotation });
    if (!r.ok) throw new Error(r.error.message);
    const pos = r.value;
    for (const t of msg.moves) {
      const m = parseMove(pos, t);
      if (!m.ok) throw new Error(m.error.message);
      pos.make(m.value);
    }
    const searchMoves: number[] = [];
    for (const t of msg.limits.searchMoves) {
      const m = parseMove(pos, t);
      if (m.ok) searchMoves.push(m.value);
    }
    const lag = Math.max(0, Date.now() - msg.received);
    const limits: SearchLimits = {
      ...msg.limits,
      searchMoves,
      optimumMs: msg.limits.optimumMs > 0 ? Math.max(1, msg.limits.optimumMs - lag) : 0,
      maximumMs: msg.limits.maximumMs > 0 ? Math.max(1, msg.limits.maximumMs - lag) : 0,
    };
    s.features = msg.features ?? { ...DEFAULT_FEATURES };
    s.onInfo = (line) => port!.postMessage({ type: 'info', id: msg.id, line } satisfies FromWorker);
    const res = s.run(pos, limits);
    const fmt = (m: number): string => (m === 0 ? '' : formatMove(m));
    port!.postMessage({
      type: 'done', id: msg.id, best: fmt(res.best), ponder: fmt(res.ponder), score: res.score, depth: res.depth, nodes: res.nodes,
    } satisfies FromWorker);
  } catch (e) {
    port!.postMessage({ type: 'error', id: msg.id, message: e instanceof Error ? e.message : String(e) } satisfies FromWorker);
  }
}
