/**
 * The network's kernels: the WebAssembly SIMD build gives bit for bit what the JavaScript one
 * (network.ts's arithmetic) gives, on random networks and accumulators, extreme weights and
 * accumulators included; the committed module is the compilation of its source; and where the
 * runtime has no SIMD the JavaScript kernels are taken.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mulberry32 } from '../../src/core/index';
import { MAX_ACTIVE, NUM_FEATURES, activeFeatures } from '../../src/nnue/features';
import {
  ADD0,
  ADD1,
  LIST_CAPACITY,
  SUB0,
  SUB1,
  accumulatorBound,
  createKernels,
  simdAvailable,
  type AccumulatorKernels,
} from '../../src/nnue/kernels';
import { forward, refreshAccumulator, type Network } from '../../src/nnue/network';
import { SIMD_WASM_BASE64 } from '../../src/nnue/simd-wasm';
import { MODULE_PATH, compileWat, wasmModuleSource } from '../../tools/build-wasm';
import { randomPositions } from './helpers';

type Rand = () => number;

/** A whole number in [lo, hi]. */
const int = (rand: Rand, lo: number, hi: number): number => lo + ((rand() >>> 0) % (hi - lo + 1));

interface Config {
  H: number;
  /** Feature weights and biases within ±100 (a trained network's size, within int16's bound) or only ±32767. */
  ft: 'small' | 'extreme';
  /** Output weights anywhere in int16, or only 32767, −32767 and −32768. */
  out: 'random' | 'extreme';
  qa: number;
  qb: number;
}

function network({ H, ft, out, qa, qb }: Config, seed: number): Network {
  const rand = mulberry32(seed);
  const w = (): number => (ft === 'extreme' ? (rand() & 1 ? 32767 : -32767) : int(rand, -100, 100));
  const ftWeights = new Int16Array(NUM_FEATURES * H).map(w);
  const ftBias = new Int16Array(H).map(w);
  const outWeights = new Int16Array(2 * H).map(() =>
    out === 'extreme' ? [32767, -32767, -32768][int(rand, 0, 2)] : int(rand, -32768, 32767),
  );
  const outBias = int(rand, -2_000_000, 2_000_000);
  return { hidden: H, editions: 7, scale: 400, qa, qb, name: `test H=${H}`, ftWeights, ftBias, outWeights, outBias };
}

/**
 * An accumulator value: mostly around the clamp [0, QA], some at its edges, some far outside it
 * (to the ends of int32, or of int16 for the 16-bit accumulators).
 */
function accValue(rand: Rand, qa: number, narrow: boolean): number {
  const lo = narrow ? -32768 : -2147483648;
  const hi = narrow ? 32767 : 2147483647;
  switch (int(rand, 0, 6)) {
    case 0:
      return int(rand, lo, hi);
    case 1:
      return [lo, hi][int(rand, 0, 1)];
    case 2:
      return [0, -1, qa, qa + 1, 1, qa - 1][int(rand, 0, 5)];
    case 3:
      return int(rand, -30000, 30000);
    default:
      return int(rand, -qa, 2 * qa);
  }
}

