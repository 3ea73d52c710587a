/**
 * The network (docs/nnue.md): NUM_FEATURES → H feature transformer shared by both perspectives,
 * [stm, nstm] concatenated, SCReLU, one output; the output times SCALE is centi-pyramids from the
 * side to move's view. The quantised network (int16 weights) the engine plays with, the network
 * file's reader and writer, and the exact integer inference the engine and the trainer share (the
 * float network the trainer fits is src/train/float-network.ts). Browser-safe: bytes in, bytes
 * out; no I/O here.
 */
import type { Position } from '../core/position';
import { MATE_BOUND } from '../core/score';
import { err, ok, type Result } from '../core/result';
import { MAX_ACTIVE, NUM_FEATURES, activeFeatures } from './features';

/** The quantisation factors: feature-transformer weights are floats × QA, output weights × QB. */
export const QA = 255;
export const QB = 64;
export const DEFAULT_SCALE = 400;
const NETWORK_MAGIC = 'THOTHNN1';
const NETWORK_VERSION = 1;
/** The largest hidden layer a file may declare (a bound against absurd headers). */
export const MAX_HIDDEN = 4096;
const MAX_NAME_BYTES = 1 << 16;

/** A quantised network as the file holds it. */
export interface Network {
  readonly hidden: number;
  /** Bit e set: trained for edition e (0 khet2, 1 khet1, 2 deflexion). */
  readonly editions: number;
  readonly scale: number;
  readonly qa: number;
  readonly qb: number;
  /** Free text: the data, epochs, seed. */
  readonly name: string;
  readonly ftWeights: Int16Array;
  readonly ftBias: Int16Array;
  readonly outWeights: Int16Array;
  /** In QA · QB units. */
  readonly outBias: number;
}

/** acc[at..at+H) = the bias plus the rows of the `count` features (the from-scratch refresh). */
export function refreshAccumulator(
  net: Network,
  features: ArrayLike<number>,
  count: number,
  acc: Int32Array,
  at = 0,
): void {
  const H = net.hidden;
  const w = net.ftWeights;
  for (let j = 0; j < H; j++) acc[at + j] = net.ftBias[j];
  for (let k = 0; k < count; k++) {
    const row = features[k] * H;
    for (let j = 0; j < H; j++) acc[at + j] += w[row + j];
  }
}

/** Adds feature f's row to the accumulator at acc[at..]. */
export function addFeature(net: Network, acc: Int32Array, at: number, f: number): void {
  const H = net.hidden;
  const w = net.ftWeights;
  const row = f * H;
  for (let j = 0; j < H; j++) acc[at + j] += w[row + j];
}

/** Takes feature f's row off the accumulator at acc[at..]. */
export function subFeature(net: Network, acc: Int32Array, at: number, f: number): void {
  const H = net.hidden;
  const w = net.ftWeights;
  const row = f * H;
  for (let j = 0; j < H; j++) acc[at + j] -= w[row + j];
}

/**
 * The evaluation in centi-pyramids from the side to move's view, from the side to move's
 * accumulator and the other side's, in exact integer arithmetic: every product and sum stays an
 * integer below 2^53, so doubles compute it exactly (Int32 would overflow).
 */
export function forward(net: Network, stm: Int32Array, stmAt: number, nstm: Int32Array, nstmAt: number): number {
  const H = net.hidden;
  const qa = net.qa;
  const w = net.outWeights;
  let sum = 0;
  for (let j = 0; j < H; j++) {
    let x = stm[stmAt + j];
    x = x < 0 ? 0 : x > qa ? qa : x;
    sum += x * x * w[j];
  }
  for (let j = 0; j < H; j++) {
    let x = nstm[nstmAt + j];
    x = x < 0 ? 0 : x > qa ? qa : x;
    sum += x * x * w[H + j];
  }
  return outputOf(net, sum);
}

/**
 * The evaluation from the forward pass's sum Σ screlu(acc) · w (an exact integer): divided by QA
 * toward zero, the output bias added, scaled to centi-pyramids toward zero.
 */
export function outputOf(net: Network, sum: number): number {
  const out = ((Math.trunc(sum / net.qa) + net.outBias) * net.scale) / (net.qa * net.qb);
  // Never past the scores of a won or lost game: a network of extreme weights gave evaluations of
  // millions, past the search's infinite window, whose first iteration then never ended (and
  // never read `stop`). `| 0` truncates toward zero like Math.trunc, and never gives −0 (see
  // src/search/search.ts).
  return (out > MAX_EVAL ? MAX_EVAL : out < -MAX_EVAL ? -MAX_EVAL : out) | 0;
}

