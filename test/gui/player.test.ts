/**
 * What a lichess player expects of the page, in real headless Chromium against
 * `thoth gui` with the fake engine: reviews of won games, clocks across modes, the arrow keys, the
 * hint, records, layout. Screenshots go to test-output/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  HAVE_CHROMIUM,
  PHONE,
  pauseClock,
  click,
  closeBrowser,
  confirmIfAsked,
  loadKfen,
  targets,
  theBrowser,
  watchErrors,
  movesText,
  newGame,
  open as openPage,
  pickLevel,
  setMode,
  shot,
  waitMoves,
  WAIT_MS,
} from './browser';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fullStrength } from '../../src/gui/server';
import { FAKE_ENGINE, ROOT, LONG_TC, gatedFakeGui, realEngineWorks, startGui, type RunningGui } from './helpers';

/** Silver to move; `j1+` turns the Sphinx north and its beam, via j7, hits the Red Pharaoh on e7. */
const SILVER_WINS_KFEN = 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1';
/** The same turned round: Red to move; `a8+` hits the Silver Pharaoh on f2 via a2. */
const RED_WINS_KFEN = 'x>9/5k4/10/10/10/10/p^4K4/9X^ r 0 1';

const REAL_ENGINE = HAVE_CHROMIUM && (await realEngineWorks());

afterAll(closeBrowser);

/**
 * One `thoth gui` with the fake engine for every describe that needs no engine of its own: each
 * page takes the engine over from the page before, as within a describe; a start and a stop of
 * the server cost about 2 s of waiting each time.
 */
let shared: RunningGui | undefined;
const fakeGui = async (): Promise<RunningGui> => (shared ??= await startGui(['--engine', FAKE_ENGINE]));
/**
 * One with the fake engine that moves when the test says so (the gate file), not after 2 s of
 * thinking at level 8: on a loaded machine the clicks took longer than the engine's thinking
 * (a "premove" became a move), and no test waits the 2 s.
 */
const { gui: gatedGui, release, stop: stopGated } = gatedFakeGui();
afterAll(async () => {
  await shared?.stop();
  await stopGated();
});

