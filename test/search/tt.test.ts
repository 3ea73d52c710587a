/** The transposition table: store/probe round trip, replacement, and the torn-entry check. */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/index';
import { MATE } from '../../src/core/score';
import {
  AGE_MASK,
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_NONE,
  BOUND_UPPER,
  NO_EVAL,
  TranspositionTable,
  bucketWord,
  nextAge,
} from '../../src/search/tt';

interface Entry {
  keyLo: number;
  keyHi: number;
  move: number;
  bound: number;
  score: number;
  depth: number;
}

function probe(tt: TranspositionTable, keyLo: number, keyHi: number): Omit<Entry, 'keyLo' | 'keyHi'> | undefined {
  if (!tt.probe(keyLo, keyHi)) return undefined;
  return { move: tt.hitMove, bound: tt.hitBound, score: tt.hitScore, depth: tt.hitDepth };
}

/** The word index of the entry that holds `keyHi` (found by scanning, independent of the layout). */
function entryWords(tt: TranspositionTable, e: Entry): number[] {
  const before = Array.from(tt.words);
  tt.store(e.keyLo, e.keyHi, e.move, e.bound, e.score, e.depth);
  const changed: number[] = [];
  for (let i = 0; i < before.length; i++) if (tt.words[i] !== before[i]) changed.push(i);
  return changed;
}

