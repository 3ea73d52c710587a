/**
 * The sixteen faults a player met in the GUI (7fe2406, 2026-12-01), each played again in Chromium as a
 * person would meet it, against `thoth gui` (the built dist/) with the fake engine. Each test
 * failed on the page before its fix. Screenshots of the new views go to test-output/gui-*.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HAVE_CHROMIUM,
  PHONE,
  click,
  pauseClock,
  closeBrowser,
  levelLabelsFit,
  loadKfen,
  moveCount,
  moveFirstPiece,
  movesText,
  newGame,
  open,
  pickLevel,
  setMode,
  shot,
  squareCentre,
  waitMoves,
  waitReply,
  walkGame,
  watchErrors,
} from './browser';
import { FAKE_ENGINE, LONG_TC, startGui, type RunningGui } from './helpers';

/** Silver to move; `j1+` turns the Sphinx north and its beam, via j7, hits the Red Pharaoh on e7. */
const SILVER_WINS_KFEN = 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1';
/** Silver three Pyramids up (Thoth, playing Red, is worse); nothing is under fire. */
const SILVER_AHEAD_KFEN = 'xv9/4k5/10/10/1P^1P^1P^4/10/4K5/9X^ s 0 1';
/** Red three Pyramids up (Thoth is better). */
const RED_AHEAD_KFEN = 'xv9/4k5/10/1pv1pv1pv4/10/10/4K5/9X^ s 0 1';

afterAll(closeBrowser);

const text = async (page: Page, sel: string): Promise<string> => (await page.textContent(sel)) ?? '';

