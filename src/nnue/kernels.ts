/**
 * The network's hot loops behind one interface, in builds with bit-for-bit the same results:
 * WebAssembly SIMD (src/nnue/simd.wat, where the runtime has it) with i32 accumulators, or with
 * i16 ones for a network whose accumulators provably stay within int16, and plain JavaScript (the
 * fallback). Each set owns a stack of accumulator pairs ("slots", one per ply of the search) and
 * four lists of features that the caller fills before an update or a refresh.
 * Browser-safe: no Node API.
 */
import { EXCLUSIVE_GROUP, MAX_ACTIVE, NUM_FEATURES } from './features';
import { addFeature, forward, outputOf, refreshAccumulator, subFeature, type Network } from './network';
import { SIMD_WASM_BASE64 } from './simd-wasm';

/**
 * Entries per list. A move changes at most 4 pieces, 160 beam squares (both beams, gone and
 * come) and 2 beam targets per perspective and sign; a position has at most MAX_ACTIVE features.
 */
export const LIST_CAPACITY = 256;
if (MAX_ACTIVE > LIST_CAPACITY) throw new Error('LIST_CAPACITY below MAX_ACTIVE');

/** The lists at lists[k · LIST_CAPACITY …]: k = ADD0, SUB0 (perspective 0), ADD1, SUB1 (perspective 1). */
export const ADD0 = 0;
export const SUB0 = LIST_CAPACITY;
export const ADD1 = 2 * LIST_CAPACITY;
export const SUB1 = 3 * LIST_CAPACITY;

/** 'simd': i32 accumulators; 'simd16': i16 ones. */
export type KernelKind = 'js' | 'simd' | 'simd16';
/**
 * 'auto': SIMD where the runtime has it and the network's H is a multiple of 16 (16-bit
 * accumulators where the network allows them: H a multiple of 32 and accumulatorBound within
 * int16), else JavaScript.
 */
export type KernelChoice = 'auto' | KernelKind;

export interface AccumulatorKernels {
  readonly kind: KernelKind;
  /** The four lists of feature indices; the kernels may overwrite what they were given. */
  readonly lists: Int32Array;
  /**
   * Slot dst = slot src plus the rows of lists ADD0[0..nAdd0), ADD1[0..nAdd1) and minus those of
   * SUB0[0..nSub0), SUB1[0..nSub1), for perspective 0 and 1 in turn.
   */
  update(src: number, dst: number, nAdd0: number, nSub0: number, nAdd1: number, nSub1: number): void;
  /** Slot dst from scratch: the biases plus the rows of ADD0[0..n0) (perspective 0) and ADD1[0..n1) (1). */
  refresh(dst: number, n0: number, n1: number): void;
  /** The evaluation (network.ts's `forward`) of slot `slot` with `side` to move. */
  forward(slot: number, side: number): number;
  /** Copies slot `slot` (perspective 0's H, then 1's) into `out` (tests). */
  readSlot(slot: number, out: Int32Array): void;
  /** Sets slot `slot` (tests); values outside the accumulators' width are refused. */
  writeSlot(slot: number, values: Int32Array): void;
}

/** The kernels for `net` with `slots` accumulator pairs. */
export function createKernels(net: Network, slots: number, choice: KernelChoice = 'auto'): AccumulatorKernels {
  const H = net.hidden;
  if (choice === 'auto') {
    if (H % 16 !== 0 || !simdAvailable()) return new JsKernels(net, slots);
    return new SimdKernels(net, slots, narrowFits(net));
  }
  if (choice === 'js') return new JsKernels(net, slots);
  if (H % (choice === 'simd16' ? 32 : 16) !== 0) {
    throw new Error(
      `the ${choice} kernels need a hidden layer that is a multiple of ${choice === 'simd16' ? 32 : 16}, not ${H}`,
    );
  }
  if (!simdAvailable()) throw new Error('this runtime has no WebAssembly SIMD');
  if (choice === 'simd16' && !narrowFits(net))
    throw new Error(`this network's accumulators can reach ${accumulatorBound(net)}, beyond int16`);
  return new SimdKernels(net, slots, choice === 'simd16');
}

