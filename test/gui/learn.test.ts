/**
 * The Game card while a puzzle is on shows the puzzle's edition and position, not the game
 * before; and "Learn from your mistakes" after a review
 * offers the person's own mistakes, refuses a move that still loses and takes the best one (on the
 * static page with Thoth inside, and on the page of thoth gui with the fake engine).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, closeBrowser, movesText, open, playText, setMode, shot } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const WEB_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;

afterAll(closeBrowser);

const learnCard = (page: Page, key: string): Promise<string | null> => page.getAttribute('#card-learn', `data-${key}`);

/**
 * A game where Silver's f4e3?? opens the way to its Pharaoh (Red's b4a3 hits it at once), reviewed;
 * Learn from your mistakes refuses f4e3 again and takes the review's best move; Exit brings the game back.
 */
async function learnFromTheBlunder(page: Page, name: string): Promise<void> {
  await setMode(page, 'humans');
  // Silver's f4e3?? opens the way to its Pharaoh: Red's b4a3 hits it at once
  for (const m of ['c1d2', 'a5b4', 'f4e3']) await playText(page, m);
  const game = await movesText(page);
  await setMode(page, 'analysis');
  await page.click('#btn-review');
  await page.waitForFunction(() => document.querySelector('#review .acc') !== null, undefined, {
    timeout: stretched(60_000),
  });
  await page.waitForSelector('#btn-learn:not([disabled])');
  expect(await page.textContent('#btn-learn')).toMatch(/^Learn from your mistakes \(\d\)$/);
  const best = await page.evaluate(
    () => (window as unknown as { thoth: { state(): { review: { best: string[] } } } }).thoth.state().review.best[2],
  );
  expect(best).not.toBe('f4e3');
  await shot(page, `learn-${name}-offer`);
  await page.click('#btn-learn');
  await page.waitForFunction(() => document.getElementById('card-learn')?.dataset.status === 'play');
  // only Silver's (the person's, at the bottom) moves are offered: go to the blunder, move 3
  while ((await learnCard(page, 'ply')) !== '2') {
    expect(Number(await learnCard(page, 'ply')) % 2).toBe(0);
    await page.click('#ln-solution');
    await page.click('#ln-next');
    await page.waitForFunction(() => document.getElementById('card-learn')?.dataset.status === 'play');
  }
  expect(await movesText(page)).toEqual(game.slice(0, 2));
  expect(await page.textContent('#ln-task')).toBe('You played 2. f4e3?? (a blunder). Find a better move.');
  expect(await page.isVisible('#card-game')).toBe(false);
  await shot(page, `learn-${name}-task`);
  // the blunder again: refused, in the error colour, and taken back
  await playText(page, 'f4e3');
  await page.waitForFunction(() => /^You can do better/.test(document.getElementById('ln-msg')?.textContent ?? ''));
  expect(await page.evaluate(() => document.getElementById('ln-msg')!.classList.contains('error'))).toBe(true);
  await shot(page, `learn-${name}-refused`);
  await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 2);
  // the review's best move: taken
  await playText(page, best);
  await page.waitForFunction(() => /^Good move\./.test(document.getElementById('ln-msg')?.textContent ?? ''));
  expect(await learnCard(page, 'found')).toBe('1');
  expect(await page.textContent('#hint')).toMatch(/; Exit brings back the reviewed game\.$/);
  expect(await page.evaluate(() => document.getElementById('ln-msg')!.classList.contains('error'))).toBe(false);
  await shot(page, `learn-${name}-good`);
  // to the end: the count of mistakes found
  while ((await learnCard(page, 'status')) !== 'done') {
    if (await page.isVisible('#ln-next')) await page.click('#ln-next');
    else await page.click('#ln-solution');
  }
  expect(await page.textContent('#ln-msg')).toMatch(/^Done: you found a better move for 1 of your \d mistakes?\./);
  await shot(page, `learn-${name}-done`);
  // Exit: the reviewed game as it was
  await page.click('#ln-exit');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  expect(await movesText(page)).toEqual(game);
  expect(await page.isVisible('#review .acc')).toBe(true);
  expect(await page.isVisible('#btn-learn')).toBe(true);
  expect(await page.evaluate(() => document.body.dataset.learn)).toBeUndefined();
}

describe.skipIf(!HAVE_CHROMIUM)('the page of thoth gui (the fake engine scores)', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it(
    'learn from your mistakes: a blunder that loses the Pharaoh, refused again, the best move taken',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await learnFromTheBlunder(page, 'gui');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );
});

describe.skipIf(!HAVE_CHROMIUM)('the static page', () => {
  it(
    "a puzzle's Game card shows the puzzle's edition and position",
    async () => {
      const { ctx, page, errors } = await open(WEB_URL, { ready: false });
      // the game before is Khet 2.0 from the Classic setup; the puzzle is a Khet 1.0 one
      expect(await page.inputValue('#sel-edition')).toBe('khet2');
      await page.selectOption('#pz-edition', 'khet1');
      await page.click('#pz-start');
      await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
      const id = (await page.getAttribute('#card-puzzles', 'data-puzzle')) ?? '';
      expect(await page.inputValue('#sel-edition')).toBe('khet1');
      expect(await page.$eval('#sel-setup', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(
        'Puzzle position',
      );
      expect(await page.isDisabled('#btn-new')).toBe(true);
      expect(await page.textContent('#pz-game-note')).toBe(
        `Puzzle ${id} (Khet 1.0), a position from one of Thoth's games, is on the board. Exit it (Puzzles) to play a game.`,
      );
      await shot(page, 'learn-puzzle-game-card');
      // Exit: the form is the game's again
      await page.click('#pz-exit');
      await page.waitForFunction(() => !(document.getElementById('btn-new') as HTMLButtonElement).disabled);
      expect(await page.inputValue('#sel-edition')).toBe('khet2');
      expect(await page.inputValue('#sel-setup')).toBe('classic');
      expect(await page.isHidden('#pz-game-note')).toBe(true);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'learn from your mistakes: a blunder that loses the Pharaoh, refused again, the best move taken',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL);
      await learnFromTheBlunder(page, 'web');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );
});
