/**
 * The win-chance curve of game review (docs/review.md, "The curve") and the win/draw/loss split
 * of it that `UCI_ShowWDL` prints (docs/review.md, "Win, draw, loss"): plain numbers, shared by
 * the engine's protocol and the review.
 */
import type { Score } from './score';

/** k of the win-chance curve, per centi-pyramid (docs/review.md: 0.00280 ± 0.00034 from 1,180 games). */
export const WIN_CHANCE_K = 0.0028;

/**
 * The offset of the win/draw/loss model, in centi-pyramids (docs/review.md: fitted by maximum
 * likelihood to 55,363 scored moves of 698 games, with k as shipped): win = W(cp − a), loss = W(−cp − a).
 */
export const WDL_OFFSET_CP = 194;

const logistic = (x: number): number => 1 / (1 + Math.exp(-WIN_CHANCE_K * x));

/**
 * The side to move's chances of a win, a draw and a loss in per mille (they add up to 1000), as
 * UCI's `wdl` gives them; a forced Pharaoh hit is certain.
 */
export function wdlOf(s: Score): [number, number, number] {
  if (s.kind === 'mate') return s.value > 0 ? [1000, 0, 0] : [0, 0, 1000];
  const w = Math.round(1000 * logistic(s.value - WDL_OFFSET_CP));
  const l = Math.round(1000 * logistic(-s.value - WDL_OFFSET_CP));
  return [w, 1000 - w - l, l];
}
