/**
 * Ratings of several players fitted over all their games at once by maximum likelihood, as Ordo
 * and BayesElo do (docs/conventions.md, "Statistics"): averaging Elo opponent by opponent would
 * squeeze the scale.
 */

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
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = (options.tolerance ?? 1e-9) / ELO_PER_LOGIT;
  const pairs = pairResults(n, games, anchor, options.priorDraws ?? 0.1);

  // Free variables: every player except the anchor, in logit units (Elo · ln10/400).
  const varIndex = new Array<number>(n).fill(-1);
  let m = 0;
  for (let p = 0; p < n; p++) if (p !== anchor) varIndex[p] = m++;
  const x = new Array<number>(n).fill(0);
  let current = logLikelihood(pairs, x);
  for (let iter = 0; iter < maxIterations && m > 0; iter++) {
    const step = newtonStep(pairs, x, varIndex, m);
    const moved = lineSearch(pairs, x, varIndex, step, current);
    if (moved === undefined) break;
    current = moved.value;
    if (moved.distance < tolerance) break;
  }
  const offset = x[anchor];
  return x.map((v) => (v - offset) * ELO_PER_LOGIT + anchorElo);
}

/** Games and points of the lower-indexed player, by unordered pair of players. */
interface PairResult {
  i: number;
  j: number;
  games: number;
  score: number;
}

/** The games by pair of players, with `priorDraws` drawn games of each player against the anchor. */
function pairResults(n: number, games: readonly RatedGame[], anchor: number, priorDraws: number): PairResult[] {
  const pairGames = new Map<number, PairResult>();
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
  const player = (k: number): boolean => Number.isInteger(k) && k >= 0 && k < n;
  for (const g of games) {
    if (!player(g.white) || !player(g.black) || !(g.score >= 0 && g.score <= 1)) {
      throw new RangeError(`invalid game ${JSON.stringify(g)}`);
    }
    addPair(g.white, g.black, 1, g.score);
  }
  if (priorDraws > 0) {
    for (let p = 0; p < n; p++) if (p !== anchor) addPair(p, anchor, priorDraws, priorDraws / 2);
  }
  return [...pairGames.values()];
}

function logLikelihood(pairs: readonly PairResult[], r: readonly number[]): number {
  let ll = 0;
  for (const e of pairs) {
    const d = r[e.i] - r[e.j];
    // s·ln σ(d) + (g − s)·ln(1 − σ(d))
    ll -= e.score * softplus(-d) + (e.games - e.score) * softplus(d);
  }
  return ll;
}

/** Newton's step for the free variables at `x`: the Hessian solved against the gradient. */
function newtonStep(
  pairs: readonly PairResult[],
  x: readonly number[],
  varIndex: readonly number[],
  m: number,
): number[] {
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
  return solveSpd(hess, grad);
}

/**
 * Moves `x` along `step`, halving it until the likelihood does not fall (never more than 10
 * logits, about 1737 Elo, at once). The new likelihood and the distance moved, or undefined when
 * no step was taken.
 */
function lineSearch(
  pairs: readonly PairResult[],
  x: number[],
  varIndex: readonly number[],
  step: readonly number[],
  current: number,
): { value: number; distance: number } | undefined {
  let maxStep = 0;
  for (const s of step) maxStep = Math.max(maxStep, Math.abs(s));
  let scale = maxStep > 10 ? 10 / maxStep : 1;
  for (let tries = 0; tries < 60; tries++) {
    const trial = x.slice();
    for (let p = 0; p < x.length; p++) if (varIndex[p] >= 0) trial[p] += scale * step[varIndex[p]];
    const value = logLikelihood(pairs, trial);
    if (value >= current - 1e-12 * Math.abs(current)) {
      for (let p = 0; p < x.length; p++) x[p] = trial[p];
      return { value, distance: scale * maxStep };
    }
    scale /= 2;
  }
  return undefined;
}
