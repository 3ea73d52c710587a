/**
 * The training data file that `thoth datagen` writes and `thoth train` reads (docs/nnue.md).
 * Little-endian; a header, then one block per finished game:
 *
 *   header    magic "THOTHDAT" (8 bytes), u32 version (1), u32 0 (reserved)
 *   game      u32 game index (its opening comes from the run's seed and this index)
 *             u8  edition (0 khet2, 1 khet1, 2 deflexion)
 *             u8  result for the first player (0 loss, 1 draw, 2 win)
 *             u16 number of positions that follow
 *   position  u8  side to move (0 first player, 1 second)
 *             u8  number of pieces n
 *             i16 search score, centi-pyramids from the side to move's view
 *             u16 ply (plies played since the setup, random opening plies included)
 *             10 bytes: occupancy, bit (sq & 7) of byte (sq >> 3) for square sq (a1 = 0 … j8 = 79)
 *             n bytes: the piece codes (src/core/pieces.ts) of the occupied squares, in square order
 *
 * A game is written in one piece, so a file cut short by a crash ends in at most one partial
 * block, which a reader reports and `datagen` drops before it appends. Browser-safe: bytes only.
 */
import { createHash } from 'node:crypto';
import { colorOf, hasOrientation, kindOf, oriOf, SCARAB } from '../core/pieces';
import { err, ok, type Result } from '../core/result';
import { SQUARES } from '../core/squares';

export const DATA_MAGIC = 'THOTHDAT';
export const DATA_VERSION = 1;
export const DATA_HEADER_BYTES = 16;
export const GAME_HEADER_BYTES = 8;
export const POSITION_FIXED_BYTES = 16;
/** The most bytes one position takes (every square occupied). */
export const MAX_POSITION_BYTES = POSITION_FIXED_BYTES + SQUARES;

/** Results as stored: the first player's (or, per position, the side to move's) view. */
export const LOSS = 0;
export const DRAW = 1;
export const WIN = 2;

/** The file header. */
export function dataHeader(): Uint8Array {
  const b = new Uint8Array(DATA_HEADER_BYTES);
  for (let i = 0; i < 8; i++) b[i] = DATA_MAGIC.charCodeAt(i);
  new DataView(b.buffer).setUint32(8, DATA_VERSION, true);
  return b;
}

/** Writes a position record at out[at..] and returns its length. */
export function encodePosition(
  board: ArrayLike<number>,
  side: number,
  score: number,
  ply: number,
  out: Uint8Array,
  at: number,
): number {
  let n = 0;
  for (let i = 0; i < 10; i++) out[at + 6 + i] = 0;
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq];
    if (p === 0) continue;
    out[at + 6 + (sq >> 3)] |= 1 << (sq & 7);
    out[at + POSITION_FIXED_BYTES + n++] = p;
  }
  out[at] = side;
  out[at + 1] = n;
  const s = Math.max(-32768, Math.min(32767, Math.round(score)));
  out[at + 2] = s & 0xff;
  out[at + 3] = (s >> 8) & 0xff;
  const p = Math.min(ply, 65535);
  out[at + 4] = p & 0xff;
  out[at + 5] = p >> 8;
  return POSITION_FIXED_BYTES + n;
}

/** Writes a game block's header at out[at..] (GAME_HEADER_BYTES). */
export function encodeGameHeader(
  game: number,
  edition: number,
  result: number,
  positions: number,
  out: Uint8Array,
  at: number,
): void {
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  v.setUint32(at, game >>> 0, true);
  out[at + 4] = edition;
  out[at + 5] = result;
  v.setUint16(at + 6, positions, true);
}

/** One position as the reader hands it over (the same object, refilled, for every position). */
export interface DataRecord {
  game: number;
  /** 0 khet2, 1 khet1, 2 deflexion. */
  edition: number;
  side: number;
  /** Centi-pyramids, side to move's view. */
  score: number;
  /** The game's result from the side to move's view: LOSS, DRAW or WIN. */
  result: number;
  ply: number;
  /** Piece code per square. */
  board: Uint8Array;
}

export type DataFileErrorKind = 'magic' | 'version' | 'truncated' | 'corrupt';

export interface DataFileError {
  kind: DataFileErrorKind;
  /** Byte offset where the fault is (for `truncated`: where the unfinished game starts). */
  offset: number;
  message: string;
}

