/**
 * `thoth db import`: record files into the database (docs/db.md). A file is read in pieces cut
 * at game boundaries, each game replayed with the rules core (a game that does not replay is
 * skipped with one line naming it), its key made from its moves (a game already stored is counted
 * as a duplicate, whatever its tags), and stored with every position it passed through. Games go
 * in by transactions of {@link BATCH} games: a failure (a full disk, a lock held too long) loses
 * at most the batch being written, never a game stored before it.
 */
import type Database from 'better-sqlite3';
import { SETUPS, formatMove, isSetupName, parseKfen, parseMove, setupsOf, toKfen, type EditionId } from '../core/index';
import {
  formatRecordSyntaxError,
  parseRecords,
  recordPlayers,
  recordReason,
  recordStart,
  recordVariant,
  serializeRecord,
  standardRecord,
  type GameRecord,
} from '../core/record';
import { gameKey, keyOf, packMoves } from '../analysis/game-keys';
import { DbError, dbErrorText } from './database';

/** Games written per transaction. */
export const BATCH = 500;

/** A game ready to store: its row and its positions' keys and moves. */
interface PreparedGame {
  key: string;
  variant: EditionId;
  setup: string;
  start: string;
  white: string;
  black: string;
  result: string;
  termination: string | null;
  ending: string | null;
  plies: number;
  date: string | null;
  event: string | null;
  moves: string[];
  /** The moves as the rules core numbers them, 3 bytes each (src/analysis/game-keys.ts). */
  codes: Uint8Array;
  record: string;
  /** keys[k]: the position before move k (keys[plies]: after the last). */
  keys: number[];
}

/** The setup a game started from: a rulebook setup's KFEN, or the one its Opening tag names, else `custom`. */
function setupOf(variant: EditionId, start: string, rec: GameRecord): string {
  const board = (k: string): string => k.trim().split(/\s+/).slice(0, 2).join(' ');
  for (const s of setupsOf(variant)) {
    const kfen = SETUPS[variant][s];
    if (kfen !== undefined && board(kfen) === board(start)) return s;
  }
  const named = rec.tags.get('Opening')?.split(/\s+/)[0] ?? '';
  return isSetupName(named) && setupsOf(variant).includes(named) ? named : 'custom';
}

/** A game's row and positions, or why it cannot be stored. */
function prepareGame(rec: GameRecord): PreparedGame | string {
  const variant = recordVariant(rec);
  const startText = recordStart(rec) ?? SETUPS[variant].classic;
  const r = parseKfen(startText, variant);
  if (!r.ok) return `bad start position: ${r.error.message}`;
  const pos = r.value;
  const start = toKfen(pos);
  const keys = [keyOf(pos)];
  const moves: string[] = [];
  const codes: number[] = [];
  for (let k = 0; k < rec.moves.length; k++) {
    if (pos.winner >= 0) return `move ${k + 1} (${rec.moves[k].move}): the game was already over`;
    const m = parseMove(pos, rec.moves[k].move);
    if (!m.ok) return `move ${k + 1} (${rec.moves[k].move}): ${m.error.message}`;
    pos.make(m.value);
    moves.push(formatMove(m.value));
    codes.push(m.value);
    keys.push(keyOf(pos));
  }
  const [white, black] = recordPlayers(rec);
  const std = standardRecord(rec);
  const date = rec.tags.get('Date');
  return {
    key: gameKey(variant, start, moves),
    variant,
    setup: setupOf(variant, start, rec),
    start,
    white,
    black,
    result: rec.result,
    termination: rec.tags.get('Termination') ?? null,
    ending: recordReason(rec) ?? null,
    plies: moves.length,
    date: date && /^\d{4}\.\d\d\.\d\d$/.test(date) ? date : null,
    event: rec.tags.get('Event') ?? null,
    moves,
    codes: packMoves(codes),
    record: serializeRecord(std),
    keys,
  };
}

/** Writes prepared games; the number stored (duplicates are skipped). */
export class GameWriter {
  private readonly insertGame: Database.Statement;
  private readonly insertPosition: Database.Statement;
  private readonly write: (games: readonly PreparedGame[], source: string) => number;

