/**
 * The explorer index a static page carries (built by `thoth db index`, src/db/static-index.ts;
 * docs/db.md, "The page's index"): positions by their key (src/analysis/game-keys.ts, base 36),
 * each move played there as [move, games, first player's wins, draws, second player's wins].
 * Read here into the explorer's moves (src/analysis/explorer.ts) for the side to move.
 */
import type { Position } from '../core/index';
import type { ExplorerMove } from './explorer';
import { keyOf } from './game-keys';

export const EXPLORER_INDEX_VERSION = 1;

export interface ExplorerIndex {
  version: number;
  /** The first plies of each setup it covers. */
  plies: number;
  /** Positions reached by fewer games are left out. */
  minGames: number;
  /** Games it was built from. */
  games: number;
  positions: Record<string, [string, number, number, number, number][]>;
}

/** Whether a parsed JSON value is an index this build reads. */
export function isExplorerIndex(v: unknown): v is ExplorerIndex {
  const o = v as ExplorerIndex;
  return typeof o === 'object' && o !== null && o.version === EXPLORER_INDEX_VERSION && typeof o.positions === 'object';
}

/** The moves the index holds for a position (none when it is not indexed), most played first. */
export function indexMoves(index: ExplorerIndex, pos: Position): ExplorerMove[] {
  const list = index.positions[keyOf(pos).toString(36)] ?? [];
  const me = pos.side;
  return list.map(([move, games, w, d, l]) => {
    const [wins, losses] = me === 0 ? [w, l] : [l, w];
    const finished = wins + d + losses;
    return {
      move,
      games,
      wins,
      draws: d,
      losses,
      score: finished > 0 ? (wins + d / 2) / finished : Number.NaN,
    };
  });
}
