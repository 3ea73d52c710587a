/**
 * The streamed trainer (`thoth train --chunk-positions N`, docs/nnue.md): for data that do not
 * fit in one chunk, the files are indexed game by game (where each game lies, its positions, its
 * split) without keeping their positions; every epoch the training games are shuffled (seeded),
 * cut into chunks of at most N positions, and each chunk is read from the files, packed and
 * trained on (its positions shuffled again) with one network and optimiser throughout. Only the
 * validation split (the same games as an unstreamed run's) stays packed in memory.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mulberry32 } from '../core/index';
import {
  DATA_HEADER_BYTES,
  DATA_MAGIC,
  DATA_VERSION,
  GAME_HEADER_BYTES,
  POSITION_FIXED_BYTES,
  dataHeader,
  notDataMessage,
  type DataFileError,
} from './data';
import { isValidationGame, loadTrainingData, type DataSource, type TrainingData } from './train';

/** One complete game of a file, where it lies. */
export interface IndexedGame {
  file: number;
  offset: number;
  bytes: number;
  positions: number;
}

export interface DataIndex {
  files: { name: string; games: number; positions: number; warning?: string }[];
  train: IndexedGame[];
  validation: IndexedGame[];
  trainPositions: number;
  validationPositions: number;
  /** Bit e set: the files hold games of edition e. */
  editions: number;
}

export class DataIndexError extends Error {
  constructor(
    readonly source: string,
    readonly error: DataFileError,
  ) {
    super(error.message);
  }
}

/** The most bytes a game block takes (65535 positions of a full board). */
const MAX_GAME_BYTES = GAME_HEADER_BYTES + 65535 * (POSITION_FIXED_BYTES + 80);
const READ_BLOCK_BYTES = 16 << 20;

/**
 * Indexes data files game by game, reading them in blocks: each game's place, its positions and
 * its split (isValidationGame, as loadTrainingData). A file that ends in an unfinished game is
 * indexed up to there (a warning); a file that is not data, or has a bad game header, is a
 * DataIndexError. The positions themselves are checked when a chunk is read.
 */
export function indexDataFiles(paths: string[], valFraction: number, seed: number): DataIndex {
  const index: DataIndex = {
    files: [],
    train: [],
    validation: [],
    trainPositions: 0,
    validationPositions: 0,
    editions: 0,
  };
  let buf = Buffer.alloc(READ_BLOCK_BYTES);
  for (const [file, name] of paths.entries()) {
    const fd = openSync(name, 'r');
    try {
      const size = fstatSync(fd).size;
      let start = 0;
      let end = 0;
      /** Makes buf hold the file's bytes [o, o + n) (or up to its end); false when the file ends first. */
      const have = (o: number, n: number): boolean => {
        if (o >= start && o + n <= end) return true;
        if (n > buf.length) buf = Buffer.alloc(Math.max(n, 2 * buf.length));
        start = o;
        end = o + readSync(fd, buf, 0, Math.min(buf.length, size - o), o);
        return o + n <= end;
      };
      const fault = (kind: DataFileError['kind'], offset: number, message: string): never => {
        throw new DataIndexError(name, { kind, offset, message });
      };
      if (!have(0, DATA_HEADER_BYTES)) {
        if (size >= 8 && buf.subarray(0, 8).toString('latin1') !== DATA_MAGIC)
          fault('magic', 0, notDataMessage(buf.subarray(0, Math.min(size, 8))));
        fault('truncated', 0, `truncated: ${size} bytes, shorter than the header`);
      }
      if (buf.subarray(0, 8).toString('latin1') !== DATA_MAGIC)
        fault('magic', 0, notDataMessage(buf.subarray(0, Math.min(size, 8))));
      const version = buf.readUInt32LE(8);
      if (version !== DATA_VERSION)
        fault('version', 8, `unknown data format version ${version} (this build reads ${DATA_VERSION})`);
      const entry: DataIndex['files'][number] = { name, games: 0, positions: 0 };
      let o = DATA_HEADER_BYTES;
      while (o < size) {
        const unfinished = (): void => {
          entry.warning = `the last game (from byte ${o}) is unfinished: the file was cut short: read up to byte ${o}`;
        };
        if (!have(o, GAME_HEADER_BYTES)) {
          unfinished();
          break;
        }
        have(o, Math.min(MAX_GAME_BYTES, size - o));
        const b = o - start;
        const game = buf.readUInt32LE(b);
        const edition = buf[b + 4];
        const count = buf.readUInt16LE(b + 6);
        if (edition > 2 || buf[b + 5] > 2)
          fault('corrupt', o, `bad game header at byte ${o} (edition ${edition}, result ${buf[b + 5]})`);
        let at = b + GAME_HEADER_BYTES;
        let whole = true;
        for (let k = 0; k < count && whole; k++) {
          if (start + at + POSITION_FIXED_BYTES > end) whole = false;
          else at += POSITION_FIXED_BYTES + buf[at + 1];
        }
        if (!whole || start + at > end) {
          unfinished();
          break;
        }
        const g: IndexedGame = { file, offset: o, bytes: start + at - o, positions: count };
        if (isValidationGame(file, game, seed, valFraction)) {
          index.validation.push(g);
          index.validationPositions += count;
        } else {
          index.train.push(g);
          index.trainPositions += count;
        }
        index.editions |= 1 << edition;
        entry.games++;
        entry.positions += count;
        o += g.bytes;
      }
      index.files.push(entry);
    } finally {
      closeSync(fd);
    }
  }
  return index;
}

