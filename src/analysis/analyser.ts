/**
 * Running the search for analysis, in-process and blocking: to a fixed depth, or for a time,
 * depth by depth, keeping only completed depths (a search stopped by the clock halfway through a
 * depth leaves MultiPV lines that are not comparable, so those are dropped).
 */
import { legalMoves, type Position } from '../core/index';
import { DEFAULT_LIMITS, type Searcher, type RootLine } from '../search/search';
import { MATE, MATE_BOUND, scoreValue, type SearchInfo } from '../core/score';

export interface AnalysisLimits {
  /** Fixed depth (plies); used when `timeMs` is 0. */
  depth: number;
  /** Thinking time per position in ms, 0 = none (then `depth` rules). */
  timeMs: number;
  multiPV: number;
  /** Plies without removal that draw; 0 = off. */
  noRemovalLimit: number;
}

export interface Progress {
  depth: number;
  /** Score of the best line, side to move's point of view. */
  score: number;
  pv: string[];
  nodes: number;
  ms: number;
}

export interface Analysis {
  /** The best lines, best first, scores from the side to move's point of view. */
  lines: RootLine[];
  depth: number;
  nodes: number;
  ms: number;
}

/**
 * Analyses `pos` (left unchanged). `searchMoves` restricts the root moves (empty = all);
 * `onProgress` hears about each depth the search completes.
 */
export function analysePosition(
  searcher: Searcher,
  pos: Position,
  limits: AnalysisLimits,
  searchMoves: number[] = [],
  onProgress: (p: Progress) => void = () => {},
): Analysis {
  const t0 = performance.now();
  const base = { ...DEFAULT_LIMITS, multiPV: limits.multiPV, noRemovalLimit: limits.noRemovalLimit, searchMoves };
  let nodes = 0;
  let shown = 0;
  const listen = (info: SearchInfo): void => {
    if (info.multipv !== 1 || info.depth <= shown) return;
    shown = info.depth;
    onProgress({
      depth: info.depth,
      score: scoreValue(info.score),
      pv: info.pv,
      nodes: nodes + info.nodes,
      ms: performance.now() - t0,
    });
  };
  searcher.onInfo = listen;
  try {
    if (limits.timeMs <= 0) {
      const r = searcher.run(pos, { ...base, depth: limits.depth });
      return { lines: r.lines, depth: r.depth, nodes: r.nodes, ms: performance.now() - t0 };
    }
    const rootMoves = searchMoves.length > 0 ? searchMoves.length : legalMoves(pos).length;
    let best: Analysis | undefined;
    for (let depth = 1; depth <= DEFAULT_LIMITS.depth; depth++) {
      const elapsed = performance.now() - t0;
      const r = searcher.run(pos, {
        ...base,
        depth,
        maximumMs: depth === 1 ? 0 : Math.max(1, limits.timeMs - elapsed),
      });
      nodes += r.nodes;
      if (r.depth < depth) break; // stopped by the clock: keep the last completed depth
      best = { lines: r.lines, depth: r.depth, nodes, ms: performance.now() - t0 };
      const now = performance.now() - t0;
      if (now > limits.timeMs / 2) break; // the next depth would not finish
      if (rootMoves <= 1 && depth >= 4) break;
      const top = r.lines[0];
      if (top && Math.abs(top.score) >= MATE_BOUND && depth >= MATE - Math.abs(top.score) + 2) break;
    }
    // Depth 1 always completes, so `best` is set.
    return { ...best!, nodes, ms: performance.now() - t0 };
  } finally {
    searcher.onInfo = () => {};
  }
}
