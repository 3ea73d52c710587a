/**
 * What a lichess player expects of the page (issues 30 and 32), in real headless Chromium against
 * `thoth gui` with the fake engine: reviews of won games, clocks across modes, the arrow keys, the
 * hint, records, layout. Screenshots go to test-output/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  HAVE_CHROMIUM, click, closeBrowser, loadKfen, movesText, newGame, open as openPage, setMode, shot, waitMoves,
} from './browser';
import { FAKE_ENGINE, startGui, type RunningGui } from './helpers';

/** Silver to move; `j1+` turns the Sphinx north and its beam, via j7, hits the Red Pharaoh on e7. */
const SILVER_WINS_KFEN = 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1';
/** The same turned round: Red to move; `a8+` hits the Silver Pharaoh on f2 via a2. */
const RED_WINS_KFEN = 'x>9/5k4/10/10/10/10/p^4K4/9X^ r 0 1';

afterAll(closeBrowser);

describe.skipIf(!HAVE_CHROMIUM)('the page as a lichess player expects it', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });
  const open = (viewport?: { width: number; height: number }, clock = false) => openPage(gui.url, { viewport, clock });
  const text = async (page: Page, sel: string): Promise<string> => ((await page.textContent(sel)) ?? '').trim();
  /** A clock's seconds as shown (`0:51` → 51). */
  const seconds = async (page: Page, sel: string): Promise<number> => {
    const [m, ss] = (await text(page, sel)).split(':').map(Number);
    return m * 60 + ss;
  };

  it.each([
    ['Silver', SILVER_WINS_KFEN, 'j1', '0'],
    ['Red', RED_WINS_KFEN, 'a8', '1'],
  ])('reviews a game %s wins by a Pharaoh hit: the winning move is not marked (issue 32)', async (winner, kfen, sphinx, side) => {
    const { ctx, page, errors } = await open();
    await setMode(page, 'humans');
    await loadKfen(page, kfen);
    await click(page, sphinx);
    await page.click('#layer-controls [data-rot]');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner-title')).toBe(`${winner} wins`);
    await page.click('#banner-review');
    await page.waitForSelector('#review .acc', { timeout: 20000 });
    expect(await movesText(page)).toHaveLength(1);
    expect(await page.locator('#moves .mv[data-ply="1"] .nag').count()).toBe(0);
    expect(await page.textContent(`#review .acc[data-side="${side}"]`)).toBe('100%');
    await shot(page, `review-${winner}-wins`);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('1. a game against Thoth keeps its clocks through Analysis and back; Analysis mid-game asks first and is recorded', async () => {
    const { ctx, page, errors } = await open(undefined, true);
    await page.selectOption('#sel-tc', '60+1');
    await newGame(page);
    await click(page, 'c1');
    await click(page, 'd2');
    await page.clock.fastForward(1000); // the shot on show, then Thoth's reply
    await waitMoves(page, 2);
    await page.clock.fastForward(10000);
    const mine = await seconds(page, '#player-bottom .clock');
    const thoths = await seconds(page, '#player-top .clock');
    expect(mine).toBeLessThanOrEqual(51);
    // Analysis in the middle of the game: asked first; No keeps the game as it was.
    await page.check('input[name=mode][value=analysis]');
    await page.waitForSelector('#dialog:not([hidden])');
    expect(await text(page, '#dialog-text')).toMatch(/Thoth’s lines/);
    await shot(page, 'analysis-asks');
    await page.click('#dialog-no');
    expect(await page.isChecked('input[name=mode][value=engine]')).toBe(true);
    expect(await page.isHidden('#card-analysis')).toBe(true);
    await page.check('input[name=mode][value=analysis]');
    await page.click('#dialog-yes');
    await page.waitForSelector('#card-analysis:not([hidden])');
    // Time passes in analysis: the game's clocks stand still.
    await page.clock.fastForward(30000);
    await setMode(page, 'engine');
    // As they were (the seconds this test itself took aside), not the time control's 1:00 again.
    expect(mine - (await seconds(page, '#player-bottom .clock'))).toBeLessThanOrEqual(3);
    expect(await seconds(page, '#player-bottom .clock')).toBeGreaterThan(mine - 30);
    expect(await seconds(page, '#player-top .clock')).toBe(thoths);
    expect(await page.locator('#player-bottom .clock.running').count()).toBe(1);
    await page.clock.fastForward(5000);
    expect(await seconds(page, '#player-bottom .clock')).toBeLessThan(mine - 4);
    // The record says that analysis was opened, after the move where it was.
    await page.click('#card-io summary');
    await page.click('#rec-export');
    const rec = await page.inputValue('#record');
    expect(rec).toMatch(/\[%clk 0:0[01]:\d\d\] Analysis \(Thoth’s lines\) opened during the game\}/);
    expect(rec).toContain('[TimeControl "60+1"]');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
