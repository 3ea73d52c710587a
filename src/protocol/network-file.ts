/**
 * Network files for the engine (EvalFile): the default network shipped in the package's nets/
 * folder, or a file named by the user; read, checked (src/nnue/network.ts) and kept as bytes in
 * shared memory, so that every search thread parses the same bytes once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from '../core/result';
import { formatNetworkError, readNetwork, type Network } from '../nnue/network';

/** EvalFile's value for the network shipped with the engine. */
export const DEFAULT_EVAL_FILE = 'default';
/** The shipped network's file name in nets/. */
export const DEFAULT_NETWORK_FILE = 'default.nnue';

/** A network as the engine holds it: parsed, and its file's bytes to hand to the threads. */
export interface LoadedNetwork {
  net: Network;
  bytes: SharedArrayBuffer;
  /** Where it came from (a path, or "default"). */
  source: string;
}

/** The package's nets/ folder: next to dist/ (the bundle) or two levels above src/protocol. */
function netsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'dist' ? path.join(here, '..', 'nets') : path.join(here, '..', '..', 'nets');
}

/** Reads and checks a network file; `file` "default" is the shipped network. */
export function loadNetworkFile(file: string): Result<LoadedNetwork, string> {
  const p = file === DEFAULT_EVAL_FILE ? path.join(netsFolder(), DEFAULT_NETWORK_FILE) : file;
  let data: Buffer;
  try {
    data = readFileSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : code ?? String(e);
    return err(`cannot read '${p}': ${why}`);
  }
  const bytes = new SharedArrayBuffer(data.byteLength);
  const view = new Uint8Array(bytes);
  view.set(data);
  const r = readNetwork(view);
  if (!r.ok) return err(`'${p}' is not a network file Thoth can use: ${formatNetworkError(r.error)}`);
  return ok({ net: r.value, bytes, source: file });
}
