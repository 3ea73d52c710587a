/**
 * A review's forced hits, proven: the fixed-depth searches of a review (review-method.ts) do not
 * see a forced Pharaoh hit deeper than their depth (at depth 8, a move that let the opponent hit
 * by force in 5 moves was judged an inaccuracy), so where the score moves the puzzle solver
 * (src/puzzles/solver.ts: exhaustive, exact) is asked. Plain data, no Node: `thoth analyse --game`
 * and the GUI's review both apply it to the same searches, so that they give the same marks.
 *
 * For move k by the mover M, with the opponent O to move after it, from the last move back:
 * 1. Where the score moves: M's win chance after move k as the search saw it is at least an
 *    inaccuracy's drop (5 points) above M's win chance two plies later (M's next position, with
 *    what was proven there): a tactic the search did not see may have come. The solver is asked
 *    whether O forces a hit from the position after move k, in 1 to PROOF_MOVES moves (the
 *    fewest). If it does, move k's score is that loss (`mate −n` for M). The position before it
 *    is that loss too when the move was the engine's own choice, or when the solver proves that
 *    every move of M allowed such a hit (then the move is no mistake: the game was lost before it).
 *    O's next position is the win (`mate +n` for O, the solver's first move the best) when its
 *    search saw less.
 * 2. A move made in a position whose win was proven so, that the search scored as no win: the
 *    solver is asked whether the mover keeps a forced hit after it (the other side cannot escape
 *    a hit in n − 1 moves). If so the move's score is that win; if not, the move missed the proven
 *    win and is judged by its own score.
 * A question the solver cannot settle within PROOF_NODES moves proves nothing: the searches'
 * scores stand.
 */
import type { Position } from '../core/index';
import type { Score } from '../core/score';
import { Solver } from '../puzzles/solver';
import { THRESHOLDS, winChance } from './review';
import type { MoveSearches } from './review-method';

/** The longest forced hit a review proves, in the hitting side's moves (the solver's reach). */
const PROOF_MOVES = 5;
/** The solver's budget for one question, in moves made; past it nothing is proven. */
const PROOF_NODES = 300_000;

/** What the proofs cost and found. */
export interface ProofCount {
  /** Questions asked of the solver, and the moves it made for them. */
  questions: number;
  nodes: number;
  /** Moves whose scores a proof changed. */
  changed: number;
}

/** A move's searches with the proofs applied. */
interface ProvenSearches extends MoveSearches {
  /** A first move of the proven forced hit, when a proof made `best` a win the search did not see. */
  bestMove?: number;
}

const isWin = (s: Score): boolean => s.kind === 'mate' && s.value > 0;
const isLoss = (s: Score): boolean => s.kind === 'mate' && s.value < 0;
const same = (a: Score, b: Score): boolean => a.kind === b.kind && a.value === b.value;

/**
 * The fewest moves n from 1 to `most` for which the solver answers `ask(n)` yes; undefined when it
 * answers no to all, or cannot settle one within its budget.
 */
function fewest(
  solver: Solver,
  most: number,
  count: ProofCount,
  ask: (n: number) => boolean | undefined,
): number | undefined {
  for (let n = 1; n <= most; n++) {
    solver.reset(PROOF_NODES);
    const w = ask(n);
    count.questions++;
    count.nodes += solver.nodes;
    if (w === undefined) return undefined;
    if (w) return n;
  }
  return undefined;
}

/** The fewest moves (1 to `most`) in which the side to move forces a hit, with a first move of it, or undefined. */
function forcedHit(
  solver: Solver,
  pos: Position,
  most: number,
  count: ProofCount,
): { moves: number; first: number } | undefined {
  const moves = fewest(solver, most, count, (n) => solver.winIn(pos, n));
  return moves === undefined ? undefined : { moves, first: solver.winningMove };
}

/** The fewest moves (1 to `most`) in which the side not to move forces a hit whatever the side to move does, or undefined. */
function unavoidableHit(solver: Solver, pos: Position, most: number, count: ProofCount): number | undefined {
  return fewest(solver, most, count, (n) => solver.cannotAvoidHit(pos, n));
}

/**
 * The searches of a game's moves with the forced hits the solver proves where the score moves.
 * `positions[k]` is the position before move k (`positions.length` ≥ `searches.length`; they are
 * left as they are). Returns new searches; `count` (optional) hears what the proofs cost.
 */
export function proveForcedHits(
  positions: readonly Position[],
  searches: readonly MoveSearches[],
  count: ProofCount = { questions: 0, nodes: 0, changed: 0 },
): ProvenSearches[] {
  const out: ProvenSearches[] = searches.map((m) => ({ ...m }));
  const solver = new Solver();
  // The side to move's proven forced hit in a position (moves), by the position's index.
  const wins = new Map<number, number>();
  // 1. From the last move back, so that a loss proven later moves the score of the moves before it.
  for (let k = searches.length - 1; k >= 0; k--) {
    const m = out[k];
    const after = positions[k + 1];
    const later = out[k + 2];
    const seen = searches[k].played;
    if (m.hit || after === undefined || later === undefined || isLoss(seen)) continue;
    if (winChance(seen) - winChance(later.best) < THRESHOLDS.inaccuracy) continue;
    const hit = forcedHit(solver, after.clone(), PROOF_MOVES, count);
    if (hit === undefined) continue;
    m.played = { kind: 'mate', value: -hit.moves };
    if (same(searches[k].best, seen)) {
      // the engine's own choice: its position is that loss too (no other move was searched as better)
      m.best = m.played;
    } else {
      // lost already, whatever the mover did? Then the move is no mistake.
      const lost = unavoidableHit(solver, positions[k].clone(), hit.moves, count);
      if (lost !== undefined) m.best = { kind: 'mate', value: -lost };
    }
    // the opponent's next move is judged against that win (2. asks whether it keeps it)
    const next = out[k + 1];
    if (next !== undefined && !(isWin(next.best) && next.best.value <= hit.moves)) {
      next.best = { kind: 'mate', value: hit.moves };
      if (hit.first >= 0) next.bestMove = hit.first;
      wins.set(k + 1, hit.moves);
    }
  }
  // 2. A move made in a position with a proven win that its search scored as none: does it keep the win?
  for (const [k, win] of wins) {
    const m = out[k];
    const after = positions[k + 1];
    if (m.hit || isWin(searches[k].played) || after === undefined || win < 2) continue;
    const rest = unavoidableHit(solver, after.clone(), win - 1, count);
    if (rest !== undefined) m.played = { kind: 'mate', value: rest + 1 };
  }
  count.changed += out.filter((m, k) => !same(m.best, searches[k].best) || !same(m.played, searches[k].played)).length;
  return out;
}
