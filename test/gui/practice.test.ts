/**
 * Practice and watch, played as a person would: *Practice from here* on an analysed position (a
 * blunder judged ?? with the review's best move at once, Thoth's reply, the summary, the marks kept
 * in the record and brought back into the analysis board's tree), and *Watch Thoth play itself*
 * (speed, pause, resume, stop; the moves a line of the tree to step through), and *Analyse only*
 * the moves picked (`go searchmoves`: typed, or from the lines; cleared). On the page of thoth gui
 * with the fake engine and on the static page with Thoth inside, desktop and phone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  HAVE_CHROMIUM,
  checkLegal,
  click,
  closeBrowser,
  movesText,
  open,
  playText,
  setMode,
  shot,
  waitMoves,
} from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const WEB_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;

afterAll(closeBrowser);

interface PageNode {
  ply: { text: string };
  nags?: number[];
  comment?: string;
  children: PageNode[];
}
/** The page's tree (its state, as the tests read it). */
const treeOf = (page: Page): Promise<{ children: PageNode[] }> =>
  page.evaluate(
    () => (window as unknown as { thoth: { state(): { tree: { children: PageNode[] } } } }).thoth.state().tree,
  );
const pathOf = (page: Page): Promise<number[]> =>
  page.evaluate(() => (window as unknown as { thoth: { state(): { path: number[] } } }).thoth.state().path);

/**
 * Two players play c1d2 a5b4 f4e3; in Analysis the board steps back to the position before f4e3,
 * and *Practice from here* (Silver, full strength, no clock) plays f4e3 again: a blunder (Red's
 * b4a3 hits the Pharaoh), said at once with the review's best move; Thoth hits; the summary counts
 * it; *Back to the analysis* brings the analysis board back with the marks on its line.
 */
async function practiceTheBlunder(page: Page, name: string): Promise<void> {
  await setMode(page, 'humans');
  for (const m of ['c1d2', 'a5b4', 'f4e3']) await playText(page, m);
  await setMode(page, 'analysis');
  await page.click('#moves .mv[data-ply="2"]');
  await page.waitForFunction(() => document.querySelector('#moves .mv.current')?.getAttribute('data-ply') === '2');
  expect(await page.isVisible('#btn-practice')).toBe(true);
  expect(await page.inputValue('#pr-side')).toBe('0');
  await page.selectOption('#pr-level', { index: (await page.$$('#pr-level option')).length - 1 });
  expect(await page.inputValue('#pr-tc')).toBe('');
  await shot(page, `practice-${name}-offer`);
  await page.click('#btn-practice');
  await page.waitForFunction(
    () => document.body.dataset.mode === 'engine' && document.body.dataset.practice === 'play',
  );
  expect(await page.isVisible('#card-practice')).toBe(true);
  expect(await movesText(page)).toEqual(['c1d2', 'a5b4']);
  expect(await page.textContent('#pr-verdict')).toBe('Your move: each one is judged as the review judges it.');
  // the blunder: judged before Thoth answers, said at once with the review's best move
  await click(page, 'f4');
  await click(page, 'e3');
  await page.waitForFunction(() => document.getElementById('card-practice')?.dataset.judged === '1');
  const verdict = (await page.textContent('#pr-verdict')) ?? '';
  expect(verdict).toMatch(/^Blunder: f4e3\?\?\. Best was [a-j]\d\S*\.$/);
  expect(verdict).not.toMatch(/Best was f4e3/);
  expect(await page.evaluate(() => document.getElementById('pr-verdict')!.classList.contains('error'))).toBe(true);
  expect(await page.textContent('#moves .mv[data-ply="3"] .nag')).toBe('??');
  await page.locator('#card-practice').scrollIntoViewIfNeeded();
  await shot(page, `practice-${name}-judged`);
  // Thoth answers (b4a3 hits Silver's Pharaoh): the game is over, the summary counts the blunder
  await waitMoves(page, 4);
  await page.waitForFunction(() => document.body.dataset.practice === 'done');
  expect((await movesText(page))[3]).toBe('b4a3');
  expect(await page.textContent('#pr-summary')).toMatch(
    /^Your accuracy \d+% over 1 move: 0 inaccuracies, 0 mistakes, 1 blunder\.$/,
  );
  const best = verdict.replace(/^.*Best was (\S+)\.$/, '$1');
  // the record keeps the mark and the best move, as a review's
  await page.click('#card-io summary');
  await page.click('#rec-export');
  const pgn = await page.inputValue('#record');
  expect(pgn).toMatch(new RegExp(`f4e3 \\$4 \\{Best was ${best}\\.\\}`));
  await shot(page, `practice-${name}-done`);
  // back to the analysis board: the line with its marks in its tree, the board at its end
  await page.click('#pr-back');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis' && !document.body.dataset.practice);
  expect(await page.isHidden('#card-practice')).toBe(true);
  expect(await movesText(page)).toEqual(['c1d2', 'a5b4', 'f4e3', 'b4a3']);
  const f4e3 = (await treeOf(page)).children[0].children[0].children[0];
  expect(f4e3.nags).toEqual([4]);
  expect(f4e3.comment).toBe(`Best was ${best}.`);
  expect(await pathOf(page)).toEqual([0, 0, 0, 0]);
  await shot(page, `practice-${name}-back`);
}

