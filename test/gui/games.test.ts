/**
 * The Games panel and the opening explorer as a person uses them, in Chromium against `thoth gui`
 * (the built dist/): a game between two people kept in IndexedDB when it ends, kept across a
 * reload, filtered, opened, deleted; the explorer on the analysis board showing the kept game's
 * move from the position it reached with its best game (opened by its Open), and playing it on a
 * click; the position search finding the kept game by the board's position and by a pattern, and
 * opening it at the ply found. Screenshots to test-output/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HAVE_CHROMIUM,
  closeBrowser,
  confirmIfAsked,
  moveCount,
  open,
  setMode,
  settled,
  shot,
  waitMoves,
  walkGame,
} from './browser';
import { FAKE_ENGINE, OUT, startGui, type RunningGui } from './helpers';
import { encodeLink } from '../../src/gui/page/state/link';
import { SHUFFLE_PGN } from '../analysis/shuffle-record';
import {
  EDITIONS,
  KIND_NAMES,
  colorOf,
  isRotation,
  kindOf,
  moveTo,
  parseKfen,
  parseMove,
  setupKfen,
  squareName,
  type Position,
} from '../../src/core/index';
import { runSlowness } from '../slowness';

afterAll(closeBrowser);

const listed = (page: Page): Promise<string[]> =>
  page.$$eval('#gm-list li .gm-what', (ls) => ls.map((l) => l.textContent ?? ''));

async function typeMoves(page: Page, moves: string[]): Promise<void> {
  for (const [i, m] of moves.entries()) {
    await page.fill('#move-input', m);
    await page.press('#move-input', 'Enter');
    await waitMoves(page, i + 1);
  }
}

/** Two people play `moves`, the second resigns, and the Games card (opened) lists the game kept. */
async function keepGame(page: Page, moves: string[]): Promise<string[]> {
  await setMode(page, 'humans');
  await typeMoves(page, moves);
  await page.click('#btn-resign');
  await confirmIfAsked(page);
  await page.click('#card-games summary');
  await page.waitForFunction(() => document.querySelectorAll('#gm-list li').length === 1);
  return moves;
}

/**
 * Waits until the board's game has `n` moves, saying yes to the page's question whenever it asks:
 * Open reads the game from IndexedDB before it asks to leave the one on the board, so the question
 * may come a while after the click.
 */
async function answerUntilMoves(page: Page, n: number): Promise<void> {
  const yes = page.locator('#dialog-yes');
  // a minute of an idle machine, times the slowness the run bears (the load may rise while it waits)
  const until = Date.now() + 60_000 * runSlowness();
  for (;;) {
    if ((await yes.count()) > 0 && (await yes.isVisible())) await yes.click();
    const have = await moveCount(page);
    if (have === n) return;
    if (Date.now() > until) throw new Error(`the board's game has ${have} moves, not ${n}`);
    await page.waitForTimeout(100);
  }
}

