/** The browser side of the GUI tests: one Chromium per test file, and what a person does on the page. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { formatMove, gameStatus, legalMoves, parseKfen, setupKfen, type EditionId } from '../../src/core/index';
import { addMoves, newTree } from '../../src/gui/page/state/tree';
import { systemTmp } from '../../scripts/suite-owned.mjs';
import { atFileEnd } from '../file-end';
import { stretched } from '../slowness';
import { CHROMIUM, CHROMIUM_ARGS, OUT } from './helpers';

export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/**
 * How long a page waits for what it waits for (an element, a move, the engine) before the test
 * fails: a minute on an idle machine, times the run's slowness (test/slowness.ts). Only a failing
 * test waits this long, so it is generous: on a busy machine (two browsers and engines beside a
 * datagen on two cores) an engine's first answer has taken over 20 s.
 */
export const WAIT_MS = stretched(60_000);

/**
 * At most this many test files drive a Chromium at once, whatever the number of test workers.
 * Three browsers with their engines on two cores starved each other on 2026-12-03 (load 15, waits
 * of 30 s missed); once the files' fixed waits and the suite's CPU were cut (2026-12-04), an idle
 * fresh-clone `npm test` took 7m10s with two slots, 6m33s with three and 6m06s with four, and
 * with a two-thread datagen beside it 7m45s with three and 7m43s with four, every file passing.
 * A file takes a slot when it first asks for the browser (a folder made atomically, with the
 * holder's pid in it, so that a slot left by a killed run is taken back) and gives it back when it
 * ends; while it waits, the other workers go on with files that need no browser.
 */
const BROWSER_SLOTS = 4;
// in the machine's temporary folder, not the run's: the slots count the browsers of every run on
// the machine (an empty folder when none runs)
const SLOT_DIR = path.join(systemTmp(), 'thoth-test-chromium-slots');
let slot: string | undefined;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function tryTakeSlot(): string | undefined {
  mkdirSync(SLOT_DIR, { recursive: true });
  for (let i = 0; i < BROWSER_SLOTS; i++) {
    const dir = path.join(SLOT_DIR, String(i));
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return dir;
    } catch {
      let holder = NaN;
      try {
        holder = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
      } catch {
        continue; // being taken right now
      }
      if (Number.isInteger(holder) && !alive(holder)) rmSync(dir, { recursive: true, force: true });
    }
  }
  return undefined;
}

async function takeSlot(): Promise<void> {
  while (!(slot = tryTakeSlot())) await new Promise((r) => setTimeout(r, 250));
}

function giveSlotBack(): void {
  if (slot) rmSync(slot, { recursive: true, force: true });
  slot = undefined;
}

let browser: Promise<Browser> | undefined;

/**
 * How often a page's `waitForFunction` asks its question, unless the call says otherwise.
 * Playwright's default asks it on every animation frame, which keeps the page drawing frames for
 * as long as it waits: about a tenth of a core for each waiting page (2026-12-07, a page of the
 * GUI asked `() => false` for 10 s: 0.6-0.9 s of Chromium's CPU; asked every 100 ms: 0.1-0.3 s).
 */
const POLL_MS = 50;

/** Makes the pages of `ctx` ask their `waitForFunction`s every {@link POLL_MS}. */
function pollByTime(ctx: BrowserContext): BrowserContext {
  ctx.on('page', (page) => {
    const wait = page.waitForFunction.bind(page);
    page.waitForFunction = ((fn: never, arg: never, options?: { polling?: number | 'raf'; timeout?: number }) =>
      wait(fn, arg, { polling: POLL_MS, ...options })) as Page['waitForFunction'];
  });
  return ctx;
}

async function launch(): Promise<Browser> {
  // the file's end closes the browser and gives the slot back (test/file-end.ts), whatever happens here
  atFileEnd(closeBrowser);
  await takeSlot();
  mkdirSync(OUT, { recursive: true });
  const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  // every context, `newPage`'s own included, polls by time (see POLL_MS)
  const newContext = b.newContext.bind(b);
  b.newContext = async (options) => pollByTime(await newContext(options));
  return b;
}

