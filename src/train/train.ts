/**
 * The trainer (docs/nnue.md): the float network (float-network.ts) fitted to datagen's positions.
 * Loss: the mean squared error between sigmoid(output · SCALE / K) and the blend
 * λ · sigmoid(score / K) + (1 − λ) · result, with K = LOGISTIC_K, the engine's logistic scale (a score
 * of K centi-pyramids is a 73 % expectation). Adam over every parameter once per batch; the
 * gradient of a batch is a sum over its positions computed sparsely (only the active features'
 * rows), optionally split over worker threads (train-threads.ts).
 *
 * The data are packed once: per position its perspective-0 features (perspective 1's are the
 * FLIP of them), side to move and target, in typed arrays (shared memory, for the threads).
 */
import { EDITION_IDS, Position, mulberry32 } from '../core/index';
import { scanData, type DataFileError } from './data';
import { FLIP, MAX_ACTIVE, NUM_FEATURES, activeFeatures } from '../nnue/features';
import { forward, refreshAccumulator, type Network } from '../nnue/network';
import {
  FT_WEIGHT_LIMIT,
  OUT_WEIGHT_LIMIT,
  dequantise,
  floatForward,
  floatNetwork,
  floatNetworkSize,
  type FloatNetwork,
} from './float-network';

/** The logistic scale of scores: sigmoid(cp / K). */
export const LOGISTIC_K = 400;

export interface TrainingData {
  /** Positions. */
  readonly count: number;
  /** Perspective 0's features of position i: feats[offsets[i] .. offsets[i + 1]). */
  readonly feats: Uint16Array;
  readonly offsets: Uint32Array;
  readonly side: Uint8Array;
  /** Search score (cp, side to move's view) and result (0 loss, 1 draw, 2 win, side to move's view). */
  readonly score: Int16Array;
  readonly result: Uint8Array;
  /** 1 for a position of the validation split. */
  readonly validation: Uint8Array;
  /** Bit e set: the data hold positions of edition e. */
  readonly editions: number;
}

export interface DataSource {
  name: string;
  bytes: Uint8Array;
  /** The file's index for the validation split (default: its place in the list). */
  index?: number;
}

export interface LoadReport {
  data: TrainingData;
  /** Per source: positions read, and the fault that ended it early (an unfinished last game). */
  files: { name: string; positions: number; games: number; warning?: string }[];
}

type Packed = Uint16Array | Uint32Array | Uint8Array | Int16Array;

