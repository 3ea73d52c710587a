/**
 * SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it for engine
 * parameters: each iteration perturbs every parameter at once by ±c_k, plays the two settings
 * against each other, and moves every parameter along its perturbation by the result.
 *
 * Gains, with N iterations, A = N / 10, α = 0.602, γ = 0.101, and per parameter its step at the end
 * c_end and its learning rate at the end r_end (fishtest's defaults: r_end 0.002):
 *   c_k = c / k^γ, c = c_end · N^γ;   a_k = a / (A + k)^α, a = r_end · c_end² · (A + N)^α;
 *   θ_plus = θ + c_k Δ, θ_minus = θ − c_k Δ (Δ_i = ±1), result = wins − losses of θ_plus;
 *   θ ← θ + (a_k / c_k) · result · Δ, held within the parameter's range.
 * The state is plain data (JSON), so a run can stop and go on (`thoth tune --state FILE`).
 */

const SPSA_ALPHA = 0.602;
const SPSA_GAMMA = 0.101;
/** fishtest's default learning rate at the last iteration. */
export const DEFAULT_R_END = 0.002;

export interface SpsaParam {
  name: string;
  min: number;
  max: number;
  /** The perturbation at the last iteration, in the parameter's units. */
  cEnd: number;
  /** The learning rate at the last iteration. */
  rEnd: number;
}

export interface SpsaIteration {
  k: number;
  /** Wins minus losses of the plus side over the iteration's games. */
  result: number;
  games: number;
  /** θ after the update. */
  theta: number[];
}

export interface SpsaState {
  params: SpsaParam[];
  iterations: number;
  /** The next iteration (1-based); past `iterations` the run is done. */
  k: number;
  theta: number[];
  /** The seed of the perturbations; iteration k's signs follow from it and k alone. */
  seed: number;
  history: SpsaIteration[];
}

export function newSpsaState(params: SpsaParam[], start: number[], iterations: number, seed: number): SpsaState {
  return { params, iterations, k: 1, theta: [...start], seed, history: [] };
}

/** c_k and a_k of one parameter at iteration k. */
export function spsaGains(p: SpsaParam, k: number, iterations: number): { c: number; a: number } {
  const A = iterations / 10;
  const c = p.cEnd * iterations ** SPSA_GAMMA;
  const a = p.rEnd * p.cEnd * p.cEnd * (A + iterations) ** SPSA_ALPHA;
  return { c: c / k ** SPSA_GAMMA, a: a / (A + k) ** SPSA_ALPHA };
}

/** ±1 per parameter for iteration k (a small hash of the seed, k and the index: resumable). */
export function spsaSigns(seed: number, k: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(k + 1, 0xc2b2ae35) ^ Math.imul(i + 1, 0x27d4eb2f);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    out.push(h >>> 31 ? 1 : -1);
  }
  return out;
}

const clamp = (v: number, p: SpsaParam): number => Math.min(p.max, Math.max(p.min, v));

/** The two settings to play at the state's iteration, as the engines take them (whole numbers). */
export function spsaPerturb(s: SpsaState): { plus: number[]; minus: number[]; signs: number[] } {
  const signs = spsaSigns(s.seed, s.k, s.params.length);
  const plus: number[] = [];
  const minus: number[] = [];
  s.params.forEach((p, i) => {
    const { c } = spsaGains(p, s.k, s.iterations);
    plus.push(Math.round(clamp(s.theta[i] + c * signs[i], p)));
    minus.push(Math.round(clamp(s.theta[i] - c * signs[i], p)));
  });
  return { plus, minus, signs };
}

/** The state after the iteration's games: `result` is the plus side's wins minus its losses. */
export function spsaUpdate(s: SpsaState, result: number, games: number): SpsaState {
  const signs = spsaSigns(s.seed, s.k, s.params.length);
  const theta = s.params.map((p, i) => {
    const { c, a } = spsaGains(p, s.k, s.iterations);
    return clamp(s.theta[i] + (a / c) * result * signs[i], p);
  });
  return { ...s, k: s.k + 1, theta, history: [...s.history, { k: s.k, result, games, theta }] };
}

/** Checks a state read back from a file: its shape, and that it is a run of these parameters. */
export function checkSpsaState(x: unknown, names: readonly string[]): string | undefined {
  const s = x as Partial<SpsaState> | null;
  if (typeof s !== 'object' || s === null) return 'not a tuning state';
  if (!Array.isArray(s.params) || !Array.isArray(s.theta) || !Array.isArray(s.history)) return 'not a tuning state';
  if (typeof s.k !== 'number' || typeof s.iterations !== 'number' || typeof s.seed !== 'number')
    return 'not a tuning state';
  if (s.theta.length !== s.params.length || !s.theta.every((v) => typeof v === 'number' && Number.isFinite(v)))
    return 'not a tuning state';
  const had = s.params.map((p) => p.name).join(',');
  if (had !== names.join(',')) return `it tunes ${had}, not ${names.join(',')}`;
  return undefined;
}
