/**
 * The explorer on a game database, as a person uses it: `thoth gui --db FILE` in Chromium, the
 * analysis board's explorer listing the database's moves from the shown position (the same figures
 * as `thoth db explore`'s SQL, src/db/query.ts explorerMoves), a click on a row playing the move and
 * the list following it, the best game's Open putting the stored game on the board; on a phone too.
 * The /api/ answers keep the token check and name bad input; a --db that cannot be opened is one
 * line and exit 2. Screenshots to test-output/.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUPS, parseKfen, parseMove, type Position } from '../../src/core/index';
import { keyOf } from '../../src/analysis/game-keys';
import { openDatabase } from '../../src/db/database';
import { GameWriter, importText } from '../../src/db/import';
import { explorerMoves } from '../../src/db/query';
import { selfPlayRecords } from '../db/helpers';
import {
  HAVE_CHROMIUM,
  PHONE,
  closeBrowser,
  confirmIfAsked,
  moveCount,
  open,
  setMode,
  shot,
  waitMoves,
} from './browser';
import { CLI, FAKE_ENGINE, OUT, ROOT, startGui, type RunningGui } from './helpers';
import { runSlowness } from '../slowness';

const dir = mkdtempSync(path.join(tmpdir(), 'thoth-explorer-db-'));
const file = path.join(dir, 'club.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterAll(closeBrowser);

/** The database's rows as the page must show them: move, games, score. */
function expected(pos: Position): string[] {
  const db = openDatabase(file, { readonly: true });
  try {
    return explorerMoves(db, keyOf(pos), pos.side as 0 | 1)
      .slice(0, 12)
      .map((m) => `${m.move} ${m.games} ${Number.isNaN(m.score) ? '–' : `${Math.round(100 * m.score)}%`}`);
  } finally {
    db.close();
  }
}

/** The database's rows the page shows: move, games, score. */
const shownRows = (page: Page): Promise<string[]> =>
  page.$$eval('#explorer table[data-from=database] tr.ex-move', (trs) =>
    trs.map((tr) => [0, 1, 3].map((i) => tr.children[i].textContent ?? '').join(' ')),
  );

