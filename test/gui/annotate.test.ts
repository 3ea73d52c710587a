/**
 * Notes on moves in Chromium, as a person writes them (src/gui/page/view/notes-card.ts): a
 * comment typed under the move list, the move marks and position signs by buttons and by keys,
 * arrows and circles drawn by keys and by taps (drawing by picks), all written in the record the
 * page exports and brought back by its import; on a finished game on a phone, kept with the game
 * in the Games panel and in a link. On the static page (file://) and on `thoth gui`'s page.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PHONE, click, confirmIfAsked, moveCount, open, setMode, shot, waitMoves } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
const RECORD = '[Variant "khet2"]\n\n1. c1d2 {[%cal Gj1j8]} a4a3 2. d2d3 *\n';

type Page = import('playwright-core').Page;
const drawn = (page: Page): Promise<string[]> =>
  page.$$eval('#layer-arrows [data-note]', (es) => es.map((e) => e.getAttribute('data-note') ?? '').sort());
const comments = (page: Page): Promise<string[]> =>
  page.$$eval('#moves .comment', (cs) => cs.map((c) => c.textContent ?? ''));
/** The glyphs after the main line's moves, as the list shows them. */
const glyphs = (page: Page): Promise<string[]> =>
  page.$$eval('#moves .mv[data-ply]', (bs) =>
    bs.map((b) => Array.from(b.querySelectorAll('.nag'), (n) => n.textContent).join('')),
  );
const pressed = (page: Page): Promise<string[]> =>
  page.$$eval('#notes button[data-nag][aria-pressed=true]', (bs) => bs.map((b) => b.textContent ?? ''));

async function importText(page: Page, text: string, moves: number): Promise<void> {
  if (!(await page.isVisible('#record'))) await page.click('#card-io summary');
  await page.fill('#record', text);
  await page.click('#rec-import');
  await confirmIfAsked(page);
  await page.waitForFunction((n) => document.getElementById('moves')?.dataset.count === String(n), moves);
}

async function exported(page: Page): Promise<string> {
  if (!(await page.isVisible('#record'))) await page.click('#card-io summary');
  await page.click('#rec-export');
  return page.inputValue('#record');
}

/** The file and rank of a square name moved by files. */
const fileOn = (sq: string, d: number): string => String.fromCharCode(sq.charCodeAt(0) + d) + sq.slice(1);

let gui: RunningGui | undefined;
beforeAll(async () => {
  if (HAVE_CHROMIUM) gui = await startGui(['--engine', FAKE_ENGINE]);
});
afterAll(async () => {
  await gui?.stop();
});

