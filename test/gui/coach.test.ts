/**
 * What a club coach met on the page of `thoth gui` (with the fake engine), each played again in
 * Chromium as a person meets it, on a desktop and a phone: records kept whole (an import opens on
 * the analysis board; Learn takes the side the record names Human; Download and Copy PGN save the
 * game there is; comments show under their moves), and the smaller things (the board in view after
 * New game on a phone, the hint and the form's note, a KFEN without a Pharaoh, the words on a touch
 * screen, the player bars, puzzle themes in words, a defence puzzle's threat, a refused Learn try's
 * refutation, the Setup select over a custom position, a shared game's players, a touch drag under
 * Confirm moves) and a server that serves as many tabs as it may. Each test failed before its fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAMED_THREATS, threatsOf } from '../../src/gui/page/state/puzzle';
import { parsePuzzleFile } from '../../src/puzzles/format';
import {
  HAVE_CHROMIUM,
  PHONE,
  WAIT_MS,
  click,
  closeBrowser,
  confirmIfAsked,
  loadKfen,
  moveCount,
  movesText,
  newGame,
  open,
  pauseClock,
  setMode,
  shot,
  theBrowser,
  waitMoves,
  watchErrors,
} from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

afterAll(closeBrowser);

const PUZZLES = (() => {
  const f = parsePuzzleFile(readFileSync(path.join(ROOT, 'puzzles', 'puzzles.json'), 'utf8'));
  return f.ok ? f.value : [];
})();

/** A record of a club's game: its players, time control and a coach's comments. */
const CLUB_RECORD = `[Event "Club night"]
[White "Ann"]
[Black "Bo"]
[TimeControl "300+3"]
[Variant "khet2"]

1. c1d2 {a quiet start} a5a6 2. d2d3 {opens the c-file for the Sphinx} a6a5 *
`;

/**
 * A game against Thoth in which the person played Red (the record names Black Human): Red's
 * e5f6?? opens the way to its Pharaoh (Silver's i5j6 hits it at once).
 */
const RED_BLUNDER = `[Event "Thoth GUI"]
[White "Thoth 0.1.0 (Level 1 · Elo 808)"]
[Black "Human"]
[Variant "khet2"]

1. c1d2 h8g7 2. j4i5 e5f6 *
`;

const text = async (page: Page, sel: string): Promise<string> => ((await page.textContent(sel)) ?? '').trim();

/** Pastes `record` into the Import/export card's box and imports it. */
async function importRecord(page: Page, record: string): Promise<void> {
  if (!(await page.isVisible('#rec-import'))) await page.click('#card-io summary');
  await page.fill('#record', record);
  await page.click('#rec-import');
  await confirmIfAsked(page);
  await page.waitForFunction(() => /^Game imported/.test(document.getElementById('io-msg')?.textContent ?? ''));
}

/** A phone with a touch screen (Confirm moves is on there by default), the page's clock under the test's hand. */
async function openTouch(url: string): Promise<{ page: Page; close: () => Promise<void>; errors: string[] }> {
  const ctx = await (await theBrowser()).newContext({
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
    reducedMotion: 'reduce',
  });
  ctx.setDefaultTimeout(WAIT_MS);
  const page = await ctx.newPage();
  const errors: string[] = [];
  watchErrors(page, errors);
  await page.clock.install();
  await page.goto(url);
  await page.waitForSelector('#engine-status[data-state=ready]');
  return { page, close: () => ctx.close(), errors };
}

/** Reviews the game on the board (Analysis) and waits for the accuracies. */
async function review(page: Page): Promise<void> {
  await setMode(page, 'analysis');
  await page.click('#btn-review');
  await page.waitForFunction(() => document.querySelector('#review .acc') !== null, undefined, {
    timeout: stretched(60_000),
  });
}

