/**
 * The opening explorer's arithmetic (docs/db.md, "Explorer"): from the games that reached a
 * position and the move each played there, each move with its number of games, wins, draws and
 * losses and average score from the mover's point of view, and its best game: the best result
 * for the mover, then the most accurate (when reviewed), then the shortest. A game that passed the
 * position twice and played the same move counts once for it. Pure: the database (thoth db
 * explore) and the page (its own games, the static index) both aggregate here.
 */
import type { Score } from '../core/score';

/** A game that reached the position, and the move it played there. */
export interface ExplorerRow {
  move: string;
  game: number | string;
  result: string;
  plies: number;
  white?: string;
  black?: string;
  accuracyWhite?: number | null;
  accuracyBlack?: number | null;
}

/** The best game of a move. */
interface BestGame {
  game: number | string;
  result: string;
  plies: number;
  white?: string;
  black?: string;
  /** The mover's accuracy in it, when reviewed. */
  accuracy?: number;
}

export interface ExplorerMove {
  move: string;
  games: number;
  /** From the mover's point of view. */
  wins: number;
  draws: number;
  losses: number;
  /** (wins + draws / 2) / finished games, 0–1 (NaN when none finished). */
  score: number;
  /** Its best game (the page's index keeps none). */
  best?: BestGame;
  /** Thoth's evaluation of the position after the move, mover's point of view (filled by the caller). */
  eval?: Score;
}

/** The outcome of a result for side `mover` (0 first player): 1 win, 0.5 draw, 0 loss, undefined unfinished. */
function outcome(result: string, mover: 0 | 1): number | undefined {
  if (result === '1/2-1/2') return 0.5;
  if (result === '1-0') return mover === 0 ? 1 : 0;
  if (result === '0-1') return mover === 0 ? 0 : 1;
  return undefined;
}

function better(a: BestGame, b: BestGame, mover: 0 | 1): boolean {
  const oa = outcome(a.result, mover) ?? -1;
  const ob = outcome(b.result, mover) ?? -1;
  if (oa !== ob) return oa > ob;
  const aa = a.accuracy ?? -1;
  const ab = b.accuracy ?? -1;
  if (aa !== ab) return aa > ab;
  return a.plies < b.plies;
}

/** Each move played from a position where `mover` is to move, most games first. */
export function exploreMoves(rows: readonly ExplorerRow[], mover: 0 | 1): ExplorerMove[] {
  const byMove = new Map<string, ExplorerMove & { seen: Set<number | string> }>();
  for (const r of rows) {
    let m = byMove.get(r.move);
    const acc = mover === 0 ? r.accuracyWhite : r.accuracyBlack;
    const game: BestGame = {
      game: r.game,
      result: r.result,
      plies: r.plies,
      white: r.white,
      black: r.black,
      ...(acc === null || acc === undefined ? {} : { accuracy: acc }),
    };
    if (m === undefined) {
      m = { move: r.move, games: 0, wins: 0, draws: 0, losses: 0, score: Number.NaN, best: game, seen: new Set() };
      byMove.set(r.move, m);
    }
    if (m.seen.has(r.game)) continue;
    m.seen.add(r.game);
    m.games++;
    const o = outcome(r.result, mover);
    if (o === 1) m.wins++;
    else if (o === 0.5) m.draws++;
    else if (o === 0) m.losses++;
    if (m.best === undefined || better(game, m.best, mover)) m.best = game;
  }
  const out: ExplorerMove[] = [];
  for (const { seen: _, ...m } of byMove.values()) {
    const finished = m.wins + m.draws + m.losses;
    out.push({ ...m, score: finished > 0 ? (m.wins + m.draws / 2) / finished : Number.NaN });
  }
  return out.sort((a, b) => b.games - a.games || (a.move < b.move ? -1 : 1));
}
