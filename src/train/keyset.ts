/**
 * A set of 64-bit keys (two int32 halves), open addressing in typed arrays: `thoth datagen` keeps
 * the Zobrist key of every position it wrote, millions of them, at 8 bytes each (a JavaScript Set
 * of numbers costs several times that and holds only 53 bits).
 */
export class KeySet {
  private lo: Int32Array;
  private hi: Int32Array;
  private used: Uint8Array;
  private mask: number;
  private shift: number;
  size = 0;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.lo = new Int32Array(cap);
    this.hi = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
  }

  /** Adds the key; false when it was there already. */
  add(lo: number, hi: number): boolean {
    if ((this.size + 1) * 2 > this.lo.length) this.grow();
    return this.insert(lo | 0, hi | 0);
  }

  has(lo: number, hi: number): boolean {
    let i = this.slot(lo | 0, hi | 0);
    while (this.used[i] !== 0) {
      if (this.lo[i] === (lo | 0) && this.hi[i] === (hi | 0)) return true;
      i = (i + 1) & this.mask;
    }
    return false;
  }

  /** The home slot: the high bits of a multiplicative hash of both halves. */
  private slot(lo: number, hi: number): number {
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  private insert(lo: number, hi: number): boolean {
    let i = this.slot(lo, hi);
    while (this.used[i] !== 0) {
      if (this.lo[i] === lo && this.hi[i] === hi) return false;
      i = (i + 1) & this.mask;
    }
    this.used[i] = 1;
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.size++;
    return true;
  }

  private grow(): void {
    const { lo, hi, used } = this;
    const cap = lo.length * 2;
    this.lo = new Int32Array(cap);
    this.hi = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
    this.size = 0;
    for (let i = 0; i < used.length; i++) if (used[i] !== 0) this.insert(lo[i], hi[i]);
  }
}