describe('transposition table', () => {
  it('a stored entry comes back exactly (moves, bounds, scores up to mate, depths)', () => {
    const tt = new TranspositionTable(1);
    const rand = mulberry32(7);
    const entries: Entry[] = [];
    const scores = [0, 1, -1, 100, -100, 12345, -12345, MATE - 1, -(MATE - 1), MATE - 40, -(MATE - 40), 32767, -32768];
    const depths = [0, 1, 2, 7, 15, 40, 100, 127, -1, -5];
    const bounds = [BOUND_UPPER, BOUND_LOWER, BOUND_EXACT];
    for (let i = 0; i < 300; i++) {
      entries.push({
        keyLo: rand(),
        keyHi: rand(),
        move: (rand() >>> 0) & 0x1ffff,
        bound: bounds[i % 3],
        score: scores[i % scores.length],
        depth: depths[i % depths.length],
      });
    }
    for (const e of entries) {
      tt.store(e.keyLo, e.keyHi, e.move, e.bound, e.score, e.depth);
      expect(probe(tt, e.keyLo, e.keyHi)).toEqual({ move: e.move, bound: e.bound, score: e.score, depth: e.depth });
    }
    // 1 MB holds far more than 300 entries: all of them are still there (few share a bucket)
    let found = 0;
    for (const e of entries) {
      const p = probe(tt, e.keyLo, e.keyHi);
      if (p) {
        found++;
        expect(p).toEqual({ move: e.move, bound: e.bound, score: e.score, depth: e.depth });
      }
    }
    expect(found).toBeGreaterThanOrEqual(295);
  });

  it('misses a key never stored, and a key that differs only in its high half', () => {
    const tt = new TranspositionTable(1);
    tt.store(0x12345678, 0x0badf00d, 1234, BOUND_EXACT, 50, 6);
    expect(tt.probe(0x12345678, 0x0badf00d)).toBe(true);
    expect(tt.probe(0x12345678, 0x0badf00e)).toBe(false);
    expect(tt.probe(0x87654321, 0x0badf00d)).toBe(false);
  });

  it('an empty table never hits (not even key 0)', () => {
    const tt = new TranspositionTable(1);
    expect(tt.probe(0, 0)).toBe(false);
    expect(tt.probe(1, 0)).toBe(false);
    expect(tt.hashfull()).toBe(0);
  });

  it('storing the same key again replaces the entry and keeps the old move when the new one has none', () => {
    const tt = new TranspositionTable(1);
    tt.store(99, 77, 4321, BOUND_LOWER, 10, 3);
    tt.store(99, 77, 0, BOUND_UPPER, -20, 5);
    expect(probe(tt, 99, 77)).toEqual({ move: 4321, bound: BOUND_UPPER, score: -20, depth: 5 });
    tt.store(99, 77, 555, BOUND_EXACT, 30, 1);
    expect(probe(tt, 99, 77)).toEqual({ move: 555, bound: BOUND_EXACT, score: 30, depth: 1 });
  });

  it('clear() empties the table', () => {
    const tt = new TranspositionTable(1);
    tt.store(5, 6, 7, BOUND_EXACT, 8, 9);
    tt.clear();
    expect(tt.probe(5, 6)).toBe(false);
  });

  it('two tables on one SharedArrayBuffer see each other (as two threads would)', () => {
    const a = new TranspositionTable(1);
    const b = new TranspositionTable(a.buffer);
    a.store(11, 22, 33, BOUND_LOWER, 44, 5);
    expect(probe(b, 11, 22)).toEqual({ move: 33, bound: BOUND_LOWER, score: 44, depth: 5 });
  });

  it('a full bucket keeps working: the newest entry is always found', () => {
    // the smallest table: a single bucket, so every key collides
    const tt = new TranspositionTable(TranspositionTable.allocate(0));
    for (let i = 1; i <= 50; i++) {
      tt.store(i * 7919, i * 104729, i, BOUND_EXACT, i, i % 20);
      expect(probe(tt, i * 7919, i * 104729)).toEqual({ move: i, bound: BOUND_EXACT, score: i, depth: i % 20 });
    }
  });

  it('an entry with any one word altered is not returned (torn-entry check)', () => {
    const rand = mulberry32(11);
    for (let t = 0; t < 40; t++) {
      const tt = new TranspositionTable(0.01); // a few hundred buckets
      const e: Entry = {
        keyLo: rand(),
        keyHi: rand(),
        move: 1 + ((rand() >>> 0) % 0x1fffe),
        bound: BOUND_EXACT,
        score: (rand() % 3000) | 0,
        depth: 1 + ((rand() >>> 0) % 60),
      };
      const words = entryWords(tt, e);
      expect(words.length).toBeGreaterThan(0);
      expect(tt.probe(e.keyLo, e.keyHi)).toBe(true);
      // the entry's words are contiguous; alter each word of the entry's span in turn
      const lo = Math.min(...words);
      const hi = Math.max(...words);
      for (let w = lo; w <= hi; w++) {
        for (const flip of [1, 1 << 7, 1 << 16, 1 << 20, 1 << 26, 1 << 31]) {
          const old = tt.words[w];
          tt.words[w] = old ^ flip;
          expect(tt.probe(e.keyLo, e.keyHi), `word ${w - lo}, bit ${31 - Math.clz32(flip)} flipped`).toBe(false);
          tt.words[w] = old;
        }
        // a whole word replaced by another value
        const old = tt.words[w];
        tt.words[w] = old + 0x01010101;
        expect(tt.probe(e.keyLo, e.keyHi), `word ${w - lo} replaced`).toBe(false);
        tt.words[w] = old;
      }
      expect(probe(tt, e.keyLo, e.keyHi)).toEqual({ move: e.move, bound: e.bound, score: e.score, depth: e.depth });
    }
  });

  it('an entry mixed from two writers (words of two different stores) is returned for neither key', () => {
    // a single bucket: both stores go to the same slot when the table is cleared in between
    const tt = new TranspositionTable(TranspositionTable.allocate(0));
    const a: Entry = { keyLo: 0x1111, keyHi: 0x2222_3333, move: 1001, bound: BOUND_LOWER, score: 250, depth: 9 };
    const b: Entry = { keyLo: 0x4444, keyHi: 0x5555_6666, move: 2002, bound: BOUND_UPPER, score: -75, depth: 4 };
    const wa = entryWords(tt, a);
    const snapA = Array.from(tt.words);
    tt.clear();
    const wb = entryWords(tt, b);
    const snapB = Array.from(tt.words);
    const span = [...new Set([...wa, ...wb])].sort((x, y) => x - y);
    expect(span.length).toBeGreaterThanOrEqual(2);
    // every mixture of the two entries' words, other than the two pure ones
    const n = span.length;
    for (let mask = 1; mask < (1 << n) - 1; mask++) {
      tt.clear();
      span.forEach((w, i) => {
        tt.words[w] = (mask >> i) & 1 ? snapB[w] : snapA[w];
      });
      // a word both stores wrote alike (the evaluation slot) can make a "mix" one of the two
      if (span.every((w) => tt.words[w] === snapA[w]) || span.every((w) => tt.words[w] === snapB[w])) continue;
      const pa = probe(tt, a.keyLo, a.keyHi);
      const pb = probe(tt, b.keyLo, b.keyHi);
      expect(pa, `mix ${mask.toString(2)} returned for key A`).toBeUndefined();
      expect(pb, `mix ${mask.toString(2)} returned for key B`).toBeUndefined();
    }
  });

  it('keeps the static evaluation with the entry, and keeps it when a later store has none', () => {
    const tt = new TranspositionTable(1);
    tt.store(0x1234, 0x5678, 0, BOUND_NONE, 0, -1, -321);
    expect(tt.probe(0x1234, 0x5678)).toBe(true);
    expect([tt.hitEval, tt.hitBound]).toEqual([-321, BOUND_NONE]);
    tt.store(0x1234, 0x5678, 99, BOUND_LOWER, 40, 6);
    expect(tt.probe(0x1234, 0x5678)).toBe(true);
    expect([tt.hitMove, tt.hitEval, tt.hitScore, tt.hitDepth]).toEqual([99, -321, 40, 6]);
    tt.store(0x1234, 0x5678, 99, BOUND_LOWER, 40, 7, 12);
    expect(tt.probe(0x1234, 0x5678)).toBe(true);
    expect(tt.hitEval).toBe(12);
    tt.store(0x9999, 0x7777, 5, BOUND_EXACT, 1, 2);
    expect(tt.probe(0x9999, 0x7777)).toBe(true);
    expect(tt.hitEval).toBe(NO_EVAL);
  });

  it('hashfull counts the entries of the current search, per mille', () => {
    const tt = new TranspositionTable(1);
    tt.newSearch();
    expect(tt.hashfull()).toBe(0);
    const rand = mulberry32(3);
    for (let i = 0; i < 200_000; i++) tt.store(rand(), rand(), 1, BOUND_EXACT, 0, 1);
    expect(tt.hashfull()).toBeGreaterThan(900);
    tt.newSearch();
    expect(tt.hashfull()).toBe(0);
  });

  it('the age counts searches in its 6 bits and wraps: newSearch is nextAge', () => {
    expect(AGE_MASK).toBe(63);
    expect(nextAge(0)).toBe(1);
    expect(nextAge(62)).toBe(63);
    expect(nextAge(63)).toBe(0);
    const tt = new TranspositionTable(1);
    for (let i = 0; i < 70; i++) {
      const want = nextAge(tt.age);
      tt.newSearch();
      expect(tt.age).toBe(want);
    }
    expect(tt.age).toBe(70 & AGE_MASK);
  });
});

