/**
 * The static page's explorer index (thoth db index; docs/db.md, "The page's index"): for the
 * first plies of every setup, each position reached by at least `minGames` games and each move
 * played there, with its games and results. A JSON file within a size budget: when the positions
 * do not fit, the least-played are left out (the threshold rises) until they do. The page reads
 * it with src/analysis/explorer-index.ts.
 */
import type Database from 'better-sqlite3';
import { EXPLORER_INDEX_VERSION, type ExplorerIndex } from '../analysis/explorer-index';
import { filterSql, type GameFilter } from './query';

interface IndexOptions {
  plies: number;
  minGames: number;
  /** The largest file, in bytes. */
  budget: number;
  filter: GameFilter;
}

/** The index's text and what it holds. */
export function buildIndex(
  db: Database.Database,
  o: IndexOptions,
): { text: string; positions: number; games: number; plies: number; minGames: number } {
  const { where, params } = filterSql(o.filter);
  const rows = db
    .prepare(
      `SELECT p.key AS key, p.move AS move, count(DISTINCT p.game) AS n,
              sum(g.result = '1-0') AS w, sum(g.result = '1/2-1/2') AS d, sum(g.result = '0-1') AS l
       FROM positions p JOIN games g ON g.id = p.game
       WHERE p.ply < @plies AND p.move IS NOT NULL AND ${where}
       GROUP BY p.key, p.move`,
    )
    .all({ ...params, plies: o.plies }) as { key: number; move: string; n: number; w: number; d: number; l: number }[];
  const games = (db.prepare(`SELECT count(*) AS n FROM games g WHERE ${where}`).get(params) as { n: number }).n;
  const byKey = new Map<number, [string, number, number, number, number][]>();
  for (const r of rows) {
    let list = byKey.get(r.key);
    if (!list) byKey.set(r.key, (list = []));
    list.push([r.move, r.n, r.w, r.d, r.l]);
  }
  const totals = [...byKey].map(([k, moves]) => ({ k, moves, n: moves.reduce((a, m) => a + m[1], 0) }));
  totals.sort((a, b) => b.n - a.n);
  for (let min = o.minGames; ; min = Math.max(min + 1, Math.ceil(min * 1.25))) {
    const index: ExplorerIndex = {
      version: EXPLORER_INDEX_VERSION,
      plies: o.plies,
      minGames: min,
      games,
      positions: {},
    };
    let count = 0;
    for (const t of totals) {
      if (t.n < min) break;
      index.positions[t.k.toString(36)] = t.moves.sort((a, b) => b[1] - a[1]);
      count++;
    }
    const text = JSON.stringify(index);
    if (text.length <= o.budget || count === 0) return { text, positions: count, games, plies: o.plies, minGames: min };
  }
}
