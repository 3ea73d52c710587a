/**
 * Match statistics for the Thoth tournament runner.
 *
 * Pure functions, no dependencies. The formulas follow fishtest (`stat_util.py`, `LLRcalc.py`) and
 * fastchess (`elo_wdl.cpp`, `elo_pentanomial.cpp`, `sprt.cpp`), as summarised in
 * docs/conventions.md, "Statistics":
 *
 * - game scores 0, ½, 1 with counts {losses, draws, wins} (trinomial);
 * - game-pair scores 0, ¼, ½, ¾, 1 with counts [LL, LD, WL+DD, WD, WW] (pentanomial, N = pairs);
 * - Elo `elo(s) = −400·log10(1/s − 1)`, inverse `L(e) = 1/(1 + 10^(−e/400))`;
 * - normalized Elo `nElo = (μ − ½)/σ_game · 800/ln 10` with `σ_game = σ` per game or `√2·σ_pair`;
 * - SPRT with the GSPRT log-likelihood ratio, logistic or normalized model;
 * - maximum-likelihood ratings for many players (Ordo style).
 *
 * All counts are from the point of view of the first player ("A" in "A vs B").
 */

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** Game results of the first player: wins, losses and draws. */
export interface Trinomial {
  wins: number;
  losses: number;
  draws: number;
}

/**
 * Game-pair results of the first player, in increasing pair score:
 * `[LL, LD, WL+DD, WD, WW]` (pair scores 0, ¼, ½, ¾, 1). Index = 2 × (sum of the two game scores).
 */
export type Pentanomial = [ll: number, ld: number, wlDd: number, wd: number, ww: number];

/** Summary statistics of a result set (see {@link trinomialStats}, {@link pentanomialStats}). */
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

/** SPRT log-likelihood-ratio bounds. */
export interface SprtBounds {
  lower: number;
  upper: number;
}

/** SPRT model: `normalized` (fishtest default, nElo bounds) or `logistic` (plain Elo bounds). */
export type SprtModel = 'normalized' | 'logistic';

/** Accepted hypothesis: `H0` (elo = elo0), `H1` (elo = elo1), or `null` while the test runs on. */
export type SprtDecision = 'H0' | 'H1' | null;

/** One game for {@link fitRatings}: player indices and the score of `white` (1, ½, 0 or fractional). */
export interface RatedGame {
  white: number;
  black: number;
  score: number;
}

/** Options for {@link fitRatings}. */
export interface FitRatingsOptions {
  /**
   * Weight, in games, of the virtual draw each non-anchor player gets against the anchor (a prior
   * that keeps the maximum-likelihood estimate finite and unique). Default 0.1.
   */
  priorDraws?: number;
  /** Newton iterations at most. Default 200. */
  maxIterations?: number;
  /** Stop when no rating moves more than this many Elo in one iteration. Default 1e-9. */
  tolerance?: number;
}

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** Two-sided 95% quantile of the standard normal distribution. */
export const Z95 = 1.959964;

/** `800/ln 10`: converts the normalized score difference `t` into normalized Elo. */
export const NELO_SCALE = 800 / Math.LN10;

const TRINOMIAL_SCORES = [0, 0.5, 1] as const;
const PENTANOMIAL_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;

// ---------------------------------------------------------------------------------------------
// Elo helpers
// ---------------------------------------------------------------------------------------------

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
  return 1 / (1 + Math.pow(10, -e / 400));
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
// Elo, normalized Elo, LOS
// ---------------------------------------------------------------------------------------------