describe.skipIf(!HAVE_CHROMIUM)('the Games panel and the explorer, in Chromium', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('keeps a game as it ends, across a reload; filters, explores, opens and deletes it', async () => {
    const { ctx, page, errors } = await open(gui.url);
    const moves = await keepGame(page, walkGame(6, 4242));
    expect((await listed(page))[0]).toMatch(/^Human \(Silver\) – Human \(Red\) {2}0-1 {2}Khet 2\.0 classic, 6 plies/);
    // Reviewed: the kept game gets its accuracies, and each player's totals show.
    await page.click('#banner-review');
    await page.waitForSelector('#review .acc');
    await page.waitForFunction(() => document.querySelectorAll('#gm-players li').length === 2);
    expect((await listed(page))[0]).toMatch(/, accuracy \d+% \/ \d+%$/);
    const players = await page.$$eval('#gm-players li', (ls) => ls.map((l) => l.textContent ?? ''));
    expect(players[0]).toMatch(
      /^Human \((Silver|Red)\): 1 reviewed game, accuracy \d+\.\d%, \d+ \?!, \d+ \?, \d+ \?\?$/,
    );

    // Kept in IndexedDB: there after a reload.
    await page.reload();
    await page.waitForSelector('#engine-status:not([data-state=connecting])');
    if (!(await page.isVisible('#gm-filter'))) await page.click('#card-games summary');
    await page.waitForFunction(() => document.querySelectorAll('#gm-list li').length === 1);
    await page.fill('#gm-filter', 'nobody');
    expect(await listed(page)).toEqual([]);
    await page.fill('#gm-filter', '0-1 classic');
    expect(await listed(page)).toHaveLength(1);
    await settled(page);
    await page.locator('#card-games').screenshot({ path: path.join(OUT, 'gui-games-panel.png') });

    // The explorer: after the game's first two moves, its third is the one played from there.
    await setMode(page, 'analysis');
    await confirmIfAsked(page);
    await page.click('#btn-new');
    await confirmIfAsked(page);
    await typeMoves(page, moves.slice(0, 2));
    await page.waitForSelector(`#explorer tr.ex-move[data-move="${moves[2]}"]`);
    expect(await page.textContent('#explorer h3')).toBe('Your games: 1 game');
    // Its best game is the kept one: result, length and its accuracy for the mover (Silver, reviewed).
    const row = `#explorer tr.ex-move[data-move="${moves[2]}"]`;
    expect(await page.textContent(`${row} .ex-best`)).toMatch(/^0-1, 6 plies, \d+% Open$/);
    expect(await page.textContent(`${row} .ex-eval`)).toMatch(/^(–|[+−]?\d+\.\d\d|#-?\d+)$/);
    await shot(page, 'explorer');
    await page.locator('#card-analysis').screenshot({ path: path.join(OUT, 'gui-explorer-card.png') });
    await page.click(`#explorer tr.ex-move[data-move="${moves[2]}"]`);
    await waitMoves(page, 3);
    // The best game's Open puts the whole kept game on the board.
    await page.click('#nav-prev');
    await page.waitForSelector(`${row} .ex-open`);
    await page.click(`${row} .ex-open`);
    await answerUntilMoves(page, moves.length);
    await page.click('#btn-new');
    await answerUntilMoves(page, 0);

    // Open the kept game, then delete it.
    await page.fill('#gm-filter', '');
    await page.click('#gm-list li .gm-open');
    await answerUntilMoves(page, moves.length);
    expect(await moveCount(page)).toBe(moves.length);
    await page.click('#gm-list li .gm-delete');
    await page.waitForFunction(() => document.querySelectorAll('#gm-list li').length === 0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a game kept by its review shows in the explorer at once, with nothing clicked', async () => {
    // The shuffle's last position is its fifth (after 49. j3j4), where 49... c3d4 followed: once
    // the reviewed game is kept, the explorer has a game from the position on show.
    const link = `#${await encodeLink({ kind: 'game', pgn: SHUFFLE_PGN })}`;
    const { ctx, page, errors } = await open(`${gui.url}${link}`);
    await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 9);
    await setMode(page, 'analysis');
    expect(await page.textContent('#explorer h3')).toBe('Your games: no game from here');
    await page.click('#btn-review');
    await page.waitForSelector('#review .acc');
    await page.waitForFunction(() => document.querySelectorAll('#gm-list li').length === 1);
    // kept after the page drew the review: the explorer is drawn again then (it stayed stale until
    // the next click before 2026-12-07)
    await page.waitForFunction(() => document.querySelector('#explorer h3')?.textContent === 'Your games: 1 game');
    expect(await page.textContent('#explorer .ex-move')).toMatch(/^c3d4/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('finds the kept games that reach the board position or match a pattern, and opens one at that ply', async () => {
    const { ctx, page, errors } = await open(gui.url);
    const moves = await keepGame(page, walkGame(10, 777));

    // The positions of the game, replayed here with the rules alone.
    const start = parseKfen(setupKfen('khet2', 'classic') as string, 'khet2');
    if (!start.ok) throw new Error(start.error.message);
    const positions: Position[] = [start.value.clone()];
    const played: number[] = [];
    for (const text of moves) {
      const pos = positions[positions.length - 1].clone();
      const m = parseMove(pos, text);
      if (!m.ok) throw new Error(text);
      pos.make(m.value);
      played.push(m.value);
      positions.push(pos);
    }
    const firstPly = (test: (pos: Position) => boolean): number => positions.findIndex(test);

    // The board's position, after 4 plies on the analysis board: the game reaches it.
    await setMode(page, 'analysis');
    await confirmIfAsked(page);
    await page.click('#btn-new');
    await confirmIfAsked(page);
    await typeMoves(page, moves.slice(0, 4));
    const at4 = positions[4];
    const plyHere = firstPly((p) => p.keyLo === at4.keyLo && p.keyHi === at4.keyHi && p.side === at4.side);
    await page.click('#gm-here');
    await page.waitForSelector('#gm-found li');
    expect(await page.textContent('#gm-search-msg')).toBe("1 game reaches the board's position");
    expect(await page.getAttribute('#gm-found li', 'data-ply')).toBe(String(plyHere));

    // A pattern: the piece that Silver's first step after its first move left on its square,
    // first there at the ply found.
    const [silver] = EDITIONS.khet2.colorNames;
    const step = played.findIndex((mv, i) => i >= 2 && i % 2 === 0 && !isRotation(mv));
    const where = moveTo(played[step]);
    const piece = positions[step + 1].board[where];
    expect(colorOf(piece), 'the piece moved is still there').toBe(0);
    const kind = KIND_NAMES[kindOf(piece)];
    const pattern = `${silver} ${kind} on ${squareName(where)}`;
    const plyPattern = firstPly((p) => {
      const q = p.board[where];
      return q !== 0 && colorOf(q) === 0 && kindOf(q) === kindOf(piece);
    });
    expect(plyPattern).toBeGreaterThan(0);
    await page.fill('#gm-search', 'Red Pharoah on e8');
    await page.press('#gm-search', 'Enter');
    await page.waitForFunction(() => /^Pattern: /.test(document.getElementById('gm-search-msg')?.textContent ?? ''));
    expect(await page.textContent('#gm-search-msg')).toMatch(/"pharoah" is not a piece/);
    expect(await page.$$('#gm-found li')).toHaveLength(0);
    await page.fill('#gm-search', pattern);
    await page.click('#gm-find');
    await page.waitForSelector('#gm-found li');
    expect(await page.textContent('#gm-search-msg')).toBe(`1 game matches "${pattern}"`);
    expect(await page.getAttribute('#gm-found li', 'data-ply')).toBe(String(plyPattern));
    expect(await page.textContent('#gm-found li .gm-what')).toMatch(
      new RegExp(`^Human \\(Silver\\) – Human \\(Red\\) {2}0-1, 10 plies: at ply ${plyPattern}$`),
    );
    // A pattern no position of the game matches.
    await page.fill('#gm-search', `3 ${silver} Pharaohs`);
    await page.click('#gm-find');
    await page.waitForFunction(
      () => document.getElementById('gm-search-msg')?.textContent === '0 games match "3 Silver Pharaohs"',
    );
    await page.fill('#gm-search', pattern);
    await page.click('#gm-find');
    await page.waitForSelector('#gm-found li');
    await settled(page);
    await page.locator('#card-games').screenshot({ path: path.join(OUT, 'gui-games-search.png') });

    // Open: the whole game on the board, shown at the ply found.
    await page.click('#gm-found li .gm-open-at');
    await answerUntilMoves(page, moves.length);
    await page.waitForFunction(
      (k) => (window as unknown as { thoth: { state(): { path: unknown[] } } }).thoth.state().path.length === k,
      plyPattern,
    );
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