describe.skipIf(!HAVE_CHROMIUM)("a coach's records, on the page of thoth gui", () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('a record imported while Play Thoth is picked opens on the analysis board, its players and clocks as recorded', async () => {
    const { ctx, page, errors } = await open(gui.url);
    expect(await page.evaluate(() => document.body.dataset.mode)).toBe('engine');
    await importRecord(page, CLUB_RECORD);
    // The analysis board: no clock runs, nobody is "You", Thoth does not take a side.
    await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
    expect(await moveCount(page)).toBe(4);
    expect(await page.evaluate(() => document.querySelectorAll('.clock.running').length)).toBe(0);
    expect(await text(page, '#player-bottom .name')).toBe('Ann · Silver');
    expect(await text(page, '#player-top .name')).toBe('Bo · Red');
    await page.click('#rec-export');
    expect(await page.inputValue('#record')).toMatch(/\[White "Ann"\][^]*\[Black "Bo"\][^]*\[TimeControl "300\+3"\]/);
    await shot(page, 'coach-import-analysis');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("an imported record's comments show under their moves, on a phone too", async () => {
    for (const viewport of [undefined, PHONE]) {
      const { ctx, page, errors } = await open(gui.url, viewport ? { viewport } : {});
      await importRecord(page, CLUB_RECORD);
      const comments = page.locator('#moves .comment');
      expect(await comments.allTextContents()).toEqual(['a quiet start', 'opens the c-file for the Sphinx']);
      await comments.first().scrollIntoViewIfNeeded();
      expect(await comments.first().isVisible()).toBe(true);
      await shot(page, `coach-comments-${viewport ? 'phone' : 'desktop'}`);
      expect(errors).toEqual([]);
      await ctx.close();
    }
  });

  it('Download saves the game on the board, also after more moves', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    await click(page, 'c1');
    await click(page, 'd2');
    await waitMoves(page, 1);
    await page.click('#card-io summary');
    await page.click('#rec-export');
    for (const [from, to] of [
      ['a4', 'a3'],
      ['d2', 'd3'],
    ]) {
      await click(page, from);
      await click(page, to);
    }
    await waitMoves(page, 3);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#rec-download')]);
    const saved = readFileSync((await download.path()) as string, 'utf8');
    expect(saved.replace(/\{[^}]*\}\s*/g, '')).toMatch(/1\. c1d2 a4a3 2\. d2d3 \*/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Learn takes the side the record names Human, answers a refused try with its refutation, and Copy PGN copies the game', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    await importRecord(page, RED_BLUNDER);
    await review(page);
    await page.waitForSelector('#btn-learn:not([disabled])');
    expect(await text(page, '#btn-learn')).toBe('Learn from your mistakes (1)');
    await page.click('#btn-learn');
    await page.waitForFunction(() => document.getElementById('card-learn')?.dataset.status === 'play');
    // Red's blunder, with Red at the bottom of the board.
    expect(await page.getAttribute('#card-learn', 'data-ply')).toBe('3');
    expect(await text(page, '#ln-task')).toBe('You played 2… e5f6?? (a blunder). Find a better move.');
    expect(await page.getAttribute('#player-bottom', 'class')).toContain('c1');
    // Copy PGN copies the reviewed game, not the task on the board.
    if (!(await page.isVisible('#share-pgn'))) await page.click('#card-io summary');
    await page.click('#share-pgn');
    const pgn = await page.inputValue('#record');
    expect(pgn).toContain('[Black "Human"]');
    expect(pgn).toMatch(/1\. c1d2 h8g7 2\. j4i5 (\$\d+ )?e5f6 \$4 \*/);
    // The blunder again: refused, and Thoth's answer is shown before the move is taken back.
    await click(page, 'e5');
    await click(page, 'f6');
    await page.waitForFunction(() => /^You can do better/.test(document.getElementById('ln-msg')?.textContent ?? ''));
    expect(await text(page, '#ln-msg')).toMatch(/i5j6/);
    await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 5);
    expect((await movesText(page)).slice(3)).toEqual(['e5f6', 'i5j6']);
    // the refutation ends the game, but the lesson goes on: no result banner offering a new game
    expect(await page.isHidden('#banner')).toBe(true);
    await shot(page, 'coach-learn-refutation');
    await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 3);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a shared game that names a player Human does not call the person who opens it You', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await importRecord(page, RED_BLUNDER);
    expect(await text(page, '#player-top .name')).toBe('Human · Red');
    expect(await text(page, '#player-bottom .name')).not.toMatch(/^You/);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the smaller things a coach met, on the page of thoth gui', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('on a phone, New game brings the board into view', async () => {
    const { ctx, page, errors } = await open(gui.url, { viewport: PHONE });
    await page.locator('#btn-new').scrollIntoViewIfNeeded();
    await page.click('#btn-new');
    await confirmIfAsked(page);
    await page.waitForFunction(() => {
      const r = document.getElementById('board')!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    });
    await shot(page, 'coach-phone-new-game');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a side or a time control picked for the next game is said by the form; the hint keeps whose move it is', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await page.selectOption('#sel-side', '1');
    await page.waitForFunction(() => /You play Red/.test(document.getElementById('form-note')?.textContent ?? ''));
    expect(await text(page, '#hint')).toBe('Silver to move: pick a piece.');
    await page.selectOption('#sel-side', '0');
    await page.selectOption('#sel-tc', '600+5');
    await page.waitForFunction(() => !document.getElementById('form-note')!.hidden);
    expect(await text(page, '#form-note')).toMatch(/^Time control 10 min \+ 5 s: with New game/);
    expect(await text(page, '#player-bottom .clock')).toBe('5:00');
    await shot(page, 'coach-form-note-tc');
    await newGame(page);
    await page.waitForFunction(() => document.getElementById('form-note')!.hidden);
    expect(await text(page, '#player-bottom .clock')).toBe('10:00');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a KFEN without both Pharaohs is refused, saying why', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    await page.click('#card-io summary');
    await page.fill('#kfen', 'xv9/10/10/10/10/10/4K5/9X^ s 0 1');
    await page.click('#kfen-load');
    await page.waitForFunction(() => /^Not a KFEN/.test(document.getElementById('io-msg')?.textContent ?? ''));
    expect(await text(page, '#io-msg')).toMatch(/no Red Pharaoh: a position for play needs both/);
    expect(await page.evaluate(() => document.getElementById('io-msg')!.classList.contains('error'))).toBe(true);
    expect(await page.$$eval('#layer-pieces .piece', (ps) => ps.length)).toBeGreaterThan(4);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("a player's long name leaves the colour on the bar, on a phone", async () => {
    const { ctx, page, errors } = await open(gui.url, { viewport: PHONE });
    await importRecord(
      page,
      '[White "Alexandra Konstantinopoulou-Wetherby"]\n[Black "Thoth 0.1.0 (Level 8 · full strength · Elo 2400)"]\n\n1. c1d2 *\n',
    );
    for (const [bar, colour] of [
      ['#player-bottom', 'Silver'],
      ['#player-top', 'Red'],
    ]) {
      const c = page.locator(`${bar} .colour`);
      expect(await c.textContent()).toBe(colour);
      expect(
        await c.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right <= innerWidth),
      ).toBe(true);
    }
    await shot(page, 'coach-phone-bars');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("a player's short name is followed by its colour with no gap, on a phone and a desktop", async () => {
    for (const viewport of [PHONE, undefined]) {
      const { ctx, page, errors } = await open(gui.url, viewport ? { viewport } : {});
      await importRecord(page, '[White "Ann"]\n[Black "Bo"]\n\n1. c1d2 *\n');
      expect(await text(page, '#player-top .name')).toBe('Bo · Red');
      // the name's box is as wide as its text (a floor of 2em for a long name left "Bo  · Red")
      const gap = await page.$eval('#player-top .name .who', (who) => {
        const r = document.createRange();
        r.selectNodeContents(who);
        return who.getBoundingClientRect().width - r.getBoundingClientRect().width;
      });
      expect(gap).toBeLessThan(1);
      expect(errors).toEqual([]);
      await ctx.close();
    }
  });

  it('puzzle themes are said in words, and a defence puzzle draws the threat it parries', async () => {
    // a defence whose threat is a few moves (drawn as arrows; with many, the attacker's laser path)
    const defence = PUZZLES.find(
      (p) => p.themes.includes('defence') && p.variant === 'khet2' && threatsOf(p).length <= MAX_NAMED_THREATS,
    );
    expect(defence).toBeDefined();
    const { ctx, page, errors } = await open(`${gui.url}#puzzle=${defence!.id}`, { clock: true });
    const themes = await page.$$eval('#pz-theme option', (os) => os.map((o) => o.textContent ?? ''));
    expect(themes).toContain(`Defence (${PUZZLES.filter((p) => p.themes.includes('defence')).length})`);
    expect(themes.some((t) => /[a-z][A-Z]|In\d/.test(t))).toBe(false);
    expect(themes.some((t) => /^Hit in 3 \(\d+\)$/.test(t))).toBe(true);
    await page.clock.fastForward(700);
    await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
    await page.waitForSelector('#layer-arrows .arrow.threat');
    expect(await page.textContent('#layer-arrows .arrow-label')).toBe('threat');
    expect(await text(page, '#pz-task')).toMatch(/threatens/);
    await shot(page, 'coach-defence-threat');
    await page.click('#pz-solution');
    await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.status === 'failed');
    expect(await text(page, '#pz-task')).toMatch(/ · Defence/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("on a phone, a puzzle's task comes right under the board, before the moves and the game's form", async () => {
    const { ctx, page, errors } = await open(`${gui.url}#puzzle=${PUZZLES[0].id}`, { viewport: PHONE, clock: true });
    await page.clock.fastForward(700);
    await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
    const top = (sel: string): Promise<number> => page.$eval(sel, (e) => e.getBoundingClientRect().top);
    // the task was below the Moves and Game cards, a screen and more under the board
    expect(await top('#pz-task')).toBeLessThan(await top('#card-moves'));
    expect(await top('#pz-task')).toBeLessThan(await top('#card-game'));
    expect(await top('#pz-task')).toBeGreaterThan(await top('#board'));
    await page.locator('#pz-task').scrollIntoViewIfNeeded();
    await shot(page, 'coach-phone-puzzle-task');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the Setup select says when the board shows a position of its own', async () => {
    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'analysis');
    await loadKfen(page, 'xv9/4k5/10/10/1P^1P^1P^4/10/4K5/9X^ s 0 1');
    expect(await page.$eval('#sel-setup', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(
      'Custom position',
    );
    await page.selectOption('#sel-setup', 'imhotep');
    expect(await text(page, '#form-note')).toMatch(/^Setup Imhotep: with New game/);
    await newGame(page);
    await page.waitForFunction(() => document.getElementById('form-note')!.hidden);
    expect(await page.$$eval('#sel-setup option', (os) => os.map((o) => o.textContent))).not.toContain(
      'Custom position',
    );
    expect(await page.inputValue('#sel-setup')).toBe('imhotep');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('on a touch screen the shot on show says tap, and a drag waits for the confirming tap', async () => {
    const { page, close, errors } = await openTouch(gui.url);
    expect(await page.isChecked('#opt-confirm')).toBe(true);
    // Thoth's reply is held while the person's shot is on show (the page's time stands still, so
    // it stays held): the hint says to tap, not to click or press a key.
    await pauseClock(page);
    await page.tap('.hit[data-square=c1]');
    await page.tap('.hit[data-square=d2]');
    await page.tap('.hit[data-square=d2]');
    await page.waitForFunction(() => document.getElementById('board')?.dataset.holding === 'reply');
    expect(await text(page, '#hint')).toBe('Your shot… (tap to see Thoth’s reply)');
    await shot(page, 'coach-touch-hold');
    await page.tap('#board');
    await waitMoves(page, 2);
    await page.clock.resume();
    // A drag with a finger (j4 to i4): the shot is shown, and the move waits for a tap on its square.
    await setMode(page, 'humans');
    const box = async (sq: string): Promise<{ x: number; y: number }> => {
      const b = (await page.locator(`.hit[data-square=${sq}]`).boundingBox())!;
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const [a, b] = [await box('j4'), await box('i4')];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
    for (let i = 1; i <= 6; i++)
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: a.x + ((b.x - a.x) * i) / 6, y: a.y + ((b.y - a.y) * i) / 6 }],
      });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction(() => /Tap again to play j4i4/.test(document.getElementById('hint')?.textContent ?? ''));
    expect(await moveCount(page)).toBe(2);
    expect(await page.getAttribute('#layer-aim', 'data-path')).toBeTruthy();
    await page.tap('.hit[data-square=i4]');
    await waitMoves(page, 3);
    expect(errors).toEqual([]);
    await close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('a server that serves as many tabs as it may', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE, '--tabs', '1']);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('the tab it cannot serve says so, offers no Stop, and gets an engine once the other tab closes', async () => {
    const first = await open(gui.url);
    const second = await open(gui.url, { ready: false });
    const page = second.page;
    await page.waitForSelector('#engine-action:not([hidden])');
    expect(await text(page, '#engine-status')).toBe("Another tab has this server's engine: trying again…");
    expect(await page.getAttribute('#engine-status', 'title')).toBe(
      'This server plays at most 1 game at once, an engine for each tab, and another tab has it. This tab asks again every few seconds; two players still work here meanwhile.',
    );
    expect(await text(page, '#engine-action')).toBe('Try again');
    await setMode(page, 'analysis');
    expect(await page.isVisible('#btn-analyse')).toBe(false);
    await shot(page, 'coach-server-full');
    // Once the other tab is closed, this one gets the engine (it asks again by itself, or at Try again).
    await first.ctx.close();
    // (in Analysis a ready engine starts analysing at once)
    await page.waitForSelector('#engine-status:is([data-state=ready], [data-state=thinking])');
    expect(await page.isHidden('#engine-action')).toBe(true);
    await page.waitForSelector('#btn-analyse:visible');
    expect([...first.errors, ...second.errors]).toEqual([]);
    await second.ctx.close();
  });
});
