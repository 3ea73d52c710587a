/**
 * The game database on real SQLite files: migrations, import (duplicates by moves, a damaged game
 * in the middle of a file, a full database, a locked one), the position index (any move order),
 * patterns, deletion, and self-play records as datagen writes them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SETUPS, parseKfen, parseMove } from '../../src/core/index';
import { makeRng, randomOpening } from '../../src/core/opening';
import { keyOf } from '../../src/analysis/game-keys';
import { parsePattern } from '../../src/analysis/pattern';
import { indexMoves, isExplorerIndex } from '../../src/analysis/explorer-index';
import { DbError, SCHEMA_VERSION, openDatabase } from '../../src/db/database';
import { buildIndex } from '../../src/db/static-index';
import { BATCH, GameWriter, importText } from '../../src/db/import';
import {
  countGames,
  deleteGames,
  explorerMoves,
  explorerRows,
  gamesAtKey,
  gamesMatching,
  listGames,
  storeReview,
} from '../../src/db/query';
import { exploreMoves } from '../../src/analysis/explorer';
import { DEFAULT_DATAGEN, GamePlayer } from '../../src/train/datagen';
import { datagenRecord } from '../../src/train/datagen-records';

const dir = mkdtempSync(join(tmpdir(), 'thoth-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `t${n++}.db`);

function record(moves: string[], tags: Record<string, string> = {}, result = '*'): string {
  const t = { Event: 'test', White: 'alpha', Black: 'beta', Result: result, ...tags };
  const head = Object.entries(t)
    .map(([k, v]) => `[${k} "${v}"]`)
    .join('\n');
  return `${head}\n\n${moves.join(' ')} ${result}\n\n`;
}

/** Real self-play games as `thoth datagen --records` writes them. */
function selfPlay(count: number, randomPlies = 6): string {
  const player = new GamePlayer(1);
  const settings = { ...DEFAULT_DATAGEN, nodes: 1, randomPlies, maxPlies: 60 };
  let text = '';
  for (let g = 0; g < count; g++) {
    const task = { game: g, seed: 7, edition: 'khet2' as const, setup: 'classic' as const, settings, line: true };
    text += datagenRecord(player.play(task), task, settings, '2026.01.02');
  }
  return text;
}