/**
 * *Watch Thoth play itself* from the start at 0.2 s a move: moves come into the tree, Pause holds
 * them, Resume goes on, Stop ends it with the board where it was; the line is stepped through.
 */
async function watchThoth(page: Page, name: string): Promise<void> {
  await setMode(page, 'analysis');
  expect(await movesText(page)).toEqual([]);
  await page.selectOption('#wt-speed', '200');
  await page.click('#btn-watch');
  await page.waitForFunction(() => Number(document.getElementById('watch-row')?.dataset.played) >= 3);
  expect(await page.getAttribute('#watch-row', 'data-watch')).toBe('running');
  await page.locator('#watch-row').scrollIntoViewIfNeeded();
  await shot(page, `watch-${name}-running`);
  await page.click('#wt-pause');
  await page.waitForFunction(() => document.getElementById('watch-row')?.dataset.watch === 'paused');
  const paused = Number(await page.getAttribute('#watch-row', 'data-played'));
  await page.waitForTimeout(1500);
  expect(Number(await page.getAttribute('#watch-row', 'data-played'))).toBe(paused);
  expect(await page.textContent('#btn-watch')).toBe('Resume');
  await shot(page, `watch-${name}-paused`);
  await page.click('#btn-watch');
  await page.waitForFunction((n) => Number(document.getElementById('watch-row')?.dataset.played) >= n + 2, paused);
  await page.click('#wt-stop');
  await page.waitForFunction(() => document.getElementById('watch-row')?.dataset.watch === '');
  const moves = await movesText(page);
  const at = await pathOf(page);
  // stopped: the board stays where it was, and nothing more is added
  expect(at.length).toBe(moves.length);
  await page.waitForTimeout(1000);
  expect(await movesText(page)).toEqual(moves);
  expect(await pathOf(page)).toEqual(at);
  expect(moves.length).toBeGreaterThanOrEqual(paused + 2);
  checkLegal('khet2', moves);
  // the line is the tree's: step back through it
  await page.click('#moves .mv[data-ply="1"]');
  expect(await pathOf(page)).toEqual([0]);
  await page.keyboard.press('ArrowRight');
  expect(await pathOf(page)).toEqual([0, 0]);
  await shot(page, `watch-${name}-stopped`);
}

/** The first moves of the analysis lines shown. */
const lineMoves = (page: Page): Promise<string[]> =>
  page.$$eval('#lines .line .only', (bs) => bs.map((b) => (b as HTMLElement).dataset.move ?? ''));

/**
 * Analysis of the start: *Analyse only* c1d2 and j1- typed (the lines are theirs alone, the note
 * says so), an illegal move refused with the restriction kept, *All moves* back to the whole
 * position, a line's ◎ picked, and the restriction left behind on another position and found again.
 */
