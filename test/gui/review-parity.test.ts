/**
 * `thoth analyse --game` and the GUI's *Review the game* review by one method
 * (src/analysis/review-method.ts): the same game, reviewed by the CLI process and by the page in
 * Chromium, gets the same mark on every move and the same accuracy per side.
 *
 * A short game against `thoth gui`'s real engine has a mistake (1.c5b4?: it walks a Pyramid out
 * of the beam's way), a move that is not the engine's choice but costs little (1...a4a3: searched
 * alone), and a quiet move. A shuffle that ends in a threefold repetition (test/analysis/
 * shuffle-record.ts) is reviewed on every kind of page: `thoth gui`, the static page from file://
 * (one thread, its own table), served with cross-origin isolation (as many threads as cores,
 * sharing memory with its workers) and served by a plain static host without those headers (its
 * service worker isolates it: as many threads, after one reload); only the move that makes the draw is marked, with the reason
 * in words, and Learn from your mistakes offers only it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLink } from '../../src/gui/page/state/link';
import { SHUFFLE_PGN } from '../analysis/shuffle-record';
import { HAVE_CHROMIUM, WAIT_MS, click, closeBrowser, open, setMode } from './browser';
import { CLI, ROOT, realEngineWorks, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const REAL_ENGINE = HAVE_CHROMIUM && (await realEngineWorks());

/** Step moves only (two clicks each on the page), from the classic setup. */
const GAME = ['c5b4', 'a4a3', 'j5j6'];

afterAll(closeBrowser);

/** What a review says of a game: each move's mark ('' for none) and each side's accuracy, rounded. */
interface Verdict {
  marks: string[];
  accuracy: string[];
}