  constructor(readonly db: Database.Database) {
    this.insertGame = db.prepare(
      `INSERT OR IGNORE INTO games (key, variant, setup, start, white, black, result, termination, ending, plies, date, event, moves, codes, record, source, added)
       VALUES (@key, @variant, @setup, @start, @white, @black, @result, @termination, @ending, @plies, @date, @event, @moves, @codes, @record, @source, @added)`,
    );
    this.insertPosition = db.prepare('INSERT OR IGNORE INTO positions (key, game, ply, move) VALUES (?, ?, ?, ?)');
    this.write = db.transaction((games: readonly PreparedGame[], source: string): number => {
      const added = new Date().toISOString();
      let stored = 0;
      for (const g of games) {
        const r = this.insertGame.run({
          ...g,
          keys: undefined,
          moves: g.moves.join(' '),
          codes: Buffer.from(g.codes),
          source,
          added,
        });
        if (r.changes === 0) continue;
        stored++;
        const id = Number(r.lastInsertRowid);
        for (let k = 0; k < g.keys.length; k++) this.insertPosition.run(g.keys[k], id, k, g.moves[k] ?? null);
      }
      return stored;
    });
  }

  /** Stores a batch in one transaction (all of it or, on a failure, none: DbError). */
  store(games: readonly PreparedGame[], source: string): number {
    try {
      return this.write(games, source);
    } catch (e) {
      throw new DbError(dbErrorText(e));
    }
  }
}

interface ImportTally {
  games: number;
  stored: number;
  duplicates: number;
  /** One line per game or text that was skipped. */
  damaged: string[];
  /** The keys of the games read (stored or already there). */
  keys: string[];
}

/**
 * Pieces of a record text, each ending where a game's tags begin (a blank line, then `[`), of
 * about `size` characters: a file is parsed piece by piece, not all at once.
 */
function* recordPieces(text: string, size = 1 << 20): Generator<{ text: string; offset: number }> {
  let from = 0;
  const boundary = /\n[ \t\r]*\n(?=[ \t]*\[)/g;
  while (from < text.length) {
    let end = text.length;
    if (text.length - from > size) {
      boundary.lastIndex = from + size;
      const m = boundary.exec(text);
      if (m) end = m.index + m[0].length;
    }
    yield { text: text.slice(from, end), offset: from };
    from = end;
  }
}

/** The line (from 1) of a character offset. */
function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Imports a record text: every game that replays is stored (or counted as a duplicate); damaged
 * ones are named in `damaged`. `each` hears after every batch; a write failure is a DbError
 * whose message says how many games this file had stored before it.
 */
export function importText(
  writer: GameWriter,
  text: string,
  source: string,
  each: (t: ImportTally, done: number) => void = () => {},
): ImportTally {
  const t: ImportTally = { games: 0, stored: 0, duplicates: 0, damaged: [], keys: [] };
  let batch: PreparedGame[] = [];
  const flush = (): void => {
    if (batch.length === 0) return;
    let stored: number;
    try {
      stored = writer.store(batch, source);
    } catch (e) {
      throw new DbError(
        `${(e as Error).message}: the last ${batch.length} games read from ${source} were not stored; the ${t.stored} stored before them are kept (run the same command again: stored games are skipped)`,
      );
    }
    t.stored += stored;
    t.duplicates += batch.length - stored;
    batch = [];
  };
  for (const piece of recordPieces(text)) {
    let parsed = parseRecords(piece.text);
    if (parsed.incomplete) {
      const more = parseRecords(`${piece.text.trimEnd()}\n*\n`);
      if (more.games.length > parsed.games.length) parsed = more;
    }
    for (const e of parsed.errors) {
      if (e.kind === 'no game') continue;
      const line = e.index >= 0 ? lineAt(text, piece.offset + e.index) : undefined;
      t.damaged.push(`${source}${line ? `:${line}` : ''}: ${formatRecordSyntaxError({ ...e, index: -1 })}`);
    }
    for (const rec of parsed.games) {
      if (rec.tags.size === 0 && rec.moves.length === 0) continue;
      t.games++;
      const g = prepareGame(rec);
      if (typeof g === 'string') {
        const [w, b] = recordPlayers(rec);
        const round = rec.tags.get('Round');
        t.damaged.push(
          `${source}: game ${t.games} (${w} - ${b}${round && round !== '?' ? `, Round ${round}` : ''}): ${g}; skipped`,
        );
        continue;
      }
      batch.push(g);
      t.keys.push(g.key);
      if (batch.length >= BATCH) {
        flush();
        each(t, piece.offset + piece.text.length);
      }
    }
  }
  flush();
  each(t, text.length);
  return t;
}