export interface DataSummary {
  games: number;
  positions: number;
  /** The highest game index in the file, or -1. */
  lastGame: number;
  /** Bytes of complete games (with the header): where the next game is appended. */
  validBytes: number;
}

/** A data file read as far as it is whole: the summary of the complete games, and the fault after them, if any. */
export interface DataScan {
  summary: DataSummary;
  error?: DataFileError;
}

function popcount8(x: number): number {
  let c = 0;
  for (; x !== 0; x &= x - 1) c++;
  return c;
}

const validPiece = (p: number): boolean => {
  const kind = kindOf(p);
  if (kind === 0 || colorOf(p) > 1) return false;
  return kind === SCARAB ? oriOf(p) < 2 : hasOrientation(kind) || oriOf(p) === 0;
};

/** Why a file whose first bytes are `head` is not a data file (a gzip-compressed one gets the hint to gunzip it). */
export function notDataMessage(head: Uint8Array): string {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)
    return 'not a Thoth training data file but a gzip-compressed one: gunzip it first (gunzip -k FILE)';
  return `not a Thoth training data file (it does not start with ${DATA_MAGIC})`;
}

/**
 * Walks the file, calling `visit` (when given) for every position of every complete game, and
 * returns what it found. A fault ends the walk: the summary counts only what came before it.
 */
