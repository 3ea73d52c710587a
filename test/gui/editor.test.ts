/**
 * The board editor in Chromium, as a person sets up the position on their table: an empty board,
 * pieces placed from the card (a click more turns one), a key that places a piece, a drag, a drag
 * off the board, a piece on a square kept for the other side said in words and marked, the side to
 * move, then *Analyse*. On the static page (file://) at 1400×950, where opening the editor must not
 * make the page taller; and on `thoth gui`'s page on a phone, *Play from here against Thoth*
 * as the second player, Thoth replying from the position set up.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PHONE, click, drag, open, setMode, shot, squareCentre, waitMoves } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;

type Page = import('playwright-core').Page;
const problems = (page: Page): Promise<string[]> =>
  page.$$eval('#ed-problems li', (ls) => ls.map((l) => l.textContent ?? ''));
const pieceOn = (page: Page, sq: string): Promise<string | null> =>
  page.getAttribute(`#layer-pieces [data-sq=${sq}]`, 'data-piece').catch(() => null);
const pieces = (page: Page): Promise<number> => page.locator('#layer-pieces [data-sq]').count();

let gui: RunningGui | undefined;
beforeAll(async () => {
  if (HAVE_CHROMIUM) gui = await startGui(['--engine', FAKE_ENGINE]);
});
afterAll(async () => {
  await gui?.stop();
});

describe.skipIf(!HAVE_CHROMIUM)('the board editor in Chromium', () => {
  it('static page: an empty board set up by clicks, a key and drags, its faults in words, then analysed', async () => {
    const { ctx, page, errors } = await open(FILE_URL, { ready: false, viewport: { width: 1400, height: 950 } });
    await setMode(page, 'humans');
    const tall = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.click('#btn-editor');
    await page.waitForSelector('#card-editor:not([hidden])');
    // the game's controls step aside; the page is no taller
    expect(await page.isHidden('#card-game')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(Math.max(tall, 950));
    await page.selectOption('#ed-start', 'empty');
    expect(await problems(page)).toEqual([
      'Silver has no Pharaoh: each side needs one.',
      'Red has no Pharaoh: each side needs one.',
    ]);
    expect(await page.isDisabled('#ed-analyse')).toBe(true);
    // only the two Sphinxes stay on an empty Khet 2.0 board
    expect(await pieces(page)).toBe(2);
    await page.click('[data-tool="piece:0:2"]');
    await click(page, 'e1');
    // a Red Pyramid placed, then turned by a second click
    await page.click('[data-tool="piece:1:3"]');
    await click(page, 'f8');
    const placed = await pieceOn(page, 'f8');
    await click(page, 'f8');
    expect(await pieceOn(page, 'f8')).not.toBe(placed);
    // the selected square takes a KFEN letter from the keyboard: k is a Red Pharaoh
    await page.keyboard.press('k');
    await page.waitForFunction(() => document.getElementById('ed-problems')?.classList.contains('ok'));
    expect(await page.textContent('#ed-problems')).toBe('A position to play from.');
    // (the letter chose the Red Pharaoh as the piece to place: the Pyramid again)
    await page.click('[data-tool="piece:1:3"]');
    // a Red Pyramid on a square kept for Silver: said in words, its square marked
    await click(page, 'c3');
    await page.click('[data-tool="move"]');
    await drag(page, 'c3', 'j5');
    expect(await problems(page)).toEqual(["Red's Pyramid on j5 stands on a square kept for Silver."]);
    expect(await page.locator('#layer-marks .fault, .board .fault').count()).toBeGreaterThan(0);
    expect(await page.isDisabled('#ed-analyse')).toBe(true);
    await shot(page, 'editor-fault');
    // dragged off the board: removed
    const at = await squareCentre(page, 'j5');
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 20, at.y, { steps: 3 });
    await page.mouse.move(at.x + 400, at.y, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction(() => document.getElementById('ed-problems')?.classList.contains('ok'));
    expect(await pieces(page)).toBe(4);
    // Red to move, then Analyse: the position is the game's start
    await page.click('input[name=ed-side][value="1"]');
    const kfen = await page.inputValue('#ed-kfen');
    expect(kfen).toBe('xv4k4/10/10/10/10/10/10/4K4X^ r 0 1');
    await shot(page, 'editor-ready');
    await page.click('#ed-analyse');
    await page.waitForSelector('#card-editor', { state: 'hidden' });
    await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
    expect(await page.inputValue('#kfen')).toBe(kfen);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("thoth gui's page on a phone: a KFEN typed in, then Play from here against Thoth as Red", async () => {
    const { ctx, page, errors } = await open(gui!.url, { viewport: PHONE });
    await page.click('#btn-editor');
    await page.waitForSelector('#card-editor:not([hidden])');
    await page.fill('#ed-kfen', 'xv4k4/10/10/3pv6/10/10/10/4K4X^ s 0 1');
    await page.press('#ed-kfen', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#layer-pieces [data-sq]').length === 5);
    expect(await page.textContent('#ed-problems')).toBe('A position to play from.');
    // a tap on a palette piece and on the board, as a finger would
    await page.click('[data-tool="piece:1:3"]');
    await click(page, 'b6');
    expect(await pieces(page)).toBe(6);
    await page.selectOption('#ed-you', '1');
    await page.selectOption('#ed-tc', '');
    await shot(page, 'editor-phone');
    await page.click('#ed-play');
    await page.waitForSelector('#card-editor', { state: 'hidden' });
    // Thoth plays Silver, first to move, from the position set up
    await waitMoves(page, 1);
    const state = await page.evaluate(() =>
      (
        window as unknown as { thoth: { state(): { mode: string; humanSide: number; tree: { startKfen: string } } } }
      ).thoth.state(),
    );
    expect(state.mode).toBe('engine');
    expect(state.humanSide).toBe(1);
    expect(state.tree.startKfen).toBe('xv4k4/10/1pv8/3pv6/10/10/10/4K4X^ s 0 1');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