const INT16_MAX = 32767;

function narrowFits(net: Network): boolean {
  return net.hidden % 32 === 0 && accumulatorBound(net) <= INT16_MAX;
}

/**
 * A bound on |accumulator| over every position: per neuron, |bias| plus the largest |weight| in
 * each group of features of which at most one is active (EXCLUSIVE_GROUP), the largest over the
 * neurons. Trained networks stay far below int16 (weights of tens, a few thousand in all); a
 * network of extreme weights (±32767) does not.
 */
export function accumulatorBound(net: Network): number {
  const H = net.hidden;
  const w = net.ftWeights;
  const most = new Int32Array(MAX_ACTIVE * H);
  for (let f = 0; f < NUM_FEATURES; f++) {
    const g = EXCLUSIVE_GROUP[f] * H;
    for (let j = 0; j < H; j++) most[g + j] = Math.max(most[g + j], Math.abs(w[f * H + j]));
  }
  let bound = 0;
  for (let j = 0; j < H; j++) {
    let b = Math.abs(net.ftBias[j]);
    for (let g = 0; g < MAX_ACTIVE; g++) b += most[g * H + j];
    bound = Math.max(bound, b);
  }
  return bound;
}

// --- JavaScript ---

class JsKernels implements AccumulatorKernels {
  readonly kind = 'js';
  readonly lists = new Int32Array(4 * LIST_CAPACITY);
  readonly acc: Int32Array;
  private readonly net: Network;
  private readonly H: number;
  private readonly add1 = this.lists.subarray(ADD1, ADD1 + LIST_CAPACITY);

  constructor(net: Network, slots: number) {
    this.net = net;
    this.H = net.hidden;
    this.acc = new Int32Array(slots * 2 * net.hidden);
  }

  update(src: number, dst: number, nAdd0: number, nSub0: number, nAdd1: number, nSub1: number): void {
    const H = this.H;
    const from = src * 2 * H;
    const to = dst * 2 * H;
    this.acc.copyWithin(to, from, from + 2 * H);
    const { net, acc, lists } = this;
    for (let k = ADD0; k < ADD0 + nAdd0; k++) addFeature(net, acc, to, lists[k]);
    for (let k = SUB0; k < SUB0 + nSub0; k++) subFeature(net, acc, to, lists[k]);
    for (let k = ADD1; k < ADD1 + nAdd1; k++) addFeature(net, acc, to + H, lists[k]);
    for (let k = SUB1; k < SUB1 + nSub1; k++) subFeature(net, acc, to + H, lists[k]);
  }

  refresh(dst: number, n0: number, n1: number): void {
    const at = dst * 2 * this.H;
    refreshAccumulator(this.net, this.lists, n0, this.acc, at);
    refreshAccumulator(this.net, this.add1, n1, this.acc, at + this.H);
  }

  forward(slot: number, side: number): number {
    const H = this.H;
    return forward(this.net, this.acc, (slot * 2 + side) * H, this.acc, (slot * 2 + (side ^ 1)) * H);
  }

  readSlot(slot: number, out: Int32Array): void {
    out.set(this.acc.subarray(slot * 2 * this.H, (slot + 1) * 2 * this.H));
  }

  writeSlot(slot: number, values: Int32Array): void {
    this.acc.set(values.subarray(0, 2 * this.H), slot * 2 * this.H);
  }
}

// --- WebAssembly SIMD ---

interface SimdExports {
  setup(
    H: number,
    weights: number,
    bias: number,
    out: number,
    lists: number,
    stride: number,
    qa: number,
    narrow: number,
  ): void;
  update(src: number, dst: number, nAdd0: number, nSub0: number, nAdd1: number, nSub1: number): void;
  refresh(dst: number, n0: number, n1: number): void;
  forward(stm: number, nstm: number): number;
}

