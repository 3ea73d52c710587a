/**
 * The danger map on the board, in Chromium as a person uses it: the ⚠ Danger button and the D key
 * cycle "what can hit the side to move" (a red halo round a Pharaoh in danger, rings round the
 * pieces the opponent can remove, dots where its beam can reach), "what the side to move can hit"
 * and off; the words under the board say which moves; the map is redrawn after every move; the
 * Display card's choice is kept. On the static page (file://) and on `thoth gui`'s page, on a
 * desktop and on a phone.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKfen, squareName, threatMap } from '../../src/core/index';
import { HAVE_CHROMIUM, PHONE, click, loadKfen, open, setMode, shot, waitMoves } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
/** Red's Pyramid on a3 takes Red's own beam now; a3- would send it onto the Silver Pharaoh on e3. */
const DANGER = 'xv9/10/10/10/10/p>3K5/10/5k3X^ s 0 1';

type Page = import('playwright-core').Page;
const attr = (page: Page, sel: string, name: string): Promise<string | null> => page.getAttribute(sel, name);
const squares = (page: Page, cls: string): Promise<string[]> =>
  page.$$eval(`#layer-danger .${cls}`, (es) => es.map((e) => e.getAttribute('data-sq') ?? '').sort());

let gui: RunningGui | undefined;
beforeAll(async () => {
  if (HAVE_CHROMIUM) gui = await startGui(['--engine', FAKE_ENGINE]);
});
afterAll(async () => {
  await gui?.stop();
});

describe.skipIf(!HAVE_CHROMIUM)('the danger map in Chromium', () => {
  it('static page: D shows what can hit the side to move, then what it can hit, then nothing', async () => {
    const { ctx, page, errors } = await open(FILE_URL, { ready: false });
    await setMode(page, 'humans');
    await loadKfen(page, DANGER);
    expect(await page.locator('#layer-danger > *').count()).toBe(0);
    expect(await page.isHidden('#danger-words')).toBe(true);
    await page.locator('#board').focus();
    await page.keyboard.press('d');
    // Red could turn a3 onto the Silver Pharaoh: its halo, its beam, the words
    await page.waitForSelector('#layer-danger .danger-halo[data-sq=e3]');
    expect(await attr(page, '#layer-danger', 'data-attacker')).toBe('1');
    expect(await page.locator('#layer-danger .danger-beam').count()).toBe(1);
    expect(await page.getAttribute('#btn-danger', 'aria-pressed')).toBe('true');
    const words = await page.textContent('#danger-words');
    expect(words).toContain('Danger: what Red could hit with one move: ⚠ the Silver Pharaoh on e3 (a3-)');
    expect(words).toContain(
      "After a3- the beam bounces off Red's Pyramid on a3, and hits Silver's Pharaoh on e3: Red wins.",
    );
    expect(await page.textContent('#layer-danger .danger-halo[data-sq=e3] title')).toMatch(
      /^the Silver Pharaoh on e3: a3-/,
    );
    // the page is opened with reduced motion asked for (browser.ts): the halo does not pulse
    expect(await page.$eval('#layer-danger .danger-halo', (e) => getComputedStyle(e).animationName)).toBe('none');
    // every square the map's beams reach is dotted where it is empty
    const pos = parseKfen(DANGER, 'khet2');
    if (!pos.ok) throw new Error(DANGER);
    const want = threatMap(pos.value);
    const reach: string[] = [];
    for (let s = 0; s < 80; s++)
      if ((want.reach[s >> 5] >>> (s & 31)) & 1 && pos.value.board[s] === 0) reach.push(squareName(s));
    expect(await squares(page, 'danger-dot')).toEqual(reach.sort());
    await shot(page, 'danger-against');
    // the other way: Silver's Sphinx turned west hits the Red Pharaoh on f1
    await page.keyboard.press('d');
    await page.waitForSelector('#layer-danger .danger-halo[data-sq=f1]');
    expect(await attr(page, '#layer-danger', 'data-attacker')).toBe('0');
    expect(await page.textContent('#danger-words')).toContain('What Silver can hit now: ⚠ the Red Pharaoh on f1 (j1-)');
    await shot(page, 'danger-for');
    await page.keyboard.press('d');
    await page.waitForFunction(() => document.querySelectorAll('#layer-danger > *').length === 0);
    expect(await page.isHidden('#danger-words')).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("thoth gui's page on a phone: the button, a redraw after each move, the choice kept", async () => {
    const { ctx, page, errors } = await open(gui!.url, { viewport: PHONE });
    await setMode(page, 'humans');
    await page.click('#btn-danger');
    // Classic: nothing of Silver's can be hit, Red's beam reaches its side of the board
    await page.waitForSelector('#danger-words:not([hidden])');
    expect(await page.textContent('#danger-words')).toBe(
      "Danger: what Red could hit with one move: nothing of Silver's.",
    );
    const before = await squares(page, 'danger-dot');
    expect(before).toContain('a1');
    await shot(page, 'danger-phone-classic');
    // a move: Red is to move, so the map is now Silver's beam
    await click(page, 'j4');
    await click(page, 'i4');
    await waitMoves(page, 1);
    await page.waitForFunction(() => document.getElementById('layer-danger')?.getAttribute('data-attacker') === '0');
    expect(await squares(page, 'danger-dot')).not.toEqual(before);
    await shot(page, 'danger-phone-after-move');
    // the Display card's choice, kept over a reload
    await page.click('#card-settings summary');
    await page.selectOption('#opt-danger', 'for');
    await page.reload();
    await page.waitForSelector('#layer-danger .danger-dot');
    expect(await page.inputValue('#opt-danger')).toBe('for');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