/** Reads the games from their files and packs them (the same packing and split as an unstreamed run). */
export function packGames(paths: string[], games: IndexedGame[], valFraction: number, seed: number): TrainingData {
  const byFile = new Map<number, IndexedGame[]>();
  for (const g of games) {
    const list = byFile.get(g.file);
    if (list) list.push(g);
    else byFile.set(g.file, [g]);
  }
  const sources: DataSource[] = [];
  for (const [file, list] of [...byFile].sort((a, b) => a[0] - b[0])) {
    const bytes = new Uint8Array(DATA_HEADER_BYTES + list.reduce((n, g) => n + g.bytes, 0));
    bytes.set(dataHeader());
    const fd = openSync(paths[file], 'r');
    try {
      let at = DATA_HEADER_BYTES;
      for (const g of list) {
        if (readSync(fd, bytes, at, g.bytes, g.offset) !== g.bytes)
          throw new DataIndexError(paths[file], {
            kind: 'truncated',
            offset: g.offset,
            message: `${paths[file]} changed while training: byte ${g.offset} is gone`,
          });
        at += g.bytes;
      }
    } finally {
      closeSync(fd);
    }
    sources.push({ name: paths[file], bytes, index: file });
  }
  const r = loadTrainingData(sources, valFraction, seed);
  if (!r.ok) throw new DataIndexError(r.error.source, r.error.error);
  return r.value.data;
}

/** An epoch's chunks: the training games in a seeded random order, cut at `chunkPositions` positions. */
export function epochChunks(index: DataIndex, chunkPositions: number, seed: number, epoch: number): IndexedGame[][] {
  const order = index.train.slice();
  const rand = mulberry32((seed ^ Math.imul(epoch, 0x9e3779b1)) >>> 0);
  for (let i = order.length - 1; i > 0; i--) {
    const j = (rand() >>> 0) % (i + 1);
    const x = order[i];
    order[i] = order[j];
    order[j] = x;
  }
  const chunks: IndexedGame[][] = [];
  let cur: IndexedGame[] = [];
  let n = 0;
  for (const g of order) {
    if (n + g.positions > chunkPositions && cur.length > 0) {
      chunks.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(g);
    n += g.positions;
  }
  if (cur.length > 0) chunks.push(cur);
  return chunks;
}
