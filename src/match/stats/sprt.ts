/**
 * The sequential probability ratio test (fastchess `sprt.cpp`, fishtest `LLRcalc.py`): its bounds,
 * the generalised log-likelihood ratio in the logistic and the normalized model, for games or game
 * pairs, and the decision (docs/conventions.md, "Statistics").
 */
import { NELO_SCALE, meanAndVariance, scoreFromElo } from './elo';
import { PAIR_SCORES, type Pentanomial } from './pentanomial';
import { GAME_SCORES, gameCounts, type Trinomial } from './wdl';

/** SPRT log-likelihood-ratio bounds. */
export interface SprtBounds {
  lower: number;
  upper: number;
}

/** SPRT model: `normalized` (fishtest default, nElo bounds) or `logistic` (plain Elo bounds). */
export type SprtModel = 'normalized' | 'logistic';

/** Accepted hypothesis: `H0` (elo = elo0), `H1` (elo = elo1), or `null` while the test runs on. */
export type SprtDecision = 'H0' | 'H1' | null;

/**
 * SPRT bounds for error rates α and β: `lower = ln(β/(1−α))`, `upper = ln((1−β)/α)`
 * (±2.944 for α = β = 0.05).
 */
export function sprtBounds(alpha: number, beta: number): SprtBounds {
  if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1 && alpha + beta < 1)) {
    throw new RangeError(`invalid SPRT error rates alpha=${alpha} beta=${beta}`);
  }
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/**
 * Root of the decreasing function `θ ↦ Σ p̂ᵢ φᵢ/(1 + θφᵢ)` on `(−1/max φ, −1/min φ)` (where it
 * goes from +∞ to −∞), by bisection to the limit of double precision.
 */
function solveTheta(phi: readonly number[], probs: readonly number[]): number {
  let minPhi = Infinity;
  let maxPhi = -Infinity;
  for (const f of phi) {
    minPhi = Math.min(minPhi, f);
    maxPhi = Math.max(maxPhi, f);
  }
  if (!(minPhi < 0 && maxPhi > 0)) {
    throw new RangeError('SPRT: hypothesis outside the range of possible scores');
  }
  const g = (theta: number): number => {
    let s = 0;
    for (let i = 0; i < phi.length; i++) s += (probs[i] * phi[i]) / (1 + theta * phi[i]);
    return s;
  };
  let lo = -1 / maxPhi;
  let hi = -1 / minPhi;
  for (let iter = 0; iter < 2000; iter++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    const v = g(mid);
    if (v === 0) return mid;
    if (v > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Maximum-likelihood distribution with expected score `s` closest to the empirical `probs`
 * (logistic model; Van den Bergh, "Comments on Normalized Elo", proposition 1.1).
 */
function mleLogistic(scores: readonly number[], probs: readonly number[], s: number): number[] {
  const phi = scores.map((a) => a - s);
  const theta = solveTheta(phi, probs);
  return probs.map((p, i) => p / (1 + theta * phi[i]));
}

/**
 * Maximum-likelihood distribution with normalized score difference `(μ − ½)/σ = t` (normalized
 * model; same paper, section 4.1). Fishtest's iteration: start uniform, at most 10 rounds, stop when
 * no probability moves by 1e−9 or more.
 */
function mleNormalized(scores: readonly number[], probs: readonly number[], t: number): number[] {
  const k = scores.length;
  let q = new Array<number>(k).fill(1 / k);
  for (let iter = 0; iter < 10; iter++) {
    const [mu, variance] = meanAndVariance(scores, q);
    const sigma = Math.sqrt(variance);
    const phi = scores.map((a) => a - 0.5 - (t * sigma * (1 + ((mu - a) / sigma) ** 2)) / 2);
    const theta = solveTheta(phi, probs);
    const next = probs.map((p, i) => p / (1 + theta * phi[i]));
    let maxDiff = 0;
    for (let i = 0; i < k; i++) maxDiff = Math.max(maxDiff, Math.abs(next[i] - q[i]));
    q = next;
    if (maxDiff < 1e-9) break;
  }
  return q;
}

/**
 * Generalized SPRT log-likelihood ratio of H1 (elo = `elo1`) against H0 (elo = `elo0`).
 *
 * `counts` is a {@link Trinomial} (independent games) or a {@link Pentanomial} (game pairs).
 * - `logistic`: elo0/elo1 are logistic Elo; the hypotheses are scores `L(elo)`.
 * - `normalized` (default): elo0/elo1 are normalized Elo; `t = nElo/(800/ln 10)`, times √2 for
 *   the pentanomial (σ is per pair there, and σ_game = √2·σ_pair).
 *
 * Zero counts are regularised to 1e−3 in both models (as fastchess does); N is then the sum of the
 * regularised counts. `LLR = N · Σ p̂ᵢ ln(pᵢ(H1)/pᵢ(H0))`. Returns 0 when there are no results.
 */
export function sprtLLR(
  counts: Trinomial | Pentanomial,
  elo0: number,
  elo1: number,
  model: SprtModel = 'normalized',
): number {
  const isPenta = Array.isArray(counts);
  const raw: readonly number[] = isPenta ? (counts as Pentanomial) : gameCounts(counts as Trinomial);
  if (raw.every((c) => c === 0)) return 0;
  const scores = isPenta ? PAIR_SCORES : GAME_SCORES;
  const regularised = raw.map((c) => (c === 0 ? 1e-3 : c));
  const total = regularised.reduce((a, b) => a + b, 0);
  const probs = regularised.map((c) => c / total);

  let p0: number[];
  let p1: number[];
  if (model === 'normalized') {
    const factor = isPenta ? Math.SQRT2 : 1;
    p0 = mleNormalized(scores, probs, (factor * elo0) / NELO_SCALE);
    p1 = mleNormalized(scores, probs, (factor * elo1) / NELO_SCALE);
  } else if (model === 'logistic') {
    p0 = mleLogistic(scores, probs, scoreFromElo(elo0));
    p1 = mleLogistic(scores, probs, scoreFromElo(elo1));
  } else {
    throw new RangeError(`unknown SPRT model ${String(model)}`);
  }
  let llr = 0;
  for (let i = 0; i < probs.length; i++) llr += probs[i] * (Math.log(p1[i]) - Math.log(p0[i]));
  return total * llr;
}

/** SPRT decision: `H1` when `llr ≥ upper`, `H0` when `llr ≤ lower`, otherwise `null` (continue). */
export function sprtDecision(llr: number, bounds: SprtBounds): SprtDecision {
  if (llr >= bounds.upper) return 'H1';
  if (llr <= bounds.lower) return 'H0';
  return null;
}
