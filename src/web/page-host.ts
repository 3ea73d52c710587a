/**
 * The engine's host in the page of the static build (EngineHost, src/engine/host.ts):
 * the cores from navigator.hardwareConcurrency, search threads in Web Workers (web-search-pool.ts),
 * and EvalFile: a page reads no files, so the shipped network travels inside the page (build.mjs
 * puts nets/default.nnue in as base64 when there is one) and other paths are refused.
 */
import { err, ok, type Result } from '../core/result';
import { formatNetworkError, readNetwork } from '../nnue/network';
import { DEFAULT_EVAL_FILE, type EngineHost, type LoadedNetwork } from '../engine/host';
import { SearchPool } from './web-search-pool';

/** The shipped network's bytes as base64 ('' when the build had none), put in by build.mjs. */
declare const __DEFAULT_NETWORK__: string;

function loadShippedNetwork(file: string): Result<LoadedNetwork, string> {
  if (file !== DEFAULT_EVAL_FILE) return err(`cannot read '${file}': a page reads no files (only the shipped network)`);
  if (__DEFAULT_NETWORK__ === '') return err('this build of the page has no network');
  const raw = atob(__DEFAULT_NETWORK__);
  const bytes =
    typeof SharedArrayBuffer === 'function'
      ? new SharedArrayBuffer(raw.length)
      : (new ArrayBuffer(raw.length) as unknown as SharedArrayBuffer);
  const view = new Uint8Array(bytes);
  for (let i = 0; i < raw.length; i++) view[i] = raw.charCodeAt(i);
  const r = readNetwork(view);
  if (!r.ok) return err(`the shipped network is not one Thoth can use: ${formatNetworkError(r.error)}`);
  return ok({ net: r.value, bytes, source: file });
}

export const pageHost: EngineHost = {
  cores: (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency || 1,
  loadNetworkFile: loadShippedNetwork,
  startSearchThreads: (threads, hashMb) => new SearchPool(threads, hashMb),
};
