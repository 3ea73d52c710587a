/**
 * The shared transposition table: an entry is verified by its check word (w0 = keyHi ^ w1 ^ w2 ^ w3),
 * so an entry altered or mixed from two writers is never used. A unit test on the raw words, and a
 * stress test with several worker threads hammering a table of a few buckets.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TranspositionTable } from '../../src/search/tt';
import type { HammerInput, HammerOutput } from './fixtures/tt-hammer';
import { dataOf, keyHiOf, keyLoOf } from './fixtures/tt-keys';

const BUCKET_WORDS = 16;
const BOOT = fileURLToPath(new URL('./fixtures/boot.cjs', import.meta.url));
const HAMMER = fileURLToPath(new URL('./fixtures/tt-hammer.ts', import.meta.url));

/** A table of `buckets` buckets (4 entries of 4 words each). */
function smallTable(buckets: number): TranspositionTable {
  return new TranspositionTable(new SharedArrayBuffer(buckets * BUCKET_WORDS * 4));
}

/** The word index of the entry holding keyHi (the table is searched by its check word). */
function entryOf(tt: TranspositionTable, keyHi: number): number {
  const w = tt.words;
  for (let e = 0; e + 3 < w.length; e += 4) {
    if ((w[e] ^ w[e + 1] ^ w[e + 2] ^ w[e + 3]) === keyHi && (w[e + 1] & (1 << 25)) !== 0) return e;
  }
  return -1;
}

describe('TranspositionTable entry verification', () => {
  it('stores and probes an entry (round trip of move, bound, score, depth)', () => {
    const tt = smallTable(1);
    tt.store(0x12345678, 0x0badf00d, 0x1abcd, BOUND_LOWER, -1234, 17);
    expect(tt.probe(0x12345678, 0x0badf00d)).toBe(true);
    expect([tt.hitMove, tt.hitBound, tt.hitScore, tt.hitDepth]).toEqual([0x1abcd, BOUND_LOWER, -1234, 17]);
    expect(tt.probe(0x12345678, 0x0badf00e)).toBe(false);
  });

  it('an entry with any one word altered (every bit of every word) is never accepted', () => {
    const tt = smallTable(1);
    const lo = 0x2468ace0;
    const hi = -0x13579bdf;
    tt.store(lo, hi, 4242, BOUND_EXACT, 777, 9);
    const e = entryOf(tt, hi);
    expect(e).toBeGreaterThanOrEqual(0);
    const w = tt.words;
    for (let word = 0; word < 4; word++) {
      for (let bit = 0; bit < 32; bit++) {
        const saved = w[e + word];
        w[e + word] = saved ^ (1 << bit);
        expect(tt.probe(lo, hi), `word ${word} bit ${bit} flipped`).toBe(false);
        w[e + word] = saved;
      }
      // and a whole word replaced by another value
      const saved = w[e + word];
      w[e + word] = saved + 0x01010101;
      expect(tt.probe(lo, hi), `word ${word} replaced`).toBe(false);
      w[e + word] = saved;
    }
    expect(tt.probe(lo, hi)).toBe(true);
    expect([tt.hitMove, tt.hitBound, tt.hitScore, tt.hitDepth]).toEqual([4242, BOUND_EXACT, 777, 9]);
  });

  it('an entry mixed from two stores of the same key (data words from each) is rejected', () => {
    const tt = smallTable(1);
    const lo = 77;
    const hi = 0x31415926;
    tt.store(lo, hi, 100, BOUND_UPPER, 50, 3);
    const e = entryOf(tt, hi);
    const first = Array.from(tt.words.subarray(e, e + 4));
    tt.store(lo, hi, 200, BOUND_LOWER, -60, 8);
    expect(entryOf(tt, hi)).toBe(e); // same slot: the same position is replaced in place
    const second = Array.from(tt.words.subarray(e, e + 4));
    // every mix of words from the two writes, except the two whole entries
    for (let mask = 1; mask < 15; mask++) {
      for (let i = 0; i < 4; i++) tt.words[e + i] = (mask >> i) & 1 ? first[i] : second[i];
      if (tt.probe(lo, hi)) {
        // a mix can only pass when it equals one of the two writes' data (same words)
        const got = [tt.hitMove, tt.hitBound, tt.hitScore, tt.hitDepth];
        expect(
          [
            [100, BOUND_UPPER, 50, 3],
            [200, BOUND_LOWER, -60, 8],
          ],
          `mask ${mask}`,
        ).toContainEqual(got);
        expect(Array.from(tt.words.subarray(e, e + 4)), `mask ${mask} accepted a mixed entry`).toSatisfy(
          (ws: number[]) => ws.every((x, i) => x === first[i]) || ws.every((x, i) => x === second[i]),
        );
      }
    }
  });

  it('an entry mixed from two different keys is rejected for both keys', () => {
    const tt = smallTable(1);
    const a = { lo: 5, hi: 0x11111111 };
    const b = { lo: 6, hi: 0x22222222 };
    tt.store(a.lo, a.hi, 1111, BOUND_EXACT, 10, 4);
    tt.store(b.lo, b.hi, 2222, BOUND_LOWER, 20, 5);
    const ea = entryOf(tt, a.hi);
    const eb = entryOf(tt, b.hi);
    expect(ea).not.toBe(eb);
    const w = tt.words;
    // B's slot gets A's data words (as if A's writer overwrote it halfway)
    w[eb + 1] = w[ea + 1];
    expect(tt.probe(b.lo, b.hi)).toBe(false);
    // A is still found in its own slot, with its own data
    expect(tt.probe(a.lo, a.hi)).toBe(true);
    expect(tt.hitMove).toBe(1111);
    w[eb + 2] = w[ea + 2];
    // now B's slot holds A's data words with B's check word: neither key accepts it
    w.fill(0, ea, ea + 4);
    expect(tt.probe(a.lo, a.hi)).toBe(false);
    expect(tt.probe(b.lo, b.hi)).toBe(false);
  });

  it('the derived test data fits the entry format (round trip of many keys, one at a time)', () => {
    const tt = smallTable(1);
    for (let i = 0; i < 2000; i++) {
      const lo = keyLoOf(i);
      const hi = keyHiOf(i);
      const d = dataOf(lo, hi);
      tt.store(lo, hi, d.move, d.bound, d.score, d.depth);
      expect(tt.probe(lo, hi)).toBe(true);
      expect([tt.hitMove, tt.hitBound, tt.hitScore, tt.hitDepth]).toEqual([d.move, d.bound, d.score, d.depth]);
    }
  });
});

