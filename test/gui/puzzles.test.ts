/**
 * Puzzle mode in Chromium, as a person plays it: on the page of `thoth gui` (with the fake
 * engine: puzzles need none) twelve puzzles solved and failed, with hint, retry, the solution,
 * the themes filter, the rating kept over a reload, and a streak; and five puzzles solved on the
 * static build (file://).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  legalMoves,
  moveFrom,
  moveTo,
  moveType,
  parseMove,
  ROT_CCW,
  ROT_CW,
  squareName,
  STEP,
} from '../../src/core/index';
import { parsePuzzleFile, type Puzzle } from '../../src/puzzles/format';
import { judgePuzzleMove, puzzlePosition, startRun } from '../../src/gui/page/state/puzzle';
import { HAVE_CHROMIUM, click, closeBrowser, movesText, open, pauseClock, shot } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const file = parsePuzzleFile(readFileSync(path.join(ROOT, 'puzzles', 'puzzles.json'), 'utf8'));
const PUZZLES = new Map((file.ok ? file.value : []).map((p) => [p.id, p]));

afterAll(closeBrowser);

const card = (page: Page, key: string): Promise<string | null> => page.getAttribute('#card-puzzles', `data-${key}`);

/**
 * Pages opened with the page's clock (`open(…, { clock: true })`) to skip the page's own delays:
 * the opponent's first move 500 ms after a puzzle starts, each reply 700 ms after a move. A test
 * that waits for one of them moves the page's time on by 700 ms first: what is due by then is
 * played at once, in the page's order (the timing itself is checked by 'a refutation still due…').
 */
const hurried = new WeakSet<Page>();
async function hurry(page: Page): Promise<void> {
  if (hurried.has(page)) await page.clock.fastForward(700);
}
async function openHurried(url: string, ready = true): Promise<Awaited<ReturnType<typeof open>>> {
  const o = await open(url, { clock: true, ready });
  hurried.add(o.page);
  return o;
}

/** Waits until the puzzle on the board has had `done` moves made. */
async function waitDone(page: Page, done: number): Promise<void> {
  await hurry(page);
  await page.waitForFunction((k) => document.getElementById('card-puzzles')?.dataset.done === String(k), done);
}

/** The puzzle on show, once its opponent's move has been played. */
async function current(page: Page): Promise<Puzzle> {
  await hurry(page);
  await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
  const id = await card(page, 'puzzle');
  const p = PUZZLES.get(id ?? '');
  if (!p) throw new Error(`no puzzle ${id}`);
  return p;
}

/** Makes a move on the board with the mouse: a piece and its square, or a piece and a rotate button. */
async function play(page: Page, move: number, selected = false): Promise<void> {
  const from = squareName(moveFrom(move));
  if (!selected) await click(page, from);
  const t = moveType(move);
  if (t === ROT_CW) await page.click('#btn-rot-cw');
  else if (t === ROT_CCW) await page.click('#btn-rot-ccw');
  else await click(page, squareName(moveTo(move)));
}

const solutionMove = (p: Puzzle, k: number): number => {
  const m = parseMove(puzzlePosition(p, k), p.moves[k]);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

/**
 * Solves the puzzle on show: each solution move, waiting for the defender's replies. In a streak
 * (`streak`: the count it reaches) the solved state lasts only until the next puzzle comes, 1.2 s
 * later, which a busy machine's test can miss: there the count tells that it was solved.
 */
async function solve(page: Page, p: Puzzle, hinted = false, streak?: number): Promise<void> {
  for (let k = 1; k < p.moves.length; k += 2) {
    await waitDone(page, k);
    await play(page, solutionMove(p, k), hinted && k === 1);
  }
  await hurry(page);
  if (streak !== undefined)
    await page.waitForFunction((n) => document.getElementById('card-puzzles')?.dataset.streak === n, String(streak));
  else await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.status === 'solved');
}

/** A wrong first move: a plain step that neither is the solution nor ends the game. */
function wrongMove(p: Puzzle): number {
  const pos = puzzlePosition(p, 1);
  const run = { ...startRun(p), done: 1 };
  const m = legalMoves(pos).find((x) => {
    if (moveType(x) !== STEP || judgePuzzleMove(run, x) !== 'wrong') return false;
    const q = puzzlePosition(p, 1);
    q.make(x);
    return q.winner < 0;
  });
  if (m === undefined) throw new Error(`no wrong move in ${p.id}`);
  return m;
}

/** Only puzzles a click can play (no obelisk unstacked, whose clicks need the stack toggle). */
async function startPlayable(page: Page, button: string): Promise<Puzzle> {
  for (;;) {
    await page.click(button);
    const p = await current(page);
    if (!p.moves.some((m) => m.endsWith('u'))) return p;
  }
}