/**
 * The file's browser: started when the file first asks for it (once a slot is free) and closed
 * when the file ends or calls `closeBrowser`. One browser for the whole run, which its files
 * connected to, cost more than a browser a file: 718 CPU-seconds against 644 for the 27 browser
 * files (the pages' renderers 403 against 350; 2026-12-07).
 */
export function theBrowser(): Promise<Browser> {
  browser ??= launch();
  return browser;
}

export async function closeBrowser(): Promise<void> {
  const b = browser;
  browser = undefined;
  spare = undefined;
  try {
    await (await b?.catch(() => undefined))?.close();
  } finally {
    giveSlotBack();
  }
}

export interface Opened {
  ctx: BrowserContext;
  page: Page;
  errors: string[];
}

export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A page's errors and console errors are collected (tests expect none). The browser's own request
 * for `/favicon.ico`, made for a document that names no icon (the small page a lent page is left
 * for, below; the GUI's names its own), is not the page's.
 */
export function watchErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url)) errors.push(m.text());
  });
}

/**
 * A context and its page that `open` lends out and takes back when the test closes the context:
 * the file's next `open` goes on in the same page, cleared of all that the last test stored
 * (storage, cookies, permissions, HTTP cache) and left for a small page of the same site, so that
 * the next page keeps its renderer process. Opening the GUI page ten times (2026-12-07) cost
 * 1.6 CPU-seconds a page in a fresh context, 1.0 in one page left for `about:blank` between
 * (a new process each time), 0.67 left for a page of the same site; six browser test files
 * (player, faults, coach, players, e2e, smaller), four at a time, cost 368 CPU-seconds in fresh
 * contexts and 274 and 270 so. A lease that changed what a context keeps beyond its storage (an
 * installed clock, an init script, a route, an exposed function) is closed for real.
 */
interface Lease {
  ctx: BrowserContext;
  page: Page;
  cdp: Promise<CDPSession>;
  /** The origins its pages were at: their storage is cleared when it is taken back. */
  origins: Set<string>;
  /** Closed for real when taken back. */
  spent: boolean;
  back: boolean;
}

/** The file's lease ready for the next `open` (one at most). */
let spare: Lease | undefined;

/** Page events a test may listen to: a lease taken back forgets the test's listeners. */
const PAGE_EVENTS = [
  'console',
  'pageerror',
  'dialog',
  'request',
  'response',
  'requestfailed',
  'requestfinished',
  'download',
  'popup',
  'filechooser',
  'websocket',
  'worker',
  'crash',
  'load',
  'domcontentloaded',
  'frameattached',
  'framedetached',
  'framenavigated',
] as const;

function remember(lease: Lease, page: Page): void {
  page.on('framenavigated', (f) => {
    const u = f.url();
    if (/^https?:/.test(u)) lease.origins.add(new URL(u).origin);
  });
}

/** What would outlive a cleared page: the lease is closed, not lent again. */
const SPENDING = ['addInitScript', 'route', 'routeFromHAR', 'routeWebSocket', 'exposeBinding', 'exposeFunction'];

/** Marks the lease spent when its page is given what outlives a cleared page. */
function watchSpending(lease: Lease): void {
  const page = lease.page as unknown as Record<string, unknown>;
  const clock = lease.page.clock as unknown as Record<string, unknown>;
  for (const [o, k] of [...SPENDING.map((k) => [page, k] as const), [clock, 'install'] as const]) {
    const f = o[k];
    if (typeof f === 'function')
      o[k] = (...a: unknown[]) => {
        lease.spent = true;
        return (f as (...a: unknown[]) => unknown).apply(o, a);
      };
  }
}

/** `ctx` as the test sees it: `close` gives the lease back, and what outlives a cleared page spends it. */
function lent(lease: Lease): BrowserContext {
  return new Proxy(lease.ctx, {
    get(t, k) {
      if (k === 'close') return () => giveBack(lease);
      const v = Reflect.get(t, k, t);
      if (typeof v !== 'function') return v;
      if (SPENDING.includes(String(k))) lease.spent = true;
      return v.bind(t);
    },
  });
}

