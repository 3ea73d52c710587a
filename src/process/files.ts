/**
 * Files as the commands read and write them. Record files are read up to a size limit (the
 * same for every reader: stats, analyse --game, match -resume); outputs are written whole to a
 * temporary file in the same folder and renamed over the target, so a crash or Ctrl-C never
 * leaves half a file; an output that is one of the command's inputs is refused before any work.
 * Files that grow record by record (a match's record file, training data) are appended to whole
 * records at a time.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RECORD_FILE_LIMIT } from '../core/record';
import { err, ok, type Result } from '../core/result';

/** A file-system error in words: `no such file or directory`, `permission denied`, … */
export function fileErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EFBIG':
      return 'the file would be larger than this process may write (ulimit -f)';
    case 'EROFS':
      return 'read-only file system';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}

/** Something to wait on (Atomics.wait) while a non-blocking input has nothing to read. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** `256 MiB` for a number of bytes that is a whole number of MiB. */
export function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Reads a file (`-`: standard input) to its end, but never more than `limit` bytes: a larger
 * one (`/dev/zero`, a wrong file) is refused as soon as it passes the limit, and `stop` (a
 * chunk's check, e.g. a NUL byte in a text file) may refuse it sooner. Errors are one line of
 * words naming the file as `name`; `limitWords` says what the limit is for.
 */
export function readFileCapped(
  path: string,
  name: string,
  limit: number,
  limitWords: string,
  stop?: (chunk: Buffer) => string | undefined,
): Result<Buffer, string> {
  let fd: number;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
  } catch (e) {
    return err(`cannot read ${name}: ${fileErrorText(e)}`);
  }
  try {
    if (path !== '-' && fstatSync(fd).isDirectory()) return err(`cannot read ${name}: it is a directory`);
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(Math.min(1 << 20, limit + 1));
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(PAUSE, 0, 0, 10); // a non-blocking stdin with nothing yet: wait a little, then again
          continue;
        }
        if ((e as NodeJS.ErrnoException).code === 'EOF') break;
        return err(`cannot read ${name}: ${fileErrorText(e)}`);
      }
      if (n === 0) break;
      const why = stop?.(chunk.subarray(0, n));
      if (why !== undefined) return err(why);
      total += n;
      if (total > limit) return err(`${name} is larger than ${sizeText(limit)}${limitWords}`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return ok(Buffer.concat(chunks, total));
  } finally {
    if (path !== '-') closeSync(fd);
  }
}

/**
 * Reads a record file (`-`: standard input) as UTF-8, stopping at {@link RECORD_FILE_LIMIT}
 * bytes (a larger file, `/dev/zero`, is refused) and at a NUL byte (a binary file: no record
 * holds one). The error is one line of words naming the file (after `what`, e.g. `game record`).
 */
export function readRecordFile(path: string, what = '', limit = RECORD_FILE_LIMIT): Result<string, string> {
  const name = `${what === '' ? '' : `${what} `}${path === '-' ? 'standard input' : `'${path}'`}`;
  const r = readFileCapped(path, name, limit, ', the limit for record files', (chunk) =>
    chunk.includes(0) ? `${name} is not a record file (it holds binary data)` : undefined,
  );
  return r.ok ? ok(r.value.toString('utf8')) : r;
}

/** The path a file has or would have once written: symbolic links and `..` resolved (the folder's, for a new file). */
function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(path))), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/** True when both paths name the same file (the same resolved path, or the same inode: a hard link). */
export function sameFile(a: string, b: string): boolean {
  if (realTarget(a) === realTarget(b)) return true;
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

/**
 * The words for an output that is one of the inputs (`--out` and the file it would destroy), or
 * undefined when it is none of them.
 */
export function outputIsInput(out: string, inputs: readonly string[]): string | undefined {
  const hit = inputs.find((i) => i !== '-' && sameFile(out, i));
  return hit === undefined
    ? undefined
    : `the output '${out}' is the input '${hit}': writing it would destroy what is read; give another file`;
}

/**
 * Writes the first `length` bytes of `bytes` at the end of the file open on `fd` (for appending),
 * whole or not at all: a short write (a full disk) is cut back to the size before it and the
 * write's error thrown, so that the file holds whole records only and a record counts once it is
 * written. A device or a pipe (`/dev/null`) has nothing to cut back.
 */
export function appendWhole(fd: number, bytes: Uint8Array, length = bytes.length): void {
  let size: number | undefined;
  try {
    const st = fstatSync(fd);
    if (st.isFile()) size = st.size;
  } catch {
    // not a file: nothing to cut back
  }
  let done = 0;
  try {
    while (done < length) {
      const n = writeSync(fd, bytes, done, length - done);
      if (n <= 0) throw Object.assign(new Error('no space left on device (ENOSPC)'), { code: 'ENOSPC' });
      done += n;
    }
  } catch (e) {
    if (size !== undefined && done > 0) {
      try {
        ftruncateSync(fd, size);
      } catch {
        // the reader drops an unfinished last record (match -resume, a datagen run's openDataFile)
      }
    }
    throw e;
  }
}

/** True for a path that is there and is not a plain file (`/dev/null`, `/dev/stdout`, a FIFO): written in place, never renamed over. */
export function isSpecial(path: string): boolean {
  try {
    const s = statSync(path);
    return !s.isFile() && !s.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Checks before the work that {@link writeFileAtomic} will be able to write `path`: the folder
 * takes a new file, an existing file may be written; nothing is created or emptied. Throws the
 * file-system error (for {@link fileErrorText}).
 */
export function checkWritable(path: string): void {
  if (isSpecial(path)) {
    closeSync(openSync(path, 'a'));
    return;
  }
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw Object.assign(new Error(`'${path}' is a directory`), { code: 'EISDIR' });
    accessSync(path, constants.W_OK);
  }
  const probe = tempName(linkTarget(path));
  closeSync(openSync(probe, 'wx'));
  rmSync(probe, { force: true });
}

/** The file a symbolic link leads to (written in its place, the link kept), or the path itself. */
function linkTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

let tempCounter = 0;

/** A hidden name next to `path` for its temporary file. */
function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${++tempCounter}.tmp`);
}

/**
 * Writes a file whole: the data goes to a temporary file in the same folder, which is then
 * renamed over `path` (one step: a reader sees the old file or the new one, never half of one;
 * a crash leaves at most the hidden temporary file). A symbolic link is followed (its file is
 * replaced, the link kept); a path that is not a plain file (`/dev/stdout`) is written in place.
 * Throws the file-system error.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  if (isSpecial(path)) {
    writeFileSync(path, data);
    return;
  }
  const target = linkTarget(path);
  const tmp = tempName(target);
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
