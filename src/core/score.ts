/**
 * The search's public contract as plain data: scores (centi-pyramids or moves to a Pharaoh hit),
 * bounds, the per-iteration report and a finished search's result. The engine's search produces
 * them; the protocol formats them (src/core/info.ts), and the match runner, the GUI and analysis
 * read them. Pure: no I/O, bundled by the GUI page.
 */

/** A win is MATE − plies to the Pharaoh hit; a loss its negation. */
export const MATE = 32000;
/** Scores at or beyond ±MATE_BOUND are wins or losses, not evaluations. */
export const MATE_BOUND = MATE - 1000;

/**
 * A score as the protocol states it: centi-pyramids, or moves until a Pharaoh is hit (positive:
 * the side to move hits the enemy's; negative: its own is hit).
 */
export type Score = { kind: 'cp'; value: number } | { kind: 'mate'; value: number };

/** An aspiration window that failed leaves a bound, not the exact score. */
export type Bound = 'exact' | 'lower' | 'upper';

/**
 * What the main search reports after each iteration, per MultiPV line: plain data (it crosses a
 * MessagePort from the search thread); src/core/info.ts writes it as an `info` line.
 */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  multipv: number;
  score: Score;
  bound: Bound;
  /** Nodes of all threads. */
  nodes: number;
  nps: number;
  /** Per mille of the first 1000 table entries used by this search. */
  hashfull: number;
  /** ms since the search started. */
  time: number;
  pv: string[];
}

/**
 * A finished search's answer as plain data, moves as text: what a search thread posts when it is
 * done and what the search threads of either host (src/node/search-pool.ts in Node,
 * src/web/web-search-pool.ts in the page) hand on to the protocol for its `bestmove`.
 */
export interface SearchResult {
  /** The move to play ('' when there is none). */
  best: string;
  /** The expected reply ('' when there is none). */
  ponder: string;
  /** In the search's own units (MATE − plies for a win): scoreOf states it. */
  score: number;
  /** The last completed iteration's depth. */
  depth: number;
  /** Nodes searched (the pools report those of all threads). */
  nodes: number;
  /** Why the search failed (its move is then ''). */
  error?: string;
}

/**
 * Moves (of the winner) to the Pharaoh hit for a search score beyond ±MATE_BOUND (MATE − plies):
 * positive when the side to move hits, negative when its own Pharaoh is hit.
 */
export function mateMoves(score: number): number {
  return score > 0 ? Math.ceil((MATE - score) / 2) : -Math.ceil((MATE + score) / 2);
}

/** The search's score (mates as MATE − plies) as the protocol states it. */
export function scoreOf(score: number): Score {
  if (score >= MATE_BOUND || score <= -MATE_BOUND) return { kind: 'mate', value: mateMoves(score) };
  return { kind: 'cp', value: score };
}

/** The inverse of scoreOf: a stated score as the search counts it. */
export function scoreValue(s: Score): number {
  if (s.kind === 'cp') return s.value;
  return s.value > 0 ? MATE - (2 * s.value - 1) : -(MATE - 2 * -s.value);
}
