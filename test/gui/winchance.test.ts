/**
 * The win chance in the analysis lines and on the eval bar, in Chromium on `thoth gui`'s page: an
 * engine that declares `UCI_ShowWDL` is asked for it and each line shows its W/D/L per cent beside
 * the score; the Win % button (by the keyboard) and a click on the eval bar switch the lines and
 * the bar's label between the score and the win chance, and the choice survives a reload; an
 * engine without `UCI_ShowWDL` gets the win percentage of the eval bar's curve instead; the static
 * page's own Thoth gives its W/D/L too.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { wdlOf } from '../../src/core/win-chance';
import { HAVE_CHROMIUM, open, setMode, shot } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;

type Page = import('playwright-core').Page;

const SCORE = /^([+−]?\d+\.\d\d) · (\S+)$/;

/** The lines' score texts once the engine has given three. */
async function lineScores(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
  return page.$$eval('#lines .line .score', (es) => es.map((e) => e.textContent ?? ''));
}

/** `+1.20` (the first player's view) as centi-pyramids. */
const centis = (text: string): number => Math.round(Number(text.replace('−', '-').replace('+', '')) * 100);

/** The first player's W/D/L per cent at a score of theirs, as the engine's `wdl` gives it. */
function wdlPerCent(cp: number): string {
  const [w, , l] = wdlOf({ kind: 'cp', value: cp });
  const wp = Math.round(w / 10);
  const lp = Math.round(l / 10);
  return `${wp}/${100 - wp - lp}/${lp}`;
}

const guis: RunningGui[] = [];
afterAll(async () => {
  for (const g of guis) await g.stop();
});

describe.skipIf(!HAVE_CHROMIUM)('the win chance in Chromium', () => {
  it('shows W/D/L beside the score; the Win % button and the eval bar switch to the win chance', async () => {
    const gui = await startGui(['--engine', `${FAKE_ENGINE} --wdl`]);
    guis.push(gui);
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    const scores = await lineScores(page);
    const wdls: string[] = [];
    for (const text of scores) {
      const m = SCORE.exec(text);
      expect(m, text).not.toBeNull();
      // the engine's wdl, from the first player's view, not the curve's win percentage
      expect(m![2]).toBe(wdlPerCent(centis(m![1])));
      wdls.push(m![2]);
    }
    const label = '#evalbar .evalbar-text';
    expect(await page.textContent(label)).toBe(SCORE.exec(scores[0])![1]);
    expect(await page.getAttribute('#btn-winchance', 'aria-pressed')).toBe('false');
    await shot(page, 'winchance-score');

    // the keyboard's way: the button, pressed with Space
    await page.focus('#btn-winchance');
    await page.keyboard.press(' ');
    await page.waitForSelector('#btn-winchance[aria-pressed=true]');
    await page.waitForFunction(() => /%$/.test(document.querySelector('#evalbar .evalbar-text')?.textContent ?? ''));
    expect(await lineScores(page)).toEqual(wdls);
    const win = Number(await page.getAttribute('#evalbar', 'data-win'));
    expect(await page.textContent(label)).toBe(`${Math.round(100 * win)}%`);
    await shot(page, 'winchance-win');

    // kept with the settings
    await page.reload();
    expect(await lineScores(page)).toEqual(wdls);
    expect(await page.getAttribute('#btn-winchance', 'aria-pressed')).toBe('true');

    // a click on the eval bar: the score again
    await page.click('#evalbar');
    await page.waitForSelector('#btn-winchance[aria-pressed=false]');
    expect(await lineScores(page)).toEqual(scores);
    expect(await page.textContent(label)).toBe(SCORE.exec(scores[0])![1]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("an engine without UCI_ShowWDL: the eval bar's win percentage beside the score", async () => {
    const gui = await startGui(['--engine', FAKE_ENGINE]);
    guis.push(gui);
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    for (const text of await lineScores(page)) {
      const m = SCORE.exec(text);
      expect(m, text).not.toBeNull();
      const w = 1 / (1 + Math.exp(-0.0028 * centis(m![1])));
      expect(m![2]).toBe(`${Math.round(100 * w)}%`);
    }
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the static page (file://): Thoth in the page gives its W/D/L', async () => {
    const { ctx, page, errors } = await open(FILE_URL);
    await setMode(page, 'analysis');
    for (const text of await lineScores(page)) {
      const m = SCORE.exec(text);
      expect(m, text).not.toBeNull();
      expect(m![2]).toBe(wdlPerCent(centis(m![1])));
    }
    await page.click('#btn-analyse');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
