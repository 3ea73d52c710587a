/**
 * The float network the trainer fits (docs/nnue.md): the network of src/nnue/network.ts with float
 * weights, its forward pass, and the conversions to and from the quantised network the engine
 * plays with (int16 weights over QA and QB). Training only: the engine never loads this.
 */
import { NUM_FEATURES } from '../nnue/features';
import { QA, QB, type Network } from '../nnue/network';

/** Float feature weights must stay within this so that they quantise to int16. */
export const FT_WEIGHT_LIMIT = 32767 / QA;
export const OUT_WEIGHT_LIMIT = 32767 / QB;

/**
 * A float network: every parameter in one array (so an optimiser treats them alike), with views:
 * ftWeights[f · H + j] (feature f's H weights contiguous), ftBias[H], outWeights[2H] (stm half
 * first), outBias[1].
 */
export interface FloatNetwork {
  readonly hidden: number;
  readonly params: Float32Array;
  readonly ftWeights: Float32Array;
  readonly ftBias: Float32Array;
  readonly outWeights: Float32Array;
  readonly outBias: Float32Array;
}

export function floatNetworkSize(hidden: number): number {
  return NUM_FEATURES * hidden + hidden + 2 * hidden + 1;
}

/** A float network of zeros over `params` (a fresh array by default). */
export function floatNetwork(
  hidden: number,
  params: Float32Array = new Float32Array(floatNetworkSize(hidden)),
): FloatNetwork {
  if (params.length !== floatNetworkSize(hidden)) throw new Error('parameter array of the wrong size');
  const ft = NUM_FEATURES * hidden;
  return {
    hidden,
    params,
    ftWeights: params.subarray(0, ft),
    ftBias: params.subarray(ft, ft + hidden),
    outWeights: params.subarray(ft + hidden, ft + 3 * hidden),
    outBias: params.subarray(ft + 3 * hidden, ft + 3 * hidden + 1),
  };
}

/** The float network's raw output (before × SCALE) for the two perspectives' feature lists. */
export function floatForward(
  net: FloatNetwork,
  stm: ArrayLike<number>,
  stmCount: number,
  nstm: ArrayLike<number>,
  nstmCount: number,
): number {
  const H = net.hidden;
  let out = net.outBias[0];
  for (let half = 0; half < 2; half++) {
    const feats = half === 0 ? stm : nstm;
    const count = half === 0 ? stmCount : nstmCount;
    for (let j = 0; j < H; j++) {
      let a = net.ftBias[j];
      for (let k = 0; k < count; k++) a += net.ftWeights[feats[k] * H + j];
      a = a < 0 ? 0 : a > 1 ? 1 : a;
      out += a * a * net.outWeights[half * H + j];
    }
  }
  return out;
}

const clampInt16 = (x: number): number => (x > 32767 ? 32767 : x < -32767 ? -32767 : x);

/** The quantised network of a float one (weights rounded to int16, clamped to its range). */
export function quantise(net: FloatNetwork, meta: { scale: number; editions: number; name: string }): Network {
  const H = net.hidden;
  const ftWeights = new Int16Array(NUM_FEATURES * H);
  for (let i = 0; i < ftWeights.length; i++) ftWeights[i] = clampInt16(Math.round(net.ftWeights[i] * QA));
  const ftBias = new Int16Array(H);
  for (let j = 0; j < H; j++) ftBias[j] = clampInt16(Math.round(net.ftBias[j] * QA));
  const outWeights = new Int16Array(2 * H);
  for (let j = 0; j < 2 * H; j++) outWeights[j] = clampInt16(Math.round(net.outWeights[j] * QB));
  const outBias = Math.max(-2147483647, Math.min(2147483647, Math.round(net.outBias[0] * QA * QB)));
  return {
    hidden: H,
    editions: meta.editions,
    scale: meta.scale,
    qa: QA,
    qb: QB,
    name: meta.name,
    ftWeights,
    ftBias,
    outWeights,
    outBias,
  };
}

/** The float network a quantised one stands for (the int16 weights over QA and QB): `quantise`'s inverse, exact on its output. */
export function dequantise(
  net: Network,
  params: Float32Array = new Float32Array(floatNetworkSize(net.hidden)),
): FloatNetwork {
  const f = floatNetwork(net.hidden, params);
  for (let i = 0; i < f.ftWeights.length; i++) f.ftWeights[i] = net.ftWeights[i] / net.qa;
  for (let j = 0; j < net.hidden; j++) f.ftBias[j] = net.ftBias[j] / net.qa;
  for (let j = 0; j < 2 * net.hidden; j++) f.outWeights[j] = net.outWeights[j] / net.qb;
  f.outBias[0] = net.outBias / (net.qa * net.qb);
  return f;
}
