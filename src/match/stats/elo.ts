/**
 * The Elo scale and the statistics every result model shares (fastchess `elo.hpp`, fishtest
 * `stat_util.py`; docs/conventions.md, "Statistics"): Elo from a score and back, the normal
 * distribution (erf, Φ), and the score, Elo, normalized Elo and LOS of a score distribution with
 * their 95% errors. The models themselves are wdl.ts (games) and pentanomial.ts (game pairs).
 *
 * Pure functions, no dependencies. All counts are from the point of view of the first player ("A"
 * in "A vs B").
 */

/** Summary statistics of a result set (from {@link scoreStats}: `trinomialStats` in wdl.ts, `pentanomialStats` in pentanomial.ts). */
export interface MatchStats {
  /** Number of samples: games (trinomial) or game pairs (pentanomial). */
  n: number;
  /** Mean score per game, in [0, 1]. */
  score: number;
  /** Variance of one sample's score (per game, or per pair for the pentanomial). */
  variance: number;
  /** Standard error of the mean score, `√(variance/n)`. */
  standardError: number;
  /** Logistic Elo difference `elo(score)`. */
  elo: number;
  /** 95% error of {@link elo}: half the Elo distance between the ends of `score ± 1.959964·se`. */
  eloError: number;
  /** Normalized Elo, `(score − ½)/σ_game · 800/ln 10`. */
  nElo: number;
  /** 95% error of {@link nElo}, computed the same way as {@link eloError}. */
  nEloError: number;
  /** Likelihood of superiority `Φ((score − ½)/se)`, as a percentage 0–100. */
  los: number;
  /**
   * Draw ratio as a percentage 0–100: draws / games for the trinomial, (WL+DD) / pairs for the
   * pentanomial (fastchess's `drawRatioPenta`).
   */
  drawRatio: number;
}

/** Two-sided 95% quantile of the standard normal distribution. */
export const Z95 = 1.959964;

/** `800/ln 10`: converts the normalized score difference `t` into normalized Elo. */
export const NELO_SCALE = 800 / Math.LN10;

/**
 * Logistic Elo difference for an expected score `s` in [0, 1]: `−400·log10(1/s − 1)`.
 * Returns −Infinity for 0, +Infinity for 1, NaN outside [0, 1].
 */
export function eloFromScore(s: number): number {
  if (s === 0) return -Infinity;
  if (s === 1) return Infinity;
  return 400 * Math.log10(s / (1 - s)); // = −400·log10(1/s − 1), but +0 (not −0) at s = ½
}

/** Expected score for an Elo difference `e`: `L(e) = 1/(1 + 10^(−e/400))`. */
export function scoreFromElo(e: number): number {
  return 1 / (1 + 10 ** (-e / 400));
}

// ---------------------------------------------------------------------------------------------
// Normal distribution
// ---------------------------------------------------------------------------------------------

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const ONE_OVER_SQRT_PI = 1 / Math.sqrt(Math.PI);

/**
 * Complementary error function for x ≥ 0, to near machine precision.
 * - x < 1.5: `erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))` (all terms positive, no
 *   cancellation), then `erfc = 1 − erf` (~1e−16 absolute error; erfc(1.5) ≈ 0.034).
 * - x ≥ 1.5: the continued fraction
 *   `erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + (2/2)/(x + (3/2)/(x + …))))`, evaluated backwards.
 */
function erfcNonNegative(x: number): number {
  if (x < 1.5) {
    const x2 = x * x;
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (2 * x2) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
  }
  if (x > 27) return 0; // underflows anyway
  let f = x;
  for (let k = 120; k >= 1; k--) f = x + k / 2 / f;
  return (ONE_OVER_SQRT_PI * Math.exp(-x * x)) / f;
}

/** Error function `erf(x)`, accurate to ~1e−15. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  return x >= 0 ? 1 - erfcNonNegative(x) : erfcNonNegative(-x) - 1;
}

/** Complementary error function `erfc(x) = 1 − erf(x)`, with full relative precision for x > 0. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  return x >= 0 ? erfcNonNegative(x) : 2 - erfcNonNegative(-x);
}

/** Standard normal cumulative distribution function `Φ(z) = ½·erfc(−z/√2)`. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

// ---------------------------------------------------------------------------------------------
// Elo, normalized Elo, LOS of a score distribution
// ---------------------------------------------------------------------------------------------

/** Mean and variance of `scores` under the distribution `probs`. */
export function meanAndVariance(scores: readonly number[], probs: readonly number[]): [number, number] {
  let mu = 0;
  for (let i = 0; i < scores.length; i++) mu += probs[i] * scores[i];
  let variance = 0;
  for (let i = 0; i < scores.length; i++) variance += probs[i] * (scores[i] - mu) ** 2;
  return [mu, variance];
}

/** Elo of a score interval end; ends beyond [0, 1] are clamped (giving ±Infinity). */
function eloClamped(s: number): number {
  return eloFromScore(Math.min(1, Math.max(0, s)));
}

/**
 * The statistics of a score distribution: `counts[i]` samples scored `scores[i]` (games or game
 * pairs); `sigmaFactor` converts the sample standard deviation into the per-game one for
 * normalized Elo (1 per game, √2 per pair); `drawCount` samples count as draws.
 */
export function scoreStats(
  scores: readonly number[],
  counts: readonly number[],
  sigmaFactor: number,
  drawCount: number,
): MatchStats {
  // Sums over the counts, divided once: exact for a symmetric result (score exactly ½).
  const n = counts.reduce((a, b) => a + b, 0);
  let total = 0;
  for (let i = 0; i < scores.length; i++) total += counts[i] * scores[i];
  const score = total / n;
  let squares = 0;
  for (let i = 0; i < scores.length; i++) squares += counts[i] * (scores[i] - score) ** 2;
  const variance = squares / n;
  const standardError = Math.sqrt(variance / n);
  const lowerScore = score - Z95 * standardError;
  const upperScore = score + Z95 * standardError;
  const elo = eloFromScore(score);
  const eloError = (eloClamped(upperScore) - eloClamped(lowerScore)) / 2;
  const sigmaGame = sigmaFactor * Math.sqrt(variance);
  const toNElo = (s: number): number => {
    if (sigmaGame === 0) return s === 0.5 ? 0 : s > 0.5 ? Infinity : -Infinity;
    return ((s - 0.5) / sigmaGame) * NELO_SCALE;
  };
  const nElo = toNElo(score);
  const nEloError = sigmaGame === 0 ? NaN : (toNElo(upperScore) - toNElo(lowerScore)) / 2;
  let los: number;
  if (n === 0) los = NaN;
  else if (standardError === 0) los = score > 0.5 ? 100 : score < 0.5 ? 0 : 50;
  else los = 100 * normalCdf((score - 0.5) / standardError);
  return {
    n,
    score,
    variance,
    standardError,
    elo,
    eloError,
    nElo,
    nEloError,
    los,
    drawRatio: (100 * drawCount) / n,
  };
}
