/**
 * What bench/nnue.mjs times (bundled by it with esbuild): a search with the network against the
 * hand-written evaluation, and the evaluation alone (the lazy update of one ply plus the forward
 * pass), with the network's WebAssembly SIMD kernels and with the plain JavaScript ones.
 */
import { MAX_MOVES, parseKfen, type Position } from '../src/core/index';
import { readNetwork, type Network } from '../src/nnue/network';
import { Beams } from '../src/search/beams';
import { BENCH_POSITIONS, type BenchPosition } from '../src/search/bench';
import { evaluateBeams } from '../src/search/evaluate';
import * as nnue from '../src/search/nnue';
import { DEFAULT_LIMITS, Searcher } from '../src/search/search';
import { TranspositionTable } from '../src/search/tt';
import { randomNetwork } from '../test/nnue/helpers';

/** Whether this build has the SIMD kernels and this runtime runs them (false before them). */
export const simdAvailable = (): boolean => typeof nnue.simdAvailable === 'function' && nnue.simdAvailable();
// A build before the kernels (bench/nnue.mjs --base) has no choice: its one path is 'js'.
const setDefaultKernels = (k: 'auto' | Kernels): void => {
  if (typeof nnue.setDefaultKernels === 'function') nnue.setDefaultKernels(k);
};

/** hce: the hand-written evaluation; js, simd, simd16: the network with those kernels. */
export type Variant = 'hce' | 'js' | 'simd' | 'simd16';
type Kernels = 'js' | 'simd' | 'simd16';

/** Whether the kernels run here with the network in use (simd16 needs one whose accumulators fit int16). */
export function kernelsRun(kind: Kernels): boolean {
  try {
    // a build before the kernels has one path, its JavaScript one, and no `kind`
    return ((new nnue.NnueStack(net, 1, kind) as { kind?: string }).kind ?? 'js') === kind;
  } catch {
    return false;
  }
}

let net: Network = randomNetwork(128, 7);

/** The network to time: a network file's bytes, or null for a random one (H = 128). */
export function useNetwork(bytes: Uint8Array | null): string {
  if (bytes === null) net = randomNetwork(128, 7);
  else {
    const r = readNetwork(bytes);
    if (!r.ok) throw new Error(r.error.message);
    net = r.value;
  }
  searchers.clear();
  stacks = null;
  return `H = ${net.hidden}, ${net.name}`;
}

function position(p: BenchPosition): Position {
  const r = parseKfen(p.kfen, p.edition);
  if (!r.ok) throw new Error(`bad bench position: ${r.error.message}`);
  return r.value;
}

/** The bench's middle games (not the setups, not the tactical ones). */
export const MIDDLE_GAMES = BENCH_POSITIONS.slice(8, 21);

const searchers = new Map<Variant, Searcher>();

/** Searches `positions` to `depth` with a fresh table each; returns the nodes and milliseconds. */
export function searchRound(
  variant: Variant,
  positions: BenchPosition[],
  depth: number,
): { nodes: number; ms: number } {
  let s = searchers.get(variant);
  if (s === undefined) {
    s = new Searcher(new TranspositionTable(16));
    if (variant !== 'hce') {
      setDefaultKernels(variant);
      s.setNetwork(net);
      setDefaultKernels('auto');
    }
    searchers.set(variant, s);
  }
  let nodes = 0;
  const t0 = performance.now();
  for (const p of positions) {
    s.tt.clear();
    s.clearHistory();
    nodes += s.run(position(p), { ...DEFAULT_LIMITS, depth }).nodes;
  }
  return { nodes, ms: performance.now() - t0 };
}

/** walk: the moves and beams only, no evaluation (subtracted from the others). */
export type EvalVariant = 'walk' | Variant;

const beams = new Beams(4);
let stacks: Map<Kernels, nnue.NnueStack> | null = null;
const moves = new Int32Array(MAX_MOVES);
const evalPositions = MIDDLE_GAMES.map(position);

/**
 * Every move of every middle game, `reps` times: make it, record it, evaluate the child (one lazy
 * update from the root plus the forward pass), take it back. Returns the evaluations, the
 * milliseconds and a checksum of the evaluations.
 */
export function evalRound(variant: EvalVariant, reps: number): { evals: number; ms: number; sum: number } {
  stacks ??= new Map(
    (['js', 'simd', 'simd16'] as const).filter(kernelsRun).map((k) => [k, new nnue.NnueStack(net, 4, k)]),
  );
  const stack = variant === 'hce' || variant === 'walk' ? null : (stacks.get(variant) ?? null);
  if (stack === null && variant !== 'hce' && variant !== 'walk') throw new Error(`no ${variant} kernels here`);
  let evals = 0;
  let sum = 0;
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) {
    for (const pos of evalPositions) {
      beams.trace(pos, 0);
      if (stack !== null) stack.refresh(pos, 0);
      const n = pos.generate(moves, 0);
      for (let i = 0; i < n; i++) {
        pos.makeTraced(moves[i], beams.theirMask, 3);
        beams.afterMove(pos, 1);
        if (stack !== null) {
          stack.recordMove(pos, 1);
          sum += stack.evaluate(beams, 1);
        } else if (variant === 'hce') {
          sum += evaluateBeams(pos, beams.ourKill[1], beams.ourMask, 3, beams.theirKill[1], beams.theirMask, 3);
        }
        evals++;
        pos.unmake();
      }
    }
  }
  return { evals, ms: performance.now() - t0, sum };
}