describe('bucket index past 2^31 bytes (by arithmetic: the tables are not allocated)', () => {
  for (const mb of [2048, 4096, 8192]) {
    it(`${mb} MB: every key lands on a bucket inside the table, and the whole table is reachable`, () => {
      const bytes = TranspositionTable.bytesFor(mb);
      expect(bytes).toBe(mb * 1024 * 1024);
      const buckets = bytes / 64;
      const words = bytes / 4;
      expect(bucketWord(0, buckets)).toBe(0);
      expect(bucketWord(0xffffffff, buckets), 'the highest key: the last bucket').toBe(words - 16);
      expect(bucketWord(-1, buckets), 'a key read as a signed int32').toBe(words - 16);
      expect(bucketWord(0x80000000, buckets), 'half way').toBe(words / 2);
      expect(bucketWord(0x80000000 | 0, buckets), 'half way, signed').toBe(words / 2);
      const rnd = mulberry32(mb);
      for (let i = 0; i < 10_000; i++) {
        const key = (rnd() * 4294967296) | 0;
        const w = bucketWord(key, buckets);
        expect(Number.isInteger(w)).toBe(true);
        expect(w % 16).toBe(0);
        expect(w).toBeGreaterThanOrEqual(0);
        expect(w).toBeLessThan(words);
      }
    });
  }
});