describe.skipIf(!HAVE_CHROMIUM)('the page as a lichess player expects it', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
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
  ])('reviews a game %s wins by a Pharaoh hit: the winning move is not marked', async (winner, kfen, sphinx, side) => {
    const { ctx, page, errors } = await open();
    await setMode(page, 'humans');
    await loadKfen(page, kfen);
    await click(page, sphinx);
    await page.click('#layer-controls [data-rot]');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner-title')).toBe(`${winner} wins`);
    await page.click('#banner-review');
    await page.waitForSelector('#review .acc');
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
    // The page's own time, read around the clocks: what the game's clock may have run meanwhile.
    const pageNow = (): Promise<number> => page.evaluate(() => Date.now());
    const before = await pageNow();
    const mine = await seconds(page, '#player-bottom .clock');
    const thoths = await seconds(page, '#player-top .clock');
    expect(mine).toBeLessThanOrEqual(51);
    // Analysis in the middle of the game: asked first; No keeps the game as it was.
    await page.click('input[name=mode][value=analysis]');
    await page.waitForSelector('#dialog:not([hidden])');
    expect(await text(page, '#dialog-text')).toMatch(/Thoth’s lines/);
    await shot(page, 'analysis-asks');
    await page.click('#dialog-no');
    expect(await page.isChecked('input[name=mode][value=engine]')).toBe(true);
    expect(await page.isHidden('#card-analysis')).toBe(true);
    await page.click('input[name=mode][value=analysis]');
    await page.click('#dialog-yes');
    await page.waitForSelector('#card-analysis:not([hidden])');
    // Time passes in analysis: the game's clocks stand still.
    await page.clock.fastForward(30000);
    await setMode(page, 'engine');
    // As they were, not the time control's 1:00 again: the clock ran at most while the page was
    // in the game (the page's time since the first reading, less the 30 s spent in analysis, and a
    // second of rounding), however long a busy machine took over the clicks.
    const now = await seconds(page, '#player-bottom .clock');
    const inGame = ((await pageNow()) - before) / 1000 - 30;
    expect(mine - now).toBeLessThanOrEqual(Math.ceil(inGame) + 1);
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

describe.skipIf(!HAVE_CHROMIUM)('the keyboard after a click', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });

  it('← → step through the moves after a click on the board; ↑ or Enter there starts keyboard play', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await setMode(page, 'humans');
    // A select used from the keyboard first: the click on the board still is a click.
    await page.focus('#sel-tc');
    await page.keyboard.press('ArrowDown');
    for (const [a, b] of [
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['j4', 'i4'],
    ]) {
      await click(page, a);
      await click(page, b);
    }
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'j4i4']);

    const current = (): Promise<string | null> => page.getAttribute('#moves .mv.current', 'data-ply');
    await page.keyboard.press('ArrowLeft');
    expect(await current()).toBe('2');
    await page.keyboard.press('ArrowLeft');
    expect(await current()).toBe('1');
    await page.keyboard.press('ArrowRight');
    expect(await current()).toBe('2');
    expect(await page.locator('#layer-marks .cursor').count()).toBe(0);
    await page.keyboard.press('End');
    // An explicit key on the board starts keyboard play: now the arrows move the cursor.
    await page.keyboard.press('ArrowUp');
    expect(await page.locator('#layer-marks .cursor').count()).toBe(1);
    await page.keyboard.press('ArrowLeft');
    expect(await current()).toBe('3');
    // A click on the board again: back to stepping through the moves.
    await click(page, 'e5');
    expect(await page.locator('#layer-marks .cursor').count()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    expect(await current()).toBe('2');
    // Tab into the board: keyboard play, the arrows move the cursor.
    await page.click('#nav-last');
    for (let i = 0; i < 40 && (await page.evaluate(() => document.activeElement?.id)) !== 'board'; i++)
      await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('board');
    await page.keyboard.press('ArrowLeft');
    expect(await page.locator('#layer-marks .cursor').count()).toBe(1);
    expect(await current()).toBe('3');
    await shot(page, 'keyboard-tab-cursor');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the hint under the board', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await gatedGui();
  });
  const hint = async (page: Page): Promise<string> => ((await page.textContent('#hint')) ?? '').trim();

  it('says "Your shot…" only while a reply is waiting: not while Thoth thinks, not after a winning move', async () => {
    const { ctx, page, errors } = await openPage(gui.url, { clock: true });
    // Level 8 on a long clock: the fake engine thinks until the test releases it, longer than
    // the shot is on show.
    await page.selectOption('#sel-tc', LONG_TC);
    await pickLevel(page, 8);
    await newGame(page);
    await click(page, 'c1');
    await click(page, 'd2');
    expect(await page.getAttribute('#board', 'data-holding')).toBe('');
    expect(await hint(page)).toBe('Thoth is thinking…');
    release();
    await waitMoves(page, 2);
    // Level 1 answers at once: its reply waits while the shot is on show, and the hint says so.
    // The page's time stands still meanwhile, so a slow machine cannot end the shot first.
    await pickLevel(page, 1);
    await pauseClock(page);
    await click(page, 'd2');
    await click(page, 'd3');
    await page.waitForSelector('#board[data-holding=reply]');
    expect(await hint(page)).toMatch(/^Your shot… \(click or press a key to see Thoth’s reply\)$/);
    await page.clock.resume();
    await waitMoves(page, 4);
    expect(await hint(page)).not.toMatch(/Your shot/);
    // A winning move: the result, not "Your shot…".
    await loadKfen(page, SILVER_WINS_KFEN);
    await click(page, 'j1');
    await page.click('#layer-controls [data-rot]');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await hint(page)).toBe('Silver wins: the Red Pharaoh was hit');
    await shot(page, 'hint-after-win');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('records', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });
  const exported = async (page: Page): Promise<string> => {
    if (!(await page.isVisible('#rec-export'))) await page.click('#card-io summary');
    await page.click('#rec-export');
    return page.inputValue('#record');
  };
  const clks = (rec: string): string[] => rec.match(/\[%clk [0-9:]+\]/g) ?? [];

  it('an export after a review keeps the players, the time control and the clocks; import then export keeps them', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await page.selectOption('#sel-tc', '60+1');
    await pickLevel(page, 1);
    await newGame(page);
    for (const [a, b] of [
      ['c1', 'd2'],
      ['d2', 'd3'],
    ]) {
      const n = (await movesText(page)).length;
      await click(page, a);
      await click(page, b);
      await waitMoves(page, n + 2);
    }
    await page.click('#btn-resign');
    await page.click('#dialog-yes');
    await page.click('#banner-review');
    await page.waitForSelector('#review .acc');
    const rec = await exported(page);
    expect(rec).toContain('[White "Human"]');
    expect(rec).toContain('[Black "FakeThoth 0 (Level 1 · depth 1)"]');
    expect(rec).toContain('[TimeControl "60+1"]');
    expect(clks(rec)).toHaveLength(4);
    // Imported (in Analysis, and to play on) and exported again: the same players, time control and clocks.
    for (const mode of ['analysis', 'humans'] as const) {
      await setMode(page, mode);
      await page.fill('#record', rec);
      await page.click('#rec-import');
      await confirmIfAsked(page);
      await page.waitForSelector('#io-msg:has-text("Game imported")');
      const again = await exported(page);
      expect(again).toContain('[White "Human"]');
      expect(again).toContain('[Black "FakeThoth 0 (Level 1 · depth 1)"]');
      expect(again).toContain('[TimeControl "60+1"]');
      expect(clks(again)).toEqual(clks(rec));
    }
    // A record with clocks and no TimeControl keeps its clocks too.
    await setMode(page, 'analysis');
    await page.fill('#record', '[White "a"]\n[Black "b"]\n\n1. c1d2 {[%clk 0:04:59]} a4a3 {[%clk 0:04:58]} *\n');
    await page.click('#rec-import');
    await page.waitForSelector('#io-msg:has-text("Game imported")');
    expect(clks(await exported(page))).toEqual(['[%clk 0:04:59]', '[%clk 0:04:58]']);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('layout', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });
  type Box = { x: number; y: number; width: number; height: number };
  const overlap = (a: Box, b: Box): boolean =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it("the side panel scrolls on its own; the board's frame is whole; the selects are not cut", async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    const boardTop = (await page.locator('svg.board').boundingBox())!.y;
    for (const id of ['card-io', 'card-settings', 'card-help']) await page.click(`#${id} summary`);
    await page.focus('#record');
    await page.locator('#keys').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect((await page.locator('svg.board').boundingBox())!.y).toBe(boardTop);
    expect(await page.$eval('.panel', (p) => p.scrollHeight > p.clientHeight && p.scrollTop > 0)).toBe(true);
    // The frame (with its stroke) lies inside the board's drawing.
    const inside = await page.$eval('svg.board', (svg) => {
      const vb = (svg as SVGSVGElement).viewBox.baseVal;
      const f = (svg.querySelector('.frame') as SVGGraphicsElement).getBBox();
      const sw = parseFloat(getComputedStyle(svg.querySelector('.frame') as Element).strokeWidth) / 2;
      return (
        f.x - sw >= vb.x &&
        f.y - sw >= vb.y &&
        f.x + f.width + sw <= vb.x + vb.width &&
        f.y + f.height + sw <= vb.y + vb.height
      );
    });
    expect(inside).toBe(true);
    // No option of the player's selects is cut off.
    for (const sel of ['#sel-side', '#sel-level', '#sel-tc', '#sel-setup', '#sel-edition']) {
      const fits = await page.$eval(sel, (e) => {
        const s = e as HTMLSelectElement;
        const cs = getComputedStyle(s);
        const g = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        g.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return Array.from(s.options).every((o) => g.measureText(o.text).width <= room);
      });
      expect(fits, sel).toBe(true);
    }
    await shot(page, 'layout-panel-scrolled');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the result strip leaves the toolbar on screen at 1400×950', async () => {
    const { ctx, page, errors } = await openPage(gui.url, { viewport: { width: 1400, height: 950 } });
    await setMode(page, 'humans');
    await loadKfen(page, SILVER_WINS_KFEN);
    await click(page, 'j1');
    await page.click('#layer-controls [data-rot]');
    await page.waitForSelector('#banner:not([hidden])');
    const tb = (await page.locator('.toolbar').boundingBox())!;
    expect(tb.y + tb.height).toBeLessThanOrEqual(950);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(950);
    await shot(page, 'layout-banner-1400x950');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('engine arrows from one square keep their labels apart; another tab leaves this one its engine', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await setMode(page, 'analysis');
    await loadKfen(page, SILVER_WINS_KFEN);
    await page.waitForFunction(() => document.querySelectorAll('#layer-arrows .arrow-label').length === 3);
    const boxes = await page.$$eval('#layer-arrows .arrow-label', (ts) =>
      ts.map((t) => {
        const r = t.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(overlap(boxes[i], boxes[j]), `labels ${i + 1} and ${j + 1}`).toBe(false);
    await shot(page, 'layout-arrow-labels');
    expect(await page.isVisible('#btn-analyse')).toBe(true);
    // Another tab gets an engine of its own: this one's analysis goes on, Stop and all.
    const other = await openPage(gui.url);
    expect(await page.textContent('#engine-status')).not.toMatch(/Another tab/);
    expect(await page.isVisible('#btn-analyse')).toBe(true);
    await other.ctx.close();
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("Deflexion's legend and rules describe Deflexion", async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await setMode(page, 'humans');
    await page.selectOption('#sel-edition', 'deflexion');
    await newGame(page);
    await page.click('#card-help summary');
    const help = (await page.textContent('#card-help')) ?? '';
    expect(help).not.toMatch(/Anubis|Sphinx|Scarab|ankh/);
    expect(await page.textContent('#legend')).not.toMatch(/Khet 1\.0/);
    expect(help).toMatch(/Djed/);
    expect(help).toMatch(/file a/);
    await page.locator('#card-help').scrollIntoViewIfNeeded();
    await shot(page, 'layout-deflexion-help');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('Make main line after a review', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });

  it('keeps the marks of the moves both lines share, and reviews the new ones', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await setMode(page, 'humans');
    for (const [a, b] of [
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['j4', 'i4'],
      ['a3', 'a4'],
    ]) {
      await click(page, a);
      await click(page, b);
    }
    await page.click('#btn-resign');
    await page.click('#dialog-yes');
    await page.click('#banner-review');
    await page.waitForSelector('#review .acc');
    const mark = (await page.textContent('#moves .mv[data-ply="3"] .nag')) ?? '';
    expect(mark).toMatch(/^\?[!?]?$/);
    // Another Red reply after j4i4, made the main line.
    await page.click('#moves .mv[data-ply="3"]');
    await page.waitForSelector('#moves .mv.current[data-ply="3"]');
    await click(page, 'a3');
    await click(page, 'a2');
    await page.waitForSelector('#moves .mv.var.current');
    // The analysis of the new move fills the lines above the button as the click is made, and a
    // loaded machine shifts it away from under the mouse: the click is sent to the button itself.
    await page.locator('#btn-promote').dispatchEvent('click');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'j4i4', 'a3a2']);
    expect(await page.textContent('#moves .mv[data-ply="3"] .nag')).toBe(mark);
    expect(await page.isVisible('#review')).toBe(true);
    // The new move is reviewed; the accuracy comes back.
    await page.waitForSelector('#review .acc');
    expect(await page.textContent('#moves .mv[data-ply="3"] .nag')).toBe(mark);
    expect(await page.locator('#graph svg .dot').count()).toBe(5);
    await shot(page, 'review-make-main-line');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('Khet 1.0 stacks', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });

  it('U shows on the board what is about to move: the whole stack or its top obelisk', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await setMode(page, 'humans');
    await page.selectOption('#sel-edition', 'khet1');
    await newGame(page);
    await click(page, 'd1');
    const stack = page.locator('#layer-pieces .piece[data-sq="d1"]');
    expect(await stack.getAttribute('data-moving')).toBe('stack');
    expect(await stack.locator('.badge-text').textContent()).toBe('2');
    const dim = (): Promise<number> => stack.locator('.ob-bottom').evaluate((e) => Number(getComputedStyle(e).opacity));
    expect(await dim()).toBe(1);
    await page.keyboard.press('u');
    expect(await stack.getAttribute('data-moving')).toBe('top');
    expect(await stack.locator('.badge-text').textContent()).toBe('1');
    expect(await dim()).toBeLessThan(0.5);
    expect(await stack.locator('title').textContent()).toMatch(/its top obelisk moves/);
    await shot(page, 'khet1-top-obelisk');
    await page.keyboard.press('u');
    expect(await stack.getAttribute('data-moving')).toBe('stack');
    // Other pieces carry no such mark.
    expect(await page.locator('#layer-pieces .piece[data-moving]').count()).toBe(1);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('touch: preview, then play', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });

  it('a first tap on a target or a rotate button shows the shot, a second plays it; own losses are marked', async () => {
    const ctx = await (await theBrowser()).newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    ctx.setDefaultTimeout(WAIT_MS);
    const page = await ctx.newPage();
    const errors: string[] = [];
    watchErrors(page, errors);
    await page.goto(gui.url);
    await page.waitForSelector('#engine-status[data-state=ready]');
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    expect(await page.isChecked('#opt-confirm')).toBe(true);
    await setMode(page, 'humans');
    const tap = (sq: string): Promise<void> => page.tap(`.hit[data-square=${sq}]`);
    const hint = async (): Promise<string> => ((await page.textContent('#hint')) ?? '').trim();
    await tap('c1');
    await tap('d2');
    expect(await movesText(page)).toEqual([]);
    expect(await page.getAttribute('#layer-aim', 'data-path')).toBeTruthy();
    expect(await hint()).toBe('Tap again to play c1d2, or pick another move.');
    await tap('d2');
    expect(await movesText(page)).toEqual(['c1d2']);
    expect(await page.getAttribute('#layer-aim', 'data-path')).toBeNull();
    await tap('a4');
    await tap('a3');
    await tap('a3');
    // A shot at one's own piece is marked before it is played.
    await tap('j4');
    await tap('i4');
    expect(await page.getAttribute('#layer-aim', 'data-own')).toBe('piece');
    expect(await hint()).toMatch(/^This shot removes your own piece on [a-j][1-8]\. Tap again to play j4i4/);
    await shot(page, 'touch-own-piece', true);
    await tap('i4');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'j4i4']);
    // The toolbar's rotate button: a first tap shows the shot, a second turns the piece.
    await tap('c7');
    await page.tap('#btn-rot-cw');
    expect(await movesText(page)).toHaveLength(3);
    expect(await page.getAttribute('#layer-aim', 'data-path')).toMatch(/^a8/);
    await page.tap('#btn-rot-cw');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'j4i4', 'c7+']);
    // A step into one's own laser: the own Pharaoh is marked.
    await loadKfen(page, SILVER_WINS_KFEN);
    await tap('e2');
    await tap('e1');
    expect(await page.getAttribute('#layer-aim', 'data-own')).toBe('pharaoh');
    expect(await hint()).toMatch(/^This shot hits your own Pharaoh: you would lose\./);
    expect(await page.locator('#layer-aim .aim-target.own-pharaoh').count()).toBe(1);
    await shot(page, 'touch-own-pharaoh', true);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('is off by default with a mouse, and the setting turns it on', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    await setMode(page, 'humans');
    expect(await page.isChecked('#opt-confirm')).toBe(false);
    await click(page, 'c1');
    await click(page, 'd2');
    expect(await movesText(page)).toEqual(['c1d2']);
    await page.click('#card-settings summary');
    await page.check('#opt-confirm');
    await click(page, 'a4');
    await click(page, 'a3');
    expect(await movesText(page)).toEqual(['c1d2']);
    await click(page, 'a3');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3']);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('sounds', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });

  it('a move, a removal, a Pharaoh hit, low time and the end each sound; the setting turns them off and is kept', async () => {
    const { ctx, page, errors } = await openPage(gui.url, { clock: true });
    const played = (): Promise<string[]> =>
      page.evaluate(() => [...(window as unknown as { thoth: { sounds: string[] } }).thoth.sounds]);
    await setMode(page, 'humans');
    await page.selectOption('#sel-tc', '60+1');
    await newGame(page);
    for (const [a, b] of [
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['j4', 'i4'],
    ]) {
      await click(page, a);
      await click(page, b);
    }
    expect(await played()).toEqual(['move', 'move', 'removal']);
    // Navigating plays nothing.
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    expect(await played()).toHaveLength(3);
    // Red's clock runs below ten seconds: one low-time sound.
    await page.clock.fastForward(52000);
    await page.waitForFunction(() =>
      (window as unknown as { thoth: { sounds: string[] } }).thoth.sounds.includes('low'),
    );
    await page.clock.fastForward(1000);
    expect((await played()).filter((x) => x === 'low')).toHaveLength(1);
    await page.click('#btn-resign');
    await page.click('#dialog-yes');
    expect((await played()).slice(-1)).toEqual(['end']);
    await loadKfen(page, SILVER_WINS_KFEN);
    await click(page, 'j1');
    await page.click('#layer-controls [data-rot]');
    expect((await played()).slice(-1)).toEqual(['pharaoh']);
    // Off: silence, and the setting survives a reload.
    await page.click('#card-settings summary');
    expect(await page.isChecked('#opt-sound')).toBe(true);
    await page.uncheck('#opt-sound');
    const n = (await played()).length;
    await newGame(page);
    await click(page, 'c1');
    await click(page, 'd2');
    expect(await played()).toHaveLength(n);
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('thoth.settings') ?? '{}').sound === false);
    await page.reload();
    await page.waitForSelector('#engine-status[data-state=ready]');
    expect(await page.isChecked('#opt-sound')).toBe(false);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('premoves', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await gatedGui();
  });

  it('a move made while Thoth thinks is shown, cancelled by Esc or a right-click, and played at once after its move', async () => {
    const { ctx, page, errors } = await openPage(gui.url);
    // Level 8 on a long clock: the fake engine thinks until the test releases it (LONG_TC).
    await page.selectOption('#sel-tc', LONG_TC);
    await pickLevel(page, 8);
    await newGame(page);
    await click(page, 'c1');
    await click(page, 'd2');
    const marks = (): Promise<number> => page.locator('#layer-marks .premove').count();
    const premove = async (): Promise<void> => {
      await click(page, 'j4');
      expect((await targets(page)).length).toBeGreaterThan(0);
      await click(page, 'i4');
      // Waited for, and said in full when it does not come: once under load (2026-12-07) this
      // read no marks after a right-click had cancelled the first premove, cause not found.
      await page
        .waitForFunction(() => document.querySelectorAll('#layer-marks .premove').length === 2)
        .catch(async () => {
          const state = await page.evaluate(() => {
            const s = (window as unknown as { thoth: { state: () => Record<string, unknown> } }).thoth.state();
            return JSON.stringify({ premove: s.premove, selected: s.selected, mode: s.mode });
          });
          throw new Error(
            `no premove marked after j4, i4: ${await marks()} marks, moves ${(await movesText(page)).join(' ')}, ` +
              `hint '${await page.textContent('#hint')}', state ${state}`,
          );
        });
    };
    await premove();
    expect(await page.textContent('#hint')).toMatch(/^Premove j4i4: played as soon as Thoth has moved/);
    expect(await movesText(page)).toEqual(['c1d2']);
    await shot(page, 'premove');
    await page.click('.hit[data-square=e5]', { button: 'right' });
    expect(await marks()).toBe(0);
    await premove();
    await page.keyboard.press('Escape');
    expect(await marks()).toBe(0);
    // Thoth moves; then, while it thinks about its next move, a premove that follows at once.
    release();
    await waitMoves(page, 2);
    await click(page, 'd2');
    await click(page, 'd3');
    await premove();
    release();
    await waitMoves(page, 5);
    const moves = await movesText(page);
    expect(moves[2]).toBe('d2d3');
    expect(moves[4]).toBe('j4i4');
    expect(await marks()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('full strength for thoth gui', () => {
  it('is every core and a table of a 64th of the memory, a power of two from 16 to 1024 MB', () => {
    const GB = 2 ** 30;
    expect(fullStrength(16, 64 * GB)).toEqual({ threads: 16, hashMb: 1024 });
    expect(fullStrength(2, 24 * GB)).toEqual({ threads: 2, hashMb: 256 });
    expect(fullStrength(4, 8 * GB)).toEqual({ threads: 4, hashMb: 128 });
    expect(fullStrength(1, 512 * 2 ** 20)).toEqual({ threads: 1, hashMb: 16 });
    expect(fullStrength(64, 1024 * GB)).toEqual({ threads: 64, hashMb: 1024 });
  });

  describe.skipIf(!REAL_ENGINE)('with the real engine in Chromium', () => {
    let gui: RunningGui;
    beforeAll(async () => {
      gui = await startGui(['--verbose']);
    });
    afterAll(async () => {
      expect(await gui?.stop()).toBe(130); // Ctrl-C: exit code 130
    });

    it('sets Threads and Hash; level 8 and analysis use every core, a limited level one; the pill says so', async () => {
      const cores = availableParallelism();
      const { hashMb } = fullStrength();
      const { ctx, page, errors } = await openPage(gui.url);
      const threads = (n: number): string => `${n} thread${n === 1 ? '' : 's'}`;
      expect(gui.output()).toContain(`> setoption name Threads value ${cores}\n`);
      expect(gui.output()).toContain(`> setoption name Hash value ${hashMb}\n`);
      await pickLevel(page, 8);
      expect(await page.textContent('#engine-status')).toMatch(
        new RegExp(`^Thoth.* · ready · Level 8, ${threads(cores)}$`),
      );
      expect(await page.getAttribute('#engine-status', 'title')).toContain(`table ${hashMb} MB`);
      await shot(page, 'status-full-strength');
      await pickLevel(page, 2);
      expect(await page.textContent('#engine-status')).toMatch(/ · Level 2, 1 thread$/);
      await click(page, 'c1');
      await click(page, 'd2');
      await waitMoves(page, 2);
      expect(gui.output()).toContain('> setoption name Threads value 1\n');
      await setMode(page, 'analysis');
      await page.waitForSelector('#lines .line');
      expect(await page.textContent('#engine-status')).toMatch(new RegExp(` · ${threads(cores)}$`));
      expect(gui.output().split('> setoption name Threads value').length).toBeGreaterThan(cores > 1 ? 3 : 2);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  });

  it.skipIf(!HAVE_CHROMIUM)('the static page shows its level and threads in the pill too', async () => {
    const url = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
    const { ctx, page, errors } = await openPage(url);
    expect(await page.textContent('#engine-status')).toMatch(/in this page · ready · Level \d, 1 thread$/);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
