/**
 * Random openings: a seeded stream of numbers, and N random plies from a start position that
 * avoid moves whose shot removes a piece (when another move exists), never end the game, and
 * leave a start that is not already lost (the game is not over and neither side can hit the
 * opposing Pharaoh with its next move). Everything derives from a seed, so a match, its
 * `-resume`, and datagen see the same openings every time. Pure: no I/O.
 */
import {
  NO_REMOVAL_PLIES,
  formatMove,
  gameStatus,
  legalMoves,
  mulberry32,
  parseKfen,
  toKfen,
  type Position,
} from './index';

/** A generator of floats in [0, 1). */
export type Rng = () => number;

export function makeRng(seed: number): Rng {
  const next = mulberry32(seed >>> 0);
  return () => (next() >>> 0) / 4294967296;
}

/** A seed for item `index` of a run seeded with `seed` (independent streams per item). */
export function itemSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** True when `color` has a move that hits the opposing Pharaoh (it need not be its turn). */
export function canHitPharaoh(pos: Position, color: number): boolean {
  const p = pos.clone();
  p.side = color;
  for (const m of legalMoves(p)) {
    p.make(m);
    const won = p.winner === color;
    p.unmake();
    if (won) return true;
  }
  return false;
}

/** True when a start is already decided: the game is over, or a side can hit the other Pharaoh. */
export function isLostStart(pos: Position, noRemovalLimit = NO_REMOVAL_PLIES): boolean {
  if (gameStatus(pos, { noRemovalLimit }).result !== 'ongoing') return true;
  return canHitPharaoh(pos, 0) || canHitPharaoh(pos, 1);
}

/**
 * Plays `plies` random moves from `start` and returns the position, or undefined when no
 * acceptable start was found in `tries` attempts.
 */
export function randomOpening(
  rng: Rng,
  start: Position,
  plies: number,
  tries = 200,
): { position: Position; moves: string[] } | undefined {
  for (let attempt = 0; attempt < tries; attempt++) {
    const pos = start.clone();
    const moves: string[] = [];
    let failed = false;
    for (let k = 0; k < plies; k++) {
      const quiet: number[] = [];
      const other: number[] = [];
      for (const m of legalMoves(pos)) {
        const killed = pos.make(m);
        const over = pos.winner >= 0;
        pos.unmake();
        if (over) continue;
        (killed < 0 ? quiet : other).push(m);
      }
      const pool = quiet.length > 0 ? quiet : other;
      if (pool.length === 0) {
        failed = true;
        break;
      }
      const m = pool[Math.floor(rng() * pool.length)];
      moves.push(formatMove(m));
      pos.make(m);
    }
    if (failed || isLostStart(pos)) continue;
    // A clean start: the random plies become the KFEN, with no history behind it.
    const clean = parseKfen(toKfen(pos), pos.edition.id);
    if (!clean.ok) continue;
    return { position: clean.value, moves };
  }
  return undefined;
}
