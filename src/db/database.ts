/**
 * The game database (docs/db.md): one SQLite file through better-sqlite3, its schema made and
 * upgraded by the migrations below (SQLite's `user_version` counts those applied). Games are
 * stored once by their moves (src/analysis/game-keys.ts), every position of every game by its
 * Zobrist key (the explorer and the exact position search), reviews beside their games.
 * Failures are DbError: one line that says what happened and what is kept.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { ResultToken } from '../core/record';

/** A database problem in one line (locked, full, not a database, made by a newer Thoth). */
export class DbError extends Error {}

/** Each migration takes the schema from version i to i + 1. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE games (
     id INTEGER PRIMARY KEY,
     key TEXT NOT NULL UNIQUE,
     variant TEXT NOT NULL,
     setup TEXT NOT NULL,
     start TEXT NOT NULL,
     white TEXT NOT NULL,
     black TEXT NOT NULL,
     result TEXT NOT NULL,
     termination TEXT,
     ending TEXT,
     plies INTEGER NOT NULL,
     date TEXT,
     event TEXT,
     moves TEXT NOT NULL,
     codes BLOB NOT NULL,
     record TEXT NOT NULL,
     source TEXT,
     added TEXT NOT NULL
   );
   CREATE INDEX games_white ON games(white);
   CREATE INDEX games_black ON games(black);
   CREATE INDEX games_date ON games(date);
   CREATE INDEX games_setup ON games(variant, setup);
   CREATE TABLE positions (
     key INTEGER NOT NULL,
     game INTEGER NOT NULL,
     ply INTEGER NOT NULL,
     move TEXT,
     PRIMARY KEY (key, game, ply)
   ) WITHOUT ROWID;
   CREATE TABLE reviews (
     game INTEGER PRIMARY KEY,
     depth INTEGER NOT NULL,
     accuracy_white REAL,
     accuracy_black REAL,
     inaccuracies_white INTEGER NOT NULL,
     mistakes_white INTEGER NOT NULL,
     blunders_white INTEGER NOT NULL,
     inaccuracies_black INTEGER NOT NULL,
     mistakes_black INTEGER NOT NULL,
     blunders_black INTEGER NOT NULL,
     cp_loss_white REAL,
     cp_loss_black REAL,
     marks TEXT NOT NULL,
     scores TEXT NOT NULL,
     done TEXT NOT NULL
   );`,
  // 2: the explorer's join reads a game's result, length and players from this index instead of
  // the game's whole row (its record and moves): a position every game of a setup passes sums in
  // about half the time (2026-12-07, 150,000 games).
  'CREATE INDEX games_explorer ON games(id, result, plies, white, black);',
];

/** The schema version this build makes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** A game as stored (without its record text and positions). */
export interface GameRow {
  id: number;
  key: string;
  variant: string;
  setup: string;
  start: string;
  white: string;
  black: string;
  result: ResultToken;
  termination: string | null;
  ending: string | null;
  plies: number;
  date: string | null;
  event: string | null;
  moves: string;
  source: string | null;
  added: string;
}

/** A stored review: per side (white = first player) accuracy and marks, per ply the NAG and score. */
export interface ReviewRow {
  game: number;
  depth: number;
  accuracy_white: number | null;
  accuracy_black: number | null;
  inaccuracies_white: number;
  mistakes_white: number;
  blunders_white: number;
  inaccuracies_black: number;
  mistakes_black: number;
  blunders_black: number;
  cp_loss_white: number | null;
  cp_loss_black: number | null;
  /** JSON: the NAG of each ply (0 none, 6 ?!, 2 ?, 4 ??). */
  marks: string;
  /** JSON: the engine's score of each ply's position, mover's view (centi-pyramids; mates as ±(10000 − n)). */
  scores: string;
  done: string;
}

/** The words of a SQLite failure: a locked or full database, a file that is not one. */
export function dbErrorText(e: unknown): string {
  const code = (e as { code?: string }).code ?? '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return 'the database is locked by another process: try again when it is done';
  if (code.startsWith('SQLITE_FULL')) return 'the disk is full';
  if (code === 'SQLITE_NOTADB') return 'the file is not a Thoth database (nor any SQLite database)';
  if (code === 'SQLITE_CANTOPEN') return 'cannot open the file';
  if (code.startsWith('SQLITE_READONLY')) return 'the database cannot be written (read-only)';
  return (e as Error).message;
}

interface OpenOptions {
  /** Open an existing file only, for reading. */
  readonly?: boolean;
  /** How long to wait for another process's lock, ms (default 2000). */
  busyMs?: number;
}

/**
 * The SQLite binding, loaded when a database is first opened: the engine and most commands never
 * open one, and a process that starts without it starts sooner. Written as one call, the form a
 * distributed build reads to pack the package (src/distributed/builds.ts, packagesLoaded).
 */
function sqlite(): typeof Database {
  return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
}

/** Opens (or makes) a database and brings its schema up to date. */
export function openDatabase(path: string, o: OpenOptions = {}): Database.Database {
  // SQLite calls a folder a disk I/O error
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new DbError(`${path}: a folder, not a database file`);
  let db: Database.Database;
  try {
    db = new (sqlite())(path, {
      readonly: o.readonly ?? false,
      fileMustExist: o.readonly ?? false,
      timeout: o.busyMs ?? 2000,
    });
  } catch (e) {
    throw new DbError(`${path}: ${dbErrorText(e)}`);
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      throw new DbError(`${path}: made by a newer Thoth (schema ${version}; this one reads up to ${SCHEMA_VERSION})`);
    if (version < SCHEMA_VERSION) {
      if (o.readonly)
        throw new DbError(`${path}: an older schema (${version}): open it once for writing to upgrade it`);
      db.pragma('journal_mode = WAL');
      db.transaction(() => {
        for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      })();
    }
    if (!o.readonly) db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
  } catch (e) {
    db.close();
    throw e instanceof DbError ? e : new DbError(`${path}: ${dbErrorText(e)}`);
  }
  return db;
}
