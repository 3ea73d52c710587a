/**
 * A move's drawings on the board, in Chromium on the static page (file://): a record imported with
 * lichess's `[%cal]` arrows and `[%csl]` marked squares shows each move's, in its colour, on the
 * position after that move, and none on a move without them; a right-drag draws an arrow and a
 * right-click a circle, kept in the record.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, closeBrowser, confirmIfAsked, open, shot, squareCentre } from './browser';
import { ROOT } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
const RECORD =
  '[Variant "khet2"]\n\n1. c1d2 {a plan [%csl Re1,Gd2] [%cal Gj1j8]} a4a3 {[%cal Ra8a1,Yb1b8]} 2. d2d3 *\n';

type Page = import('playwright-core').Page;
const notes = (page: Page): Promise<string[]> =>
  page.$$eval('#layer-arrows [data-note]', (es) =>
    es.map((e) => `${e.getAttribute('class')} ${e.getAttribute('data-note')}`),
  );

afterAll(closeBrowser);

describe.skipIf(!HAVE_CHROMIUM)("a move's drawings on the board", () => {
  it('each move shows its own arrows and circles, in their colours', async () => {
    const { ctx, page, errors } = await open(FILE_URL, { ready: false });
    await page.click('#card-io summary');
    await page.$eval('#record', (t, v) => ((t as HTMLTextAreaElement).value = v), RECORD);
    await page.click('#rec-import');
    await confirmIfAsked(page);
    await page.waitForFunction(() => document.getElementById('moves')?.dataset.count === '3');
    await page.click('#nav-first');
    await page.click('#nav-next');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 3);
    expect((await notes(page)).sort()).toEqual([
      'note-arrow note-G Gj1j8',
      'note-mark note-G Gd2',
      'note-mark note-R Re1',
    ]);
    // the drawings are on the board, not in the move list's words
    expect(await page.$$eval('#moves .comment', (cs) => cs.map((c) => c.textContent))).toEqual(['a plan']);
    await shot(page, 'notes-move-1');
    await page.click('#nav-next');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 2);
    expect((await notes(page)).sort()).toEqual(['note-arrow note-R Ra8a1', 'note-arrow note-Y Yb1b8']);
    await page.click('#nav-next');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 0);
    // drawn by the person: a right-drag is an arrow, Shift and a right-click a red circle
    const a = await squareCentre(page, 'd3');
    const b = await squareCentre(page, 'd7');
    await page.mouse.move(a.x, a.y);
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(b.x, b.y, { steps: 4 });
    await page.mouse.up({ button: 'right' });
    await page.keyboard.down('Shift');
    await page.mouse.click(b.x, b.y, { button: 'right' });
    await page.keyboard.up('Shift');
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows [data-note]').length === 2);
    expect((await notes(page)).sort()).toEqual(['note-arrow note-G Gd3d7', 'note-mark note-R Rd7']);
    // and kept in the record
    await page.click('#rec-export');
    expect(await page.inputValue('#record')).toContain('2. d2d3 {[%csl Rd7] [%cal Gd3d7]} *');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
