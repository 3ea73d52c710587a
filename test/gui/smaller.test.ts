/**
 * Smaller things a player met on the page of `thoth gui`: a premoved rotation shows which way it
 * turns; the engine pill is not cut off on a phone; a review's marks are not mixed with a link's
 * old ones; the move list keeps the focus as the arrows step through it; a move typed in the
 * move box is played.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setupKfen } from '../../src/core/index';
import { encodeLink, linkUrl } from '../../src/gui/page/state/link';
import { exportGame, type ExportMove } from '../../src/gui/page/state/record-io';
import {
  HAVE_CHROMIUM,
  click,
  movesText,
  newGame,
  open,
  pickLevel,
  setMode,
  shot,
  theBrowser,
  waitMoves,
  walkGame,
} from './browser';
import { FAKE_ENGINE, LONG_TC, gatedFakeGui, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

/**
 * The engine moves when the test says so (the gate file), as in the premove test of
 * player.test.ts: one server for the two describes below (a review searches to a depth, which the
 * gate does not hold), as a start and a stop of the server cost about 2 s of waiting.
 */
const { gui: gatedGui, release, stop: stopGated } = gatedFakeGui();
afterAll(stopGated);

describe.skipIf(!HAVE_CHROMIUM)('the page of thoth gui, smaller things', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await gatedGui();
  });

  it(
    'a premoved rotation draws which way it turns',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await page.selectOption('#sel-tc', LONG_TC);
      await pickLevel(page, 8);
      await newGame(page);
      await click(page, 'c1');
      await click(page, 'd2');
      // while Thoth thinks: j4 turned clockwise, then (again) counter-clockwise
      for (const [key, dir] of [
        ['+', '+'],
        ['-', '-'],
      ]) {
        await click(page, 'j4');
        await page.keyboard.press(key);
        await page.waitForFunction(() => document.querySelectorAll('#layer-marks .premove').length === 1);
        expect(await page.getAttribute('#layer-arrows .arrow.premove', 'data-turn')).toBe(dir);
        expect(await page.locator('#layer-arrows .arrow.premove').count()).toBe(1);
        if (dir === '+') await shot(page, 'premove-rotation');
        await page.keyboard.press('Escape');
        expect(await page.locator('#layer-arrows .arrow.premove').count()).toBe(0);
      }
      release();
      await waitMoves(page, 2);
      expect(await movesText(page)).toHaveLength(2);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(90_000),
  );

  it(
    'a move typed in the move box is played on Enter when legal; otherwise the hint says why',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await setMode(page, 'humans');
      const typeMove = async (text: string): Promise<void> => {
        await page.fill('#move-input', text);
        await page.press('#move-input', 'Enter');
      };
      const hint = (): Promise<string | null> => page.textContent('#hint');
      await typeMove('c1c5');
      expect(await hint()).toBe('Cannot play c1c5: illegal move for the Pyramid on c1.');
      expect(await page.inputValue('#move-input')).toBe('c1c5');
      await typeMove('t');
      expect(await hint()).toMatch(/^Cannot play t: 't' is not a move \(expected e\.g\. e4d5/);
      expect(await page.isHidden('#dialog')).toBe(true); // a key typed in the box is no shortcut
      await typeMove(' C1D2 ');
      await waitMoves(page, 1);
      expect(await page.inputValue('#move-input')).toBe('');
      await typeMove('j4i4');
      expect(await hint()).toBe("Cannot play j4i4: the piece on j4 is not Red's.");
      await typeMove('c7r'); // R and L are read as + and -
      await waitMoves(page, 2);
      expect(await movesText(page)).toEqual(['c1d2', 'c7+']);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('move-input');
      await shot(page, 'move-box');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'the move list is one tab stop, and ← → move the focus along it',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await setMode(page, 'humans');
      for (const m of ['c1d2', 'c7+', 'd2d3']) {
        await page.fill('#move-input', m);
        await page.press('#move-input', 'Enter');
      }
      await waitMoves(page, 3);
      const focused = (): Promise<string | null> =>
        page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.ply ?? null);
      expect(await page.$$eval('#moves .mv[tabindex="0"]', (bs) => bs.map((b) => b.dataset.ply))).toEqual(['3']);
      await page.focus('#moves .mv.current');
      await page.keyboard.press('ArrowLeft');
      await page.waitForSelector('#moves .mv.current[data-ply="2"]');
      expect(await focused()).toBe('2');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('#moves .mv.current[data-ply="3"]');
      expect(await focused()).toBe('3');
      expect(await page.$$eval('#moves .mv[tabindex="0"]', (bs) => bs.map((b) => b.dataset.ply))).toEqual(['3']);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'the engine pill is not cut off on a phone 375 pixels wide',
    async () => {
      const { ctx, page, errors } = await open(gui.url, { viewport: { width: 375, height: 740 } });
      const pill = await page.$eval('#engine-status', (e) => ({
        text: e.textContent ?? '',
        fits: e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= window.innerWidth,
      }));
      expect(pill.text).toMatch(/ready · Level \d, 1 thread$/);
      expect(pill.fits).toBe(true);
      await shot(page, 'phone-pill');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );
});

