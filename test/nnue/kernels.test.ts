/**
 * The network's kernels: the WebAssembly SIMD build gives bit for bit what the JavaScript one
 * (network.ts's arithmetic) gives, on random networks and accumulators, extreme weights and
 * accumulators included; the committed module is the compilation of its source; and where the
 * runtime has no SIMD the JavaScript kernels are taken.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mulberry32 } from '../../src/core/index';
import { MAX_ACTIVE, NUM_FEATURES } from '../../src/nnue/features';
import { ADD0, ADD1, LIST_CAPACITY, SUB0, SUB1, createKernels, simdAvailable, type AccumulatorKernels } from '../../src/nnue/kernels';
import { forward, refreshAccumulator, type Network } from '../../src/nnue/network';
import { SIMD_WASM_BASE64 } from '../../src/nnue/simd-wasm';
import { MODULE_PATH, compileWat, wasmModuleSource } from '../../tools/build-wasm';

type Rand = () => number;

/** A whole number in [lo, hi]. */
const int = (rand: Rand, lo: number, hi: number): number => lo + ((rand() >>> 0) % (hi - lo + 1));

/** Weights of a trained network's size, or only the extremes ±32767 (and −32768 for the output). */
function network(H: number, seed: number, extreme: boolean, qa = 255, qb = 64): Network {
  const rand = mulberry32(seed);
  const w = (): number => (extreme ? (rand() & 1 ? 32767 : -32767) : int(rand, -200, 200));
  const ftWeights = new Int16Array(NUM_FEATURES * H).map(w);
  const ftBias = new Int16Array(H).map(w);
  const outWeights = new Int16Array(2 * H).map(() => (extreme ? [32767, -32767, -32768][int(rand, 0, 2)] : int(rand, -32768, 32767)));
  const outBias = int(rand, -2_000_000, 2_000_000);
  return { hidden: H, editions: 7, scale: 400, qa, qb, name: `test H=${H}`, ftWeights, ftBias, outWeights, outBias };
}

/** An accumulator value: mostly around the clamp [0, QA], some far outside it, some at its edges. */
function accValue(rand: Rand, qa: number): number {
  switch (int(rand, 0, 5)) {
    case 0: return int(rand, -2147483648, 2147483647);
    case 1: return [0, -1, qa, qa + 1, 1, qa - 1][int(rand, 0, 5)];
    case 2: return int(rand, -40000, 40000);
    default: return int(rand, -qa, 2 * qa);
  }
}

function fillSlot(k: AccumulatorKernels, H: number, slot: number, values: Int32Array): void {
  k.acc.set(values, slot * 2 * H);
}

function slot(k: AccumulatorKernels, H: number, s: number): Int32Array {
  return k.acc.slice(s * 2 * H, (s + 1) * 2 * H);
}