/** Takes a lease back: cleared and kept for the next `open`, or closed if it cannot be. */
async function giveBack(lease: Lease): Promise<void> {
  if (lease.back) return;
  lease.back = true;
  const { ctx, page } = lease;
  const b = browser;
  try {
    if (lease.spent || page.isClosed() || spare) throw new Error('not lent again');
    for (const p of ctx.pages()) if (p !== page) await p.close();
    for (const e of PAGE_EVENTS) page.removeAllListeners(e);
    // The page saves its game as it is left (`pagehide`), which may run after the next page has
    // come (another process unloads it): it is kept from storing anything, and what it stored is
    // cleared from within (a file:// page's storage too, which no origin names), before it is left.
    for (const f of page.frames())
      await f
        .evaluate(async () => {
          Storage.prototype.setItem = () => undefined;
          for (const k of ['put', 'add'] as const)
            IDBObjectStore.prototype[k] = () => {
              throw new DOMException('the test is over', 'InvalidStateError');
            };
          localStorage.clear();
          sessionStorage.clear();
          for (const d of await indexedDB.databases()) if (d.name) indexedDB.deleteDatabase(d.name);
        })
        .catch(() => undefined);
    // left for a small page of the same site (a GUI server's icon), whose process the next page keeps
    const at = page.url();
    const left = /^https?:/.test(at) ? await page.goto(new URL('/favicon.svg', at).href) : null;
    if (!left?.ok()) await page.goto('about:blank');
    await page.evaluate(() => 0); // what the page it left said is heard before the next test listens
    const cdp = await lease.cdp;
    for (const origin of lease.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await cdp.send('Network.clearBrowserCache');
    await ctx.clearCookies();
    await ctx.clearPermissions();
    lease.origins.clear();
    remember(lease, page);
    if (browser !== b || spare) throw new Error('not lent again');
    lease.back = false;
    spare = lease;
  } catch {
    await ctx.close().catch(() => undefined);
  }
}

/** Opens `url` in a cleared page of the file's (a fresh context the first time) and waits for the engine (`ready: false` does not wait). */
export async function open(
  url: string,
  opts: { viewport?: { width: number; height: number }; ready?: boolean; clock?: boolean; motion?: boolean } = {},
): Promise<Opened> {
  // Reduced motion, as a person may ask of their system: the page's animations last 0.01 s (its
  // style.css), so a test waits for none, and the browsers draw far fewer frames (the suite's
  // machine-wide CPU fell from about 800 to 729 seconds with the page's pulse also stilled).
  const viewport = opts.viewport ?? DESKTOP;
  const reducedMotion = opts.motion ? 'no-preference' : 'reduce';
  let lease = opts.clock ? undefined : spare;
  spare = undefined;
  if (lease) {
    await lease.page.setViewportSize(viewport);
    await lease.page.emulateMedia({ reducedMotion });
  } else {
    const ctx = await (await theBrowser()).newContext({ viewport, reducedMotion });
    ctx.setDefaultTimeout(WAIT_MS);
    const page = await ctx.newPage();
    lease = { ctx, page, cdp: ctx.newCDPSession(page), origins: new Set(), spent: false, back: false };
    remember(lease, page);
    watchSpending(lease);
    lease.ctx.on('page', (p) => remember(lease as Lease, p));
  }
  const page = lease.page;
  page.setDefaultTimeout(WAIT_MS);
  const errors: string[] = [];
  watchErrors(page, errors);
  const ctx = lent(lease);
  if (opts.clock) await page.clock.install();
  await page.goto(url);
  if (opts.ready !== false) await page.waitForSelector('#engine-status[data-state=ready]');
  return { ctx, page, errors };
}

/**
 * Stops the page's time (`open(…, { clock: true })`): no timer fires until `page.clock.resume()`.
 * Playwright pauses only at a time ahead of the page's; the page's time is read first, so the
 * pause lands a second ahead (due timers fire) — again if a loaded machine let that pass.
 */
export async function pauseClock(page: Page): Promise<void> {
  for (;;) {
    const at = (await page.evaluate(() => Date.now())) + 1000;
    try {
      await page.clock.pauseAt(at);
      return;
    } catch (e) {
      if (!/to the past/.test(String(e))) throw e;
    }
  }
}

/** Waits until the page's finite animations (a beam drawn, a piece leaving, a banner fading in) have ended. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

/** A screenshot to test-output/, taken once the animations have ended. */
export async function shot(page: Page, name: string, fullPage = false): Promise<Buffer> {
  await settled(page);
  return page.screenshot({ path: path.join(OUT, `gui-${name}.png`), fullPage });
}
export const click = (page: Page, sq: string): Promise<void> => page.click(`.hit[data-square=${sq}]`);
export const moveCount = async (page: Page): Promise<number> => Number(await page.getAttribute('#moves', 'data-count'));
export const waitMoves = (page: Page, n: number, timeout = WAIT_MS): Promise<unknown> =>
  page.waitForFunction((k) => Number(document.getElementById('moves')?.dataset.count) >= k, n, { timeout });
/**
 * Waits until the move list has `n` moves, Thoth's reply to the person's move the last of them.
 * A reply held while the person's shot is on show (0.8 s) is shown at once with a key, as a person
 * may (any key does, and Shift does nothing else on the page): the tests of the hold itself
 * (test/gui/faults.test.ts, player.test.ts) run the page's clock.
 */
export async function waitReply(page: Page, n: number, timeout = WAIT_MS): Promise<void> {
  await page.waitForFunction(
    (k) =>
      Number(document.getElementById('moves')?.dataset.count) >= k ||
      document.getElementById('board')?.dataset.holding === 'reply',
    n,
    { timeout },
  );
  if ((await page.getAttribute('#board', 'data-holding')) === 'reply') await page.keyboard.press('Shift');
  await waitMoves(page, n, timeout);
}
export const movesText = (page: Page): Promise<string[]> =>
  page.$$eval('#moves .mv[data-ply]', (bs) => bs.map((b) => (b.firstChild?.textContent ?? '').trim()));
export const targets = (page: Page): Promise<string[]> =>
  page.$$eval('[data-target]', (ts) => ts.map((t) => t.getAttribute('data-target') ?? '').sort());

/** Plays a move given as text with the mouse: a step or swap (two squares) or a rotation (`c1+`, `c1-`). */
export async function playText(page: Page, move: string): Promise<void> {
  const before = (await movesText(page)).length;
  await click(page, move.slice(0, 2));
  if (move.endsWith('+')) await page.click('#btn-rot-cw');
  else if (move.endsWith('-')) await page.click('#btn-rot-ccw');
  else await click(page, move.slice(2, 4));
  await waitMoves(page, before + 1);
}

/** Picks a mode (Analysis in the middle of a game against Thoth asks first: yes). */
export async function setMode(page: Page, mode: 'engine' | 'humans' | 'analysis'): Promise<void> {
  await page.click(`input[name=mode][value=${mode}]`);
  await confirmIfAsked(page);
  await page.waitForFunction((m) => document.body.dataset.mode === m, mode);
}

/** Answers yes when the page asks for a confirmation (abandoning a game, resigning). */
export async function confirmIfAsked(page: Page): Promise<void> {
  const yes = page.locator('#dialog-yes');
  if ((await yes.count()) > 0 && (await yes.isVisible())) await yes.click();
}

export async function newGame(page: Page): Promise<void> {
  await page.click('#btn-new');
  await confirmIfAsked(page);
}

export async function loadKfen(page: Page, kfen: string): Promise<void> {
  if (!(await page.isVisible('#kfen'))) await page.click('#card-io summary');
  await page.fill('#kfen', kfen);
  await page.evaluate(() => ((document.getElementById('io-msg') as HTMLElement).textContent = ''));
  await page.click('#kfen-load');
  await confirmIfAsked(page);
  await page.waitForSelector('#io-msg:has-text("Position loaded")');
}

export async function drag(page: Page, from: string, to: string): Promise<void> {
  const a = await page.locator(`.hit[data-square=${from}]`).boundingBox();
  const b = await page.locator(`.hit[data-square=${to}]`).boundingBox();
  if (!a || !b) throw new Error('no box');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 5, { steps: 2 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
}

/** The centre of a square on screen. */
export async function squareCentre(page: Page, sq: string): Promise<{ x: number; y: number }> {
  const b = await page.locator(`.hit[data-square=${sq}]`).boundingBox();
  if (!b) throw new Error(`no square ${sq}`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Picks Thoth's strength by its label (`Level 3 · …`; level 8 was called "Full strength" once). */
export async function pickLevel(page: Page, n: number): Promise<void> {
  const value = await page.$$eval(
    '#sel-level option',
    (os, k) =>
      os
        .find(
          (o) =>
            (o.textContent ?? '').startsWith(`Level ${k} `) || (k === 8 && /^Full strength/.test(o.textContent ?? '')),
        )
        ?.getAttribute('value') ?? '',
    n,
  );
  await page.selectOption('#sel-level', value);
}

/** Throws unless the moves are a legal game from the Classic setup of `edition`. */
export function checkLegal(edition: EditionId, moves: string[]): void {
  const t = newTree(edition, setupKfen(edition, 'classic') as string);
  if (!t.ok) throw new Error(t.error);
  const r = addMoves(t.value, [], moves);
  if (!r.ok) throw new Error(`move ${r.error.index + 1} (${moves[r.error.index]}): ${r.error.message}`);
}

/** Clicks the first piece of `side` ('p0' or 'p1') that has a target, then its first target. */
export async function moveFirstPiece(page: Page, side: string): Promise<void> {
  const pieces = await page.$$eval(`#layer-pieces .piece.${side}`, (ps) =>
    ps.map((p) => p.getAttribute('data-sq') ?? ''),
  );
  for (const sq of pieces) {
    await click(page, sq);
    const ts = await page.$$eval('[data-target]', (t) => t.map((x) => x.getAttribute('data-target') ?? ''));
    if (ts.length === 0) continue;
    await click(page, ts[0]);
    return;
  }
  expect.unreachable(`no piece of ${side} has a move`);
}

/**
 * Plays `n` moves against Thoth as a person would (the first own piece with a target square, to
 * its first target) and waits for each reply; stops early when the game ends.
 */
export async function playMoves(page: Page, n: number): Promise<void> {
  const side = (await page.$eval('#player-bottom', (e) => e.className)).includes('c1') ? 'p1' : 'p0';
  for (let i = 0; i < n; i++) {
    const before = (await movesText(page)).length;
    await moveFirstPiece(page, side);
    await waitReply(page, before + 2, 30000);
    if (!(await page.isHidden('#banner'))) return;
  }
}

/** True when every strength label fits in its list without being cut off. */
export function levelLabelsFit(page: Page): Promise<boolean> {
  return page.$eval('#sel-level', (sel) => {
    const s = sel as HTMLSelectElement;
    const cs = getComputedStyle(s);
    const g = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    g.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
    return Array.from(s.options).every((o) => g.measureText(o.text).width <= room);
  });
}

/** A legal Khet 2.0 game of `plies` moves from the Classic setup that does not end: a pseudo-random walk fixed by `seed`. */
export function walkGame(plies: number, seed: number): string[] {
  const r = parseKfen(setupKfen('khet2', 'classic') as string, 'khet2');
  if (!r.ok) throw new Error(r.error.message);
  const pos = r.value;
  const out: string[] = [];
  while (out.length < plies) {
    const moves = legalMoves(pos);
    seed = (seed * 1103515245 + 12345) % 2147483648;
    for (let k = 0; k < moves.length; k++) {
      const m = moves[(seed + k) % moves.length];
      const q = pos.clone();
      q.make(m);
      if (q.winner < 0 && gameStatus(q).result === 'ongoing') {
        pos.make(m);
        out.push(formatMove(m));
        break;
      }
    }
  }
  return out;
}