async function analyseOnly(page: Page, name: string): Promise<void> {
  await setMode(page, 'analysis');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
  expect(await page.isHidden('#only-note')).toBe(true);
  await page.fill('#only-input', 'c1d2, j1L');
  await page.press('#only-input', 'Enter');
  await page.waitForSelector('#only-note:not([hidden])');
  expect(await page.textContent('#only-note')).toMatch(
    /^Analysing only c1d2, j1- \(2 moves of \d+\): the lines and their scores are these moves' alone\.$/,
  );
  // the lines are those moves' alone: two lines though three are asked for
  await page.waitForFunction(() => {
    const ms = Array.from(document.querySelectorAll<HTMLElement>('#lines .line .only')).map((b) => b.dataset.move);
    return ms.length === 2 && ms.every((m) => m === 'c1d2' || m === 'j1-');
  });
  expect((await lineMoves(page)).sort()).toEqual(['c1d2', 'j1-']);
  expect(await page.getAttribute('#lines', 'data-only')).toBe('c1d2 j1-');
  await page.locator('#lines').scrollIntoViewIfNeeded();
  await shot(page, `only-${name}-typed`);
  // a move that is not legal here: said, and the restriction kept
  await page.fill('#only-input', 'c1c5');
  await page.press('#only-input', 'Enter');
  await page.waitForFunction(() =>
    /^Cannot analyse only c1c5: /.test(document.getElementById('hint')?.textContent ?? ''),
  );
  expect(await page.getAttribute('#lines', 'data-only')).toBe('c1d2 j1-');
  // All moves: the whole position again
  await page.click('#only-clear');
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
  expect(await page.isHidden('#only-note')).toBe(true);
  expect(await page.isHidden('#only-clear')).toBe(true);
  // from the lines: the second line's ◎ (the lines stopped, so that it is the line read; picking analyses again)
  await page.click('#btn-analyse');
  await page.waitForFunction(() => document.getElementById('lines')?.dataset.state === 'stopped');
  const second = (await lineMoves(page))[1];
  await page.click('#lines .line[data-line="1"] .only');
  await page.waitForFunction(
    (m) =>
      document.getElementById('lines')?.dataset.only === m && document.querySelectorAll('#lines .line').length === 1,
    second,
  );
  expect(await lineMoves(page)).toEqual([second]);
  expect(await page.textContent('#only-note')).toContain(`Analysing only ${second} (1 move of`);
  expect(await page.getAttribute('#lines .line[data-line="0"] .only', 'aria-pressed')).toBe('true');
  await page.locator('#lines').scrollIntoViewIfNeeded();
  await shot(page, `only-${name}-picked`);
  // another position is analysed whole; back again, the restriction is there
  await playText(page, second);
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
  expect(await page.isHidden('#only-note')).toBe(true);
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#only-note:not([hidden])');
  expect(await page.getAttribute('#lines', 'data-only')).toBe(second);
}

describe.skipIf(!HAVE_CHROMIUM)('the page of thoth gui (the fake engine)', () => {
  let gui: RunningGui;
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'thoth-practice-')), 'engine.log');
  beforeAll(async () => {
    gui = await startGui(['--engine', `${FAKE_ENGINE} --log ${log}`]);
  });
  afterAll(async () => {
    await gui?.stop();
    rmSync(path.dirname(log), { recursive: true, force: true });
  });

  it(
    'practice from here: a blunder judged at once, the summary, the marks kept',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await practiceTheBlunder(page, 'gui');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );

  it(
    'watch Thoth play itself: pause, resume, stop, the line stepped through',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await watchThoth(page, 'gui');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );

  it(
    'analyse only the moves picked, on a phone: typed, from the lines, cleared, per position',
    async () => {
      const { ctx, page, errors } = await open(gui.url, { viewport: PHONE });
      await analyseOnly(page, 'gui-phone');
      expect(await readFile(log, 'utf8')).toMatch(/\ngo infinite searchmoves c1d2 j1-\n/);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );
});

describe.skipIf(!HAVE_CHROMIUM)('the static page', () => {
  it(
    'practice from here on a phone: a blunder judged at once, the summary, the marks kept',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL, { viewport: PHONE });
      await practiceTheBlunder(page, 'web-phone');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );

  it(
    'analyse only the moves picked: typed, from the lines, cleared, per position',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL);
      await analyseOnly(page, 'web');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );

  it(
    'watch Thoth play itself on a phone: pause, resume, stop, the line stepped through',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL, { viewport: PHONE });
      await watchThoth(page, 'web-phone');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );
});
