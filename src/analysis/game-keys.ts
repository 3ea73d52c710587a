/**
 * Keys of games and positions for collections (docs/db.md): a game's key hashes its edition,
 * start and moves, so the same game imported twice, from any file and with any tags or comments,
 * is found to be one; a position's key is its Zobrist key (src/core/zobrist.ts) cut to 53 bits (a
 * JavaScript number, a SQLite integer) and salted by the edition, so that the same position
 * reached by any move order has one key. Pure: the page keys its own games the same way.
 */
import type { EditionId, Position } from '../core/index';

/** Two independent 32-bit mixes of a text (murmur3's finaliser over an FNV-style walk). */
function hash2(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const fin = (h: number): number => {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
  return [fin(a ^ text.length), fin(b + text.length)];
}

/** The key of a game by its moves: 16 hex digits of its edition, start KFEN and moves. */
export function gameKey(edition: EditionId, start: string, moves: readonly string[]): string {
  const [a, b] = hash2(`${edition}\n${start.trim().split(/\s+/).slice(0, 2).join(' ')}\n${moves.join(' ')}`);
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

const KEY_EDITION_SALT: Record<EditionId, number> = { khet2: 0, khet1: 0x1a2b3, deflexion: 0x0c4d5 };

/** A position's key as a 53-bit number: its Zobrist key's low half and 21 bits of the high half, salted by the edition. */
export function positionKey(edition: EditionId, lo: number, hi: number): number {
  return ((hi ^ KEY_EDITION_SALT[edition]) & 0x1fffff) * 0x100000000 + (lo >>> 0);
}

/** The key of a position as it stands. */
export function keyOf(pos: Position): number {
  return positionKey(pos.edition.id, pos.keyLo, pos.keyHi);
}

/** Moves (src/core/move.ts: under 2^24) packed 3 bytes each, little-endian. */
export function packMoves(moves: readonly number[]): Uint8Array {
  const out = new Uint8Array(3 * moves.length);
  moves.forEach((m, i) => {
    out[3 * i] = m & 255;
    out[3 * i + 1] = (m >>> 8) & 255;
    out[3 * i + 2] = (m >>> 16) & 255;
  });
  return out;
}

/** Move k of packed moves. */
export function packedMove(bytes: Uint8Array, k: number): number {
  return bytes[3 * k] | (bytes[3 * k + 1] << 8) | (bytes[3 * k + 2] << 16);
}
