/**
 * What a player who also plays on lichess meets, on both pages (the page of `thoth gui` with the
 * fake engine, and the static page from file:// with Thoth inside): a puzzle never throws away the
 * game in progress and Exit brings it back; the game form applies nothing before New game; puzzle
 * mode's details (Streak again at once, a wrong move not in green, themes after solving, the
 * edition named and filtered, no Take back/Draw/Resign).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, moveFrom, moveTo, moveType, squareName, STEP } from '../../src/core/index';
import { parsePuzzleFile, type Puzzle } from '../../src/puzzles/format';
import { judgePuzzleMove, puzzlePosition, startRun, themeName } from '../../src/gui/page/state/puzzle';
import {
  HAVE_CHROMIUM,
  WAIT_MS,
  click,
  closeBrowser,
  moveFirstPiece,
  movesText,
  newGame,
  open,
  setMode,
  shot,
  waitMoves,
  waitReply,
} from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const file = parsePuzzleFile(readFileSync(path.join(ROOT, 'puzzles', 'puzzles.json'), 'utf8'));
const PUZZLES = new Map((file.ok ? file.value : []).map((p) => [p.id, p]));
const WEB_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;

afterAll(closeBrowser);

const card = (page: Page, key: string): Promise<string | null> => page.getAttribute('#card-puzzles', `data-${key}`);

/**
 * The puzzle tests open their page with Playwright's clock: the opponent's first move, due 500 ms
 * after a puzzle starts, is played at once when the test moves the page's time on (test/gui/
 * puzzles.test.ts checks the delays themselves).
 */
const hurry = (page: Page): Promise<void> => page.clock.fastForward(700);

/** The puzzle on show once its opponent's move is played (a puzzle with an unstacking move is skipped). */
async function current(page: Page, button: string): Promise<Puzzle> {
  for (;;) {
    await page.click(button);
    await hurry(page);
    await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
    const p = PUZZLES.get((await card(page, 'puzzle')) ?? '');
    if (!p) throw new Error('no puzzle on show');
    if (!p.moves.some((m) => m.endsWith('u'))) return p;
    button = '#pz-next';
  }
}

/** A wrong first move, a plain step that does not end the game, made with the mouse. */
async function playWrong(page: Page, p: Puzzle): Promise<void> {
  const pos = puzzlePosition(p, 1);
  const run = { ...startRun(p), done: 1 };
  const m = legalMoves(pos).find((x) => {
    if (moveType(x) !== STEP || judgePuzzleMove(run, x) !== 'wrong') return false;
    const q = puzzlePosition(p, 1);
    q.make(x);
    return q.winner < 0;
  });
  if (m === undefined) throw new Error(`no wrong move in ${p.id}`);
  await click(page, squareName(moveFrom(m)));
  await click(page, squareName(moveTo(m)));
  await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.status === 'failed');
}

/** Plays `n` moves for whoever is to move (two players): the first piece with a target, to its first target. */
async function playBoth(page: Page, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const before = (await movesText(page)).length;
    const side = before % 2 === 0 ? 'p0' : 'p1';
    await moveFirstPiece(page, side);
    await waitMoves(page, before + 1);
  }
}

const storedMoves = (page: Page): Promise<number> =>
  // No named function inside: the test's loader (tsx) would wrap it in a helper the page lacks.
  page.evaluate(() => {
    const g = JSON.parse(localStorage.getItem('thoth.game') ?? '{}') as { moves?: Array<{ c?: unknown[] }> };
    let n = 0;
    for (let ns = g.moves ?? []; ns.length > 0; ns = (ns[0].c ?? []) as Array<{ c?: unknown[] }>) n++;
    return n;
  });

const shown = (page: Page, sel: string): Promise<boolean> => page.isVisible(sel);