describe.skipIf(!HAVE_CHROMIUM)('the faults a player met, in Chromium', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it("1. you see your own shot (with the removed piece marked) before Thoth's fast reply; a key skips it", async () => {
    const { ctx, page, errors } = await open(gui.url, { clock: true });
    await pickLevel(page, 1); // the fake engine answers at once
    await page.evaluate(() => {
      const log: { t: number; path: string; end: string; marked: boolean }[] = [];
      (window as unknown as { beamLog: typeof log }).beamLog = log;
      const g = document.getElementById('layer-beam') as Element;
      new MutationObserver(() =>
        log.push({
          t: performance.now(),
          path: g.getAttribute('data-path') ?? '',
          end: g.getAttribute('data-end') ?? '',
          marked: !!g.querySelector('.kill-mark'),
        }),
      ).observe(g, { attributes: true, childList: true });
    });
    await click(page, 'j4');
    await click(page, 'i4');
    // (Before the fix, the reply came at once and hid the shot: nothing was held.)
    await page.waitForSelector('#board[data-holding=reply]', { timeout: 3000 }).then(
      () => shot(page, 'shot-hold'),
      () => {},
    );
    await waitMoves(page, 2);
    const log = await page.evaluate(
      () => (window as unknown as { beamLog: { t: number; path: string; end: string; marked: boolean }[] }).beamLog,
    );
    const mine = log.find((e) => e.path.startsWith('j1')); // Silver's Sphinx
    const reply = log.find((e) => e.path.startsWith('a8')); // Red's
    expect(mine?.end).toMatch(/^kill /);
    expect(reply!.t - mine!.t).toBeGreaterThanOrEqual(700);
    expect(mine?.marked).toBe(true);
    // The next one: Esc shows the reply at once. The page's time stands still meanwhile, so the
    // reply can come only through Esc (and a slow machine cannot end the shot first).
    await pauseClock(page);
    await click(page, 'c1');
    await page.click('#layer-controls [data-rot="+"]');
    await page.waitForSelector('#board[data-holding=reply]');
    await page.keyboard.press('Escape');
    await waitMoves(page, 4);
    await page.clock.resume();
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("1. shows both lasers' paths on request, and where a move's shot would go before it is played", async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    await page.click('#card-settings summary');
    await page.check('#opt-lasers');
    expect(await page.locator('#layer-lasers polyline.laser-path').count()).toBe(2);
    expect(await page.getAttribute('#layer-lasers polyline[data-side="0"]', 'data-path')).toMatch(/^j1 j2/);
    await click(page, 'j4');
    await page.hover('.hit[data-square=i4]');
    await page.waitForSelector('#layer-aim polyline', { state: 'attached' });
    expect(await page.getAttribute('#layer-aim', 'data-end')).toMatch(/^kill /);
    await shot(page, 'lasers-and-aim');
    await page.uncheck('#opt-lasers');
    expect(await page.locator('#layer-lasers polyline').count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('2. a beam from the last game does not stay on a new board (edition changed, position loaded)', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    await click(page, 'c1');
    await click(page, 'd2');
    await page.waitForSelector('#layer-beam polyline', { state: 'attached' });
    await page.selectOption('#sel-edition', 'khet1');
    await newGame(page);
    expect(await page.getAttribute('body', 'class')).toBe('ed-khet1');
    expect(await page.locator('#layer-beam polyline').count()).toBe(0);
    await click(page, 'c1');
    await click(page, 'b2');
    await page.waitForSelector('#layer-beam polyline', { state: 'attached' });
    await loadKfen(page, SILVER_WINS_KFEN);
    expect(await page.locator('#layer-beam polyline').count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('3. take-back puts the clocks back as they were, and is refused after a loss on time', async () => {
    const { ctx, page, errors } = await open(gui.url, { clock: true });
    await setMode(page, 'humans');
    await page.selectOption('#sel-tc', '60+1');
    await newGame(page);
    await click(page, 'c1');
    await click(page, 'd2');
    expect(await text(page, '#player-bottom .clock')).toBe('1:01');
    await page.clock.fastForward(20000);
    await click(page, 'a4');
    await click(page, 'a3');
    await page.clock.fastForward(5000);
    expect(await text(page, '#player-bottom .clock')).toMatch(/^0:5[56]$/);
    await page.click('#btn-takeback');
    expect(await movesText(page)).toEqual(['c1d2']);
    expect(await text(page, '#player-bottom .clock')).toBe('1:01');
    expect(await text(page, '#player-top .clock')).toMatch(/^(1:00|0:59)$/);
    // Red's time runs out: the game is lost and cannot be taken back.
    await page.clock.fastForward(61000);
    await page.waitForSelector('#banner:not([hidden])');
    expect(await text(page, '#banner-text')).toMatch(/on time/);
    expect(await page.isDisabled('#btn-takeback')).toBe(true);
    await page.keyboard.press('t');
    expect(await movesText(page)).toEqual(['c1d2']);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('4. the game and the settings survive a reload; a second tab has its own engine and leaves the first alone', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await pickLevel(page, 2);
    await page.selectOption('#sel-tc', '180+2');
    await newGame(page);
    await click(page, 'c1');
    await click(page, 'd2');
    await waitReply(page, 2);
    const moves = await movesText(page);
    await page.reload();
    await page.waitForSelector('#engine-status[data-state=ready]');
    expect(await movesText(page)).toEqual(moves);
    expect(await page.inputValue('#sel-level')).toBe('2');
    expect(await page.inputValue('#sel-tc')).toBe('180+2');
    expect(await page.isVisible('#player-bottom .clock')).toBe(true);
    // Another tab gets an engine of its own (src/gui/engines.ts): this one keeps its engine and
    // its game, and plays on (a second tab once took the engine away, "Another tab is using the engine").
    const page2 = await ctx.newPage();
    watchErrors(page2, errors);
    await page2.goto(gui.url);
    await page2.waitForSelector('#engine-status[data-state=ready]');
    expect(await text(page, '#engine-status')).not.toMatch(/Another tab/);
    expect(await page.isHidden('#engine-action')).toBe(true);
    expect(await movesText(page)).toEqual(moves);
    await moveFirstPiece(page, 'p0');
    await waitReply(page, 4);
    expect(await text(page, '#engine-status')).toMatch(/ready/);
    await shot(page, 'two-tabs');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('5. resign, draw offers Thoth answers by its evaluation, a claimed draw, and New game asks first', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await pickLevel(page, 1);
    await click(page, 'c1');
    await click(page, 'd2');
    await waitReply(page, 2);
    // New game in the middle of one asks; Cancel keeps the game.
    await page.click('#btn-new');
    await page.waitForSelector('#dialog:not([hidden])');
    await shot(page, 'confirm');
    await page.click('#dialog-no');
    expect(await moveCount(page)).toBe(2);
    await page.click('#btn-resign');
    await page.click('#dialog-yes');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await text(page, '#banner-title')).toBe('Red wins · Thoth won');
    expect(await text(page, '#banner-text')).toMatch(/Silver resigned/);
    // Thoth (Red) worse: it accepts a draw; better: it declines and plays on.
    await loadKfen(page, SILVER_AHEAD_KFEN);
    await page.click('#btn-draw');
    await click(page, 'e2');
    await click(page, 'e3');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await text(page, '#banner-title')).toBe('Draw');
    expect(await text(page, '#banner-text')).toMatch(/agreement/);
    await loadKfen(page, RED_AHEAD_KFEN);
    await page.click('#btn-draw');
    await click(page, 'e2');
    await click(page, 'e3');
    await waitMoves(page, 2);
    expect(await text(page, '#hint')).toBe('Thoth declines the draw.');
    expect(await page.isVisible('#banner')).toBe(false);
    // Two players: the side whose move would repeat the position a third time claims the draw.
    await setMode(page, 'humans');
    await newGame(page);
    for (const [a, b] of [
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['d2', 'c1'],
      ['a3', 'a4'],
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['d2', 'c1'],
    ]) {
      await click(page, a);
      await click(page, b);
    }
    await page.click('#btn-claim');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await text(page, '#banner-text')).toMatch(/Draw claimed by Red/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('6. the Sphinx on j1 facing north offers only its legal turn, counter-clockwise', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    await click(page, 'j1');
    const dirs = await page.$$eval('#layer-controls [data-rot]', (bs) => bs.map((b) => b.getAttribute('data-rot')));
    expect(dirs).toEqual(['-']);
    expect(await page.isEnabled('#btn-rot-ccw')).toBe(true);
    expect(await page.isDisabled('#btn-rot-cw')).toBe(true);
    await page.click('#layer-controls [data-rot="-"]');
    expect(await movesText(page)).toEqual(['j1-']);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('7. the result does not cover the board: the final beam and the hit Pharaoh stay in view', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    await loadKfen(page, SILVER_WINS_KFEN);
    await click(page, 'j1');
    await page.click('#layer-controls [data-rot]');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.getAttribute('#layer-beam', 'data-end')).toBe('kill e7');
    for (const sq of ['e7', 'e4', 'f5', 'j7']) {
      const c = await squareCentre(page, sq);
      const under = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('#board, #banner')?.id ?? '',
        c,
      );
      expect(under).toBe('board');
    }
    await shot(page, 'result-strip');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('8. a page opened without ?token after an earlier visit connects (the cookie lets it in)', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await page.goto(gui.url.split('?')[0]);
    await page.waitForSelector('#engine-status[data-state=ready]');
    expect(await text(page, '#engine-status')).not.toMatch(/gone/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('9. a tab the server has no engine for lets nobody move until it has one; an engine deaf to stop is restarted', async () => {
    // A server of one tab (a tab once lost the engine to the next one opened; now the next one waits).
    const one = await startGui(['--engine', FAKE_ENGINE, '--tabs', '1']);
    const errors: string[] = [];
    try {
      const first = await open(one.url);
      const { ctx, page, errors: e2 } = await open(one.url, { ready: false });
      await page.waitForSelector('#engine-status[data-state=closed]');
      await click(page, 'c1');
      expect(await page.locator('#layer-marks .selected').count()).toBe(0);
      expect(await text(page, '#hint')).toMatch(/not available/);
      await first.ctx.close();
      await page.waitForSelector('#engine-status[data-state=ready]');
      await pickLevel(page, 1);
      await click(page, 'c1');
      await click(page, 'd2');
      await waitReply(page, 2);
      errors.push(...first.errors, ...e2);
      await ctx.close();
    } finally {
      await one.stop();
    }

    const deaf = await startGui(['--engine', `${FAKE_ENGINE} --ignore-stop`]);
    try {
      // The page's time is the test's: the 3 s the page gives `stop` pass at once, and not before.
      // Its clock stands still from before the Stop (an installed clock runs at the machine's
      // pace: on a busy machine over a second passed between the click and the first check).
      const o = await open(deaf.url, { clock: true });
      await setMode(o.page, 'analysis');
      await o.page.waitForSelector('#lines .line');
      await pauseClock(o.page);
      await o.page.click('#btn-analyse'); // Stop: the engine never answers
      await o.page.clock.fastForward(2000);
      expect(await o.page.isHidden('#engine-action')).toBe(true);
      await o.page.clock.fastForward(1100);
      await o.page.waitForSelector('#engine-action:not([hidden])');
      expect(await text(o.page, '#engine-status')).toMatch(/does not answer 'stop'/);
      await shot(o.page, 'unresponsive');
      await o.page.clock.resume();
      await o.page.click('#engine-action');
      await o.page.waitForSelector('#engine-status[data-state=ready]');
      expect(o.errors).toEqual([]);
      await o.ctx.close();
    } finally {
      await deaf.stop();
    }
    expect(errors).toEqual([]);
  });

  it('10. "You play" changes sides with the next game, not in the middle of one', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await pickLevel(page, 1);
    await click(page, 'c1');
    await click(page, 'd2');
    await waitReply(page, 2);
    await page.selectOption('#sel-side', '1');
    // the form says it comes with New game; the hint keeps saying whose move it is
    expect(await text(page, '#form-note')).toMatch(/^You play Red: with New game/);
    expect(await text(page, '#hint')).toBe('Silver to move: pick a piece.');
    expect(await text(page, '#player-bottom .name')).toBe('You · Silver');
    await page.waitForSelector('#engine-status[data-state=ready]');
    expect(await moveCount(page)).toBe(2);
    await newGame(page);
    expect(await text(page, '#player-bottom .name')).toBe('You · Red');
    await waitMoves(page, 1); // Thoth opens as Silver
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('11. on a phone the rotate buttons are big enough to touch', async () => {
    const { ctx, page, errors } = await open(gui.url, { viewport: PHONE });
    await click(page, 'c1');
    for (const b of await page.locator('#layer-controls .rot-btn').all()) {
      if (!(await b.isVisible())) continue;
      const box = await b.boundingBox();
      expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
    }
    for (const id of ['#btn-rot-ccw', '#btn-rot-cw']) {
      expect(await page.isEnabled(id)).toBe(true);
      const box = await page.locator(id).boundingBox();
      expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
    }
    await page.click('#btn-rot-cw');
    await waitMoves(page, 1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'phone-rotate', true);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('12. pieces show their tooltip under the pointer; the help has a legend of the pieces and the rules', async () => {
    const { ctx, page, errors } = await open(gui.url);
    const c = await squareCentre(page, 'c1');
    const tip = await page.evaluate(({ x, y }) => {
      for (let e = document.elementFromPoint(x, y); e; e = e.parentElement) {
        const t = Array.from(e.children).find((k) => k.tagName.toLowerCase() === 'title');
        if (t) return t.textContent;
      }
      return '';
    }, c);
    expect(tip).toMatch(/^Silver Pyramid.* on c1$/);
    await page.click('#card-help summary');
    const kinds = await page.$$eval('#legend .legend-row', (rs) => rs.map((r) => r.textContent ?? ''));
    for (const k of ['Pharaoh', 'Sphinx', 'Pyramid', 'Scarab', 'Anubis'])
      expect(kinds.some((t) => t.startsWith(k))).toBe(true);
    expect(await text(page, '#card-help .rules')).toMatch(/Pharaoh/);
    await page.locator('#card-help').scrollIntoViewIfNeeded();
    await shot(page, 'help');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("13. Thoth's plan stays hidden while it plays you, unless you ask to see it", async () => {
    // The engine thinks until the test lets it move (the gate file), so that the plan is looked
    // at while it thinks however slowly the machine clicks.
    const gate = path.join(mkdtempSync(path.join(tmpdir(), 'thoth-plan-')), 'gate');
    const gated = await startGui(['--engine', `${FAKE_ENGINE} --gate ${gate}`]);
    const { ctx, page, errors } = await open(gated.url);
    try {
      await pickLevel(page, 8);
      await page.selectOption('#sel-tc', LONG_TC);
      await newGame(page);
      await click(page, 'c1');
      await click(page, 'd2');
      await page.waitForSelector('#engine-status[data-state=thinking]');
      await page.waitForFunction(() => document.getElementById('thinking')?.textContent?.trim() === 'Thoth thinks…');
      expect(await page.isVisible('#evalbar')).toBe(false);
      await page.click('#card-settings summary');
      await page.check('#opt-thinking');
      await page.waitForFunction(() =>
        /depth \d+ · [−+]?\d\.\d\d · 1… [a-j][1-8]/.test(document.getElementById('thinking')?.textContent ?? ''),
      );
      expect(await text(page, '#thinking')).toMatch(/depth \d+ · [−+]?\d\.\d\d · 1… [a-j][1-8]/);
      writeFileSync(gate, '');
      await waitMoves(page, 2);
      expect(errors).toEqual([]);
    } finally {
      await ctx.close();
      await gated.stop();
      rmSync(path.dirname(gate), { recursive: true, force: true });
    }
  });

  it('14. eight strength levels, one scheme, each label readable in full', async () => {
    const { ctx, page, errors } = await open(gui.url);
    const labels = await page.$$eval('#sel-level option', (os) => os.map((o) => o.textContent ?? ''));
    expect(labels.map((l) => l.slice(0, 7))).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `Level ${n}`));
    expect(labels[7]).toMatch(/full strength/);
    const fits = await levelLabelsFit(page);
    expect(fits).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('15. analysis keeps variations and lines, freezes a previewed line, and shows an eval bar and graph', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    for (const [a, b] of [
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['d2', 'd3'],
    ]) {
      await click(page, a);
      await click(page, b);
    }
    await page.click('#nav-prev');
    await page.click('#nav-prev');
    await click(page, 'h4');
    await click(page, 'h3');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'd2d3']);
    expect(await page.$$eval('#moves .mv.var', (bs) => bs.map((b) => b.firstChild?.textContent))).toEqual(['h4h3']);
    // Lines stay when their number changes while stopped.
    await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
    await page.click('#btn-analyse');
    await page.waitForSelector('#lines[data-state=stopped]');
    await page.selectOption('#sel-multipv', '2');
    expect(await page.locator('#lines .line').count()).toBe(2);
    await page.selectOption('#sel-multipv', '3');
    expect(await page.locator('#lines .line').count()).toBe(3);
    // A previewed line holds still while the engine goes deeper. (The depth the analysis has
    // reached when the line is clicked is read, not assumed: on a busy machine or a fast one the
    // first depths may pass between two looks of the page.)
    await page.click('#btn-analyse');
    const depth = async (): Promise<number> => Number(/depth (\d+)/.exec(await text(page, '#an-info'))?.[1] ?? 0);
    await page.waitForFunction(
      () =>
        /depth \d+/.test(document.getElementById('an-info')?.textContent ?? '') &&
        document.querySelectorAll('#lines .line').length === 3,
    );
    await page.click('#lines .line[data-line="0"]');
    const shown = await text(page, '#preview-text');
    const clickedAt = await depth();
    await page.waitForFunction(
      (d) => Number(/depth (\d+)/.exec(document.getElementById('an-info')?.textContent ?? '')?.[1] ?? 0) >= d + 3,
      clickedAt,
    );
    expect(await text(page, '#preview-text')).toBe(shown);
    await page.keyboard.press('Escape');
    // The eval bar and the graph of the main line; a click on the graph goes there.
    expect(await page.isVisible('#evalbar')).toBe(true);
    await page.click('#moves .mv[data-ply="3"]');
    await page.waitForSelector('#graph svg .dot');
    // The graph is drawn anew as lines arrive: the locator's click waits for the one on screen.
    await page.locator('#graph svg').click({ position: { x: 2, y: 5 } });
    expect(await page.locator('#moves .mv.current').count()).toBe(0); // the start
    await shot(page, 'analysis-variations');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('16. the move list numbers moves as it shows them, Home scrolls it to the top, export keeps what was imported', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    const moves = walkGame(60, 12345);
    const record =
      '[Event "Club night"]\n[White "Alice"]\n[Black "Bob"]\n[Annotator "Carol"]\n[Variant "khet2"]\n\n' +
      moves.map((m, i) => `${i % 2 === 0 ? `${i / 2 + 1}. ` : ''}${m}${i === 3 ? ' {a fine move}' : ''}`).join(' ') +
      ' *\n';
    await page.click('#card-io summary');
    await page.fill('#record', record);
    await page.click('#rec-import');
    expect(await moveCount(page)).toBe(60);
    // A record opens on the analysis board; played on between two players, the hint names the move looked at.
    await setMode(page, 'humans');
    await page.click('#moves .mv[data-ply="30"]');
    const number = await page.$eval('#moves .mv[data-ply="30"]', (b) => {
      let e = b.previousElementSibling;
      while (e && !e.classList.contains('num')) e = e.previousElementSibling;
      return e?.textContent?.replace('.', '') ?? '';
    });
    expect(number).toBe('15');
    expect(await text(page, '#hint')).toMatch(/move 15 \(Red: /);
    await page.keyboard.press('End');
    expect(await page.$eval('#moves', (m) => m.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('Home');
    expect(await page.$eval('#moves', (m) => m.scrollTop)).toBe(0);
    await page.click('#rec-export');
    const out = await page.inputValue('#record');
    for (const tag of ['[Event "Club night"]', '[White "Alice"]', '[Black "Bob"]', '[Annotator "Carol"]'])
      expect(out).toContain(tag);
    expect(out).toContain('{a fine move}');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
