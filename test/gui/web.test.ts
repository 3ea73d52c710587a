/**
 * The static build (dist/web/): the GUI with Thoth inside the page, no server. Played from
 * file:// in Chromium against the engine in its Web Worker, and served with the cross-origin
 * isolation headers, where the page shares memory with its workers (stop word, Lazy SMP).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HAVE_CHROMIUM,
  checkLegal,
  click,
  closeBrowser,
  movesText,
  newGame,
  open,
  playMoves,
  setMode,
  shot,
  waitReply,
} from './browser';
import { ROOT } from './helpers';
import { setupKfen } from '../../src/core/index';
import { encodeLink } from '../../src/gui/page/state/link';

const WEB = path.join(ROOT, 'dist', 'web');
const FILE_URL = pathToFileURL(path.join(WEB, 'index.html')).href;

afterAll(closeBrowser);

describe.skipIf(!HAVE_CHROMIUM)('the static build in Chromium', () => {
  it('plays Thoth from file://, with no server, and analyses', async () => {
    const { ctx, page, errors } = await open(FILE_URL);
    expect(await page.textContent('#engine-status')).toMatch(/in this page · ready/);
    expect(await page.getAttribute('#engine-status', 'title')).toMatch(/1 thread$/);
    // where even a service worker cannot isolate the page: one worker, and a note that says why
    expect(await page.isVisible('#threads-note')).toBe(true);
    expect(await page.getAttribute('#threads-note', 'title')).toMatch(
      /one thread here: the page was opened from a file/,
    );
    await page.selectOption('#sel-level', '2');
    await playMoves(page, 3);
    checkLegal('khet2', await movesText(page));
    await shot(page, 'web-file');
    // Analysis: lines, then a move stops the search (the worker is replaced) and a new one starts.
    await setMode(page, 'analysis');
    await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
    await page.click('#nav-prev');
    await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
    await page.click('#btn-analyse');
    await page.waitForSelector('#engine-status[data-state=ready]');
    expect(await page.locator('#lines .line').count()).toBe(3);
    // Another edition, another game.
    await setMode(page, 'engine');
    await page.selectOption('#sel-edition', 'deflexion');
    await newGame(page);
    await playMoves(page, 2);
    checkLegal('deflexion', await movesText(page));
    expect(errors).toEqual([]);
    await ctx.close();
  });

  describe('served by a plain static server (no COOP/COEP headers)', () => {
    let server: Server;
    let url = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        const name = (req.url ?? '/').split(/[?#]/)[0].endsWith('/')
          ? 'index.html'
          : path.basename((req.url ?? '').split('?')[0]);
        if (name === 'coi-sw.js' && req.url?.includes('/no-sw/')) {
          res.writeHead(404);
          res.end();
          return;
        }
        const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }[
          path.extname(name)
        ];
        readFile(path.join(WEB, name)).then(
          (body) => {
            res.writeHead(200, { 'Content-Type': type ?? 'application/octet-stream' });
            res.end(body);
          },
          () => {
            res.writeHead(404);
            res.end();
          },
        );
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const a = server.address();
      url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('isolates itself with its service worker: more than one thread, and they play', async () => {
      const { ctx, page, errors } = await open(url);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/coi-sw\.js$/);
      const threads = Number(
        /, (\d+) threads? \(shared memory\)$/.exec((await page.getAttribute('#engine-status', 'title')) ?? '')?.[1],
      );
      expect(threads).toBe(Math.min(8, await page.evaluate(() => navigator.hardwareConcurrency)));
      expect(threads).toBeGreaterThan(1);
      expect(await page.locator('#threads-note').count()).toBe(0);
      await page.selectOption('#sel-level', '1');
      await click(page, 'c1');
      await click(page, 'd2');
      await waitReply(page, 2);
      // a second visit is isolated from its first load
      const again = await ctx.newPage();
      await again.goto(url);
      await again.waitForSelector('#engine-status[data-state=ready]');
      expect(await again.evaluate(() => crossOriginIsolated)).toBe(true);
      await shot(page, 'web-plain-host');
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it('a first visit by a link keeps the link through the reload', async () => {
      const kfen = setupKfen('khet2', 'sophie')!;
      const { ctx, page, errors } = await open(`${url}#${await encodeLink({ kind: 'kfen', edition: 'khet2', kfen })}`, {
        ready: false,
      });
      await page.waitForFunction(() =>
        /Position opened from the link/.test(document.getElementById('io-msg')?.textContent ?? ''),
      );
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      expect(await page.inputValue('#kfen')).toBe(kfen);
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it('where its service worker cannot be had, plays on one worker and says why', async () => {
      const { ctx, page } = await open(`${url}no-sw/`);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      expect(await page.getAttribute('#engine-status', 'title')).toMatch(/1 thread$/);
      expect(await page.isVisible('#threads-note')).toBe(true);
      expect(await page.getAttribute('#threads-note', 'title')).toMatch(
        /one thread here: its service worker could not be registered/,
      );
      await page.selectOption('#sel-level', '1');
      await click(page, 'c1');
      await click(page, 'd2');
      await waitReply(page, 2);
      await ctx.close();
    });
  });

  describe('served with cross-origin isolation', () => {
    let server: Server;
    let url = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        const name = (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : path.basename(req.url ?? '');
        const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }[
          path.extname(name)
        ];
        readFile(path.join(WEB, name)).then(
          (body) => {
            res.writeHead(200, {
              'Content-Type': type ?? 'application/octet-stream',
              'Cross-Origin-Opener-Policy': 'same-origin',
              'Cross-Origin-Embedder-Policy': 'require-corp',
            });
            res.end(body);
          },
          () => {
            res.writeHead(404);
            res.end();
          },
        );
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const a = server.address();
      url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('shares memory with its workers: threads search together and stop at once', async () => {
      const { ctx, page, errors } = await open(url);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      expect(await page.getAttribute('#engine-status', 'title')).toMatch(/thread.* \(shared memory\)$/);
      await page.selectOption('#sel-level', '1');
      await click(page, 'c1');
      await click(page, 'd2');
      await waitReply(page, 2);
      await setMode(page, 'analysis');
      await page.waitForFunction(() => /depth [4-9]/.test(document.getElementById('an-info')?.textContent ?? ''));
      await page.click('#btn-analyse');
      await page.waitForSelector('#engine-status[data-state=ready]');
      expect(errors).toEqual([]);
      await ctx.close();
    });
  });
});