/** The largest evaluation a network gives, either way: below every won or lost game's score (MATE_BOUND). */
export const MAX_EVAL = MATE_BOUND - 1;

let scratchFeatures = new Int32Array(MAX_ACTIVE);
let scratchAcc = new Int32Array(0);

/** The network's evaluation of `pos` computed from scratch (side to move's view, centi-pyramids). */
export function evaluatePosition(net: Network, pos: Position): number {
  const H = net.hidden;
  if (scratchAcc.length < 2 * H) scratchAcc = new Int32Array(2 * H);
  if (scratchFeatures.length < MAX_ACTIVE) scratchFeatures = new Int32Array(MAX_ACTIVE);
  const us = pos.side;
  let n = activeFeatures(pos, us, scratchFeatures);
  refreshAccumulator(net, scratchFeatures, n, scratchAcc, 0);
  n = activeFeatures(pos, us ^ 1, scratchFeatures);
  refreshAccumulator(net, scratchFeatures, n, scratchAcc, H);
  return forward(net, scratchAcc, 0, scratchAcc, H);
}

// --- The file (little-endian; docs/nnue.md) ---

export type NetworkFileErrorKind = 'truncated' | 'magic' | 'version' | 'header' | 'size' | 'checksum' | 'name';

export interface NetworkFileError {
  kind: NetworkFileErrorKind;
  message: string;
}

/** FNV-1a, 32 bits, of bytes[0..end). */
export function fnv1a(bytes: Uint8Array, end = bytes.length): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

const HEADER_BYTES = 8 + 7 * 4 + 4; // magic, version … qb, name length

function fileSize(hidden: number, nameBytes: number): number {
  return HEADER_BYTES + nameBytes + 2 * (NUM_FEATURES * hidden + hidden + 2 * hidden) + 4 + 4;
}

/** The network as the bytes of a file. */
export function writeNetwork(net: Network): Uint8Array {
  const name = new TextEncoder().encode(net.name);
  if (name.length > MAX_NAME_BYTES) throw new Error('network name too long');
  const H = net.hidden;
  const bytes = new Uint8Array(fileSize(H, name.length));
  const v = new DataView(bytes.buffer);
  let o = 0;
  for (let i = 0; i < 8; i++) bytes[o++] = NETWORK_MAGIC.charCodeAt(i);
  for (const x of [NETWORK_VERSION, net.editions, NUM_FEATURES, H, net.scale, net.qa, net.qb, name.length]) {
    v.setUint32(o, x, true);
    o += 4;
  }
  bytes.set(name, o);
  o += name.length;
  for (const arr of [net.ftWeights, net.ftBias, net.outWeights]) {
    for (let i = 0; i < arr.length; i++) {
      v.setInt16(o, arr[i], true);
      o += 2;
    }
  }
  v.setInt32(o, net.outBias, true);
  o += 4;
  v.setUint32(o, fnv1a(bytes, o), true);
  return bytes;
}

const badNetwork = (kind: NetworkFileErrorKind, message: string): { ok: false; error: NetworkFileError } =>
  err({ kind, message });