const fitsInt16 = (a: Int32Array): boolean => a.every((x) => x === (x << 16) >> 16);

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

  const configs: Config[] = [16, 64, 128, 256].flatMap((H) => [
    { H, ft: 'small', out: 'extreme', qa: 255, qb: 64 } as const,
    { H, ft: 'extreme', out: 'extreme', qa: 255, qb: 64 } as const,
  ]);
  configs.push(
    { H: 32, ft: 'small', out: 'random', qa: 1023, qb: 1023 },
    { H: 32, ft: 'extreme', out: 'random', qa: 1023, qb: 1023 },
    { H: 48, ft: 'small', out: 'random', qa: 100, qb: 7 },
  );

  it.each(configs)(
    'H = $H, $ft feature weights, $out output weights, QA $qa: the SIMD kernels agree with JavaScript on forward, update and refresh',
    (config) => {
      const { H, ft, qa } = config;
      const rand = mulberry32(H * 7 + qa + (ft === 'small' ? 1 : 0));
      const net = network(config, H + qa);
      const js = createKernels(net, 3, 'js');
      const simd = [createKernels(net, 3, 'simd')];
      // the 16-bit accumulators where the network allows them: small weights and H a multiple of 32
      const narrow = ft === 'small' && H % 32 === 0;
      expect(createKernels(net, 3).kind).toBe(narrow ? 'simd16' : 'simd');
      if (narrow) simd.push(createKernels(net, 3, 'simd16'));
      else expect(() => createKernels(net, 3, 'simd16')).toThrow(H % 32 === 0 ? /beyond int16/ : /multiple of 32/);
      const values = new Int32Array(2 * H);
      const got = new Int32Array(2 * H);
      const want = new Int32Array(2 * H);
      const kernelsFor = (v: Int32Array): AccumulatorKernels[] => [
        js,
        ...simd.filter((k) => k.kind !== 'simd16' || fitsInt16(v)),
      ];
      // forward, from both sides, on random accumulators
      for (let trial = 0; trial < 80; trial++) {
        for (let i = 0; i < 2 * H; i++) values[i] = accValue(rand, qa, narrow && trial % 2 === 0);
        for (const side of [0, 1]) {
          const expected = forward(net, values, side * H, values, (side ^ 1) * H);
          for (const k of kernelsFor(values)) {
            k.writeSlot(1, values);
            expect(k.forward(1, side)).toBe(expected);
          }
        }
      }
      // update: slot 1 = slot 0 + adds − subtractions, then slot 2 from slot 1; full lists once
      const lists = new Int32Array(4 * LIST_CAPACITY);
      let narrowChecked = 0;
      for (let trial = 0; trial < 12; trial++) {
        for (let i = 0; i < 2 * H; i++)
          values[i] = trial % 3 === 0 && !narrow ? accValue(rand, qa, false) : int(rand, -5000, 5000);
        for (const k of [js, ...simd]) k.writeSlot(0, values);
        for (const [src, dst] of [
          [0, 1],
          [1, 2],
        ]) {
          const n = [ADD0, SUB0, ADD1, SUB1].map(() => (trial === 11 ? LIST_CAPACITY : int(rand, 0, 40)));
          for (let l = 0; l < 4; l++)
            for (let i = 0; i < n[l]; i++) lists[l * LIST_CAPACITY + i] = int(rand, 0, NUM_FEATURES - 1);
          // what the update means, row by row
          js.readSlot(src, want);
          for (let l = 0; l < 4; l++) {
            const at = l < 2 ? 0 : H;
            const sign = l % 2 === 0 ? 1 : -1;
            for (let i = 0; i < n[l]; i++) {
              const row = lists[l * LIST_CAPACITY + i] * H;
              for (let j = 0; j < H; j++) want[at + j] += sign * net.ftWeights[row + j];
            }
          }
          for (const k of [js, ...simd]) {
            const before = new Int32Array(2 * H);
            k.readSlot(src, before);
            k.lists.set(lists);
            k.update(src, dst, n[0], n[1], n[2], n[3]);
            k.readSlot(dst, got);
            expect(same(got, want)).toBe(true);
            k.readSlot(src, got);
            expect(same(got, before)).toBe(true); // the source is left alone
            if (k.kind === 'simd16') narrowChecked++;
          }
        }
        for (const side of [0, 1]) for (const k of simd) expect(k.forward(2, side)).toBe(js.forward(2, side));
      }
      if (narrow) expect(narrowChecked).toBe(24);
      // refresh from feature lists as long as a position's
      for (let trial = 0; trial < 5; trial++) {
        const n0 = int(rand, 0, MAX_ACTIVE);
        const n1 = int(rand, 0, MAX_ACTIVE);
        for (let i = 0; i < n0; i++) lists[ADD0 + i] = int(rand, 0, NUM_FEATURES - 1);
        for (let i = 0; i < n1; i++) lists[ADD1 + i] = int(rand, 0, NUM_FEATURES - 1);
        refreshAccumulator(net, lists, n0, want, 0);
        refreshAccumulator(net, lists.subarray(ADD1), n1, want, H);
        for (const k of [js, ...simd]) {
          k.lists.set(lists);
          k.refresh(2, n0, n1);
          k.readSlot(2, got);
          expect(same(got, want)).toBe(true);
        }
      }
    },
  );

  it('bounds the accumulators by the largest weight of each exclusive group of features', () => {
    const config: Config = { H: 32, ft: 'small', out: 'random', qa: 255, qb: 64 };
    const net = network(config, 1);
    net.ftWeights.fill(1);
    net.ftBias.fill(-3);
    expect(accumulatorBound(net)).toBe(3 + MAX_ACTIVE);
    // one neuron's weights at 134: 3 + 243 · 134 = 32565 still fits int16, 135 does not
    for (let f = 0; f < NUM_FEATURES; f++) net.ftWeights[f * 32 + 5] = -134;
    expect(accumulatorBound(net)).toBe(3 + MAX_ACTIVE * 134);
    expect(createKernels(net, 2).kind).toBe('simd16');
    for (let f = 0; f < NUM_FEATURES; f++) net.ftWeights[f * 32 + 5] = 135;
    expect(createKernels(net, 2).kind).toBe('simd');
    // and the bound holds for the positions of random games
    const small = network(config, 2);
    const bound = accumulatorBound(small);
    const feats = new Int32Array(MAX_ACTIVE);
    const acc = new Int32Array(32);
    for (const pos of randomPositions(3, 5)) {
      for (const p of [0, 1]) {
        refreshAccumulator(small, feats, activeFeatures(pos, p, feats), acc, 0);
        for (const x of acc) expect(Math.abs(x)).toBeLessThanOrEqual(bound);
      }
    }
  });

  it('takes the JavaScript kernels where WebAssembly SIMD is missing or H is not a multiple of 16', () => {
    const small = (H: number): Network => network({ H, ft: 'small', out: 'random', qa: 255, qb: 64 }, 1);
    const net = small(32);
    expect(simdAvailable()).toBe(true);
    expect(createKernels(net, 2).kind).toBe('simd16');
    expect(createKernels(small(16), 2).kind).toBe('simd'); // 16-bit accumulators need H a multiple of 32
    expect(createKernels(small(40), 2).kind).toBe('js');
    expect(() => createKernels(small(40), 2, 'simd')).toThrow(/multiple of 16/);
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
