/**
 * Game pairs (the pentanomial model; fastchess `elo_pentanomial.cpp`): the same opening played
 * twice with the colours swapped, scored 0, ¼, ½, ¾ or 1 for the pair, counted as
 * [LL, LD, WL+DD, WD, WW]; N is the number of pairs.
 */
import { scoreStats, type MatchStats } from './elo';

/**
 * Game-pair results of the first player, in increasing pair score:
 * `[LL, LD, WL+DD, WD, WW]` (pair scores 0, ¼, ½, ¾, 1). Index = 2 × (sum of the two game scores).
 */
export type Pentanomial = [ll: number, ld: number, wlDd: number, wd: number, ww: number];

/** The scores of one game pair, in the order of a {@link Pentanomial}. */
export const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;

/**
 * Statistics of game pairs (pentanomial model, `[LL, LD, WL+DD, WD, WW]`). The standard error is
 * per pair (`√(σ²_pair/N)`), normalized Elo uses `σ_game = √2·σ_pair`, and the draw ratio is
 * (WL+DD) / pairs.
 */
export function pentanomialStats(p: Pentanomial): MatchStats {
  return scoreStats(PAIR_SCORES, p, Math.SQRT2, p[2]);
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