async function puzzleKeepsTheGame(page: Page, name: string): Promise<void> {
  await setMode(page, 'humans');
  await playBoth(page, 4);
  const game = await movesText(page);
  expect(game).toHaveLength(4);
  expect(await shown(page, '#btn-takeback')).toBe(true);
  const p = await current(page, '#pz-start');
  // the puzzle is on the board, the game kept apart (and in storage)
  expect(await movesText(page)).toEqual([p.moves[0]]);
  // storage is written a moment after a change (later on a busy machine)
  await expect.poll(() => storedMoves(page), { timeout: WAIT_MS, interval: 100 }).toBe(4);
  // no Take back, Draw or Resign in a puzzle; the task names its edition, the themes come after
  for (const b of ['#btn-takeback', '#btn-draw', '#btn-resign', '#form-note']) expect(await shown(page, b)).toBe(false);
  const task = (await page.textContent('#pz-task')) ?? '';
  expect(
    task.startsWith(`${p.variant === 'khet2' ? 'Khet 2.0' : p.variant === 'khet1' ? 'Khet 1.0' : 'Deflexion'} · `),
  ).toBe(true);
  expect(task).not.toContain(p.themes.map(themeName).join(', '));
  // a wrong move: said in the error colour, not the success green; the themes now shown
  await playWrong(page, p);
  const colours = await page.evaluate(() => {
    const msg = document.getElementById('pz-msg') as HTMLElement;
    const probe = document.createElement('p');
    probe.className = 'msg';
    msg.parentElement!.append(probe);
    const green = getComputedStyle(probe).color;
    probe.remove();
    return { wrong: getComputedStyle(msg).color, green };
  });
  expect(colours.wrong).not.toBe(colours.green);
  expect(await page.textContent('#pz-task')).toContain(p.themes.map(themeName).join(', '));
  await shot(page, `players-${name}-puzzle-wrong`);
  // Exit: the game is back, with its moves and its mode
  await page.click('#pz-exit');
  await page.waitForFunction((n) => Number(document.getElementById('moves')?.dataset.count) === n, 4);
  expect(await movesText(page)).toEqual(game);
  expect(await page.evaluate(() => document.body.dataset.mode)).toBe('humans');
  expect(await shown(page, '#btn-takeback')).toBe(true);
  await shot(page, `players-${name}-game-back`);
}

async function streakAgain(page: Page): Promise<void> {
  const p = await current(page, '#pz-streak');
  await playWrong(page, p);
  expect(await page.textContent('#pz-msg')).toMatch(/The streak ends at 0/);
  // Streak right after it ended starts a new one (not a rated puzzle)
  await page.click('#pz-streak');
  await hurry(page);
  await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
  expect(await card(page, 'streak')).toBe('0');
  // the edition filter: only Khet 1.0 puzzles offered
  await page.click('#pz-exit');
  await page.selectOption('#pz-edition', 'khet1');
  for (let i = 0; i < 3; i++) expect((await current(page, '#pz-start')).variant).toBe('khet1');
}

/** Edition and colour picked on a fresh page: nothing moves, the form says they come with New game. */
async function formWaitsForNewGame(page: Page, name: string): Promise<void> {
  await page.selectOption('#sel-edition', 'deflexion');
  await page.selectOption('#sel-side', '1');
  // Had the form started a game with Thoth as Silver, Thoth would be thinking or have moved by now
  // (a search starts with the change; the page draws at most 80 ms later).
  await page.waitForFunction(() => /with New game/.test(document.getElementById('form-note')?.textContent ?? ''));
  await page.waitForTimeout(200);
  expect(await page.getAttribute('#engine-status', 'data-state')).toBe('ready');
  expect(await movesText(page)).toEqual([]);
  expect(await page.evaluate(() => document.body.className)).toBe('ed-khet2');
  expect(await page.textContent('#form-note')).toMatch(/^Edition Deflexion, You play Silver: with New game/);
  await shot(page, `players-${name}-form-pending`);
  await page.click('#btn-new');
  await page.waitForFunction(() => document.body.className === 'ed-deflexion');
  expect(await page.isHidden('#form-note')).toBe(true);
  // Play Thoth over a position where Red is to move: the person takes Red, Thoth does not move at once
  await setMode(page, 'humans');
  await page.selectOption('#sel-edition', 'khet2');
  await newGame(page);
  await page.waitForFunction(() => document.body.className === 'ed-khet2');
  await playBoth(page, 1);
  await setMode(page, 'engine');
  // Had Thoth taken Red's move, it would be thinking or have moved by now (as above).
  await page.waitForTimeout(200);
  expect(await page.getAttribute('#engine-status', 'data-state')).toBe('ready');
  expect(await movesText(page)).toHaveLength(1);
  expect(await page.getAttribute('#player-bottom', 'class')).toContain('c1');
}

