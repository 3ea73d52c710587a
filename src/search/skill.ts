/**
 * Playing strength for people: `Skill Level` 0–20 (20 = full strength), or `UCI_LimitStrength`
 * with `UCI_Elo`, and the `Random` option for variety in the opening.
 *
 * A weakened search is shallower and looks at several lines (MultiPV 4); the move is then chosen
 * among them with a random push that grows with the weakness, as Stockfish does, but never a
 * move that loses much more than the best one (no absurd blunders) and never a move into a lost
 * position when the best move is not lost. A chosen move (weak or random) never shoots one of the
 * mover's own pieces when one of the candidate lines does not (`withoutSelfShots`).
 */
import type { RootLine } from './search';
import { MATE_BOUND } from '../core/score';
import { colorOf, legalMoves, type Position } from '../core/index';

export const MAX_SKILL = 20;
/**
 * Elo of the skill levels, measured by `tools/levels.ts` on 2026-12-04 with the build of commit
 * 7e39ac3 (the network then shipped, gen 7; not measured again with gen 8; odd levels a step of their own; no shots at one's own pieces): a
 * chain of matches along the page's ladder (0, 1, 2, 4, 6, 8, 16, 20) at 20,000 nodes a move,
 * openings from the three setups, 300 games for the two lowest links and 188–647 for the others
 * with a 16-core machine's games added (docs/strength.md, "Levels"), added up from full
 * strength (level 20) put at 2400. Levels in between (3, 5, 7,
 * 9–15, 17–19) are interpolated; at 20,000 nodes levels 10, 13 and 16 played alike before, so
 * the page uses measured levels only (src/gui/page/engine/levels.ts, `THOTH_LADDER`).
 */
export const LEVEL_ELO: readonly (readonly [level: number, elo: number])[] = [
  [0, 808],
  [1, 1000],
  [2, 1131],
  [4, 1445],
  [6, 1684],
  [8, 1944],
  [16, 2147],
  [20, 2400],
];

/** The range of UCI_Elo: from level 0 to full strength. */
export const MIN_ELO = LEVEL_ELO[0][1];
export const MAX_ELO = LEVEL_ELO[LEVEL_ELO.length - 1][1];

/** The skill level for an Elo (UCI_LimitStrength): interpolated in the measured table. */
export function skillFromElo(elo: number): number {
  const e = Math.max(MIN_ELO, Math.min(MAX_ELO, elo));
  for (let i = 1; i < LEVEL_ELO.length; i++) {
    const [l1, e1] = LEVEL_ELO[i];
    if (e <= e1) {
      const [l0, e0] = LEVEL_ELO[i - 1];
      return Math.round(l0 + ((e - e0) / (e1 - e0)) * (l1 - l0));
    }
  }
  return MAX_SKILL;
}

/**
 * Search depth cap of a level (full strength: none): 1 + ⌊level / 2⌋, and for an odd level one
 * ply more when `deeper` (drawn at random for each move, half of them), so that an odd level
 * plays between the even levels beside it instead of like the one below (docs/strength.md,
 * "Levels").
 */
export function skillDepth(level: number, deeper = false): number {
  if (level >= MAX_SKILL) return Infinity;
  return 1 + Math.floor(level / 2) + (deeper && level % 2 === 1 ? 1 : 0);
}

/** Largest loss (cp) against the best line a level may accept. */
export function skillMaxLoss(level: number): number {
  return Math.max(20, 300 - 14 * level);
}

/**
 * Picks among the root lines (best first). `rand` returns uniform numbers in [0, 1).
 * With level 20 and no randomness the best line is returned.
 */
export function pickWeakMove(lines: RootLine[], level: number, rand: () => number): RootLine {
  const valid = lines.filter((l) => l.depth > 0);
  if (valid.length === 0) return lines[0];
  const top = valid[0];
  if (level >= MAX_SKILL) return top;
  const weakness = 120 - 2 * level;
  const maxLoss = skillMaxLoss(level);
  const delta = Math.min(100, top.score - valid[valid.length - 1].score);
  let best = top;
  let bestValue = -Infinity;
  for (const l of valid) {
    if (top.score > -MATE_BOUND && l.score <= -MATE_BOUND) continue; // never walk into a lost game
    if (top.score >= MATE_BOUND && l.score < MATE_BOUND) continue; // never miss a forced win
    if (top.score - l.score > maxLoss) continue;
    // Stockfish's push: weak levels partly ignore the score gap, plus a random share of delta
    const push = (weakness * (top.score - l.score) + delta * Math.floor(rand() * weakness)) / 128;
    const value = l.score + push;
    if (value > bestValue) {
      bestValue = value;
      best = l;
    }
  }
  return best;
}

/** Random opening choice: a move among the lines within `margin` cp of the best. */
export function pickRandomMove(lines: RootLine[], margin: number, rand: () => number): RootLine {
  const valid = lines.filter((l) => l.depth > 0);
  if (valid.length === 0) return lines[0];
  const top = valid[0];
  if (Math.abs(top.score) >= MATE_BOUND) return top;
  const near = valid.filter((l) => top.score - l.score <= margin);
  return near[Math.floor(rand() * near.length)] ?? top;
}

/** Whether `move`'s shot removes one of the mover's own pieces (the position is left as it was). */
export function shootsOwnPiece(pos: Position, move: number): boolean {
  const us = pos.side;
  const killed = pos.make(move);
  const own = killed >= 0 && colorOf(pos.killedPieceAt(pos.ply - 1)) === us;
  pos.unmake();
  return own;
}

/**
 * The root lines whose move does not shoot one of the mover's own pieces, best first; all of
 * them when every line does. A weak level or the random opening choice picks among these, so that
 * a beginner's opponent never removes its own piece for nothing (a shallow search, with the
 * network, can rate such a move near the top).
 */
export function withoutSelfShots(lines: RootLine[], pos: Position): RootLine[] {
  const kept = lines.filter((l) => l.depth <= 0 || l.move === 0 || !shootsOwnPiece(pos, l.move));
  return kept.some((l) => l.depth > 0) ? kept : lines;
}

/**
 * The root moves a weak level searches: those of `among` (every legal move when it is empty)
 * whose shot does not remove one of the mover's own pieces. Null when none is left out, or when
 * every one is such a shot. A shallow search with MultiPV 4 can rate four such shots first (Khet
 * 1.0 Dynasty after e3f2u, at depth 1), so that filtering its lines (`withoutSelfShots`) is not
 * enough: the search must not look at them.
 */
export function movesWithoutSelfShots(pos: Position, among: readonly number[]): number[] | null {
  const all = among.length > 0 ? among : legalMoves(pos);
  const kept = all.filter((m) => !shootsOwnPiece(pos, m));
  return kept.length > 0 && kept.length < all.length ? kept : null;
}
