/**
 * `thoth db` as a user runs it: a record file imported (a damaged game in it named, the rest kept),
 * listed by filters, explored, searched; every game reviewed on worker threads, killed halfway and
 * resumed without reviewing a finished game again, with the marks `thoth analyse --game` gives.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { selfPlayRecords } from '../db/helpers';
import { ROOT, runThoth, thothArgv } from './helpers';
import { stretched } from '../slowness';
import { until } from '../patience';

const dir = mkdtempSync(join(tmpdir(), 'thoth-db-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const games = (count: number, seed: number): string => selfPlayRecords(count, seed, 24);

const damaged = '[Event "broken"]\n[White "x"]\n[Black "y"]\n[Result "*"]\n\nj4+ zz9 *\n\n';

describe('thoth db', () => {
  const file = join(dir, 'games.pgn');
  const db = join(dir, 'games.db');
  const text = games(6, 3);
  const cut = text.indexOf('[Event', 10);
  writeFileSync(file, text.slice(0, cut) + damaged + text.slice(cut));

  it('imports a file with a damaged game in the middle: names it in one line, stores the rest', async () => {
    const r = await runThoth(['db', 'import', '--db', db, file]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/game 2 \(x - y\): move 2 \(zz9\): .*; skipped\n/);
    expect(r.err).toMatch(/1 damaged game or text skipped \(named above\); every other game is stored/);
    expect(r.out).toMatch(/7 games read, 6 stored, 0 duplicates, 1 damaged/);
    const again = await runThoth(['db', 'import', '--db', db, file]);
    expect(again.out).toMatch(/7 games read, 0 stored, 6 duplicates/);
  });

  it('lists by filters, explores the start, finds a position', async () => {
    const list = await runThoth(['db', 'list', '--db', db, '--player', 'thoth', '--setup', 'classic', '--json']);
    expect(list.code).toBe(0);
    const rows = list.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    const none = await runThoth(['db', 'list', '--db', db, '--player', 'nobody']);
    expect(none.out).toMatch(/^0 games match/m);
    const ex = await runThoth(['db', 'explore', '--db', db, '--setup', 'classic', '--depth', '1', '--json']);
    expect(ex.code).toBe(0);
    const moves = JSON.parse(ex.out).moves as { games: number; eval?: unknown }[];
    expect(moves.reduce((a, m) => a + m.games, 0)).toBe(6);
    expect(moves.every((m) => m.eval !== undefined)).toBe(true);
    const bad = await runThoth(['db', 'search', '--db', db, '--pattern', 'Red Pharoah']);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
  });

  it(
    'reviews every game, resumes after a kill without repeating one, agrees with thoth analyse',
    async () => {
      const child = spawn(process.execPath, thothArgv(['db', 'review', '--db', db, '--depth', '2', '--threads', '1']), {
        cwd: ROOT,
        stdio: 'ignore',
      });
      const reviews = (): { game: number; done: string }[] => {
        const d = new Database(db, { readonly: true });
        try {
          return d.prepare('SELECT game, done FROM reviews ORDER BY game').all() as { game: number; done: string }[];
        } finally {
          d.close();
        }
      };
      const exited = new Promise((r) => child.on('exit', r));
      await until('a first review stored', 120_000, () => reviews().length > 0).catch(() => undefined);
      child.kill('SIGKILL');
      await exited;
      const before = reviews();
      expect(before.length).toBeGreaterThan(0);
      const r = await runThoth(['db', 'review', '--db', db, '--depth', '2', '--threads', '2']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`(${before.length} of 6 already reviewed)`);
      const after = reviews();
      expect(after).toHaveLength(6);
      for (const b of before) expect(after.find((a) => a.game === b.game)?.done).toBe(b.done);
      expect(r.out).toMatch(/^Thoth +12 +\d/m);
      // The first game as thoth analyse --game reviews it alone.
      const one = await runThoth(['analyse', '--game', file, '--index', '1', '--depth', '2', '--json']);
      const solo = JSON.parse(one.out) as { sides: { accuracy: number }[] };
      const d = new Database(db, { readonly: true });
      const row = d.prepare('SELECT accuracy_white, accuracy_black FROM reviews WHERE game = 1').get() as Record<
        string,
        number
      >;
      d.close();
      // thoth analyse --json writes accuracies to one decimal.
      expect(Math.round(row.accuracy_white * 10) / 10).toBe(solo.sides[0].accuracy);
      expect(Math.round(row.accuracy_black * 10) / 10).toBe(solo.sides[1].accuracy);
    },
    stretched(240_000),
  );
});
