/**
 * Both hosts' search threads over one pool core (src/engine/pool-core.ts): the Node host's piscina
 * pool (src/node/search-pool.ts, run here in-process) and the static page's Web Workers
 * (src/web/web-search-pool.ts, run in a real Chromium on a page served with the cross-origin isolation
 * headers, so that its workers share memory as Node's threads do). The same position, threads and
 * limits go to both: on one thread the two give the very same result; on two, each host's move is
 * the one the shared rule (chooseResult: the vote) picks from that host's threads' results, and the
 * helper's result was there to vote.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, closeBrowser, theBrowser } from '../gui/browser';
import { ROOT } from '../gui/helpers';
import { setupKfen } from '../../src/core/index';
import type { SearchResult } from '../../src/core/score';
import type { GoRequest } from '../../src/engine/host';
import { chooseResult, type ThreadResult } from '../../src/engine/pool-core';
import { SearchPool } from '../../src/node/search-pool';
import { BENCH_POSITIONS } from '../../src/search/bench';
import { DEFAULT_LIMITS } from '../../src/search/search';
import { stretched } from '../slowness';

/** One search on one host: its answer and what the move was chosen from. */
interface Searched {
  result: SearchResult;
  choice: { main: SearchResult; helpers: ThreadResult[]; chosen: SearchResult } | null;
  threads: number;
}

const HASH_MB = 4;

function request(edition: GoRequest['edition'], kfen: string, depth: number): GoRequest {
  return {
    edition,
    pharaohRotation: false,
    kfen,
    moves: [],
    received: Date.now(),
    limits: { ...DEFAULT_LIMITS, depth, searchMoves: [] },
  };
}

/** The Classic start, and a middle game of the bench (Khet 2.0). */
const POSITIONS: GoRequest[] = [
  request('khet2', setupKfen('khet2', 'classic')!, 6),
  request('khet2', BENCH_POSITIONS.find((p, i) => i >= 8 && p.edition === 'khet2')!.kfen, 6),
];

async function inNode(go: GoRequest, threads: number): Promise<Searched> {
  const pool = new SearchPool(threads, HASH_MB);
  try {
    await pool.ready;
    const result = await pool.start(go, false, () => {});
    return { result, choice: pool.core.lastChoice, threads: pool.threads };
  } finally {
    await pool.destroy();
  }
}

/** The page (test/web/fixtures/pool-page.ts) with its search worker, as build.mjs bundles the static page's. */
async function pageScript(): Promise<string> {
  const common = { bundle: true, write: false, platform: 'browser', format: 'iife', target: 'es2022' } as const;
  const worker = await build({
    ...common,
    entryPoints: [path.join(ROOT, 'src/web/web-search-worker.ts')],
    logLevel: 'error',
  });
  const page = await build({
    ...common,
    entryPoints: [path.join(ROOT, 'test/web/fixtures/pool-page.ts')],
    define: { __SEARCH_WORKER_SOURCE__: JSON.stringify(worker.outputFiles[0].text), __DEFAULT_NETWORK__: '""' },
    logLevel: 'error',
  });
  return page.outputFiles[0].text;
}

describe.skipIf(!HAVE_CHROMIUM)('one pool core, two transports (Node threads and page workers)', () => {
  let server: Server;
  let url = '';
  let inPage: (go: GoRequest, threads: number) => Promise<Searched>;

  beforeAll(async () => {
    const script = await pageScript();
    // The cross-origin isolation headers: the page may share memory with its workers.
    server = createServer((req, res) => {
      const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
      if (req.url === '/pool.js') res.writeHead(200, { ...isolated, 'Content-Type': 'text/javascript' }).end(script);
      else
        res
          .writeHead(200, { ...isolated, 'Content-Type': 'text/html' })
          .end('<!doctype html><script src="pool.js"></script>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const a = server.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`;
    const page = await (await theBrowser()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    inPage = async (go, threads) => {
      const r = await page.evaluate(
        ([g, t, mb]) =>
          (
            globalThis as unknown as { searchInPage(go: GoRequest, threads: number, mb: number): Promise<Searched> }
          ).searchInPage(g, t, mb),
        [go, threads, HASH_MB] as const,
      );
      expect(errors).toEqual([]);
      return r;
    };
  }, stretched(120_000));

  afterAll(async () => {
    await closeBrowser();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  it(
    'one thread: the same move, ponder, score, depth and nodes in both hosts',
    async () => {
      // A one-thread search to a fixed depth does not depend on timing: both hosts search at once.
      for (const go of POSITIONS) {
        const [node, page] = await Promise.all([inNode(go, 1), inPage(go, 1)]);
        expect(node.result.error).toBeUndefined();
        expect(page.threads).toBe(1);
        expect(page.result).toEqual(node.result);
        expect(page.result.depth).toBe(go.limits.depth);
      }
    },
    stretched(120_000),
  );

  it(
    "two threads: in each host the move is the shared rule's choice over that host's threads",
    async () => {
      for (const go of POSITIONS) {
        for (const [host, searched] of [
          ['node', await inNode(go, 2)],
          ['page', await inPage(go, 2)],
        ] as const) {
          expect(searched.threads, host).toBe(2);
          const c = searched.choice!;
          // the helper left its last completed iteration for the vote (its slot reached the host)
          expect(
            c.helpers.map((h) => h.threadIndex),
            host,
          ).toEqual([1]);
          expect(c.helpers[0].depth, host).toBeGreaterThan(0);
          // the move played is what the one rule picks from these results, nothing else
          expect(searched.result, host).toEqual(chooseResult(go, c.main, c.helpers, searched.result.nodes));
          expect(c.chosen, host).toEqual(searched.result);
        }
      }
    },
    stretched(120_000),
  );
});
