/**
 * The Import tab as a player uses it, in Chromium against `thoth gui` (the
 * built dist/): a record whose tokens are parted by a form feed or other Unicode white space
 * imports like any other, and a paste larger than the page's limit is refused with a message
 * saying so, at once, instead of freezing the page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASTE_LIMIT } from '../../src/gui/page/state/record-io';
import { HAVE_CHROMIUM, closeBrowser, confirmIfAsked, moveCount, movesText, open, setMode, walkGame } from './browser';
import { FAKE_ENGINE, startGui, type RunningGui } from './helpers';

afterAll(closeBrowser);

const message = async (page: Page): Promise<string> => (await page.textContent('#io-msg')) ?? '';

/** Pastes `record` into the Import tab's text box and imports it. */
async function importRecord(page: Page, record: string): Promise<void> {
  if (!(await page.isVisible('#rec-import'))) await page.click('#card-io summary');
  await page.$eval('#record', (t, v) => ((t as HTMLTextAreaElement).value = v), record);
  await page.click('#rec-import');
}

describe.skipIf(!HAVE_CHROMIUM)('the Import tab, in Chromium', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('imports a record parted by a form feed, a vertical tab, U+00A0, U+2028 and U+3000', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    const moves = walkGame(12, 777);
    const spaces = ['\f', '\v', '\u00a0', '\u2028', '\u3000', '\f\n'];
    const body = moves
      .map((m, i) => `${i % 2 === 0 ? `${i / 2 + 1}.${spaces[i % spaces.length]}` : ''}${m}`)
      .join(spaces[1]);
    const record = `[Event "Form feed"]\f[White "Ann"]\u2028[Black "Bo"]\n[Variant "khet2"]\f\n\f${body}\f*\f\n`;
    await importRecord(page, record);
    expect(await message(page)).toBe('Game imported: 6 moves (12 plies).');
    expect(await moveCount(page)).toBe(12);
    expect(await movesText(page)).toEqual(moves);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('refuses a paste past the limit with a message saying so, and keeps the game shown', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    const moves = walkGame(4, 777);
    await importRecord(page, `${moves.join(' ')} *\n`);
    expect(await moveCount(page)).toBe(4);
    // A real record (a match's games) one character past the limit: the first game alone would import.
    const game = `[Event "Big file"]\n[Variant "khet2"]\n\n${walkGame(8, 777).join(' ')} *\n\n`;
    const big = game.repeat(Math.ceil((PASTE_LIMIT + 1) / game.length)).slice(0, PASTE_LIMIT + 1);
    await importRecord(page, big);
    expect(await message(page)).toBe(
      `Cannot import: the text is ${big.length.toLocaleString('en')} characters, more than the page reads (${PASTE_LIMIT.toLocaleString('en')}); paste one game`,
    );
    expect(await page.$eval('#io-msg', (m) => m.classList.contains('error'))).toBe(true);
    expect(await moveCount(page)).toBe(4);
    // At the limit it is read (the first game).
    await importRecord(page, big.slice(0, PASTE_LIMIT));
    await confirmIfAsked(page); // the game of 4 moves is abandoned
    await page.waitForFunction(
      () => document.getElementById('io-msg')?.textContent === 'Game imported: 4 moves (8 plies).',
    );
    expect(await moveCount(page)).toBe(8);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