let simdBytes: Uint8Array<ArrayBuffer> | null = null;
let simdModule: WebAssembly.Module | null = null;

function wasmBytes(): Uint8Array<ArrayBuffer> {
  if (simdBytes === null) {
    const s = atob(SIMD_WASM_BASE64);
    simdBytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) simdBytes[i] = s.charCodeAt(i);
  }
  return simdBytes;
}

/** Whether this runtime runs the SIMD kernels (it validates their module). */
export function simdAvailable(): boolean {
  return (
    typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function' && WebAssembly.validate(wasmBytes())
  );
}

const PAGE = 65536;

class SimdKernels implements AccumulatorKernels {
  readonly kind: KernelKind;
  readonly lists: Int32Array;
  /** The accumulators' view: Int16Array when narrow. */
  private readonly acc: Int32Array | Int16Array;
  private readonly net: Network;
  private readonly ex: SimdExports;
  private readonly accBase: number;
  private readonly pairBytes: number;

  constructor(net: Network, slots: number, narrow: boolean) {
    const H = net.hidden;
    const accBytes = narrow ? 2 : 4;
    // the layout of src/nnue/simd.wat; every part a multiple of 32 bytes (H is a multiple of 16)
    const listBytes = 4 * LIST_CAPACITY * 4;
    const weights = listBytes;
    const bias = weights + NUM_FEATURES * H * 2;
    const out = bias + H * 2;
    const accBase = out + 2 * H * 2;
    const end = accBase + slots * 2 * H * accBytes;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(end / PAGE) });
    simdModule ??= new WebAssembly.Module(wasmBytes());
    this.ex = new WebAssembly.Instance(simdModule, { env: { memory } }).exports as unknown as SimdExports;
    const buf = memory.buffer;
    new Int16Array(buf, weights, NUM_FEATURES * H).set(net.ftWeights);
    new Int16Array(buf, bias, H).set(net.ftBias);
    new Int16Array(buf, out, 2 * H).set(net.outWeights);
    this.lists = new Int32Array(buf, 0, 4 * LIST_CAPACITY);
    this.acc = narrow ? new Int16Array(buf, accBase, slots * 2 * H) : new Int32Array(buf, accBase, slots * 2 * H);
    this.ex.setup(H, weights, bias, out, 0, LIST_CAPACITY * 4, net.qa, narrow ? 1 : 0);
    this.kind = narrow ? 'simd16' : 'simd';
    this.net = net;
    this.accBase = accBase;
    this.pairBytes = 2 * H * accBytes;
  }

  update(src: number, dst: number, nAdd0: number, nSub0: number, nAdd1: number, nSub1: number): void {
    this.ex.update(
      this.accBase + src * this.pairBytes,
      this.accBase + dst * this.pairBytes,
      nAdd0,
      nSub0,
      nAdd1,
      nSub1,
    );
  }

  refresh(dst: number, n0: number, n1: number): void {
    this.ex.refresh(this.accBase + dst * this.pairBytes, n0, n1);
  }

  forward(slot: number, side: number): number {
    const at = this.accBase + slot * this.pairBytes;
    const half = this.pairBytes >> 1;
    return outputOf(this.net, this.ex.forward(at + side * half, at + (side ^ 1) * half));
  }

  readSlot(slot: number, out: Int32Array): void {
    const n = 2 * this.net.hidden;
    out.set(this.acc.subarray(slot * n, (slot + 1) * n));
  }

  writeSlot(slot: number, values: Int32Array): void {
    const n = 2 * this.net.hidden;
    if (this.kind === 'simd16') {
      for (let i = 0; i < n; i++)
        if (values[i] !== (values[i] << 16) >> 16) throw new RangeError(`${values[i]} is beyond int16`);
    }
    this.acc.set(values.subarray(0, n), slot * n);
  }
}