function same(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

describe('NNUE kernels', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('the committed module is a fresh compilation of src/nnue/simd.wat', async () => {
    const bytes = await compileWat();
    expect(Buffer.from(SIMD_WASM_BASE64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(wasmModuleSource(bytes));
  });

  const configs = [16, 64, 128, 256].flatMap((H) => [false, true].map((extreme) => ({ H, extreme, qa: 255, qb: 64 })));
  configs.push({ H: 32, extreme: true, qa: 1023, qb: 1023 }, { H: 48, extreme: false, qa: 100, qb: 7 });

  it.each(configs)('H = $H, extreme weights $extreme, QA $qa: SIMD and JavaScript agree on forward, update and refresh', ({ H, extreme, qa, qb }) => {
    const rand = mulberry32(H * 7 + (extreme ? 1 : 0) + qa);
    const net = network(H, H + qa, extreme, qa, qb);
    const js = createKernels(net, 3, 'js');
    const simd = createKernels(net, 3, 'simd');
    expect([js.kind, simd.kind]).toEqual(['js', 'simd']);
    const values = new Int32Array(2 * H);
    // forward, from both sides, on random accumulators
    for (let trial = 0; trial < 60; trial++) {
      for (let i = 0; i < 2 * H; i++) values[i] = accValue(rand, qa);
      fillSlot(js, H, 1, values);
      fillSlot(simd, H, 1, values);
      for (const side of [0, 1]) {
        const want = forward(net, values, side * H, values, (side ^ 1) * H);
        expect(js.forward(1, side)).toBe(want);
        expect(simd.forward(1, side)).toBe(want);
      }
    }
    // update: slot 1 = slot 0 + adds − subtractions, then slot 2 from slot 1; a full list too
    const lists = new Int32Array(4 * LIST_CAPACITY);
    for (let trial = 0; trial < 12; trial++) {
      for (let i = 0; i < 2 * H; i++) values[i] = trial % 3 === 0 ? accValue(rand, qa) : int(rand, -5000, 5000);
      fillSlot(js, H, 0, values);
      fillSlot(simd, H, 0, values);
      for (const [src, dst] of [[0, 1], [1, 2]]) {
        const n = [ADD0, SUB0, ADD1, SUB1].map(() => (trial === 11 ? LIST_CAPACITY : int(rand, 0, 40)));
        for (let l = 0; l < 4; l++) for (let i = 0; i < n[l]; i++) lists[l * LIST_CAPACITY + i] = int(rand, 0, NUM_FEATURES - 1);
        js.lists.set(lists);
        simd.lists.set(lists);
        js.update(src, dst, n[0], n[1], n[2], n[3]);
        simd.update(src, dst, n[0], n[1], n[2], n[3]);
        // what the update means, row by row
        const want = slot(js, H, src);
        for (let l = 0; l < 4; l++) {
          const at = l < 2 ? 0 : H;
          const sign = l % 2 === 0 ? 1 : -1;
          for (let i = 0; i < n[l]; i++) {
            const row = lists[l * LIST_CAPACITY + i] * H;
            for (let j = 0; j < H; j++) want[at + j] += sign * net.ftWeights[row + j];
          }
        }
        expect(same(slot(js, H, dst), want)).toBe(true);
        expect(same(slot(simd, H, dst), want)).toBe(true);
        expect(same(slot(simd, H, src), slot(js, H, src))).toBe(true); // the source is left alone
      }
      for (const side of [0, 1]) expect(simd.forward(2, side)).toBe(js.forward(2, side));
    }
    // refresh from feature lists as long as a position's
    for (let trial = 0; trial < 5; trial++) {
      const n0 = int(rand, 0, MAX_ACTIVE);
      const n1 = int(rand, 0, MAX_ACTIVE);
      for (let i = 0; i < n0; i++) lists[ADD0 + i] = int(rand, 0, NUM_FEATURES - 1);
      for (let i = 0; i < n1; i++) lists[ADD1 + i] = int(rand, 0, NUM_FEATURES - 1);
      const want = new Int32Array(2 * H);
      refreshAccumulator(net, lists, n0, want, 0);
      refreshAccumulator(net, lists.subarray(ADD1), n1, want, H);
      for (const k of [js, simd]) {
        k.lists.set(lists);
        k.refresh(2, n0, n1);
        expect(same(slot(k, H, 2), want)).toBe(true);
      }
    }
  });

  it('takes the JavaScript kernels where WebAssembly SIMD is missing or H is not a multiple of 16', () => {
    const net = network(16, 1, false);
    expect(simdAvailable()).toBe(true);
    expect(createKernels(net, 2).kind).toBe('simd');
    expect(createKernels(network(40, 1, false), 2).kind).toBe('js');
    expect(() => createKernels(network(40, 1, false), 2, 'simd')).toThrow(/multiple of 16/);
    vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    expect(simdAvailable()).toBe(false);
    expect(createKernels(net, 2).kind).toBe('js');
    expect(() => createKernels(net, 2, 'simd')).toThrow(/no WebAssembly SIMD/);
    vi.restoreAllMocks();
    vi.stubGlobal('WebAssembly', undefined);
    expect(simdAvailable()).toBe(false);
    expect(createKernels(net, 2).kind).toBe('js');
  });
});
