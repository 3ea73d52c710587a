/**
 * Pictures from the page, in Chromium as a person saves them: the Import/export card's PNG and SVG
 * of the shown position (the danger map on it when it is on) and the GIF of the line with each
 * shot, made in the page with no server — on the static page (file://) and on `thoth gui`'s page
 * on a phone. The files are checked and one is kept in test-output/ to be looked at.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, PHONE, click, loadKfen, open, setMode, shot, waitMoves } from './browser';
import { FAKE_ENGINE, OUT, ROOT, startGui, type RunningGui } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
const DANGER = 'xv9/10/10/10/10/p>3K5/10/5k3X^ s 0 1';
type Page = import('playwright-core').Page;

/** Clicks a picture button and returns the saved file's name and bytes. */
async function save(page: Page, button: string, keep?: string): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  const file = path.join(OUT, keep ?? `gui-export-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: readFileSync(file) };
}

let gui: RunningGui | undefined;
beforeAll(async () => {
  if (HAVE_CHROMIUM) gui = await startGui(['--engine', FAKE_ENGINE]);
});
afterAll(async () => {
  await gui?.stop();
});

describe.skipIf(!HAVE_CHROMIUM)('pictures from the page', () => {
  it('static page: PNG and SVG of the position with its danger map, a GIF of the line', async () => {
    const { ctx, page, errors } = await open(FILE_URL, { ready: false });
    await setMode(page, 'humans');
    await loadKfen(page, DANGER);
    await page.locator('#board').focus();
    await page.keyboard.press('d');
    await page.waitForSelector('#layer-danger .danger-halo');
    const png = await save(page, '#pic-png', 'gui-export-position.png');
    expect(png.name).toBe('thoth-position-move-1.png');
    expect(Array.from(png.bytes.subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([694, 566]);
    expect(await page.textContent('#io-msg')).toMatch(/^thoth-position-move-1\.png saved \(\d+ KB\)\.$/);
    const svg = (await save(page, '#pic-svg')).bytes.toString('utf8');
    expect(svg).toContain(`<title>Khet 2.0: ${DANGER.replace('>', '&gt;')}</title>`);
    expect(svg).toContain('fill="#ff3b2f"'); // the halo of the Pharaoh in danger
    // two moves, then the line as a GIF: the start and a frame per move
    await click(page, 'e3');
    await click(page, 'e4');
    await waitMoves(page, 1);
    await click(page, 'a3');
    await page.click('#btn-rot-ccw');
    await waitMoves(page, 2);
    const gif = await save(page, '#pic-gif');
    expect(gif.name).toBe('thoth-line-2-moves.gif');
    expect(gif.bytes.subarray(0, 6).toString()).toBe('GIF89a');
    await shot(page, 'export-static');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("thoth gui's page on a phone: the PNG of the shown position", async () => {
    const { ctx, page, errors } = await open(gui!.url, { viewport: PHONE });
    await page.click('#card-io summary');
    const png = await save(page, '#pic-png', 'gui-export-phone.png');
    expect(png.bytes.subarray(1, 4).toString()).toBe('PNG');
    await shot(page, 'export-phone');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