export function scanData(bytes: Uint8Array, visit?: (r: DataRecord) => void): DataScan {
  const summary: DataSummary = { games: 0, positions: 0, lastGame: -1, validBytes: 0 };
  const fault = (kind: DataFileErrorKind, offset: number, message: string): DataScan => ({
    summary,
    error: { kind, offset, message },
  });
  const magicLen = Math.min(8, bytes.length);
  for (let i = 0; i < magicLen; i++) {
    if (bytes[i] !== DATA_MAGIC.charCodeAt(i)) return fault('magic', 0, notDataMessage(bytes));
  }
  if (bytes.length < DATA_HEADER_BYTES)
    return fault('truncated', 0, `truncated: ${bytes.length} bytes, shorter than the header`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint32(8, true);
  if (version !== DATA_VERSION)
    return fault('version', 8, `unknown data format version ${version} (this build reads ${DATA_VERSION})`);
  summary.validBytes = DATA_HEADER_BYTES;
  const rec: DataRecord = { game: 0, edition: 0, side: 0, score: 0, result: 0, ply: 0, board: new Uint8Array(SQUARES) };
  let o = DATA_HEADER_BYTES;
  const len = bytes.length;
  while (o < len) {
    const start = o;
    const unfinished = (): DataScan =>
      fault('truncated', start, `the last game (from byte ${start}) is unfinished: the file was cut short`);
    if (o + GAME_HEADER_BYTES > len) return unfinished();
    const game = v.getUint32(o, true);
    const edition = bytes[o + 4];
    const result = bytes[o + 5];
    const count = v.getUint16(o + 6, true);
    if (edition > 2 || result > 2)
      return fault('corrupt', o, `bad game header at byte ${o} (edition ${edition}, result ${result})`);
    // The whole game is checked before any of it is handed over.
    let end = o + GAME_HEADER_BYTES;
    for (let k = 0; k < count; k++) {
      if (end + POSITION_FIXED_BYTES > len) return unfinished();
      const n = bytes[end + 1];
      if (bytes[end] > 1 || n > SQUARES) return fault('corrupt', end, `bad position at byte ${end}`);
      if (end + POSITION_FIXED_BYTES + n > len) return unfinished();
      let seen = 0;
      for (let i = 0; i < 10; i++) seen += popcount8(bytes[end + 6 + i]);
      if (seen !== n) return fault('corrupt', end, `bad position at byte ${end}`);
      for (let i = 0; i < n; i++) {
        if (!validPiece(bytes[end + POSITION_FIXED_BYTES + i]))
          return fault('corrupt', end, `bad piece in the position at byte ${end}`);
      }
      end += POSITION_FIXED_BYTES + n;
    }
    if (visit) {
      let at = o + GAME_HEADER_BYTES;
      rec.game = game;
      rec.edition = edition;
      for (let k = 0; k < count; k++) {
        const side = bytes[at];
        const n = bytes[at + 1];
        rec.board.fill(0);
        let i = 0;
        for (let sq = 0; sq < SQUARES; sq++) {
          if ((bytes[at + 6 + (sq >> 3)] & (1 << (sq & 7))) !== 0)
            rec.board[sq] = bytes[at + POSITION_FIXED_BYTES + i++];
        }
        rec.side = side;
        rec.score = v.getInt16(at + 2, true);
        rec.ply = v.getUint16(at + 4, true);
        rec.result = side === 0 ? result : WIN - result;
        visit(rec);
        at += POSITION_FIXED_BYTES + n;
      }
    }
    o = end;
    summary.games++;
    summary.positions += count;
    if (game > summary.lastGame) summary.lastGame = game;
    summary.validBytes = o;
  }
  return { summary };
}

/** Reads a whole data file; refuses one with any fault, even a partial last game. */
export function readData(bytes: Uint8Array, visit: (r: DataRecord) => void): Result<DataSummary, DataFileError> {
  const s = scanData(bytes, visit);
  return s.error ? err(s.error) : ok(s.summary);
}

/** One complete game of a data file as bytes: its header fields and its position records. */
export interface GameBlock {
  game: number;
  edition: number;
  /** For the first player. */
  result: number;
  /** Record k is bytes.subarray(starts[k], starts[k + 1]) (starts has one entry more than there are positions). */
  starts: number[];
  bytes: Uint8Array;
}

/**
 * The complete games of a data file (or of a shard a worker returned), in file order, as raw
 * blocks, and the fault after them, if any (the same check as scanData).
 */
export function gameBlocks(bytes: Uint8Array): { blocks: GameBlock[]; error?: DataFileError } {
  const scan = scanData(bytes);
  const blocks: GameBlock[] = [];
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = DATA_HEADER_BYTES;
  while (o < scan.summary.validBytes) {
    const count = v.getUint16(o + 6, true);
    const starts = [o + GAME_HEADER_BYTES];
    for (let k = 0; k < count; k++) starts.push(starts[k] + POSITION_FIXED_BYTES + bytes[starts[k] + 1]);
    blocks.push({ game: v.getUint32(o, true), edition: bytes[o + 4], result: bytes[o + 5], starts, bytes });
    o = starts[count];
  }
  return { blocks, error: scan.error };
}

/** The bytes of game `game`'s block in a data file (its header and positions), or undefined when the file holds none. */
export function gameBytes(file: Uint8Array, game: number): Uint8Array | undefined {
  const b = gameBlocks(file).blocks.find((x) => x.game === game);
  return b && b.bytes.subarray(b.starts[0] - GAME_HEADER_BYTES, b.starts[b.starts.length - 1]);
}

/** Fills `board` (piece code per square) from the position record at bytes[at..] and returns its side to move. */
export function decodeBoard(bytes: Uint8Array, at: number, board: Uint8Array): number {
  board.fill(0);
  let i = 0;
  for (let sq = 0; sq < SQUARES; sq++) {
    if ((bytes[at + 6 + (sq >> 3)] & (1 << (sq & 7))) !== 0) board[sq] = bytes[at + POSITION_FIXED_BYTES + i++];
  }
  return bytes[at];
}

/**
 * The data files' games without the games whose content (edition, result and positions: all but
 * the game index) an earlier game of these files holds already: the same file given twice, or a
 * merged file and a shard already in it, would be trained twice and leak into the validation
 * split. The complete games only (a fault after them is the caller's to report); a file with no
 * repeated game keeps its bytes.
 */
export function dropRepeatedGames(files: readonly Uint8Array[]): { bytes: Uint8Array; dropped: number }[] {
  const seen = new Set<string>();
  return files.map((bytes) => {
    const { blocks } = gameBlocks(bytes);
    const keep: GameBlock[] = [];
    for (const b of blocks) {
      const from = b.starts[0] - GAME_HEADER_BYTES + 4;
      const key = createHash('sha256')
        .update(b.bytes.subarray(from, b.starts[b.starts.length - 1]))
        .digest('base64');
      if (seen.has(key)) continue;
      seen.add(key);
      keep.push(b);
    }
    if (keep.length === blocks.length) return { bytes, dropped: 0 };
    const parts: Uint8Array[] = [dataHeader()];
    for (const b of keep) parts.push(b.bytes.subarray(b.starts[0] - GAME_HEADER_BYTES, b.starts[b.starts.length - 1]));
    return { bytes: new Uint8Array(Buffer.concat(parts)), dropped: blocks.length - keep.length };
  });
}
