/**
 * Network files for the engine (EvalFile): the default network shipped in the package's nets/
 * folder, or a file named by the user; read, checked (src/nnue/network.ts) and kept as bytes in
 * shared memory, so that every search thread parses the same bytes once. The Node host's
 * (node-host.ts); the page has its own (src/web/page-host.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from '../core/result';
import { NETWORK_HEADER_BYTES, formatNetworkError, networkFileBytes, readNetwork } from '../nnue/network';
import { DEFAULT_EVAL_FILE, type LoadedNetwork } from '../engine/host';
import { quote } from '../core/quote';

/** The shipped network's file name in nets/. */
const DEFAULT_NETWORK_FILE = 'default.nnue';

/** The package's nets/ folder: next to dist/ (the bundle) or two levels above src/node. */
function netsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'dist' ? path.join(here, '..', 'nets') : path.join(here, '..', '..', 'nets');
}

/** What a failed file operation means, in words. */
function why(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? String(e);
}

/** What a path is when it is not a regular file. */
function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Reads `n` bytes at `at` (fewer at the end of the file). */
function readAt(fd: number, n: number, at: number): Uint8Array {
  const buf = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, at + got);
    if (k === 0) break;
    got += k;
  }
  return buf.subarray(0, got);
}

/**
 * Reads and checks a network file; `file` "default" is the shipped network. The file is opened
 * without blocking and checked before it is read whole: it must be a regular file (not a pipe, a
 * device such as /dev/zero or a folder), its header must be a Thoth network's, and its size the
 * one that header gives; so a foreign or huge file is refused after reading a few bytes.
 */
export function loadNetworkFile(file: string): Result<LoadedNetwork, string> {
  const p = file === DEFAULT_EVAL_FILE ? path.join(netsFolder(), DEFAULT_NETWORK_FILE) : file;
  const refused = (message: string): Result<LoadedNetwork, string> =>
    err(`${quote(p)} is not a network file Thoth can use: ${message}`);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer
    fd = openSync(p, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return err(`cannot read ${quote(p)}: ${why(e)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return err(`cannot read ${quote(p)}: ${fileKind(st)}, not a network file`);
    const header = readAt(fd, NETWORK_HEADER_BYTES, 0);
    const size = networkFileBytes(header);
    if (!size.ok) return refused(formatNetworkError(size.error));
    if (st.size !== size.value) {
      return refused(`${st.size} bytes, its header says a network of ${size.value} bytes`);
    }
    const bytes = new SharedArrayBuffer(size.value);
    const view = new Uint8Array(bytes);
    const data = readAt(fd, size.value, 0);
    if (data.length !== size.value) return refused(`${data.length} bytes read, its header says ${size.value}`);
    view.set(data);
    const r = readNetwork(view);
    if (!r.ok) return refused(formatNetworkError(r.error));
    return ok({ net: r.value, bytes, source: file, checksum: createHash('sha256').update(data).digest('hex') });
  } catch (e) {
    return err(`cannot read ${quote(p)}: ${why(e)}`);
  } finally {
    closeSync(fd);
  }
}