function meanAndVariance(scores: readonly number[], probs: readonly number[]): [number, number] {
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
 * Shared computation: `counts[i]` samples scored `scores[i]`; `sigmaFactor` converts the sample
 * standard deviation into the per-game one for normalized Elo (1 per game, √2 per pair).
 */
function computeStats(
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

/**
 * Statistics of independent games (trinomial model): score, Elo ± 95%, nElo ± 95%, LOS, draw
 * ratio. With no games every field is NaN; with zero variance the errors are NaN or 0 and LOS is
 * 0, 50 or 100.
 */
export function trinomialStats(r: Trinomial): MatchStats {
  return computeStats(TRINOMIAL_SCORES, [r.losses, r.draws, r.wins], 1, r.draws);
}

/**
 * Statistics of game pairs (pentanomial model, `[LL, LD, WL+DD, WD, WW]`). The standard error is
 * per pair (`√(σ²_pair/N)`), normalized Elo uses `σ_game = √2·σ_pair`, and the draw ratio is
 * (WL+DD) / pairs.
 */
export function pentanomialStats(p: Pentanomial): MatchStats {
  return computeStats(PENTANOMIAL_SCORES, p, Math.SQRT2, p[2]);
}

/** Index into a {@link Pentanomial} for a game pair whose two game scores (0, ½, 1) are given. */
export function pentanomialIndex(first: number, second: number): 0 | 1 | 2 | 3 | 4 {
  const i = Math.round(2 * (first + second));
  if (!(i >= 0 && i <= 4)) throw new RangeError(`invalid game scores ${first}, ${second}`);
  return i as 0 | 1 | 2 | 3 | 4;
}

/** Converts fastchess's six pair counts (LL, LD, WL, DD, WD, WW) into a {@link Pentanomial}. */
export function pentanomialFromSix(
  ll: number,
  ld: number,
  wl: number,
  dd: number,
  wd: number,
  ww: number,
): Pentanomial {
  return [ll, ld, wl + dd, wd, ww];
}

// ---------------------------------------------------------------------------------------------
// Standings
// ---------------------------------------------------------------------------------------------

/** Points of a result: `wins + drawScore·draws` (draws worth ½ by default). */
export function points(r: Trinomial, drawScore = 0.5): number {
  return r.wins + drawScore * r.draws;
}

// ---------------------------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------------------------

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
  const raw: readonly number[] = isPenta
    ? (counts as Pentanomial)
    : [(counts as Trinomial).losses, (counts as Trinomial).draws, (counts as Trinomial).wins];
  if (raw.every((c) => c === 0)) return 0;
  const scores = isPenta ? PENTANOMIAL_SCORES : TRINOMIAL_SCORES;
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

// ---------------------------------------------------------------------------------------------
// Maximum-likelihood ratings (Ordo / BayesElo style)
// ---------------------------------------------------------------------------------------------

const ELO_PER_LOGIT = 400 / Math.LN10;

/** `ln(1 + eˣ)` without overflow. */
function softplus(x: number): number {
  return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
}

/** Logistic `1/(1 + e^(−x))` without overflow. */
function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** Solves the symmetric positive-definite system `A x = b` (Cholesky); A is overwritten. */
function solveSpd(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let j = 0; j < n; j++) {
    let d = a[j][j];
    for (let k = 0; k < j; k++) d -= a[j][k] * a[j][k];
    if (!(d > 0)) d = 1e-300;
    const l = Math.sqrt(d);
    a[j][j] = l;
    for (let i = j + 1; i < n; i++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= a[i][k] * a[j][k];
      a[i][j] = s / l;
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= a[i][k] * y[k];
    y[i] = s / a[i][i];
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= a[k][i] * x[k];
    x[i] = s / a[i][i];
  }
  return x;
}

/**
 * Maximum-likelihood Elo ratings of several players from all their games at once, as Ordo does.
 *
 * Model: the expected score of `white` against `black` is `L(r_white − r_black)` (logistic Elo, no
 * colour advantage); a game scored `s` (1, ½, 0, or any fraction) contributes
 * `s·ln L + (1 − s)·ln(1 − L)`, i.e. draws count as half a win and half a loss. The log-likelihood
 * is maximised by Newton's method with a backtracking line search (it is concave, so this
 * converges from the start at 0).
 *
 * Prior: every player other than the anchor gets a virtual draw of weight `priorDraws` (default
 * 0.1 game) against the anchor. This keeps ratings finite for players with only wins or only
 * losses and ties players who never met the anchor's group to it; its pull is negligible once a
 * player has a few dozen games (≈ 25/games Elo towards the anchor for a 200-Elo gap at 0.1).
 * Set `priorDraws: 0` for the pure MLE (which exists only when every player has both scored and
 * conceded points within a connected field).
 *
 * @param players names (only their number matters; the result is indexed like `players`)
 * @param games   games by player index, `score` for `white` (the first player)
 * @param anchor  index of the player whose rating is fixed
 * @param anchorElo rating given to the anchor (default 0)
 * @returns ratings in Elo, `result[i]` for `players[i]`
 */
export function fitRatings(
  players: readonly string[],
  games: readonly RatedGame[],
  anchor: number,
  anchorElo = 0,
  options: FitRatingsOptions = {},
): number[] {
  const n = players.length;
  if (!Number.isInteger(anchor) || anchor < 0 || anchor >= n) {
    throw new RangeError(`anchor ${anchor} is not a player index`);
  }
  const priorDraws = options.priorDraws ?? 0.1;
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = (options.tolerance ?? 1e-9) / ELO_PER_LOGIT;

  // Aggregate games by unordered pair i < j: games played and points scored by i.
  const pairGames = new Map<number, { i: number; j: number; games: number; score: number }>();
  const addPair = (i: number, j: number, weight: number, scoreOfI: number): void => {
    if (i === j || weight === 0) return;
    const [a, b, s] = i < j ? [i, j, scoreOfI] : [j, i, weight - scoreOfI];
    const key = a * n + b;
    const entry = pairGames.get(key);
    if (entry) {
      entry.games += weight;
      entry.score += s;
    } else {
      pairGames.set(key, { i: a, j: b, games: weight, score: s });
    }
  };
  for (const g of games) {
    if (
      !Number.isInteger(g.white) ||
      !Number.isInteger(g.black) ||
      g.white < 0 ||
      g.white >= n ||
      g.black < 0 ||
      g.black >= n ||
      !(g.score >= 0 && g.score <= 1)
    ) {
      throw new RangeError(`invalid game ${JSON.stringify(g)}`);
    }
    addPair(g.white, g.black, 1, g.score);
  }
  if (priorDraws > 0) {
    for (let p = 0; p < n; p++) if (p !== anchor) addPair(p, anchor, priorDraws, priorDraws / 2);
  }
  const pairs = [...pairGames.values()];

  // Free variables: every player except the anchor, in logit units (Elo · ln10/400).
  const varIndex = new Array<number>(n).fill(-1);
  let m = 0;
  for (let p = 0; p < n; p++) if (p !== anchor) varIndex[p] = m++;
  const x = new Array<number>(n).fill(0);

  const logLikelihood = (r: readonly number[]): number => {
    let ll = 0;
    for (const e of pairs) {
      const d = r[e.i] - r[e.j];
      // s·ln σ(d) + (g − s)·ln(1 − σ(d))
      ll -= e.score * softplus(-d) + (e.games - e.score) * softplus(d);
    }
    return ll;
  };

  let current = logLikelihood(x);
  for (let iter = 0; iter < maxIterations && m > 0; iter++) {
    const grad = new Array<number>(m).fill(0);
    const hess: number[][] = Array.from({ length: m }, () => new Array<number>(m).fill(0));
    for (const e of pairs) {
      const p = sigmoid(x[e.i] - x[e.j]);
      const gr = e.score - e.games * p;
      const w = e.games * p * (1 - p);
      const a = varIndex[e.i];
      const b = varIndex[e.j];
      if (a >= 0) {
        grad[a] += gr;
        hess[a][a] += w;
      }
      if (b >= 0) {
        grad[b] -= gr;
        hess[b][b] += w;
      }
      if (a >= 0 && b >= 0) {
        hess[a][b] -= w;
        hess[b][a] -= w;
      }
    }
    // Tiny ridge so that players with no games at all (and priorDraws 0) stay solvable.
    for (let k = 0; k < m; k++) hess[k][k] += 1e-12;
    const step = solveSpd(hess, grad);
    // Never jump more than 10 logits (~1737 Elo) at once.
    let maxStep = 0;
    for (const s of step) maxStep = Math.max(maxStep, Math.abs(s));
    let scale = maxStep > 10 ? 10 / maxStep : 1;
    let accepted = false;
    let moved = 0;
    for (let tries = 0; tries < 60; tries++) {
      const trial = x.slice();
      for (let p = 0; p < n; p++) if (varIndex[p] >= 0) trial[p] += scale * step[varIndex[p]];
      const value = logLikelihood(trial);
      if (value >= current - 1e-12 * Math.abs(current)) {
        for (let p = 0; p < n; p++) x[p] = trial[p];
        current = value;
        moved = scale * maxStep;
        accepted = true;
        break;
      }
      scale /= 2;
    }
    if (!accepted || moved < tolerance) break;
  }

  const offset = x[anchor];
  return x.map((v) => (v - offset) * ELO_PER_LOGIT + anchorElo);
}

// ---------------------------------------------------------------------------------------------
// Formatting (cutechess / fastchess summary lines)
// ---------------------------------------------------------------------------------------------

/** A number with `digits` decimals, or `n/a` when it is not finite (an Elo of 100 % wins, an error of too few games). */
export function fixedOrNa(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : 'n/a';
}

/** `Score of A vs B: 120 - 98 - 182  [0.527] 400` (wins - losses - draws  [score] games). */
export function formatScoreLine(nameA: string, nameB: string, r: Trinomial): string {
  const games = r.wins + r.losses + r.draws;
  const score = games > 0 ? points(r) / games : 0;
  return (
    `Score of ${nameA} vs ${nameB}: ${r.wins} - ${r.losses} - ${r.draws}  ` +
    `[${score.toFixed(3)}] ${games}`
  );
}

/**
 * `Elo difference: 19.1 +/- 24.0, LOS: 94.0 %, DrawRatio: 45.5 %` (one decimal each; `n/a` for a
 * value the results cannot give yet, e.g. the Elo of 100 % wins).
 */
export function formatEloLine(s: Pick<MatchStats, 'elo' | 'eloError' | 'los' | 'drawRatio'>): string {
  return (
    `Elo difference: ${fixedOrNa(s.elo, 1)} +/- ${fixedOrNa(s.eloError, 1)}, ` +
    `LOS: ${fixedOrNa(s.los, 1)} %, DrawRatio: ${fixedOrNa(s.drawRatio, 1)} %`
  );
}

/**
 * `SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted`. The percentage is
 * `llr / upper × 100`; the suffix comes from {@link sprtDecision} (none while the test runs on).
 */
export function formatSprtLine(llr: number, bounds: SprtBounds): string {
  const decision = sprtDecision(llr, bounds);
  const suffix = decision ? ` - ${decision} was accepted` : '';
  return (
    `SPRT: llr ${fixedOrNa(llr, 2)} (${fixedOrNa((llr / bounds.upper) * 100, 1)}%), ` +
    `lbound ${bounds.lower.toFixed(2)}, ubound ${bounds.upper.toFixed(2)}${suffix}`
  );
}

/** `Ptnml(0-2): [LL, LD, WL+DD, WD, WW]` with the counts filled in. */
export function formatPentanomialLine(p: Pentanomial): string {
  return `Ptnml(0-2): [${p.join(', ')}]`;
}