describe.skipIf(!HAVE_CHROMIUM || !file.ok)('puzzle mode in Chromium', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it(
    'twelve puzzles solved and failed, with hint, retry, the solution, themes and the rating',
    async () => {
      const { ctx, page, errors } = await openHurried(gui.url);
      expect(await card(page, 'rating')).toBe('1500');
      let rating = 1500;
      let solved = 0;
      let failed = 0;
      for (let i = 0; i < 12; i++) {
        const p = await startPlayable(page, i === 0 ? '#pz-start' : '#pz-next');
        expect(await page.textContent('#pz-task')).toContain(p.id);
        if (i % 4 === 3) {
          // a wrong move: the refutation is played, the puzzle failed, the rating falls
          await play(page, wrongMove(p));
          await hurry(page);
          await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.status === 'failed');
          expect(await page.textContent('#pz-msg')).toMatch(/^Wrong: /);
          if (i === 3) {
            await shot(page, 'puzzle-wrong');
          }
          const r = Number(await card(page, 'rating'));
          expect(r).toBeLessThan(rating);
          rating = r;
          failed++;
          if (i === 3) {
            // retry: the puzzle again from its start, solved now, the rating unchanged
            await page.click('#pz-retry');
            await solve(page, await current(page));
            expect(Number(await card(page, 'rating'))).toBe(rating);
          } else if (i === 7) {
            // the solution, played out to the decisive move
            await page.click('#pz-solution');
            await hurry(page);
            await page.waitForFunction(() =>
              /^The solution: /.test(document.getElementById('pz-msg')?.textContent ?? ''),
            );
            await shot(page, 'puzzle-solution');
          }
        } else {
          if (i === 1) {
            // a hint selects the piece to move (its squares show) and costs the rating
            await page.click('#pz-hint');
            expect(
              (await page.locator('[data-target]').count()) +
                (await page.locator('#btn-rot-cw:not([disabled])').count()),
            ).toBeGreaterThan(0);
            expect(await page.textContent('#pz-msg')).toContain(`move the piece on ${p.moves[1].slice(0, 2)}`);
          }
          await solve(page, p, i === 1);
          const r = Number(await card(page, 'rating'));
          if (i === 1) expect(r).toBeLessThan(rating);
          else expect(r).toBeGreaterThan(rating);
          rating = r;
          solved++;
          if (i === 0) {
            await shot(page, 'puzzle-solved');
          }
        }
      }
      expect([solved, failed]).toEqual([9, 3]);
      // the themes filter: only hits in 2 are offered
      await page.selectOption('#pz-theme', 'hitIn2');
      for (let i = 0; i < 3; i++) {
        await page.click('#pz-next');
        expect((await current(page)).themes).toContain('hitIn2');
      }
      // the rating is kept over a reload
      await page.reload();
      await page.waitForSelector('#card-puzzles');
      expect(Number(await card(page, 'rating'))).toBe(rating);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(240_000),
  );

  it('a refutation still due when Next is pressed is not played on the next puzzle', async () => {
    const { ctx, page, errors } = await open(gui.url, { clock: true });
    await page.click('#pz-start');
    await pauseClock(page);
    for (;;) {
      await page.clock.runFor(600); // the opponent's first move (500 ms)
      const p = await current(page);
      if (p.moves.some((m) => m.endsWith('u'))) {
        await page.click('#pz-next');
        continue;
      }
      await play(page, wrongMove(p));
      await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.status === 'failed');
      if (/answers it/.test((await page.textContent('#pz-msg')) ?? '')) break;
      await page.click('#pz-next'); // no refutation to be due: another puzzle
    }
    // The refutation is due 700 ms after the wrong move: Next after 400, then 350 more.
    await page.clock.runFor(400);
    await page.click('#pz-next');
    await page.clock.runFor(350);
    expect(await card(page, 'done')).toBe('0'); // the new puzzle's first move is still to come
    expect(await movesText(page)).toEqual([]);
    await page.clock.runFor(300);
    const next = await current(page);
    expect(await movesText(page)).toEqual([next.moves[0]]);
    await page.clock.resume();
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it(
    'a streak: rising puzzles until the first mistake',
    async () => {
      const { ctx, page, errors } = await openHurried(gui.url);
      await page.click('#pz-streak');
      let p = await current(page);
      for (let k = 1; k <= 3; k++) {
        if (p.moves.some((m) => m.endsWith('u'))) break;
        await solve(page, p, false, k);
        // the next puzzle comes by itself
        await hurry(page);
        await page.waitForFunction((id) => document.getElementById('card-puzzles')?.dataset.puzzle !== id, p.id);
        const q = await current(page);
        expect(q.rating).toBeGreaterThanOrEqual(p.rating - 40);
        p = q;
      }
      await shot(page, 'puzzle-streak');
      await play(page, wrongMove(p));
      await hurry(page);
      await page.waitForFunction(() =>
        /The streak ends at 3/.test(document.getElementById('pz-msg')?.textContent ?? ''),
      );
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(120_000),
  );
});

describe.skipIf(!HAVE_CHROMIUM || !file.ok)('puzzle mode in the static build', () => {
  it(
    'five puzzles solved in a row on the static build (file://), the rating rising',
    async () => {
      const url = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
      const { ctx, page, errors } = await openHurried(url, false);
      let rating = Number(await card(page, 'rating'));
      for (let i = 0; i < 5; i++) {
        const p = await startPlayable(page, i === 0 ? '#pz-start' : '#pz-next');
        await solve(page, p);
        expect(await page.textContent('#pz-msg')).toMatch(/^Solved/);
        const r = Number(await card(page, 'rating'));
        expect(r, p.id).toBeGreaterThan(rating);
        rating = r;
        if (i === 0) await shot(page, 'puzzle-web');
      }
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(180_000),
  );
});
