/**
 * Engine scores as the page shows them: always from the first player's point of view (the eval
 * bar, the graph and the lines read the same way whoever is to move).
 */

import type { Score } from '../../../core/info';

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