/** The marks shown on the main line, and the review's counts (?? · ? · ?!) for each side. */
async function marksAndCounts(page: Page): Promise<{ shown: string[][]; counted: string[][] }> {
  const shown = await page.$$eval('#moves .mv[data-ply]', (bs) => {
    const out: string[][] = [[], []];
    for (const b of bs)
      out[(Number(b.getAttribute('data-ply')) + 1) % 2].push(b.querySelector('.nag')?.textContent ?? '');
    return out;
  });
  const counts = await page.$$eval('#review .counts', (cs) => cs.map((c) => (c.textContent ?? '').split(' · ')));
  // the counts as marks: "2 ??" → ['??', '??']
  const counted = counts.map((row) =>
    row.flatMap((part) => {
      const [n, mark] = part.split(' ');
      return new Array<string>(Number(n)).fill(mark);
    }),
  );
  const judged = shown.map((side) => side.filter((m) => m === '??' || m === '?' || m === '?!').sort());
  return { shown: judged, counted: counted.map((c) => c.sort()) };
}

describe.skipIf(!HAVE_CHROMIUM)('a review over a linked game with marks of its own', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await gatedGui();
  });

  it(
    "shows the review's marks alone, before and after Make main line, as its summary counts them",
    async () => {
      // every move of the link's game marked ?? (an old review's, say), a variation's moves ?
      const main = walkGame(10, 7);
      const alt = walkGame(10, 11);
      let k = 0;
      while (k < main.length && main[k] === alt[k]) k++;
      expect(k).toBeLessThan(8);
      const moves: ExportMove[] = main.map((text, i) => ({ text, side: i % 2, nags: [4] }));
      moves[k].variations = [alt.slice(k, k + 4).map((text, j) => ({ text, side: (k + j) % 2, nags: [2] }))];
      const pgn = exportGame({
        edition: 'khet2',
        startKfen: setupKfen('khet2', 'classic') as string,
        players: ['Ann', 'Bob'],
        result: '*',
        timeControl: '-',
        termination: 'unterminated',
        moves,
        tags: [],
      });
      const { ctx, page, errors } = await open(`${gui.url}#${await encodeLink({ kind: 'game', pgn })}`, {
        ready: false,
      });
      await page.waitForFunction(() =>
        /Game opened from the link/.test(document.getElementById('io-msg')?.textContent ?? ''),
      );
      await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
      expect((await page.$$eval('#moves .mv[data-ply] .nag', (ns) => ns.map((n) => n.textContent))).length).toBe(10);
      await page.click('#btn-review');
      await page.waitForSelector('#review .acc');
      const first = await marksAndCounts(page);
      expect(first.shown).toEqual(first.counted);
      await shot(page, 'review-over-link-marks');
      // the variation becomes the main line: the review goes on over it, its old marks left out
      await page.click(`#moves .mv.var >> nth=1`);
      await page.click('#btn-promote');
      await page.waitForFunction(
        () => document.querySelector('#review .acc') !== null && !document.querySelector('#review .progress'),
      );
      const second = await marksAndCounts(page);
      expect(second.shown).toEqual(second.counted);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(120_000),
  );
});

describe.skipIf(!HAVE_CHROMIUM)('a link copied from thoth gui', () => {
  it(
    'opens in the same browser while the server runs; not in another browser, nor after a restart; the note says so',
    async () => {
      const gui = await startGui(['--engine', FAKE_ENGINE]);
      let again: RunningGui | undefined;
      try {
        const { ctx, page, errors } = await open(gui.url);
        expect(await page.textContent('#share-note')).toBe(
          'Links from thoth gui open in this browser on this computer only, while this thoth gui runs (a restarted one refuses them).',
        );
        // the link as Copy link makes it: this page's address without the token
        const kfen = setupKfen('khet2', 'dynasty') as string;
        const link = linkUrl(gui.url, await encodeLink({ kind: 'kfen', edition: 'khet2', kfen }));
        expect(link).not.toContain('token');
        const same = await ctx.newPage();
        expect((await same.goto(link))?.status()).toBe(200);
        await same.waitForFunction(() =>
          /Position opened from the link/.test(document.getElementById('io-msg')?.textContent ?? ''),
        );
        const other = await (await theBrowser()).newContext();
        expect((await (await other.newPage()).goto(link))?.status()).toBe(403);
        await other.close();
        await gui.stop();
        again = await startGui(['--engine', FAKE_ENGINE, '--port', String(gui.port)]);
        expect(again.port).toBe(gui.port);
        expect((await (await ctx.newPage()).goto(link))?.status()).toBe(403);
        expect(errors).toEqual([]);
        await ctx.close();
      } finally {
        await gui.stop();
        await again?.stop();
      }
    },
    stretched(90_000),
  );
});
