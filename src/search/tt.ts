/**
 * Transposition table in a SharedArrayBuffer, so that several threads can share it.
 *
 * Buckets of 4 entries of 4 int32 words, 64 bytes: one cache line (a SharedArrayBuffer starts on
 * a page boundary), so a probe and the store after the subtree touch one line each.
 *   w0 = keyHi ^ w1 ^ w2 ^ w3   (a torn entry, mixed from two writers, fails this check)
 *   w1 = move (17 bits) | bound << 17 (2 bits) | age << 19 (6 bits) | 1 << 25 (used)
 *   w2 = score (low 16 bits, signed) | (depth + 16) << 16 (8 bits)
 *   w3 = static evaluation (low 16 bits, signed; NO_EVAL when unknown)
 * The bucket is chosen from keyLo; keyHi verifies the entry.
 */
import type { Bound } from '../core/score';

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

/** A bound as the search's results name it (src/core/score.ts's Bound). */
export function boundWord(bound: number): Bound {
  return bound === BOUND_LOWER ? 'lower' : bound === BOUND_UPPER ? 'upper' : 'exact';
}

/** The evaluation slot of an entry whose static evaluation was not computed. */
export const NO_EVAL = -32768;

const ENTRY_WORDS = 4;
const BUCKET_ENTRIES = 4;
const BUCKET_WORDS = ENTRY_WORDS * BUCKET_ENTRIES;
const USED = 1 << 25;
/** The age field of w1: 6 bits, counting searches and wrapping. */
export const AGE_MASK = 63;

/** The age of the search after one of age `age` (what newSearch sets; the pools hand it to their threads). */
export const nextAge = (age: number): number => (age + 1) & AGE_MASK;
/** The move field of w1: the low 17 bits of a move (from, to, type). */
const MOVE_MASK = (1 << 17) - 1;

/**
 * The first word of the bucket of `keyLo` in a table of `buckets` buckets: the high half of
 * keyLo × buckets, a bucket index without a division. Exact in doubles for any table the Hash
 * option allows (keyLo < 2^32, buckets ≤ 2^27 at 8 GB), and never a 32-bit operation on the
 * result (a table of 2 GB or more has word indices of 2^29 and up).
 */
export function bucketWord(keyLo: number, buckets: number): number {
  return Math.floor(((keyLo >>> 0) * buckets) / 4294967296) * BUCKET_WORDS;
}

export class TranspositionTable {
  buffer: SharedArrayBuffer;
  words: Int32Array;
  buckets: number;
  age = 0;
  // probe results
  hitMove = 0;
  hitBound = 0;
  hitScore = 0;
  hitDepth = 0;
  hitEval = NO_EVAL;

  /**
   * A table on `bufferOrMb` (a new buffer of that many MB), using its first `bytes` bytes (whole
   * buckets; the whole buffer when not told): a pool that keeps one buffer for every `Hash` it is
   * set to (src/node/search-pool.ts) gives a smaller table the start of it.
   */
  constructor(bufferOrMb: SharedArrayBuffer | number, bytes?: number) {
    this.buffer = typeof bufferOrMb === 'number' ? TranspositionTable.allocate(bufferOrMb) : bufferOrMb;
    const words = Math.floor(Math.min(bytes ?? this.buffer.byteLength, this.buffer.byteLength) / 4);
    this.words = new Int32Array(this.buffer, 0, words);
    this.buckets = Math.max(1, Math.floor(this.words.length / BUCKET_WORDS));
  }

  /** The size in bytes of a table of `mb` megabytes: whole buckets, at least one. */
  static bytesFor(mb: number): number {
    return Math.max(BUCKET_WORDS * 4, Math.floor((mb * 1024 * 1024) / (BUCKET_WORDS * 4)) * BUCKET_WORDS * 4);
  }

  /** A zeroed shared buffer of `mb` megabytes (at least one bucket). */
  static allocate(mb: number): SharedArrayBuffer {
    const bytes = TranspositionTable.bytesFor(mb);
    // A web page without cross-origin isolation has no SharedArrayBuffer: one thread, a plain buffer.
    return typeof SharedArrayBuffer === 'function'
      ? new SharedArrayBuffer(bytes)
      : (new ArrayBuffer(bytes) as unknown as SharedArrayBuffer);
  }

