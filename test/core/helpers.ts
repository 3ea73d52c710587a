/** Shared helpers for the rules-core tests (not a test file itself). */
import {
  MAX_MOVES,
  OBELISK,
  ROTATED,
  ROT_CCW,
  ROT_CW,
  STACK,
  STACK_ON,
  STEP,
  SWAP,
  UNSTACK,
  makePiece,
  moveFrom,
  moveTo,
  moveType,
  type Position,
  SQUARES,
  formatKfenError,
  formatMove,
  parseKfen,
  parseMove,
  parseSquare,
  squareName,
  type EditionId,
  type Result,
  type RuleOptions,
} from '../../src/core/index';
import type { GameRecord } from '../../src/core/record';

export const ALL_SETUPS: ReadonlyArray<{ edition: EditionId; setup: 'classic' | 'imhotep' | 'dynasty' }> = [
  { edition: 'khet2', setup: 'classic' },
  { edition: 'khet2', setup: 'imhotep' },
  { edition: 'khet2', setup: 'dynasty' },
  { edition: 'khet1', setup: 'classic' },
  { edition: 'khet1', setup: 'imhotep' },
  { edition: 'khet1', setup: 'dynasty' },
  { edition: 'deflexion', setup: 'classic' },
  { edition: 'deflexion', setup: 'imhotep' },
];

/** A square index from its name; throws on a typo in a test. */
export function sq(name: string): number {
  const s = parseSquare(name);
  if (s < 0) throw new Error(`bad square name in test: ${name}`);
  return s;
}

/**
 * Writes a KFEN by hand from a map square -> KFEN piece text (e.g. { e4: 'S>', f8: 'k' }),
 * independent of the serializer under test.
 */
export function kfen(pieces: Record<string, string>, side: string, plies = 0, moveNumber = 1): string {
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (const file of 'abcdefghij') {
      const t = pieces[`${file}${rank}`];
      if (t === undefined) {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      row += t;
    }
    if (empty > 0) row += String(empty);
    rows.push(row);
  }
  for (const k of Object.keys(pieces)) sq(k);
  return `${rows.join('/')} ${side} ${plies} ${moveNumber}`;
}

/** Khet 2.0 needs both Sphinxes: the default ones (Silver j1 facing N, Red a8 facing S). */
export function k2(pieces: Record<string, string>, side = 's', plies = 0, moveNumber = 1): string {
  return kfen({ j1: 'X^', a8: 'xv', ...pieces }, side, plies, moveNumber);
}

/** Parses a KFEN that must be valid. */
export function load(text: string, edition: EditionId = 'khet2', rules?: RuleOptions): Position {
  const r = parseKfen(text, edition, rules ?? { pharaohRotation: false });
  if (!r.ok) throw new Error(`test KFEN rejected: ${formatKfenError(r.error)}: ${text}`);
  return r.value;
}

/** The legal moves as sorted text. */
export function moveNames(pos: Position): string[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = pos.generate(buf, 0);
  return Array.from(buf.subarray(0, n), formatMove).sort();
}

/** The legal moves of the piece on `from`, as sorted text. */
export function movesFrom(pos: Position, from: string): string[] {
  return moveNames(pos).filter((m) => m.startsWith(from));
}

/** The move named by `text`, which must be legal. */
export function mv(pos: Position, text: string): number {
  const r = parseMove(pos, text);
  if (!r.ok) throw new Error(`test move rejected: ${r.error.message}`);
  return r.value;
}

/** Plays a move given as text; returns the name of the square the laser removed from, or null. */
export function play(pos: Position, text: string): string | null {
  const k = pos.make(mv(pos, text));
  return k < 0 ? null : squareName(k);
}

/** Everything make/unmake must restore. */
export interface Snapshot {
  board: number[];
  bb: number[];
  side: number;
  pliesSinceRemoval: number;
  moveNumber: number;
  winner: number;
  keyLo: number;
  keyHi: number;
  ply: number;
}

export function snapshot(pos: Position): Snapshot {
  return {
    board: Array.from(pos.board),
    bb: Array.from(pos.bb),
    side: pos.side,
    pliesSinceRemoval: pos.pliesSinceRemoval,
    moveNumber: pos.moveNumber,
    winner: pos.winner,
    keyLo: pos.keyLo,
    keyHi: pos.keyHi,
    ply: pos.ply,
  };
}

/** The bitboards as they must be for the board: null when consistent, else a description. */
export function bitboardFault(pos: Position): string | null {
  const want = new Int32Array(9);
  for (let s = 0; s < SQUARES; s++) {
    const p = pos.board[s];
    if (p === 0) continue;
    const bit = 1 << (s & 31);
    want[(p >> 5) * 3 + (s >> 5)] |= bit;
    want[6 + (s >> 5)] |= bit;
  }
  for (let i = 0; i < 9; i++) {
    if (want[i] !== pos.bb[i]) return `bb[${i}] is ${pos.bb[i]}, the board says ${want[i]}`;
  }
  return null;
}

/** The key computed from scratch on a clone (leaves `pos` untouched). */
export function scratchKey(pos: Position): [number, number] {
  return pos.clone().computeKey();
}

/** A seeded uniform integer in [0, n). */
export function randInt(rand: () => number, n: number): number {
  return Math.floor(((rand() >>> 0) / 4294967296) * n);
}

/** The legal moves as an array. */
export function moveList(pos: Position): number[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = pos.generate(buf, 0);
  return Array.from(buf.subarray(0, n));
}

/** The value of a Result the test expects to be ok; throws with the error otherwise. */
export function unwrap<T, E>(r: Result<T, E>): T {
  if (!r.ok)
    throw new Error(`expected ok, got ${r.error instanceof Error ? r.error.message : JSON.stringify(r.error)}`);
  return r.value;
}

/**
 * The board after move `m`, before its shot: the rules of docs/rules.md §3 applied by hand, not by
 * make (the danger map's and the explanations' tests trace beams on it).
 */
export function boardAfter(board: Uint8Array, m: number): Uint8Array {
  const b = Uint8Array.from(board);
  const from = moveFrom(m);
  const to = moveTo(m);
  const p = b[from];
  switch (moveType(m)) {
    case STEP:
      b[to] = p;
      b[from] = 0;
      break;
    case SWAP:
      b[from] = b[to];
      b[to] = p;
      break;
    case ROT_CW:
    case ROT_CCW:
      b[from] = ROTATED[p * 2 + moveType(m) - ROT_CW];
      break;
    case STACK_ON: // a single Obelisk onto another: a stack of the same colour
      b[from] = 0;
      b[to] = makePiece(p >> 5, STACK, 0);
      break;
    case UNSTACK: // the top Obelisk off: a single stays, a single (or a stack) arrives
      b[from] = makePiece(p >> 5, OBELISK, 0);
      b[to] = makePiece(p >> 5, b[to] === 0 ? OBELISK : STACK, 0);
      break;
  }
  return b;
}

/** A game record as text to compare: keys sorted, -0 told from 0, absent and undefined fields alike. */
export function plainRecord(rec: GameRecord): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : Object.is(v, -0)
          ? '-0'
          : v;
  return JSON.stringify(sorted({ ...rec, tags: [...rec.tags] }));
}
