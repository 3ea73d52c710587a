import { describe, expect, it } from 'vitest';
import { mirrorPosition, mulberry32, type Position } from '../../src/core/index';
import { MATE_BOUND } from '../../src/core/score';
import { MAX_ACTIVE, NUM_FEATURES, activeFeatures } from '../../src/nnue/features';
import { dequantise, floatForward, floatNetwork, quantise } from '../../src/train/float-network';
import {
  DEFAULT_SCALE,
  MAX_EVAL,
  addFeature,
  evaluatePosition,
  forward,
  fnv1a,
  readNetwork,
  refreshAccumulator,
  subFeature,
  writeNetwork,
} from '../../src/nnue/network';
import { extremeNetwork, randomPositions } from './helpers';

/** A float network with weights of the size a trained one has. */
function randomFloatNetwork(hidden: number, seed: number) {
  const rand = mulberry32(seed);
  const u = (a: number): number => (((rand() >>> 0) / 4294967296) * 2 - 1) * a;
  const net = floatNetwork(hidden);
  for (let i = 0; i < net.ftWeights.length; i++) net.ftWeights[i] = u(0.15);
  for (let j = 0; j < hidden; j++) net.ftBias[j] = 0.3 + u(0.2);
  for (let j = 0; j < 2 * hidden; j++) net.outWeights[j] = u(2);
  net.outBias[0] = u(0.1);
  return net;
}

const f0 = new Int32Array(MAX_ACTIVE);
const f1 = new Int32Array(MAX_ACTIVE);

function floatEval(net: ReturnType<typeof floatNetwork>, pos: Position): number {
  const n0 = activeFeatures(pos, pos.side, f0);
  const n1 = activeFeatures(pos, pos.side ^ 1, f1);
  return floatForward(net, f0, n0, f1, n1) * DEFAULT_SCALE;
}

/** Element by element (vitest's deep equality is slow on large typed arrays). */
function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const positions = randomPositions(25, 3);
const fnet = randomFloatNetwork(32, 42);
const qnet = quantise(fnet, { scale: DEFAULT_SCALE, editions: 7, name: 'test net: random, seed 42' });

