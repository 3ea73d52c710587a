/**
 * Smaller things a player met on the page of `thoth gui`: a premoved rotation shows which way it
 * turns; the engine pill is not cut off on a phone; a review's marks are not mixed with a link's
 * old ones; the move list keeps the focus as the arrows step through it; a move typed in the
 * move box is played.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, click, movesText, newGame, open, pickLevel, shot, waitMoves } from './browser';
import { FAKE_ENGINE, startGui, type RunningGui } from './helpers';

describe.skipIf(!HAVE_CHROMIUM)('the page of thoth gui, smaller things', () => {
  let gui: RunningGui;
  // The engine moves when the test says so (the gate file), as in the premove test of player.test.ts.
  const gate = path.join(mkdtempSync(path.join(tmpdir(), 'thoth-smaller-')), 'gate');
  const release = (): void => writeFileSync(gate, '');
  beforeAll(async () => {
    gui = await startGui(['--engine', `${FAKE_ENGINE} --gate ${gate}`]);
  });
  afterAll(async () => {
    await gui?.stop();
    rmSync(path.dirname(gate), { recursive: true, force: true });
  });

  it('a premoved rotation draws which way it turns', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await page.selectOption('#sel-tc', '');
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
  }, 90_000);

  it('the engine pill is not cut off on a phone 375 pixels wide', async () => {
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
  }, 60_000);
});