describe('TranspositionTable torn-entry stress test', () => {
  it('4 worker threads hammering a 4-bucket table for 1.2 s: no probe ever returns data of another key', async () => {
    const THREADS = 4;
    const MS = 1200;
    const tt = smallTable(4);
    const control = new Int32Array(new SharedArrayBuffer(8));
    const workers: Worker[] = [];
    const ready: Promise<void>[] = [];
    const results: Promise<HammerOutput>[] = [];
    try {
      for (let t = 0; t < THREADS; t++) {
        const input: HammerInput = {
          buffer: tt.buffer,
          control: control.buffer as SharedArrayBuffer,
          keys: 64,
          seed: 1000 + t,
          index: t,
        };
        const w = new Worker(BOOT, { argv: [HAMMER], execArgv: ['--import', 'tsx'], workerData: input });
        workers.push(w);
        let isReady: () => void = () => {};
        ready.push(new Promise((resolve) => (isReady = resolve)));
        results.push(
          new Promise<HammerOutput>((resolve, reject) => {
            w.on('message', (m: HammerOutput | 'ready') => (m === 'ready' ? isReady() : resolve(m)));
            w.once('error', reject);
            w.once('exit', (code) => reject(new Error(`hammer worker ${t} exited with ${code} before reporting`)));
          }),
        );
      }
      // every worker has loaded (tsx) and is about to wait: start them together
      await Promise.all(ready);
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      await new Promise((r) => setTimeout(r, MS));
      Atomics.store(control, 1, 1);
      const outs = await Promise.all(results);
      const sum = (f: (o: HammerOutput) => number): number => outs.reduce((a, o) => a + f(o), 0);
      const stores = sum((o) => o.stores);
      const probes = sum((o) => o.probes);
      const hits = sum((o) => o.hits);
      const bad = sum((o) => o.bad);
      const torn = sum((o) => o.tornSeen);
      console.log(
        `tt stress: ${THREADS} threads, ${tt.buckets} buckets, ${MS} ms: ${stores} stores, ${probes} probes, ${hits} hits ` +
          `(${((100 * hits) / Math.max(1, probes)).toFixed(1)}%), ${bad} bad; raw scans saw ${torn} mixed entries in ${sum((o) => o.scans)} scans`,
      );
      expect(outs.flatMap((o) => o.badSamples)).toEqual([]);
      expect(bad).toBe(0);
      // the test did hammer, and probes did hit (64 keys in 16 entries)
      expect(stores).toBeGreaterThan(10_000);
      expect(probes).toBeGreaterThan(10_000);
      expect(hits).toBeGreaterThan(100);
      expect(hits).toBeLessThan(probes);
    } finally {
      Atomics.store(control, 1, 1);
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      await Promise.all(workers.map((w) => w.terminate()));
    }
  });
});
