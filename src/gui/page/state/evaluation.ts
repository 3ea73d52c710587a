/**
 * Engine scores as the page shows them: always from the first player's point of view (the eval
 * bar, the graph and the lines read the same way whoever is to move).
 */

import { winChance } from '../../../analysis/review';
import type { InfoLine, Score } from '../../../core/info';

/** A score as the protocol states it (src/core/info.ts): from the side to move's view. */
export type { Score };

/** An evaluation from the first player's view, with the depth it came from. */
export type Eval = Score & { depth: number };

export function evalOf(score: Score, sideToMove: number, depth: number): Eval {
  return { kind: score.kind, value: sideToMove === 0 ? score.value : -score.value, depth };
}

/** `+1.23`, `−0.50`, `0.00`, `#3` (the first player hits the Pharaoh in 3), `#-2`. */
export function evalText(e: Score): string {
  if (e.kind === 'mate') return e.value > 0 ? `#${e.value}` : `#-${Math.abs(e.value)}`;
  const cp = e.value;
  return `${cp > 0 ? '+' : cp < 0 ? '−' : ''}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/** Win, draw and loss chances in per cent (adding up to 100), from the first player's view. */
type Wdl = [number, number, number];

/**
 * The first player's win, draw and loss chances in per cent from an engine's `wdl W D L` (the side
 * to move's, in per mille, `UCI_ShowWDL`): the win and the loss rounded, the draw the rest. Null
 * when the engine gave none, or three numbers that add up to nothing.
 */
export function lineWdl(wdl: InfoLine['wdl'], sideToMove: number): Wdl | null {
  if (!wdl) return null;
  const total = wdl[0] + wdl[1] + wdl[2];
  if (!(total > 0)) return null;
  const [win, loss] = sideToMove === 0 ? [wdl[0], wdl[2]] : [wdl[2], wdl[0]];
  const w = Math.round((100 * win) / total);
  const l = Math.min(100 - w, Math.round((100 * loss) / total));
  return [w, 100 - w - l, l];
}

/** The first player's win chance (0–1) as the page writes it: `61%`. */
export const winText = (w: number): string => `${Math.round(100 * w)}%`;

/**
 * A line's chances as the page writes them, from the first player's view: `61/24/15` (win, draw,
 * loss per cent) when the engine gave `wdl`, else the win chance on the review's fitted curve
 * (the eval bar's), `61%`.
 */
export function chanceText(line: Pick<InfoLine, 'score' | 'wdl'>, sideToMove: number): string {
  const wdl = lineWdl(line.wdl, sideToMove);
  if (wdl) return wdl.join('/');
  const w = winChance(line.score);
  return winText(sideToMove === 0 ? w : 1 - w);
}