/** The CLI's review of the record `pgn`. It runs while a page reviews (a fixed-depth review on one thread does not depend on timing). */
async function cliReview(pgn: string): Promise<Verdict & { reasons: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'thoth-parity-'));
  try {
    const file = path.join(dir, 'game.pgn');
    writeFileSync(file, pgn);
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, 'analyse', '--game', file, '--json', '--quiet'],
        { encoding: 'utf8', timeout: stretched(5 * 60_000) },
        (e, stdout, stderr) =>
          resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr }),
      );
    });
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    return {
      marks: j.plies.map((p: { mark: string | null }) => p.mark ?? ''),
      accuracy: j.sides.map((s: { accuracy: number }) => `${Math.round(s.accuracy)}%`),
      reasons: j.plies.map((p: { reason: string | null }) => p.reason ?? ''),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page's review of the `plies` moves on it (in analysis mode): the marks in the move list and the accuracies. */
async function pageReview(page: Page, plies: number): Promise<Verdict> {
  await page.click('#btn-review');
  await page.waitForSelector('#review .acc', { timeout: 4 * WAIT_MS });
  const marks: string[] = [];
  for (let ply = 1; ply <= plies; ply++) {
    const nag = page.locator(`#moves .mv[data-ply="${ply}"] .nag`);
    marks.push((await nag.count()) > 0 ? ((await nag.textContent()) ?? '').trim() : '');
  }
  const accuracy = await page.$$eval('#review .acc', (as) => as.map((a) => (a.textContent ?? '').trim()));
  return { marks, accuracy };
}

describe.skipIf(!REAL_ENGINE)('the CLI and the GUI review a game alike', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui();
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('the same marks on every move and the same accuracy per side', async () => {
    const cliRun = cliReview(`[Variant "khet2"]\n\n1. ${GAME[0]} ${GAME[1]} 2. ${GAME[2]} *\n`);
    cliRun.catch(() => undefined); // awaited below: a failure is reported there

    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    for (const m of GAME) {
      await click(page, m.slice(0, 2));
      await click(page, m.slice(2, 4));
    }
    await page.waitForFunction((n) => Number(document.getElementById('moves')?.dataset.count) >= n, GAME.length);
    await setMode(page, 'analysis');
    const { marks, accuracy } = await pageReview(page, GAME.length);
    const cli = await cliRun;
    // The game has something to mark, and something not to.
    expect(cli.marks.some((m) => m !== '')).toBe(true);
    expect(cli.marks.some((m) => m === '')).toBe(true);
    expect({ marks, accuracy }).toEqual({ marks: cli.marks, accuracy: cli.accuracy });
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

/**
 * The static build (dist/web/) served as a static host: with the cross-origin isolation headers
 * (`isolated`), or without them, as a plain static host serves it (the page's service worker then
 * isolates it, src/web/isolation.ts).
 */
function staticServer(isolated: boolean): Promise<{ server: Server; url: string }> {
  const web = path.join(ROOT, 'dist', 'web');
  const server = createServer((req, res) => {
    const name =
      (req.url ?? '/').split(/[?#]/)[0] === '/' ? 'index.html' : path.basename((req.url ?? '').split('?')[0]);
    const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }[
      path.extname(name)
    ];
    readFile(path.join(web, name)).then(
      (body) => {
        res.writeHead(200, {
          'Content-Type': type ?? 'application/octet-stream',
          ...(isolated
            ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
            : {}),
        });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/` });
    }),
  );
}

describe.skipIf(!REAL_ENGINE)('one verdict on every kind of page: a shuffle to a threefold repetition', () => {
  let gui: RunningGui;
  let isolated: { server: Server; url: string };
  let plain: { server: Server; url: string };
  beforeAll(async () => {
    [gui, isolated, plain] = await Promise.all([startGui(), staticServer(true), staticServer(false)]);
  });
  afterAll(async () => {
    await gui?.stop();
    for (const s of [isolated, plain]) await new Promise<void>((r) => (s ? s.server.close(() => r()) : r()));
  });

  it('thoth gui, file://, the isolated page and a plain host mark what the CLI marks: only the move that draws, with its reason', async () => {
    const cliRun = cliReview(SHUFFLE_PGN);
    cliRun.catch(() => undefined); // awaited below: a failure is reported there
    const link = `#${await encodeLink({ kind: 'game', pgn: SHUFFLE_PGN })}`;
    const pages = [
      { kind: 'thoth gui', url: `${gui.url}${link}`, threads: /^Engine: .*cli\.js/ },
      {
        kind: 'file://',
        url: `${pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href}${link}`,
        threads: /1 thread$/,
      },
      { kind: 'isolated', url: `${isolated.url}${link}`, threads: /\d+ threads? \(shared memory\)$/ },
      // a plain static host: the page isolates itself with its service worker (one reload)
      { kind: 'plain http', url: `${plain.url}${link}`, threads: /\d+ threads? \(shared memory\)$/ },
    ];
    const verdicts: Record<string, Verdict & { hint: string; learn: string }> = {};
    for (const p of pages) {
      const { ctx, page, errors } = await open(p.url, { ready: false });
      await page.waitForFunction(() => Number(document.getElementById('moves')?.dataset.count) === 9);
      await page.waitForSelector('#engine-status[data-state=ready]');
      expect(await page.getAttribute('#engine-status', 'title'), p.kind).toMatch(p.threads);
      if (p.kind === 'plain http') {
        // isolated by its service worker, not by the host
        expect(await page.evaluate(() => crossOriginIsolated && navigator.serviceWorker.controller !== null)).toBe(
          true,
        );
      }
      await setMode(page, 'analysis');
      const v = await pageReview(page, 9);
      await page.waitForSelector('#btn-learn:not([disabled])');
      const learn = ((await page.textContent('#btn-learn')) ?? '').trim();
      // the drawing move, shown: the advice says why it is marked
      await page.click('#moves .mv[data-ply="9"]');
      await page.waitForFunction(() => /Best was/.test(document.getElementById('hint')?.textContent ?? ''));
      const hint = ((await page.textContent('#hint')) ?? '').trim();
      verdicts[p.kind] = { ...v, hint, learn };
      if (p.kind === 'thoth gui') {
        // the lesson: the drawing move tried again is refused with its reason, and the draw it
        // makes brings no result banner (New game, Rematch) over the lesson
        await page.click('#btn-learn');
        await page.waitForFunction(() => document.getElementById('card-learn')?.dataset.status === 'play');
        const width = (): Promise<number> => page.$eval('#board', (b) => b.getBoundingClientRect().width);
        const before = await width();
        await click(page, 'j3');
        await click(page, 'j4');
        await page.waitForFunction(() =>
          /ends the game in a draw/.test(document.getElementById('ln-msg')?.textContent ?? ''),
        );
        expect(await page.isHidden('#banner')).toBe(true);
        // nor does the board shrink to make room for it
        expect(await width()).toBe(before);
      }
      expect(errors, p.kind).toEqual([]);
      await ctx.close();
    }
    const cli = await cliRun;
    // 49. j3j4 and 50. j4j3 repeat the position harmlessly; 51. j3j4 throws the win away
    expect(cli.marks).toEqual(['', '', '', '', '', '', '', '', '??']);
    expect(cli.reasons[8]).toBe('draws by threefold repetition');
    for (const p of pages) {
      const v = verdicts[p.kind];
      expect({ kind: p.kind, marks: v.marks, accuracy: v.accuracy }).toEqual({
        kind: p.kind,
        marks: cli.marks,
        accuracy: cli.accuracy,
      });
      expect(v.hint, p.kind).toMatch(/^Blunder: j3j4\?\?, draws by threefold repetition\. Best was \S+\.$/);
      expect(v.learn, p.kind).toBe('Learn from your mistakes (1)');
    }
  });
});
