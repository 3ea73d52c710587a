/**
 * A training data file opened for appending (docs/nnue.md): checked, an unfinished last game (a run
 * that was killed) cut off, the keys of its positions read for the duplicate check, and whole games
 * appended all or nothing. What datagen's runs (datagen-run.ts) write through.
 */
import { closeSync, existsSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { EDITION_IDS, Position } from '../core/index';
import { appendWhole, fileErrorText } from '../process/files';
import { DATA_HEADER_BYTES, dataHeader, scanData, type DataSummary } from './data';
import type { KeySet } from './keyset';

/**
 * Why a datagen run stops, in one line: `usage` when the file named cannot be read or written
 * (the command line's fault, exit 2), else a failure (exit 1).
 */
export class DatagenError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** A write to the data file that failed (a full disk); the file was cut back to its whole games. */
export class WriteFailure extends DatagenError {}

/** Keys of the same board in different editions must differ. */
export const EDITION_SALT = [0, 0x5bd1e995, 0x27d4eb2f];

/** Makes the file a data file with no games (its header alone). */
function writeHeader(path: string): void {
  const fd = openSync(path, 'w');
  writeSync(fd, dataHeader());
  closeSync(fd);
}

/**
 * Checks the file for appending and returns what it holds (the keys of its positions go into
 * `keys`). A new or empty file gets the header; an unfinished last game (a run that was killed)
 * is cut off; anything else that is wrong with the file stops the run (DatagenError), which never
 * appends to a file it cannot read.
 */
export function openDataFile(path: string, keys: KeySet | undefined, note: (s: string) => void): DataSummary {
  const empty: DataSummary = { games: 0, positions: 0, lastGame: -1, validBytes: DATA_HEADER_BYTES };
  try {
    const size = existsSync(path) ? statSync(path).size : 0;
    if (size === 0) {
      writeHeader(path);
      return empty;
    }
    const positions = EDITION_IDS.map((id) => new Position(id));
    const scan = scanData(
      readFileSync(path),
      keys &&
        ((r) => {
          const p = positions[r.edition];
          p.setup(r.board, r.side);
          keys.add(p.keyLo, p.keyHi ^ EDITION_SALT[r.edition]);
        }),
    );
    if (!scan.error) return scan.summary;
    if (scan.error.kind !== 'truncated') throw new DatagenError(`${path}: ${scan.error.message}; not appending to it`);
    if (scan.summary.validBytes === 0) {
      truncateSync(path, 0);
      writeHeader(path);
      return empty;
    }
    note(`${path}: ${scan.error.message}; ${size - scan.summary.validBytes} bytes of it dropped`);
    truncateSync(path, scan.summary.validBytes);
    return scan.summary;
  } catch (e) {
    if (e instanceof DatagenError) throw e;
    throw new DatagenError(`cannot write '${path}': ${fileErrorText(e)}`, true);
  }
}

/** Opens the file to append to; a file that cannot be written is the command line's fault. */
export function openForAppend(path: string): number {
  try {
    return openSync(path, 'a');
  } catch (e) {
    throw new DatagenError(`cannot write '${path}': ${fileErrorText(e)}`, true);
  }
}

/**
 * Writes `length` bytes of `block` at the end of the data file, all or nothing: a short write (the
 * disk filled up in the middle of a game) is cut off again, so that the file holds whole games
 * only and a game is counted only once it is written. Throws WriteFailure.
 */
export function appendGames(fd: number, block: Uint8Array, length: number, path: string): void {
  try {
    appendWhole(fd, block, length);
  } catch (e) {
    throw new WriteFailure(`cannot write '${path}': ${fileErrorText(e)}`);
  }
}
