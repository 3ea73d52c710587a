/**
 * SearchPool in-process (the workers run the TypeScript sources through tsx): the parallel table
 * clear, `go nodes` counting the nodes of all threads, stop through shared memory, and a search
 * after the thread count or the table size changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMove, setupKfen } from '../../src/core/index';
import { maxThreads } from '../../src/engine/options';
import { nodeHost } from '../../src/node/node-host';
import type { GoRequest } from '../../src/engine/host';
import { SearchPool, WARM_MS, WARM_NODES, clearRanges } from '../../src/node/search-pool';
import { DEFAULT_LIMITS, type SearchLimits } from '../../src/search/search';
import type { SearchInfo } from '../../src/core/score';
import { TranspositionTable } from '../../src/search/tt';
import { positionOf } from '../protocol/spawn-engine';

const CLASSIC = setupKfen('khet2', 'classic')!;

function request(limits: Partial<SearchLimits>, moves: string[] = []): GoRequest {
  return {
    edition: 'khet2',
    pharaohRotation: false,
    kfen: CLASSIC,
    moves,
    received: Date.now(),
    limits: { ...DEFAULT_LIMITS, ...limits, searchMoves: [] },
  };
}

function expectLegal(move: string, moves: string[] = []): void {
  const pos = positionOf(CLASSIC, moves);
  const m = parseMove(pos, move);
  expect(m.ok, `'${move}' legal`).toBe(true);
}

describe('SearchPool (in-process)', () => {
  let pool: SearchPool;
  /** How long the shared pool's start and warm-up took. */
  let warmMs = 0;
  beforeAll(async () => {
    // 3 threads: the clear test needs an odd count, and a new pool is the expensive part of this
    // file (its workers load the sources through tsx and warm up)
    const t0 = performance.now();
    pool = new SearchPool(3, 1);
    await pool.ready;
    warmMs = performance.now() - t0;
    // warm the workers (tsx start-up) with a tiny search
    const d = await pool.start(request({ depth: 1 }), false, () => {});
    expect(d.error).toBeUndefined();
  });
  afterAll(async () => {
    await pool?.destroy();
  });

  it('the warm-up searches 30,000 nodes or more per thread (a depth-5 warm-up left the first searches cold)', async () => {
    // the shared pool's, 3 threads (the tiny search of beforeAll does not count in it), and a new
    // 1-thread pool's. A warm-up ends at its nodes or after WARM_MS: a machine so busy that the
    // pool's start and warm-up took that long may have ended it by time, with fewer nodes.
    expect(WARM_NODES).toBeGreaterThanOrEqual(30_000);
    const atLeast = (nodes: number, ms: number): number => (ms < WARM_MS ? nodes : 1);
    expect(pool.warmedNodes, '3 threads').toBeGreaterThanOrEqual(atLeast(3 * WARM_NODES, warmMs));
    const t0 = performance.now();
    const p = new SearchPool(1, 1);
    try {
      await p.ready;
      expect(p.warmedNodes, '1 thread').toBeGreaterThanOrEqual(atLeast(WARM_NODES, performance.now() - t0));
    } finally {
      await p.destroy();
    }
  });

  it('a new table is mapped before the first search (the search does not pay its page faults)', async () => {
    // A SharedArrayBuffer's pages are mapped on first write: only then do they count in the RSS.
    const before = process.memoryUsage().rss;
    const p = new SearchPool(1, 256);
    try {
      await p.ready;
      const grown = (process.memoryUsage().rss - before) / 2 ** 20;
      expect(grown, 'MB mapped by the start-up').toBeGreaterThan(200);
      const words = p.table.words;
      expect(words.every((w) => w === 0)).toBe(true);
      // a larger size: a new buffer, mapped once resize resolves
      const mid = process.memoryUsage().rss;
      await p.resize(384);
      expect((process.memoryUsage().rss - mid) / 2 ** 20, 'MB mapped by resize').toBeGreaterThan(100);
    } finally {
      await p.destroy();
    }
  });

  it('a smaller table is the start of the buffer, emptied: no new memory (the GUI sets a review table and its own in turn)', async () => {
    const p = new SearchPool(1, 64);
    try {
      await p.ready;
      const d = await p.start(request({ depth: 6 }), false, () => {});
      expect(d.error).toBeUndefined();
      expect(p.table.words.some((w) => w !== 0)).toBe(true);
      const before = process.memoryUsage();
      for (const mb of [16, 64, 16, 64, 16]) await p.resize(mb);
      const after = process.memoryUsage();
      // a new 64 MB buffer at each change was 128 MB more (two 64 MB sets) and still held
      expect((after.arrayBuffers - before.arrayBuffers) / 2 ** 20, 'MB of new buffers').toBeLessThan(8);
      expect(p.table.words.length).toBe(TranspositionTable.bytesFor(16) / 4);
      expect(p.table.words.every((w) => w === 0)).toBe(true);
      // and the table is searched at its size
      const e = await p.start(request({ depth: 5 }), false, () => {});
      expect(e.error).toBeUndefined();
      expectLegal(e.best);
    } finally {
      await p.destroy();
    }
  });

  it('go nodes N with 3 threads: the nodes of all threads stop the search near N', async () => {
    const N = 50_000;
    const infos: SearchInfo[] = [];
    const d = await pool.start(request({ nodes: N }), false, (i) => infos.push(i));
    expect(d.error).toBeUndefined();
    expectLegal(d.best);
    // the counter is the sum over threads; it reaches the budget (the search has no depth limit)
    // and does not run far past it (each thread adds its nodes every 1024 nodes)
    expect(d.nodes).toBeGreaterThanOrEqual(N);
    expect(d.nodes).toBeLessThan(3 * N);
    expect(infos.length).toBeGreaterThan(0);
    expect(infos.at(-1)!.nodes).toBeLessThanOrEqual(d.nodes);
  });

  it('stop() ends an unlimited 3-thread search, with a legal move', async () => {
    let depth3!: () => void;
    const reached = new Promise<void>((resolve) => (depth3 = resolve));
    const p = pool.start(request({}), false, (i) => {
      if (i.depth >= 3) depth3();
    });
    await reached;
    pool.stop();
    // (an unlimited search ends only by stop; the latency is measured by bench/latency.mjs)
    const d = await p;
    expect(d.error).toBeUndefined();
    expectLegal(d.best);
    expect(d.depth).toBeGreaterThanOrEqual(3);
  });

  it('clear() zeroes every word of the table, split over the threads (3 threads, an odd size)', async () => {
    expect(pool.threads).toBe(3);
    // ~0.01 MB: 163 buckets of 16 words, 2608 words; split in chunks of whole buckets
    await pool.resize(0.01);
    const words = pool.table.words;
    expect(words.length).toBe(2608);
    words.fill(-1);
    await pool.clear();
    const left = words.findIndex((w) => w !== 0);
    expect(left, `word ${left} not cleared`).toBe(-1);
    // a 4 MB table, the same
    await pool.resize(4);
    const big = pool.table.words;
    big.fill(0x5a5a5a5a);
    await pool.clear();
    expect(big.every((w) => w === 0)).toBe(true);
  });

  it('after setThreads and resize, searches still work and use the new table', async () => {
    // (3 threads and a 4 MB table from the previous test)
    const moves = ['c1d2'];
    let d = await pool.start(request({ depth: 3 }, moves), false, () => {});
    expect(d.error).toBeUndefined();
    expectLegal(d.best, moves);
    expect(d.depth).toBe(3);
    const words = pool.table.words;
    expect(
      words.some((w) => w !== 0),
      'the search wrote to the new table',
    ).toBe(true);
    // (3 to 2 threads: each new pool costs its workers' start-up and warm-up; 1 thread searches in
    // every engine test)
    await pool.setThreads(2);
    await pool.resize(2);
    d = await pool.start(request({ depth: 3 }, moves), false, () => {});
    expect(d.error).toBeUndefined();
    expectLegal(d.best, moves);
    await pool.clear();
    d = await pool.start(request({ depth: 3 }), false, () => {});
    expect(d.error).toBeUndefined();
    expectLegal(d.best);
  });
});

describe('clearRanges: the table clear covers every word at any Hash size', () => {
  // Sizes around 2^31 bytes and up to the Hash option's 8192 MB, by arithmetic only (not allocated).
  for (const mb of [1, 2047, 2048, 3000, 4096, 8191, 8192]) {
    it(`${mb} MB`, () => {
      const bytes = TranspositionTable.bytesFor(mb);
      const words = bytes / 4;
      for (const threads of [1, 2, 3, 7, maxThreads(nodeHost.cores)]) {
        const ranges = clearRanges(bytes, threads);
        expect(ranges.length, `${threads} threads`).toBeGreaterThan(0);
        expect(ranges.length).toBeLessThanOrEqual(threads);
        // contiguous, from word 0 to the last word, each range starting on a bucket
        expect(ranges[0][0]).toBe(0);
        expect(ranges[ranges.length - 1][1], `${mb} MB, ${threads} threads: the last word`).toBe(words);
        for (let i = 0; i < ranges.length; i++) {
          const [from, to] = ranges[i];
          expect(from).toBeLessThan(to);
          expect(from % 16).toBe(0);
          if (i > 0) expect(from).toBe(ranges[i - 1][1]);
        }
      }
    });
  }
});