describe('NNUE network', () => {
  it('round-trips through its file: the same header, weights and outputs', () => {
    const bytes = writeNetwork(qnet);
    const r = readNetwork(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const back = r.value;
    expect(back).toMatchObject({
      hidden: 32,
      editions: 7,
      scale: DEFAULT_SCALE,
      qa: 255,
      qb: 64,
      name: 'test net: random, seed 42',
    });
    expect(
      same(back.ftWeights, qnet.ftWeights) && same(back.ftBias, qnet.ftBias) && same(back.outWeights, qnet.outWeights),
    ).toBe(true);
    expect(back.outBias).toBe(qnet.outBias);
    for (const pos of positions) expect(evaluatePosition(back, pos)).toBe(evaluatePosition(qnet, pos));
    // writing again gives the same bytes, and the checksum is the spec's FNV-1a of the bytes before it
    expect(same(writeNetwork(back), bytes)).toBe(true);
    expect(new DataView(bytes.buffer).getUint32(bytes.length - 4, true)).toBe(fnv1a(bytes, bytes.length - 4));
    expect(fnv1a(new TextEncoder().encode('a'))).toBe(0xe40c292c); // the published FNV-1a test vector
  });

  it('lays the file out as the spec says', () => {
    const bytes = writeNetwork(qnet);
    const v = new DataView(bytes.buffer);
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe('THOTHNN1');
    const header = [8, 12, 16, 20, 24, 28, 32, 36].map((o) => v.getUint32(o, true));
    const nameLen = new TextEncoder().encode(qnet.name).length;
    expect(header).toEqual([1, 7, NUM_FEATURES, 32, 400, 255, 64, nameLen]);
    const wAt = 40 + nameLen;
    expect(v.getInt16(wAt + 2 * (5 * 32 + 3), true)).toBe(qnet.ftWeights[5 * 32 + 3]);
    expect(bytes.length).toBe(wAt + 2 * (NUM_FEATURES * 32 + 32 + 64) + 4 + 4);
  });

  it('refuses a truncated, foreign, damaged or mislabelled file with a typed error', () => {
    const bytes = writeNetwork(qnet);
    const kind = (b: Uint8Array): string => {
      const r = readNetwork(b);
      return r.ok ? 'accepted' : r.error.kind;
    };
    expect(kind(bytes.subarray(0, bytes.length - 1))).toBe('truncated');
    expect(kind(bytes.subarray(0, 20))).toBe('truncated');
    expect(kind(new Uint8Array(0))).toBe('truncated');
    expect(kind(new TextEncoder().encode('{"this": "is json, not a network"}'))).toBe('magic');
    expect(kind(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe('magic');
    const damaged = bytes.slice();
    damaged[1000] ^= 1;
    expect(kind(damaged)).toBe('checksum');
    const longer = new Uint8Array(bytes.length + 3);
    longer.set(bytes);
    expect(kind(longer)).toBe('size');
    const patched = (at: number, value: number): Uint8Array => {
      const b = bytes.slice();
      new DataView(b.buffer).setUint32(at, value, true);
      return b;
    };
    expect(kind(patched(8, 2))).toBe('version');
    expect(kind(patched(16, 768))).toBe('header');
    expect(kind(patched(20, 0))).toBe('header');
    expect(kind(patched(20, 64))).toBe('truncated');
    const r = readNetwork(bytes.subarray(0, 100));
    expect(r.ok ? '' : r.error.message).toMatch(/^truncated: 100 bytes/);
  });

  it('dequantises exactly: quantising the float network again gives the same file', () => {
    const q = quantise(randomFloatNetwork(8, 11), { scale: 400, editions: 7, name: 'q' });
    const again = quantise(dequantise(q), { scale: 400, editions: 7, name: 'q' });
    expect(writeNetwork(again)).toEqual(writeNetwork(q));
  });

  it('computes the quantised output close to the float output on real positions', () => {
    // Rounding the feature weights to 1/255 moves each accumulator by about 0.01 over ~60 active
    // features; through the output weights that is about 2 % of the output, whatever its size.
    let error = 0;
    let size = 0;
    for (const pos of positions) {
      const f = floatEval(fnet, pos);
      error += Math.abs(evaluatePosition(qnet, pos) - f);
      size += Math.abs(f);
    }
    expect(size / positions.length).toBeGreaterThan(200); // the outputs are not all near 0
    expect(error / size).toBeLessThan(0.03);
  });

  it('follows the integer formula of the spec exactly', () => {
    const H = qnet.hidden;
    const acc = new Int32Array(2 * H);
    for (const pos of positions.slice(0, 20)) {
      const n0 = activeFeatures(pos, pos.side, f0);
      const n1 = activeFeatures(pos, pos.side ^ 1, f1);
      refreshAccumulator(qnet, f0, n0, acc, 0);
      refreshAccumulator(qnet, f1, n1, acc, H);
      // the same sum in BigInt, independent of doubles
      let sum = 0n;
      for (let j = 0; j < 2 * H; j++) {
        const x = BigInt(Math.min(Math.max(acc[j], 0), 255));
        sum += x * x * BigInt(qnet.outWeights[j]);
      }
      const out = sum / 255n + BigInt(qnet.outBias); // BigInt division truncates toward zero
      expect(forward(qnet, acc, 0, acc, H)).toBe(Number((out * 400n) / (255n * 64n)));
    }
  });

  it('an evaluation stays below the score of a won or lost game, whatever the weights', () => {
    const low = extremeNetwork(new Int16Array(2 * 16).fill(-32768), -(2 ** 31));
    for (const pos of positions.slice(0, 5)) expect(evaluatePosition(low, pos)).toBe(-MAX_EVAL);
    const high = extremeNetwork(new Int16Array(2 * 16).fill(32767), 2 ** 31 - 1);
    for (const pos of positions.slice(0, 5)) expect(evaluatePosition(high, pos)).toBe(MAX_EVAL);
    expect(MAX_EVAL).toBeLessThan(MATE_BOUND);
  });

  it('updates an accumulator by adding and taking off rows as a refresh computes it', () => {
    const H = qnet.hidden;
    const a = new Int32Array(H);
    const b = new Int32Array(H);
    const [p, q] = positions;
    const np = activeFeatures(p, 0, f0);
    const nq = activeFeatures(q, 0, f1);
    refreshAccumulator(qnet, f0, np, a);
    for (let k = 0; k < np; k++) subFeature(qnet, a, 0, f0[k]);
    for (let k = 0; k < nq; k++) addFeature(qnet, a, 0, f1[k]);
    refreshAccumulator(qnet, f1, nq, b);
    expect(a).toEqual(b);
  });

  it('evaluates a position and its mirror (colours swapped) the same', () => {
    for (const pos of positions.slice(0, 40))
      expect(evaluatePosition(qnet, mirrorPosition(pos))).toBe(evaluatePosition(qnet, pos));
  });
});