describe.skipIf(!HAVE_CHROMIUM)('notes on moves in Chromium', () => {
  it('static page: a comment, marks by keys and buttons, drawings by keys; exported and imported back', async () => {
    const { ctx, page, errors } = await open(FILE_URL, { ready: false });
    await importText(page, RECORD, 3);
    await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
    // the first move: a comment typed, Enter keeps it; its arrow from the record stays
    await page.click('#moves .mv[data-ply="1"]');
    await page.waitForSelector('#notes:not([hidden])');
    await page.click('#note-text');
    await page.keyboard.type('the Pharaoh steps out');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('#moves div.comment')?.textContent === 'the Pharaoh steps out',
    );
    expect(await drawn(page)).toEqual(['Gj1j8']);
    // the marks by keys (from the move list: the focus on a move), and a position sign by its button
    await page.focus('#moves .mv[data-ply="1"]');
    await page.keyboard.press('5');
    await page.waitForFunction(() => document.querySelector('#moves .mv[data-ply="1"] .nag')?.textContent === '!?');
    await page.keyboard.press('2'); // ? replaces !?
    await page.click('#note-signs button[data-nag="16"]');
    await page.waitForFunction(() => document.querySelector('#moves .mv[data-ply="1"]')?.textContent === 'c1d2?±');
    expect(await pressed(page)).toEqual(['?', '±']);
    // the second move: drawing by keys, on the board's cursor (A on, Enter picks, R red, Esc off)
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#moves .mv.current[data-ply="2"]');
    await page.keyboard.press('a');
    await page.waitForSelector('#board[data-drawing=G]');
    await page.focus('#board');
    await page.keyboard.press('Enter');
    const from = (await page.getAttribute('#layer-marks .cursor', 'data-sq')) as string;
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#layer-marks .draw-from[data-sq=${from}]`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 1);
    const to = fileOn(from, 2);
    expect(await drawn(page)).toEqual([`G${from}${to}`]);
    await page.keyboard.press('r');
    await page.waitForSelector('#board[data-drawing=R]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 2);
    expect(await drawn(page)).toEqual([`G${from}${to}`, `R${to}`]);
    await shot(page, 'annotate-keys');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#board[data-drawing=""]');
    // written in the record
    const pgn = await exported(page);
    expect(pgn).toMatch(/1\. c1d2 \$2 \$16 \{the Pharaoh steps out \[%cal Gj1j8\]\}\s+a4a3/);
    expect(pgn).toContain(`a4a3 {[%csl R${to}] [%cal G${from}${to}]}`);
    // and read back: into a fresh page's import
    await ctx.close();
    const { ctx: ctx2, page: again, errors: errors2 } = await open(FILE_URL, { ready: false });
    await importText(again, pgn, 3);
    expect(await comments(again)).toEqual(['the Pharaoh steps out']);
    expect(await glyphs(again)).toEqual(['?±', '', '']);
    await again.click('#moves .mv[data-ply="1"]');
    await again.waitForSelector('#notes:not([hidden])');
    expect(await again.inputValue('#note-text')).toBe('the Pharaoh steps out');
    expect(await pressed(again)).toEqual(['?', '±']);
    await again.click('#moves .mv[data-ply="2"]');
    await again.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 2);
    expect(await drawn(again)).toEqual([`G${from}${to}`, `R${to}`]);
    await shot(again, 'annotate-imported');
    expect([...errors, ...errors2]).toEqual([]);
    await ctx2.close();
  });

  it("thoth gui's page on a phone: notes on a finished game by taps, kept in the Games panel and the link", async () => {
    const { ctx, page, errors } = await open(gui!.url, { viewport: PHONE });
    await setMode(page, 'humans');
    for (const [i, m] of ['c1d2', 'a4a3', 'd2d3'].entries()) {
      await page.fill('#move-input', m);
      await page.press('#move-input', 'Enter');
      await waitMoves(page, i + 1);
    }
    // while the game is played, no notes: a key mark does nothing
    expect(await page.isHidden('#notes')).toBe(true);
    await page.focus('#moves .mv[data-ply="3"]');
    await page.keyboard.press('1');
    expect(await glyphs(page)).toEqual(['', '', '']);
    await page.click('#btn-resign');
    await confirmIfAsked(page);
    await page.waitForSelector('#notes:not([hidden])');
    // the second move: a comment, kept as it is typed; a mark by its button
    await page.click('#moves .mv[data-ply="2"]');
    await page.click('#note-text');
    await page.keyboard.type('Red answers on the a-file');
    await page.waitForFunction(
      () => document.querySelector('#moves div.comment')?.textContent === 'Red answers on the a-file',
    );
    await page.click('#note-marks button[data-nag="3"]');
    await page.waitForFunction(() => document.querySelector('#moves .mv[data-ply="2"] .nag')?.textContent === '!!');
    // drawing by taps: Draw, two squares an arrow; blue, one square twice a circle
    await page.click('#note-draw');
    await page.waitForSelector('#board[data-drawing=G]');
    await click(page, 'a3');
    await click(page, 'a6');
    await page.click('#note-colors button[data-color=B]');
    await click(page, 'e5');
    await click(page, 'e5');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 2);
    expect(await drawn(page)).toEqual(['Be5', 'Ga3a6']);
    expect(await moveCount(page)).toBe(3); // the taps moved nothing
    await page.locator('#board').scrollIntoViewIfNeeded();
    await shot(page, 'annotate-phone-board');
    await page.click('#note-draw');
    await page.waitForSelector('#board[data-drawing=""]');
    await page.locator('#card-moves').scrollIntoViewIfNeeded();
    await shot(page, 'annotate-phone');
    // the link carries the notes
    await page.click('#card-io summary');
    await page.click('#share-link');
    await page.waitForFunction(() => (document.getElementById('share-url') as HTMLInputElement).value !== '');
    const href = await page.inputValue('#share-url');
    // the kept game has them too: a new game on the board, then the Games panel's Open
    await setMode(page, 'humans');
    await page.click('#btn-new');
    await confirmIfAsked(page);
    await page.waitForFunction(() => document.getElementById('moves')?.dataset.count === '0');
    await page.click('#card-games summary');
    await page.waitForFunction(() => document.querySelectorAll('#gm-list li').length === 1);
    await page.click('#gm-list li .gm-open');
    await page.waitForFunction(() => document.getElementById('moves')?.dataset.count === '3');
    expect(await comments(page)).toEqual(['Red answers on the a-file']);
    expect(await glyphs(page)).toEqual(['', '!!', '']);
    await page.click('#moves .mv[data-ply="2"]');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 2);
    const other = await ctx.newPage();
    await other.goto(href);
    await other.waitForFunction(() => document.getElementById('moves')?.dataset.count === '3');
    expect(await comments(other)).toEqual(['Red answers on the a-file']);
    expect(await glyphs(other)).toEqual(['', '!!', '']);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