describe('the game database', () => {
  it('makes the schema once and says so in user_version; refuses one from a newer build', () => {
    const f = fresh();
    openDatabase(f).close();
    const raw = new Database(f);
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(f)).toThrow(/newer Thoth/);
    // a folder given for the file is said so (SQLite's own word is a disk I/O error)
    expect(() => openDatabase(dir)).toThrow(/: a folder, not a database file$/);
    expect(() => openDatabase(dir, { readonly: true })).toThrow(/: a folder, not a database file$/);
  });

  it('upgrades a database of schema 1 when opened for writing, its games kept; read only, it says how', () => {
    const f = fresh();
    const db = openDatabase(f);
    importText(new GameWriter(db), record(['f4+', 'g3g2'], {}, '1-0'), 'x');
    db.close();
    // schema 1 as an earlier build left it: no explorer index
    const raw = new Database(f);
    raw.exec('DROP INDEX games_explorer');
    raw.pragma('user_version = 1');
    raw.close();
    expect(() => openDatabase(f, { readonly: true })).toThrow(/an older schema \(1\): open it once for writing/);
    const up = openDatabase(f);
    expect(up.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(listGames(up, {}).map((g) => g.moves)).toEqual(['f4+ g3g2']);
    const start = parseKfen(SETUPS.khet2.classic, 'khet2');
    if (!start.ok) throw new Error('setup');
    expect(explorerMoves(up, keyOf(start.value), 0).map((m) => [m.move, m.games, m.wins])).toEqual([['f4+', 1, 1]]);
    up.close();
  });

  it('stores a game once, whatever its tags, and names a damaged game in the middle of a file', () => {
    const db = openDatabase(fresh());
    const w = new GameWriter(db);
    const text =
      record(['j4+', 'a5-'], { Round: '1' }) +
      record(['j4+', 'zz9'], { Round: '2' }) +
      record(['h2h3'], { Round: '3' }) +
      record(['j4+', 'a5-'], { Round: '4', White: 'other' }, '*');
    const t = importText(w, text, 'm.pgn');
    expect(t).toMatchObject({ games: 4, stored: 2, duplicates: 1 });
    expect(t.damaged).toHaveLength(1);
    expect(t.damaged[0]).toMatch(/^m\.pgn: game 2 \(alpha - beta, Round 2\): move 2 \(zz9\).*; skipped$/);
    expect(listGames(db, {}).map((g) => g.moves)).toEqual(['j4+ a5-', 'h2h3']);
    expect(importText(w, text, 'm.pgn')).toMatchObject({ stored: 0, duplicates: 3 });
    db.close();
  });

  it('finds a position reached by either move order, and the moves played from it', () => {
    const db = openDatabase(fresh());
    const w = new GameWriter(db);
    importText(
      w,
      record(['f4+', 'g3g2', 'c1c2', 'a4a3'], {}, '1-0') + record(['c1c2', 'g3g2', 'f4+', 'a4a3'], {}, '0-1'),
      'x',
    );
    const pos = parseKfen(SETUPS.khet2.classic, 'khet2');
    if (!pos.ok) throw new Error('setup');
    for (const t of ['f4+', 'g3g2', 'c1c2']) {
      const m = parseMove(pos.value, t);
      if (!m.ok) throw new Error(t);
      pos.value.make(m.value);
    }
    const key = keyOf(pos.value);
    expect(gamesAtKey(db, key).map((g) => [g.id, g.ply])).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(
      explorerRows(db, key)
        .map((r) => `${r.move} ${r.result}`)
        .sort(),
    ).toEqual(['a4a3 0-1', 'a4a3 1-0']);
    expect(gamesAtKey(db, key, { result: '0-1' }).map((g) => g.id)).toEqual([2]);
    expect(deleteGames(db, [1])).toBe(1);
    expect(gamesAtKey(db, key).map((g) => g.id)).toEqual([2]);
    expect((db.prepare('SELECT count(*) AS n FROM positions WHERE game = 1').get() as { n: number }).n).toBe(0);
    db.close();
  });

  it("sums the explorer in SQL exactly as the page's and the CLI's JavaScript sums it, for every position stored", () => {
    const db = openDatabase(fresh());
    const w = new GameWriter(db);
    // Short openings so that games meet; a game that passes a position twice playing the same move
    // (counted once), unfinished games, and reviews (the best game's accuracy decides between equals).
    importText(w, selfPlay(16, 2), 'selfplay.pgn');
    importText(
      w,
      record(['f4+', 'g3g2', 'f4-', 'g2g3', 'f4+', 'g3g2', 'c1c2'], {}, '*') +
        record(['f4+', 'g3g2', 'f4-', 'g2g3', 'f4+', 'a4a3'], {}, '1/2-1/2') +
        record(['f4+', 'g3g2', 'c1c2'], { White: 'gamma' }, '0-1'),
      'x',
    );
    const ids = listGames(db, {}, 1000).map((g) => g.id);
    for (const [i, game] of ids.entries())
      if (i % 3 === 0)
        storeReview(db, {
          game,
          depth: 2,
          accuracy_white: i % 2 === 0 ? 50 + (i % 7) : null,
          accuracy_black: 40 + (i % 5),
          inaccuracies_white: 0,
          mistakes_white: 0,
          blunders_white: 0,
          inaccuracies_black: 0,
          mistakes_black: 0,
          blunders_black: 0,
          cp_loss_white: null,
          cp_loss_black: null,
          marks: '[]',
          scores: '[]',
          done: '2026-12-07T00:00:00Z',
        });
    const keys = db.prepare('SELECT DISTINCT key, ply % 2 AS side FROM positions WHERE move IS NOT NULL').all() as {
      key: number;
      side: 0 | 1;
    }[];
    expect(keys.length).toBeGreaterThan(300);
    const shared = keys.filter(({ key }) => explorerRows(db, key).length > 1);
    expect(shared.length).toBeGreaterThan(20); // positions many games pass: the sums and the best game are tested there
    for (const f of [{}, { result: '1-0' }, { player: 'gamma' }])
      for (const { key, side } of f === undefined || Object.keys(f).length === 0 ? keys : shared)
        expect(explorerMoves(db, key, side, f), `key ${key}`).toEqual(exploreMoves(explorerRows(db, key, f), side));
    db.close();
  });

  it("imports datagen's self-play records, with their setup, and searches them by pattern", () => {
    const db = openDatabase(fresh());
    const t = importText(new GameWriter(db), selfPlay(4), 'selfplay.pgn');
    expect(t).toMatchObject({ games: 4, stored: 4, damaged: [] });
    const games = listGames(db, {});
    expect(new Set(games.map((g) => `${g.variant} ${g.setup} ${g.white}-${g.black}`))).toEqual(
      new Set(['khet2 classic Thoth-Thoth']),
    );
    expect(countGames(db, { from: '2026.01.01', to: '2026-01-02' })).toBe(4);
    expect(countGames(db, { from: '2026.01.03' })).toBe(0);
    const p = parsePattern('Silver Pharaoh on e1 with Silver Anubis beside it');
    if (!p.ok) throw new Error(p.error);
    expect(gamesMatching(db, p.value).games.map((g) => g.ply)).toEqual([0, 0, 0, 0]);
    db.close();
  });

  it('a full database keeps every batch written before it, and says so in one line', () => {
    const f = fresh();
    const db = openDatabase(f);
    const w = new GameWriter(db);
    const start = parseKfen(SETUPS.khet2.classic, 'khet2');
    if (!start.ok) throw new Error('setup');
    const games = Array.from({ length: 3 * BATCH }, (_, i) =>
      record(randomOpening(makeRng(i), start.value, 8)?.moves ?? [], { Round: String(i) }),
    ).join('');
    importText(w, record(['h2h3']), 'first.pgn');
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 2}`);
    let error: unknown;
    try {
      importText(w, games, 'big.pgn');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DbError);
    expect((error as Error).message).toMatch(
      /^the disk is full: the last \d+ games read from big\.pgn were not stored; the \d+ stored before them are kept/,
    );
    expect(countGames(db, {})).toBeGreaterThanOrEqual(1);
    db.close();
  });

  it('a database locked by another process is one line, and nothing is lost', () => {
    const f = fresh();
    const db = openDatabase(f, { busyMs: 50 });
    importText(new GameWriter(db), record(['h2h3']), 'a.pgn');
    const other = new Database(f);
    other.exec('BEGIN EXCLUSIVE');
    expect(() => importText(new GameWriter(db), record(['j4+']), 'b.pgn')).toThrow(
      /^the database is locked by another process/,
    );
    other.exec('ROLLBACK');
    other.close();
    expect(countGames(db, {})).toBe(1);
    db.close();
  });
});

describe("the page's explorer index", () => {
  it('holds the first plies of the games within its budget, read back as the explorer reads it', () => {
    const db = openDatabase(fresh());
    importText(
      new GameWriter(db),
      record(['f4+', 'g3g2'], {}, '1-0') + record(['f4+', 'a4a3'], {}, '0-1') + record(['c1c2'], {}, '1-0'),
      'x',
    );
    const r = buildIndex(db, { plies: 1, minGames: 1, budget: 100_000, filter: {} });
    const index = JSON.parse(r.text) as unknown;
    expect(isExplorerIndex(index)).toBe(true);
    if (!isExplorerIndex(index)) return;
    expect(r).toMatchObject({ positions: 1, games: 3, minGames: 1 });
    const start = parseKfen(SETUPS.khet2.classic, 'khet2');
    if (!start.ok) throw new Error('setup');
    expect(indexMoves(index, start.value).map((m) => [m.move, m.games, m.wins, m.losses])).toEqual([
      ['f4+', 2, 1, 1],
      ['c1c2', 1, 1, 0],
    ]);
    // Two plies: the position after f4+ comes in; a budget too small for both keeps the start only.
    const two = buildIndex(db, { plies: 2, minGames: 1, budget: 100_000, filter: {} });
    expect(two.positions).toBe(2);
    const tight = buildIndex(db, { plies: 2, minGames: 1, budget: r.text.length + 10, filter: {} });
    expect(tight).toMatchObject({ positions: 1, minGames: 3 });
    expect(tight.text.length).toBeLessThanOrEqual(r.text.length + 10);
    db.close();
  });
});