/** A typed array's constructor: by length, and over a (shared) buffer. */
interface PackedConstructor<T extends Packed> {
  new (length: number): T;
  new (buffer: SharedArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** A growable typed array. */
class Grow<T extends Packed> {
  n = 0;
  a: T;
  constructor(
    private readonly Ctor: PackedConstructor<T>,
    capacity: number,
  ) {
    this.a = new Ctor(capacity);
  }
  push(x: number): void {
    if (this.n === this.a.length) {
      const b = new this.Ctor(this.a.length * 2);
      b.set(this.a as never);
      this.a = b;
    }
    this.a[this.n++] = x;
  }
  /** The contents in shared memory (the worker threads read them). */
  shared(): T {
    const out = new this.Ctor(new SharedArrayBuffer(Math.max(1, this.n) * this.Ctor.BYTES_PER_ELEMENT));
    out.set(this.a.subarray(0, this.n) as never);
    return out;
  }
}

/** Whether game `game` of source `file` is in the validation split (a fixed share of games, by hash). */
export function isValidationGame(file: number, game: number, seed: number, fraction: number): boolean {
  let h = (Math.imul(game + 1, 0x9e3779b1) ^ Math.imul(file + 1, 0x85ebca6b) ^ seed) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4294967296 < fraction;
}

/**
 * Reads data files into the packed form. Whole games go to the validation split (positions of
 * one game are alike; splitting inside games would flatter the validation loss). A file that
 * ends in an unfinished game (datagen still writing it) is used up to there, with a warning;
 * any other fault refuses it.
 */
export function loadTrainingData(
  sources: DataSource[],
  valFraction: number,
  seed: number,
): { ok: true; value: LoadReport } | { ok: false; error: { source: string; error: DataFileError } } {
  const feats = new Grow(Uint16Array, 1 << 20);
  const offsets = new Grow(Uint32Array, 1 << 16);
  const side = new Grow(Uint8Array, 1 << 16);
  const score = new Grow(Int16Array, 1 << 16);
  const result = new Grow(Uint8Array, 1 << 16);
  const validation = new Grow(Uint8Array, 1 << 16);
  const positions = EDITION_IDS.map((id) => new Position(id));
  const buf = new Int32Array(MAX_ACTIVE);
  const files: LoadReport['files'] = [];
  let editions = 0;
  offsets.push(0);
  for (const [fileIndex, src] of sources.entries()) {
    const scan = scanData(src.bytes, (r) => {
      const pos = positions[r.edition];
      pos.setup(r.board, r.side);
      const n = activeFeatures(pos, 0, buf);
      for (let k = 0; k < n; k++) feats.push(buf[k]);
      offsets.push(feats.n);
      side.push(r.side);
      score.push(r.score);
      result.push(r.result);
      validation.push(isValidationGame(src.index ?? fileIndex, r.game, seed, valFraction) ? 1 : 0);
      editions |= 1 << r.edition;
    });
    if (scan.error && scan.error.kind !== 'truncated')
      return { ok: false, error: { source: src.name, error: scan.error } };
    if (scan.error && scan.summary.validBytes === 0)
      return { ok: false, error: { source: src.name, error: scan.error } };
    files.push({
      name: src.name,
      positions: scan.summary.positions,
      games: scan.summary.games,
      ...(scan.error ? { warning: `${scan.error.message}: read up to byte ${scan.summary.validBytes}` } : {}),
    });
  }
  const data: TrainingData = {
    count: side.n,
    feats: feats.shared(),
    offsets: offsets.shared(),
    side: side.shared(),
    score: score.shared(),
    result: result.shared(),
    validation: validation.shared(),
    editions,
  };
  return { ok: true, value: { data, files } };
}

/** The targets: λ · sigmoid(score / K) + (1 − λ) · result. */
export function targets(data: TrainingData, lambda: number): Float32Array {
  const t = new Float32Array(new SharedArrayBuffer(Math.max(1, data.count) * 4));
  for (let i = 0; i < data.count; i++) {
    t[i] = lambda / (1 + Math.exp(-data.score[i] / LOGISTIC_K)) + ((1 - lambda) * data.result[i]) / 2;
  }
  return t;
}

/** What one gradient (or loss) computation needs; the same in the main thread and the workers. */
export interface Kernel {
  hidden: number;
  params: Float32Array;
  feats: Uint16Array;
  offsets: Uint32Array;
  side: Uint8Array;
  target: Float32Array;
  /** SCALE / K: the network's output times this is the logit. */
  logitScale: number;
  /** 4H floats of scratch. */
  scratch: Float32Array;
  /** The rows of a position's features: stm, nstm, stm, … (2 · MAX_ACTIVE). */
  rows: Int32Array;
}

/**
 * The summed squared error over positions order[from .. to); with `grads`, adds each position's
 * gradient of it to grads (layout of FloatNetwork.params). Allocation-free.
 */
export function batchGradient(
  k: Kernel,
  order: Uint32Array,
  from: number,
  to: number,
  grads: Float32Array | null,
): number {
  const H = k.hidden;
  const p = k.params;
  const feats = k.feats;
  const offsets = k.offsets;
  const biasAt = NUM_FEATURES * H;
  const outAt = biasAt + H;
  const outBiasAt = outAt + 2 * H;
  const accS = k.scratch.subarray(0, H);
  const accN = k.scratch.subarray(H, 2 * H);
  const dS = k.scratch.subarray(2 * H, 3 * H);
  const dN = k.scratch.subarray(3 * H, 4 * H);
  const rows = k.rows;
  const r = k.logitScale;
  let loss = 0;
  for (let t = from; t < to; t++) {
    const i = order[t];
    const white = k.side[i] === 0;
    const a = offsets[i];
    const b = offsets[i + 1];
    const n = b - a;
    for (let q = 0; q < n; q++) {
      const f0 = feats[a + q];
      const f1 = FLIP[f0];
      rows[2 * q] = (white ? f0 : f1) * H;
      rows[2 * q + 1] = (white ? f1 : f0) * H;
    }
    for (let j = 0; j < H; j++) {
      accS[j] = p[biasAt + j];
      accN[j] = p[biasAt + j];
    }
    for (let q = 0; q < n; q++) {
      const rowS = rows[2 * q];
      const rowN = rows[2 * q + 1];
      for (let j = 0; j < H; j++) {
        accS[j] += p[rowS + j];
        accN[j] += p[rowN + j];
      }
    }
    let out = p[outBiasAt];
    for (let j = 0; j < H; j++) {
      const xs = accS[j];
      const cs = xs < 0 ? 0 : xs > 1 ? 1 : xs;
      const xn = accN[j];
      const cn = xn < 0 ? 0 : xn > 1 ? 1 : xn;
      out += cs * cs * p[outAt + j] + cn * cn * p[outAt + H + j];
    }
    const prob = 1 / (1 + Math.exp(-out * r));
    const d = prob - k.target[i];
    loss += d * d;
    if (grads === null) continue;
    const g = 2 * d * prob * (1 - prob) * r;
    grads[outBiasAt] += g;
    for (let j = 0; j < H; j++) {
      const xs = accS[j];
      const xn = accN[j];
      if (xs > 0) {
        const cs = xs > 1 ? 1 : xs;
        grads[outAt + j] += g * cs * cs;
        dS[j] = xs < 1 ? 2 * g * xs * p[outAt + j] : 0;
      } else {
        dS[j] = 0;
      }
      if (xn > 0) {
        const cn = xn > 1 ? 1 : xn;
        grads[outAt + H + j] += g * cn * cn;
        dN[j] = xn < 1 ? 2 * g * xn * p[outAt + H + j] : 0;
      } else {
        dN[j] = 0;
      }
      grads[biasAt + j] += dS[j] + dN[j];
    }
    for (let q = 0; q < n; q++) {
      const rowS = rows[2 * q];
      const rowN = rows[2 * q + 1];
      for (let j = 0; j < H; j++) {
        grads[rowS + j] += dS[j];
        grads[rowN + j] += dN[j];
      }
    }
  }
  return loss;
}

export interface TrainSettings {
  hidden: number;
  epochs: number;
  batch: number;
  lr: number;
  /** The learning rate is multiplied by lrGamma after every lrDrop epochs. */
  lrDrop: number;
  lrGamma: number;
  lambda: number;
  seed: number;
  /** The output's scale to centi-pyramids (SCALE). */
  scale: number;
  /** A warm start: training begins from this network's weights (its hidden size and scale). */
  init?: Network;
}

/** A float network with small seeded random weights, or the weights of `init` (a warm start). */
function initialNetwork(hidden: number, seed: number, init?: Network): FloatNetwork {
  const params = new Float32Array(new SharedArrayBuffer(floatNetworkSize(hidden) * 4));
  if (init) {
    if (init.hidden !== hidden) throw new Error(`the initial network has ${init.hidden} hidden neurons, not ${hidden}`);
    return dequantise(init, params);
  }
  const net = floatNetwork(hidden, params);
  const rand = mulberry32(seed ^ 0x5eed);
  const u = (a: number): number => (((rand() >>> 0) / 4294967296) * 2 - 1) * a;
  for (let i = 0; i < net.ftWeights.length; i++) net.ftWeights[i] = u(0.1);
  for (let j = 0; j < hidden; j++) net.ftBias[j] = u(0.1);
  for (let j = 0; j < 2 * hidden; j++) net.outWeights[j] = u(1 / Math.sqrt(hidden));
  return net;
}

/**
 * Splits a batch's gradient over threads: `compute(from, to)` for the whole batch by default
 * (one thread); the thread pool of train-threads.ts implements it over workers.
 */
export interface GradientSplitter {
  /** Sums the gradient of order[from .. to) into grads; returns the summed loss. */
  gradient(order: Uint32Array, from: number, to: number, grads: Float32Array): Promise<number> | number;
  close(): Promise<void> | void;
}

/** Adam state over every parameter, with the int16 bounds applied after each step. */
class Adam {
  private readonly m: Float32Array;
  private readonly v: Float32Array;
  private t = 0;

  constructor(
    private readonly net: FloatNetwork,
    private readonly beta1 = 0.9,
    private readonly beta2 = 0.999,
    private readonly eps = 1e-8,
  ) {
    this.m = new Float32Array(net.params.length);
    this.v = new Float32Array(net.params.length);
  }

  /** One step with the summed gradient of `count` positions. */
  step(grads: Float32Array, count: number, lr: number): void {
    this.t++;
    const { beta1: b1, beta2: b2, eps, m, v } = this;
    const p = this.net.params;
    const rate = (lr * Math.sqrt(1 - b2 ** this.t)) / (1 - b1 ** this.t);
    const inv = 1 / count;
    const ftEnd = NUM_FEATURES * this.net.hidden + this.net.hidden;
    const outEnd = ftEnd + 2 * this.net.hidden;
    for (let i = 0; i < p.length; i++) {
      const g = grads[i] * inv;
      const mi = b1 * m[i] + (1 - b1) * g;
      const vi = b2 * v[i] + (1 - b2) * g * g;
      m[i] = mi;
      v[i] = vi;
      let x = p[i] - (rate * mi) / (Math.sqrt(vi) + eps);
      const limit = i < ftEnd ? FT_WEIGHT_LIMIT : i < outEnd ? OUT_WEIGHT_LIMIT : Infinity;
      x = x > limit ? limit : x < -limit ? -limit : x;
      p[i] = x;
    }
  }
}

export interface EpochReport {
  epoch: number;
  trainLoss: number;
  valLoss: number;
  seconds: number;
  positionsPerSecond: number;
  lr: number;
  /** The pass was stopped before its end (runEpoch's `stop`). */
  stopped?: boolean;
}

/** A trainer's network, optimiser, gradient array and random order, for another trainer to go on with. */
export interface SharedTraining {
  net: FloatNetwork;
  adam: Adam;
  grads: Float32Array;
  rand: () => number;
}

/** The training run: data, network, optimiser, the epochs one by one. */
export class Trainer {
  readonly net: FloatNetwork;
  readonly trainIdx: Uint32Array;
  readonly valIdx: Uint32Array;
  private readonly target: Float32Array;
  private readonly kernel: Kernel;
  private readonly adam: Adam;
  private readonly grads: Float32Array;
  private readonly rand: () => number;
  epoch = 0;

  /**
   * With `shared`, the network, optimiser and order of another trainer (the streamed trainer's
   * chunks, src/train/stream.ts): this one trains it on its own data.
   */
  constructor(
    readonly data: TrainingData,
    readonly settings: TrainSettings,
    shared?: SharedTraining,
  ) {
    this.net = shared?.net ?? initialNetwork(settings.hidden, settings.seed, settings.init);
    this.target = targets(data, settings.lambda);
    let nVal = 0;
    for (let i = 0; i < data.count; i++) nVal += data.validation[i];
    this.trainIdx = new Uint32Array(new SharedArrayBuffer(Math.max(1, data.count - nVal) * 4)).subarray(
      0,
      data.count - nVal,
    );
    this.valIdx = new Uint32Array(Math.max(nVal, 0));
    for (let i = 0, a = 0, b = 0; i < data.count; i++) {
      if (data.validation[i]) this.valIdx[b++] = i;
      else this.trainIdx[a++] = i;
    }
    this.kernel = this.kernelFor(this.net.params);
    this.adam = shared?.adam ?? new Adam(this.net);
    this.grads = shared?.grads ?? new Float32Array(this.net.params.length);
    this.rand = shared?.rand ?? mulberry32(settings.seed);
  }

  /** What another trainer needs to go on training this one's network (SharedTraining). */
  get training(): SharedTraining {
    return { net: this.net, adam: this.adam, grads: this.grads, rand: this.rand };
  }

  /** The kernel over these data with a network's parameters (the workers make their own). */
  kernelFor(params: Float32Array): Kernel {
    const d = this.data;
    return {
      hidden: this.settings.hidden,
      params,
      feats: d.feats,
      offsets: d.offsets,
      side: d.side,
      target: this.target,
      logitScale: this.settings.scale / LOGISTIC_K,
      scratch: new Float32Array(4 * this.settings.hidden),
      rows: new Int32Array(2 * MAX_ACTIVE),
    };
  }

  /** What the workers need to build their kernels. */
  get shared(): { params: Float32Array; target: Float32Array; order: Uint32Array } {
    return { params: this.net.params, target: this.target, order: this.trainIdx };
  }

  /** Mean loss over the validation split (NaN when it is empty). */
  validationLoss(): number {
    return this.valIdx.length === 0
      ? NaN
      : batchGradient(this.kernel, this.valIdx, 0, this.valIdx.length, null) / this.valIdx.length;
  }

  /** The loss of always predicting the training targets' mean: what a network must beat. */
  constantLoss(): number {
    let mean = 0;
    for (const i of this.trainIdx) mean += this.target[i];
    mean /= Math.max(1, this.trainIdx.length);
    let s = 0;
    for (const i of this.valIdx) s += (this.target[i] - mean) ** 2;
    return this.valIdx.length === 0 ? NaN : s / this.valIdx.length;
  }

  /** When a pass last let the event loop run (kept across passes: short epochs add up). */
  private yielded = performance.now();

  learningRate(epoch: number): number {
    const s = this.settings;
    return s.lr * s.lrGamma ** Math.floor((epoch - 1) / s.lrDrop);
  }

  /**
   * One pass over the training split in a fresh seeded order; `onBatch` hears of the positions
   * done. With `stop`, the pass lets the event loop run every ~100 ms (a signal handler may set
   * what `stop` reads) and ends early, before its next batch, once `stop` says so: the report then
   * has `stopped`. Without it the pass runs through, as before.
   */
  async runEpoch(
    splitter?: GradientSplitter,
    onBatch?: (done: number, total: number) => void,
    stop?: () => boolean,
  ): Promise<EpochReport> {
    const t0 = performance.now();
    this.epoch++;
    const { loss, lr, done } = await this.pass(this.epoch, splitter, onBatch, stop);
    const order = this.trainIdx;
    const seconds = (performance.now() - t0) / 1000;
    return {
      epoch: this.epoch,
      trainLoss: loss / Math.max(1, done),
      valLoss: this.validationLoss(),
      seconds,
      positionsPerSecond: done / seconds,
      lr,
      ...(done < order.length ? { stopped: true } : {}),
    };
  }

  /**
   * One pass over the training split in a fresh seeded order at epoch `epoch`'s rate: the summed
   * loss and the positions done (fewer than the split when `stop` ended it early).
   */
  async pass(
    epoch: number,
    splitter?: GradientSplitter,
    onBatch?: (done: number, total: number) => void,
    stop?: () => boolean,
  ): Promise<{ loss: number; lr: number; done: number }> {
    const order = this.trainIdx;
    for (let i = order.length - 1; i > 0; i--) {
      const j = (this.rand() >>> 0) % (i + 1);
      const x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    const lr = this.learningRate(epoch);
    const B = this.settings.batch;
    let loss = 0;
    let done = 0;
    for (let from = 0; from < order.length; from += B) {
      if (stop) {
        if (performance.now() - this.yielded > 100) {
          await new Promise((resolve) => setImmediate(resolve));
          this.yielded = performance.now();
        }
        if (stop()) break;
      }
      const to = Math.min(order.length, from + B);
      done = to;
      this.grads.fill(0);
      loss += splitter
        ? await splitter.gradient(order, from, to, this.grads)
        : batchGradient(this.kernel, order, from, to, this.grads);
      this.adam.step(this.grads, to - from, lr);
      onBatch?.(to, order.length);
    }
    return { loss, lr, done };
  }
}

/**
 * How far the quantised network's evaluation (the engine's integer arithmetic) is from the float
 * network's, in centi-pyramids, over up to `limit` positions of `idx`: the mean and the largest
 * difference, and the mean size of the evaluation for scale.
 */
export function quantisationError(
  net: FloatNetwork,
  q: Network,
  data: TrainingData,
  idx: Uint32Array,
  limit = 5000,
): { mean: number; max: number; meanAbsEval: number } {
  const H = net.hidden;
  const f0 = new Int32Array(MAX_ACTIVE);
  const f1 = new Int32Array(MAX_ACTIVE);
  const acc = new Int32Array(2 * H);
  const n = Math.min(limit, idx.length);
  let sum = 0;
  let max = 0;
  let size = 0;
  for (let t = 0; t < n; t++) {
    const i = idx[t];
    const a = data.offsets[i];
    const count = data.offsets[i + 1] - a;
    const white = data.side[i] === 0;
    for (let k = 0; k < count; k++) {
      const f = data.feats[a + k];
      f0[k] = white ? f : FLIP[f];
      f1[k] = white ? FLIP[f] : f;
    }
    const float = floatForward(net, f0, count, f1, count) * q.scale;
    refreshAccumulator(q, f0, count, acc, 0);
    refreshAccumulator(q, f1, count, acc, H);
    const d = Math.abs(forward(q, acc, 0, acc, H) - float);
    sum += d;
    max = Math.max(max, d);
    size += Math.abs(float);
  }
  return { mean: sum / Math.max(1, n), max, meanAbsEval: size / Math.max(1, n) };
}
