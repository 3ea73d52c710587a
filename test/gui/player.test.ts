/**
 * What a lichess player expects of the page (issues 30 and 32), in real headless Chromium against
 * `thoth gui` with the fake engine: reviews of won games, clocks across modes, the arrow keys, the
 * hint, records, layout. Screenshots go to test-output/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HAVE_CHROMIUM, click, closeBrowser, loadKfen, movesText, open as openPage, setMode, shot,
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
  const open = (viewport?: { width: number; height: number }) => openPage(gui.url, { viewport });

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
});