/** Reads a network file; refuses (never throws) what is not one written by writeNetwork. */
export function readNetwork(bytes: Uint8Array): Result<Network, NetworkFileError> {
  const magicLen = Math.min(8, bytes.length);
  for (let i = 0; i < magicLen; i++) {
    if (bytes[i] !== NETWORK_MAGIC.charCodeAt(i))
      return badNetwork('magic', `not a Thoth network file (it does not start with ${NETWORK_MAGIC})`);
  }
  if (bytes.length < HEADER_BYTES)
    return badNetwork('truncated', `truncated: ${bytes.length} bytes, shorter than the header`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number): number => v.getUint32(at, true);
  const version = u32(8);
  if (version !== NETWORK_VERSION)
    return badNetwork('version', `unknown format version ${version} (this build reads ${NETWORK_VERSION})`);
  const [editions, inputs, hidden, scale, qa, qb, nameLen] = [12, 16, 20, 24, 28, 32, 36].map(u32);
  if (inputs !== NUM_FEATURES)
    return badNetwork('header', `the network has ${inputs} inputs, this build's features are ${NUM_FEATURES}`);
  if (hidden < 1 || hidden > MAX_HIDDEN)
    return badNetwork('header', `hidden layer of ${hidden} neurons (1 to ${MAX_HIDDEN})`);
  if (editions === 0 || (editions & ~7) !== 0)
    return badNetwork('header', `edition flags ${editions} (bits 0 to 2, at least one)`);
  if (scale < 1 || scale > 100_000) return badNetwork('header', `output scale ${scale} (1 to 100000)`);
  if (qa < 1 || qa > 1023 || qb < 1 || qb > 1023)
    return badNetwork('header', `quantisation factors ${qa}, ${qb} (1 to 1023)`);
  if (nameLen > MAX_NAME_BYTES) return badNetwork('header', `name of ${nameLen} bytes (at most ${MAX_NAME_BYTES})`);
  const size = fileSize(hidden, nameLen);
  if (bytes.length < size)
    return badNetwork(
      'truncated',
      `truncated: ${bytes.length} bytes, a network of ${hidden} hidden neurons has ${size}`,
    );
  if (bytes.length > size)
    return badNetwork('size', `${bytes.length} bytes, a network of ${hidden} hidden neurons has ${size}`);
  const sum = u32(size - 4);
  if (fnv1a(bytes, size - 4) !== sum) return badNetwork('checksum', 'bad checksum: the file is damaged');
  let name: string;
  try {
    // a copy: a browser's TextDecoder refuses a view of shared memory (the page's network is
    // shared with its search workers where the page is cross-origin isolated)
    name = new TextDecoder('utf-8', { fatal: true }).decode(bytes.slice(HEADER_BYTES, HEADER_BYTES + nameLen));
  } catch {
    return badNetwork('name', 'the name is not UTF-8');
  }
  let o = HEADER_BYTES + nameLen;
  const int16s = (n: number): Int16Array => {
    const a = new Int16Array(n);
    for (let i = 0; i < n; i++, o += 2) a[i] = v.getInt16(o, true);
    return a;
  };
  const ftWeights = int16s(NUM_FEATURES * hidden);
  const ftBias = int16s(hidden);
  const outWeights = int16s(2 * hidden);
  const outBias = v.getInt32(o, true);
  return ok({ hidden, editions, scale, qa, qb, name, ftWeights, ftBias, outWeights, outBias });
}

/** The length of a network file's header: what networkFileBytes needs to read. */
export const NETWORK_HEADER_BYTES = HEADER_BYTES;

/**
 * The size a network file must have, from its first NETWORK_HEADER_BYTES bytes alone (checked as
 * readNetwork checks them), so that a reader can refuse a foreign or oversized file before
 * reading all of it.
 */
export function networkFileBytes(header: Uint8Array): Result<number, NetworkFileError> {
  if (header.length < HEADER_BYTES) return readNetwork(header) as { ok: false; error: NetworkFileError };
  const h = header.subarray(0, HEADER_BYTES);
  const r = readNetwork(h); // the header alone: refused for what is wrong with it, else cut short
  if (!r.ok && r.error.kind !== 'truncated') return r;
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  return ok(fileSize(v.getUint32(20, true), v.getUint32(36, true)));
}

/** A reader's refusal in words, for `info string error: …` and the command line. */
export function formatNetworkError(e: NetworkFileError): string {
  return `network file refused: ${e.message}`;
}

/**
 * The parsed network of a file's bytes, parsed again only when the bytes change (by length and
 * stored checksum): a thread receives the same bytes as a new SharedArrayBuffer object with every
 * task. The bytes were checked when they were loaded; bad ones here are a programming error.
 */
export class NetworkCache {
  private net: Network | null = null;
  private key = '';

  get(bytes: ArrayBufferLike): Network {
    const view = new Uint8Array(bytes);
    const n = view.length;
    const key = `${n}:${n >= 4 ? (view[n - 4] | (view[n - 3] << 8) | (view[n - 2] << 16) | (view[n - 1] << 24)) >>> 0 : 0}`;
    if (this.net === null || key !== this.key) {
      const r = readNetwork(view);
      if (!r.ok) throw new Error(`network: ${formatNetworkError(r.error)}`);
      this.net = r.value;
      this.key = key;
    }
    return this.net;
  }
}