/** A damaged link: the hint under the board says so (the Import/export card is below the fold). */
async function damagedLinkInSight(url: string, name: string): Promise<void> {
  const { ctx, page, errors } = await open(`${url}#game=1.AAAA`, { ready: false });
  await page.waitForFunction(() => /Cannot open the link/.test(document.getElementById('io-msg')?.textContent ?? ''));
  await page.waitForFunction(() =>
    /^Cannot open the link: .*damaged/.test(document.getElementById('hint')?.textContent ?? ''),
  );
  expect(await page.isVisible('#hint')).toBe(true);
  const box = await page.locator('#hint').boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(900);
  expect(await page.evaluate(() => document.getElementById('hint')!.classList.contains('error'))).toBe(true);
  // the note next to Copy link: only the page of thoth gui has one
  expect(await page.locator('#share-note').count()).toBe(name === 'gui' ? 1 : 0);
  if (name === 'gui') expect(await page.textContent('#share-note')).toMatch(/open in this browser on this computer/);
  await shot(page, `players-${name}-damaged-link`);
  expect(errors).toEqual([]);
  await ctx.close();
}

/** A bad move reviewed (Silver's j4i4 shoots its own Pyramid): the hint says what was better and the board draws it. */
async function reviewSaysBest(page: Page, name: string): Promise<void> {
  await setMode(page, 'humans');
  for (const [from, to] of [
    ['c1', 'd2'],
    ['a4', 'a3'],
    ['j4', 'i4'],
  ]) {
    const before = (await movesText(page)).length;
    await click(page, from);
    await click(page, to);
    await waitMoves(page, before + 1);
  }
  await setMode(page, 'analysis');
  await page.click('#btn-review');
  await page.waitForFunction(() => document.querySelector('#review .acc') !== null, undefined, {
    timeout: stretched(60_000),
  });
  await page.click('#moves .mv[data-ply="3"]');
  await page.waitForFunction(() =>
    /^(Blunder|Mistake|Inaccuracy): j4i4(\?\?|\?|\?!)\. Best was \S+\.$/.test(
      document.getElementById('hint')?.textContent ?? '',
    ),
  );
  expect(await page.locator('#layer-arrows .arrow.best').count()).toBe(1);
  expect(await page.textContent('#layer-arrows .arrow-label')).toBe('best');
  await shot(page, `players-${name}-review-best`);
}

/** `T` asks before it takes back (the button does not). */
async function takeBackKeyAsks(page: Page): Promise<void> {
  await setMode(page, 'humans');
  await playBoth(page, 2);
  // the move list is one tab stop (the current move), not one per move
  expect(await page.$$eval('#moves .mv[data-ply]', (bs) => bs.map((b) => b.getAttribute('tabindex')))).toEqual([
    '-1',
    '0',
  ]);
  await page.locator('#board').focus();
  await page.keyboard.press('t');
  await page.waitForSelector('#dialog:not([hidden])');
  expect(await page.textContent('#dialog-text')).toMatch(/Take back/);
  await page.click('#dialog-no');
  expect(await movesText(page)).toHaveLength(2);
  await page.keyboard.press('t');
  await page.click('#dialog-yes');
  await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 1);
  await page.click('#btn-takeback');
  await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 0);
  expect(await page.isHidden('#dialog')).toBe(true);
}