describe.skipIf(!HAVE_CHROMIUM)('the explorer on a game database (thoth gui --db), in Chromium', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    const db = openDatabase(file);
    // 30 classic games after 2 random plies: they share their first positions and part there.
    importText(new GameWriter(db), selfPlayRecords(30, 11, 40), 'club.pgn');
    db.close();
    gui = await startGui(['--engine', FAKE_ENGINE, '--db', file]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it("lists the database's moves from each position shown, plays one on a click, and opens a best game", async () => {
    // printed right after the address
    for (const until = Date.now() + 30_000 * runSlowness(); !/Explorer: club\.db, 30 games/.test(gui.output()); ) {
      if (Date.now() > until) throw new Error(`no explorer line in:\n${gui.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    await confirmIfAsked(page);
    const start = parseKfen(SETUPS.khet2.classic, 'khet2');
    if (!start.ok) throw new Error('setup');
    const heading = '#explorer h3[data-from=database]';
    await page.waitForFunction((h) => document.querySelector(h)?.textContent === 'club.db (30): 30 games', heading);
    expect(await shownRows(page)).toEqual(expected(start.value));
    await shot(page, 'explorer-db');
    // The rows stay the same elements while the analysis streams its lines (the page draws itself
    // at each): a row drawn again under the pointer would lose the click on it.
    const row = await page.$('#explorer table[data-from=database] tr.ex-move');
    for (let k = 0; k < 3; k++) {
      const lines = await page.textContent('#lines');
      await page.waitForFunction((before) => document.getElementById('lines')?.textContent !== before, lines);
    }
    expect(await row?.evaluate((e) => e.isConnected)).toBe(true);

    // A click on the most played move plays it; the list is then the database's from there.
    const first = await page.getAttribute('#explorer table[data-from=database] tr.ex-move', 'data-move');
    if (first === null) throw new Error('no row');
    await page.click(`#explorer table[data-from=database] tr.ex-move[data-move="${first}"]`);
    await waitMoves(page, 1);
    const m = parseMove(start.value, first);
    if (!m.ok) throw new Error(first);
    start.value.make(m.value);
    const after = expected(start.value);
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('#explorer table[data-from=database] tr.ex-move').length === n &&
        !document.querySelector('#explorer h3[data-from=database]')?.textContent?.includes('asking'),
      after.length,
    );
    expect(await shownRows(page)).toEqual(after);

    // The best game's Open puts that stored game, whole, on the board.
    const best = await page.textContent('#explorer table[data-from=database] tr.ex-move .ex-best');
    const plies = Number(/, (\d+) plies/.exec(best ?? '')?.[1]);
    expect(plies).toBeGreaterThan(1);
    await page.click('#explorer table[data-from=database] tr.ex-move .ex-open');
    const until = Date.now() + 60_000 * runSlowness();
    while ((await moveCount(page)) !== plies) {
      if (Date.now() > until) throw new Error(`the board has ${await moveCount(page)} moves, not ${plies}`);
      const yes = page.locator('#dialog-yes');
      if ((await yes.count()) > 0 && (await yes.isVisible())) await yes.click();
      await page.waitForTimeout(100);
    }
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('on a phone the database rows show under the analysis board', async () => {
    const { ctx, page, errors } = await open(gui.url, { viewport: PHONE });
    await setMode(page, 'analysis');
    await confirmIfAsked(page);
    await page.waitForSelector('#explorer table[data-from=database] tr.ex-move');
    await page.locator('#explorer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(OUT, 'gui-explorer-db-phone.png') });
    const box = await page.locator('#explorer table[data-from=database]').boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(PHONE.width);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('answers under the token only, names bad input, and a page without --db has no database', async () => {
    const base = `http://127.0.0.1:${gui.port}`;
    expect((await fetch(`${base}/api/database`)).status).toBe(403);
    const ask = (q: string) => fetch(`${base}${q}${q.includes('?') ? '&' : '?'}token=${gui.token}`);
    expect(await (await ask('/api/database')).json()).toEqual({ name: 'club.db', games: 30 });
    const bad = await ask('/api/explorer?variant=khet2&kfen=nonsense');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^kfen: /);
    expect((await ask('/api/explorer?variant=chess&kfen=x')).status).toBe(400);
    // Answers are kept for the run, until another process writes the database.
    const total = async (): Promise<number> => {
      const r = (await (
        await ask(`/api/explorer?variant=khet2&kfen=${encodeURIComponent(SETUPS.khet2.classic)}`)
      ).json()) as { moves: { games: number }[] };
      return r.moves.reduce((a, m) => a + m.games, 0);
    };
    expect(await total()).toBe(30);
    const db = openDatabase(file);
    importText(new GameWriter(db), selfPlayRecords(3, 99, 20), 'more.pgn');
    db.close();
    expect(await total()).toBe(33);
    expect(await (await ask('/api/database')).json()).toEqual({ name: 'club.db', games: 33 });
    expect((await ask('/api/game?id=34')).status).toBe(404);
    expect(((await (await ask('/api/game?id=3')).json()) as { record: string }).record).toMatch(/^\[Event /);
    const plain = await startGui(['--engine', FAKE_ENGINE]);
    try {
      const r = await fetch(`http://127.0.0.1:${plain.port}/api/database?token=${plain.token}`);
      expect(await r.json()).toEqual({ name: null, games: 0 });
      const e = await fetch(`http://127.0.0.1:${plain.port}/api/explorer?variant=khet2&kfen=x&token=${plain.token}`);
      expect(e.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('a --db that cannot be opened is one line and exit 2, before any server starts', () => {
    const r = spawnSync(process.execPath, [CLI, 'gui', '--port', '0', '--db', path.join(dir, 'none.db')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000 * runSlowness(),
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--db: .*none\.db/);
    expect(r.stdout).toBe('');
  });
});