  clear(): void {
    this.words.fill(0);
    this.age = 0;
  }

  newSearch(): void {
    this.age = nextAge(this.age);
  }

  /** Loaded words are folded in here, so that a prefetch is not optimised away. */
  private sink = 0;

  /**
   * Starts loading the key's bucket into the cache, so that a probe a little later does not
   * wait for memory (call it as soon as a position's key is known).
   */
  prefetch(keyLo: number): void {
    this.sink ^= this.words[this.bucketOf(keyLo) + 1];
  }

  private bucketOf(keyLo: number): number {
    return bucketWord(keyLo, this.buckets);
  }

  /** Looks the key up; on a hit fills hitMove/hitBound/hitScore/hitDepth/hitEval and returns true. */
  probe(keyLo: number, keyHi: number): boolean {
    const w = this.words;
    const b = this.bucketOf(keyLo);
    for (let i = b; i < b + BUCKET_WORDS; i += ENTRY_WORDS) {
      const w1 = w[i + 1];
      const w2 = w[i + 2];
      const w3 = w[i + 3];
      if ((w[i] ^ w1 ^ w2 ^ w3) === keyHi && (w1 & USED) !== 0) {
        this.hitMove = w1 & MOVE_MASK;
        this.hitBound = (w1 >>> 17) & 3;
        this.hitScore = (w2 << 16) >> 16;
        this.hitDepth = ((w2 >>> 16) & 0xff) - 16;
        this.hitEval = (w3 << 16) >> 16;
        return true;
      }
    }
    return false;
  }

  /**
   * Stores a search result. `evalValue` is the position's static evaluation, or NO_EVAL when the
   * search did not compute it (an entry of the same position then keeps the one it had).
   */
  store(
    keyLo: number,
    keyHi: number,
    move: number,
    bound: number,
    score: number,
    depth: number,
    evalValue = NO_EVAL,
  ): void {
    const w = this.words;
    const b = this.bucketOf(keyLo);
    let replace = b;
    let worst = 1 << 30;
    for (let i = b; i < b + BUCKET_WORDS; i += ENTRY_WORDS) {
      const w1 = w[i + 1];
      const w2 = w[i + 2];
      const w3 = w[i + 3];
      if ((w1 & USED) === 0) {
        if (worst > -1000) {
          worst = -1000;
          replace = i;
        }
        continue;
      }
      if ((w[i] ^ w1 ^ w2 ^ w3) === keyHi) {
        // same position: keep the old move when the new one has none, and the old evaluation
        if (move === 0) move = w1 & MOVE_MASK;
        if (evalValue === NO_EVAL) evalValue = (w3 << 16) >> 16;
        replace = i;
        break;
      }
      const d = ((w2 >>> 16) & 0xff) - 16;
      const relAge = (this.age - ((w1 >>> 19) & AGE_MASK)) & AGE_MASK;
      const value = d - 8 * relAge;
      if (value < worst) {
        worst = value;
        replace = i;
      }
    }
    const w1 = (move & MOVE_MASK) | ((bound & 3) << 17) | (this.age << 19) | USED;
    const dd = Math.max(-16, Math.min(239, depth)) + 16;
    const w2 = (score & 0xffff) | (dd << 16);
    const w3 = evalValue & 0xffff;
    w[replace + 1] = w1;
    w[replace + 2] = w2;
    w[replace + 3] = w3;
    w[replace] = keyHi ^ w1 ^ w2 ^ w3;
  }

  /** Per mille of the first 1000 entries used in the current search. */
  hashfull(): number {
    const w = this.words;
    const n = Math.min(1000, this.buckets * BUCKET_ENTRIES);
    let used = 0;
    for (let e = 0; e < n; e++) {
      const w1 = w[e * ENTRY_WORDS + 1];
      if ((w1 & USED) !== 0 && ((w1 >>> 19) & AGE_MASK) === this.age) used++;
    }
    return Math.round((used * 1000) / n);
  }
}