/** A game against Thoth taken to Analysis keeps the players' names on the bars. */
async function namesInAnalysis(page: Page, thoth: RegExp): Promise<void> {
  await click(page, 'c1');
  await click(page, 'd2');
  await waitReply(page, 2);
  await setMode(page, 'analysis');
  expect(await page.textContent('#player-bottom .name')).toBe('You · Silver');
  expect(await page.textContent('#player-top .name')).toMatch(thoth);
}

/** `#puzzle=<id>` opens that puzzle, a reload keeps it, Exit leaves the address plain. */
async function puzzleLink(url: string): Promise<void> {
  const id = [...PUZZLES.keys()][7];
  const { ctx, page, errors } = await open(`${url}#puzzle=${id}`, { ready: false });
  await page.waitForFunction((k) => document.getElementById('card-puzzles')?.dataset.puzzle === k, id);
  await page.waitForFunction(() => document.getElementById('card-puzzles')?.dataset.done === '1');
  await page.reload();
  await page.waitForFunction((k) => document.getElementById('card-puzzles')?.dataset.puzzle === k, id);
  expect(await page.evaluate(() => location.hash)).toBe(`#puzzle=${id}`);
  await page.click('#pz-exit');
  expect(await page.evaluate(() => location.hash)).toBe('');
  expect(errors).toEqual([]);
  await ctx.close();
}

describe.skipIf(!HAVE_CHROMIUM || !file.ok)('the page of thoth gui', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui(['--engine', FAKE_ENGINE]);
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it(
    'a puzzle keeps the game in progress and Exit brings it back',
    async () => {
      const { ctx, page, errors } = await open(gui.url, { clock: true });
      await puzzleKeepsTheGame(page, 'gui');
      await streakAgain(page);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(120_000),
  );

  it(
    'a damaged link is said under the board',
    async () => {
      await damagedLinkInSight(gui.url, 'gui');
    },
    stretched(60_000),
  );

  it(
    "Analysis keeps the players' names",
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await namesInAnalysis(page, /^FakeThoth.* · Red$/);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'a puzzle has a link, and a reload keeps it',
    async () => {
      await puzzleLink(gui.url);
    },
    stretched(60_000),
  );

  it(
    'T asks before it takes back',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await takeBackKeyAsks(page);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'the game form applies nothing before New game',
    async () => {
      const { ctx, page, errors } = await open(gui.url);
      await formWaitsForNewGame(page, 'gui');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );
});

describe.skipIf(!HAVE_CHROMIUM || !file.ok)('the static page', () => {
  it(
    'a puzzle keeps the game in progress and Exit brings it back',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL, { ready: false, clock: true });
      await puzzleKeepsTheGame(page, 'web');
      await streakAgain(page);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(120_000),
  );

  it(
    'a damaged link is said under the board',
    async () => {
      await damagedLinkInSight(WEB_URL, 'web');
    },
    stretched(60_000),
  );

  it(
    "Analysis keeps the players' names",
    async () => {
      const { ctx, page, errors } = await open(WEB_URL);
      await namesInAnalysis(page, /^Thoth.* · Red$/);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'a puzzle has a link, and a reload keeps it',
    async () => {
      await puzzleLink(WEB_URL);
    },
    stretched(60_000),
  );

  it(
    'T asks before it takes back',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL, { ready: false });
      await takeBackKeyAsks(page);
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(60_000),
  );

  it(
    'a reviewed blunder says what was better and draws it',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL);
      await reviewSaysBest(page, 'web');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(120_000),
  );

  it(
    'the game form applies nothing before New game',
    async () => {
      const { ctx, page, errors } = await open(WEB_URL);
      await formWaitsForNewGame(page, 'web');
      expect(errors).toEqual([]);
      await ctx.close();
    },
    stretched(120_000),
  );
});
