/**
 * Reading the game database (docs/db.md): games by filters (players, result, edition, setup, how
 * it ended, length, date), one game, the rows of the opening explorer, the games that reach a
 * position (by its key: any move order) or match a pattern (src/analysis/pattern.ts), reviews and
 * the players' totals over them.
 */
import type Database from 'better-sqlite3';
import { Position, parseKfen, parseKfenData, type EditionId, type KfenData } from '../core/index';
import { keyOf, packedMove } from '../analysis/game-keys';
import type { ExplorerMove, ExplorerRow } from '../analysis/explorer';
import { firstPlyWhere, matchesPattern, type Pattern } from '../analysis/pattern';
import type { GameRow, ReviewRow } from './database';

/** Which games: every field given must hold (text fields compare without case; `*` is any text). */
export interface GameFilter {
  /** Either player. */
  player?: string;
  white?: string;
  black?: string;
  /** `1-0`, `0-1`, `1/2-1/2` or `*`. */
  result?: string;
  variant?: string;
  setup?: string;
  /** Words of how it ended: the Termination tag or the ending comment holds them. */
  ending?: string;
  minPlies?: number;
  maxPlies?: number;
  /** Dates as `YYYY.MM.DD` (or `YYYY-MM-DD`), both ends included. */
  from?: string;
  to?: string;
  /** Only games reviewed (true) or not yet reviewed (false). */
  reviewed?: boolean;
  /** Only the games with these keys (a file's games). */
  keys?: string[];
}

const like = (s: string): string => s.replace(/[%_\\]/g, (c) => `\\${c}`).replace(/\*/g, '%');
const pgnDay = (s: string): string => s.replace(/-/g, '.');

/** The SQL condition (on `games g`) and its parameters. */
export function filterSql(f: GameFilter): { where: string; params: Record<string, string | number> } {
  const c: string[] = [];
  const p: Record<string, string | number> = {};
  if (f.player !== undefined) {
    c.push(`(g.white LIKE @player ESCAPE '\\' OR g.black LIKE @player ESCAPE '\\')`);
    p.player = like(f.player);
  }
  if (f.white !== undefined) {
    c.push(`g.white LIKE @white ESCAPE '\\'`);
    p.white = like(f.white);
  }
  if (f.black !== undefined) {
    c.push(`g.black LIKE @black ESCAPE '\\'`);
    p.black = like(f.black);
  }
  if (f.result !== undefined) {
    c.push('g.result = @result');
    p.result = f.result;
  }
  if (f.variant !== undefined) {
    c.push('g.variant = @variant');
    p.variant = f.variant;
  }
  if (f.setup !== undefined) {
    c.push('g.setup = @setup');
    p.setup = f.setup;
  }
  if (f.ending !== undefined) {
    c.push(`(g.termination LIKE @ending ESCAPE '\\' OR g.ending LIKE @ending ESCAPE '\\')`);
    p.ending = `%${like(f.ending)}%`;
  }
  if (f.minPlies !== undefined) {
    c.push('g.plies >= @minPlies');
    p.minPlies = f.minPlies;
  }
  if (f.maxPlies !== undefined) {
    c.push('g.plies <= @maxPlies');
    p.maxPlies = f.maxPlies;
  }
  if (f.from !== undefined) {
    c.push('g.date >= @from');
    p.from = pgnDay(f.from);
  }
  if (f.to !== undefined) {
    c.push('g.date <= @to');
    p.to = pgnDay(f.to);
  }
  if (f.keys !== undefined) {
    c.push('g.key IN (SELECT value FROM json_each(@keys))');
    p.keys = JSON.stringify(f.keys);
  }
  if (f.reviewed !== undefined)
    c.push(`${f.reviewed ? '' : 'NOT '}EXISTS (SELECT 1 FROM reviews r WHERE r.game = g.id)`);
  return { where: c.length > 0 ? c.join(' AND ') : '1', params: p };
}

const GAME_COLUMNS =
  'g.id, g.key, g.variant, g.setup, g.start, g.white, g.black, g.result, g.termination, g.ending, g.plies, g.date, g.event, g.moves, g.source, g.added';

/** Games that pass the filter, in the order they were stored. */
export function listGames(db: Database.Database, f: GameFilter, limit = 50, offset = 0): GameRow[] {
  const { where, params } = filterSql(f);
  return db
    .prepare(`SELECT ${GAME_COLUMNS} FROM games g WHERE ${where} ORDER BY g.id LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit, offset }) as GameRow[];
}

export function countGames(db: Database.Database, f: GameFilter): number {
  const { where, params } = filterSql(f);
  return (db.prepare(`SELECT count(*) AS n FROM games g WHERE ${where}`).get(params) as { n: number }).n;
}

/** One game with its record text, or undefined. */
export function getGame(db: Database.Database, id: number): (GameRow & { record: string }) | undefined {
  return db.prepare(`SELECT ${GAME_COLUMNS}, g.record FROM games g WHERE g.id = ?`).get(id) as
    | (GameRow & { record: string })
    | undefined;
}

/** Deletes games with their positions (found again by replaying the game) and reviews; how many there were. */
export function deleteGames(db: Database.Database, ids: readonly number[]): number {
  const get = db.prepare('SELECT variant, start, plies, codes FROM games WHERE id = ?');
  const delPosition = db.prepare('DELETE FROM positions WHERE key = ? AND game = ? AND ply = ?');
  const delReview = db.prepare('DELETE FROM reviews WHERE game = ?');
  const delGame = db.prepare('DELETE FROM games WHERE id = ?');
  return db.transaction((list: readonly number[]) => {
    let n = 0;
    for (const id of list) {
      const g = get.get(id) as { variant: EditionId; start: string; plies: number; codes: Uint8Array } | undefined;
      if (g === undefined) continue;
      const r = parseKfen(g.start, g.variant);
      if (r.ok) {
        const pos = r.value;
        delPosition.run(keyOf(pos), id, 0);
        for (let k = 0; k < g.plies; k++) {
          pos.make(packedMove(g.codes, k));
          delPosition.run(keyOf(pos), id, k + 1);
        }
      }
      delReview.run(id);
      n += delGame.run(id).changes;
    }
    return n;
  })(ids);
}

/** Statements compiled once per database and text: the explorer is asked once a position shown. */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepared(db: Database.Database, sql: string): Database.Statement {
  let m = statements.get(db);
  if (m === undefined) statements.set(db, (m = new Map()));
  let st = m.get(sql);
  if (st === undefined) m.set(sql, (st = db.prepare(sql)));
  return st;
}

/** The explorer's rows: each game (passing the filter) that reached the position and the move it played there. */
export function explorerRows(db: Database.Database, key: number, f: GameFilter = {}): ExplorerRow[] {
  const { where, params } = filterSql(f);
  return db
    .prepare(
      `SELECT p.move AS move, p.game AS game, g.result AS result, g.plies AS plies, g.white AS white, g.black AS black,
              r.accuracy_white AS accuracyWhite, r.accuracy_black AS accuracyBlack
       FROM positions p JOIN games g ON g.id = p.game LEFT JOIN reviews r ON r.game = g.id
       WHERE p.key = @key AND p.move IS NOT NULL AND ${where}`,
    )
    .all({ ...params, key }) as ExplorerRow[];
}

/**
 * The explorer's moves from the position with this key, `mover` to move: what
 * exploreMoves(explorerRows(…)) gives (src/analysis/explorer.ts: a game counted once a move, the
 * best game by result, then accuracy, then length, then the earlier stored), summed by SQLite, so
 * that a position half the database passes through (a setup's start) answers in milliseconds, not
 * in a walk of every game through JavaScript.
 */
export function explorerMoves(db: Database.Database, key: number, mover: 0 | 1, f: GameFilter = {}): ExplorerMove[] {
  const { where, params } = filterSql(f);
  const rows = prepared(
    db,
    `WITH hits AS (SELECT DISTINCT move, game FROM positions WHERE key = @key AND move IS NOT NULL),
       played AS (
         SELECT h.move AS move, g.id AS game, g.result AS result, g.plies AS plies, g.white AS white, g.black AS black,
                CASE WHEN @mover = 0 THEN r.accuracy_white ELSE r.accuracy_black END AS accuracy,
                CASE g.result WHEN '1/2-1/2' THEN 1 WHEN @won THEN 2 WHEN @lost THEN 0 ELSE -1 END AS outcome
         FROM hits h JOIN games g INDEXED BY games_explorer ON g.id = h.game LEFT JOIN reviews r ON r.game = g.id
         WHERE ${where}),
       ranked AS (
         SELECT *, row_number() OVER (PARTITION BY move ORDER BY outcome DESC, coalesce(accuracy, -1) DESC, plies, game) AS rank,
                count(*) OVER (PARTITION BY move) AS games,
                sum(outcome = 2) OVER (PARTITION BY move) AS wins,
                sum(outcome = 1) OVER (PARTITION BY move) AS draws,
                sum(outcome = 0) OVER (PARTITION BY move) AS losses
         FROM played)
       SELECT move, games, wins, draws, losses, game, result, plies, white, black, accuracy FROM ranked WHERE rank = 1`,
  ).all({ ...params, key, mover, won: mover === 0 ? '1-0' : '0-1', lost: mover === 0 ? '0-1' : '1-0' }) as {
    move: string;
    games: number;
    wins: number;
    draws: number;
    losses: number;
    game: number;
    result: string;
    plies: number;
    white: string;
    black: string;
    accuracy: number | null;
  }[];
  return rows
    .map((r): ExplorerMove => {
      const finished = r.wins + r.draws + r.losses;
      return {
        move: r.move,
        games: r.games,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        score: finished > 0 ? (r.wins + r.draws / 2) / finished : Number.NaN,
        best: {
          game: r.game,
          result: r.result,
          plies: r.plies,
          white: r.white,
          black: r.black,
          ...(r.accuracy === null ? {} : { accuracy: r.accuracy }),
        },
      };
    })
    .sort((a, b) => b.games - a.games || (a.move < b.move ? -1 : 1));
}

/** Games (passing the filter) that reach the position with this key, with the first ply they reach it at. */
export function gamesAtKey(
  db: Database.Database,
  key: number,
  f: GameFilter = {},
  limit = 50,
): (GameRow & { ply: number })[] {
  const { where, params } = filterSql(f);
  return db
    .prepare(
      `SELECT ${GAME_COLUMNS}, min(p.ply) AS ply FROM positions p JOIN games g ON g.id = p.game
       WHERE p.key = @key AND ${where} GROUP BY g.id ORDER BY g.id LIMIT @limit`,
    )
    .all({ ...params, key, limit }) as (GameRow & { ply: number })[];
}

/**
 * Games (passing the filter) with a position that matches the pattern, each with the first ply
 * that does; replays every game. `each` hears how many games were looked at, now and then.
 */
export function gamesMatching(
  db: Database.Database,
  pattern: Pattern,
  f: GameFilter = {},
  limit = 50,
  each: (looked: number) => void = () => {},
): { games: (GameRow & { ply: number })[]; looked: number } {
  const { where, params } = filterSql(f);
  const found: (GameRow & { ply: number })[] = [];
  let looked = 0;
  // One position per edition, set up again for each game; the starts read once (the setups repeat).
  const positions = new Map<string, Position>();
  const starts = new Map<string, KfenData | null>();
  const it = db.prepare(`SELECT ${GAME_COLUMNS}, g.codes FROM games g WHERE ${where} ORDER BY g.id`).iterate(params);
  for (const { codes, ...row } of it as IterableIterator<GameRow & { codes: Uint8Array }>) {
    looked++;
    if (looked % 1000 === 0) each(looked);
    const key = `${row.variant} ${row.start}`;
    let start = starts.get(key);
    if (start === undefined) {
      const r = parseKfenData(row.start, row.variant as EditionId);
      starts.set(key, (start = r.ok ? r.value : null));
    }
    if (start === null) continue;
    let pos = positions.get(row.variant);
    if (pos === undefined) positions.set(row.variant, (pos = new Position(row.variant as EditionId)));
    pos.setup(start.board, start.side, start.pliesSinceRemoval, start.moveNumber);
    const ply = firstPlyWhere(
      pos,
      row.plies,
      (p, k) => {
        p.make(packedMove(codes, k));
        return true;
      },
      (p) => matchesPattern(pattern, p),
    );
    if (ply >= 0) {
      found.push({ ...row, ply });
      if (found.length >= limit) break;
    }
  }
  return { games: found, looked };
}

/** Stores (or replaces) a game's review. */
export function storeReview(db: Database.Database, r: ReviewRow): void {
  db.prepare(
    `INSERT OR REPLACE INTO reviews VALUES (@game, @depth, @accuracy_white, @accuracy_black, @inaccuracies_white, @mistakes_white,
       @blunders_white, @inaccuracies_black, @mistakes_black, @blunders_black, @cp_loss_white, @cp_loss_black, @marks, @scores, @done)`,
  ).run(r);
}

export function getReview(db: Database.Database, game: number): ReviewRow | undefined {
  return db.prepare('SELECT * FROM reviews WHERE game = ?').get(game) as ReviewRow | undefined;
}

/** A player's totals over the reviewed games (passing the filter). */
interface PlayerTotals {
  player: string;
  games: number;
  /** The mean of the games' accuracies. */
  accuracy: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  /** The mean of the games' average centi-pyramid loss. */
  cpLoss: number;
}

/** Every player's totals over the reviewed games that pass the filter, most games first. */
export function reviewedPlayerTotals(db: Database.Database, f: GameFilter = {}): PlayerTotals[] {
  const { where, params } = filterSql(f);
  return db
    .prepare(
      `SELECT player, count(*) AS games, avg(acc) AS accuracy, sum(i) AS inaccuracies, sum(m) AS mistakes, sum(b) AS blunders, avg(cp) AS cpLoss
       FROM (SELECT g.white AS player, r.accuracy_white AS acc, r.inaccuracies_white AS i, r.mistakes_white AS m, r.blunders_white AS b, r.cp_loss_white AS cp
               FROM games g JOIN reviews r ON r.game = g.id WHERE ${where}
             UNION ALL
             SELECT g.black, r.accuracy_black, r.inaccuracies_black, r.mistakes_black, r.blunders_black, r.cp_loss_black
               FROM games g JOIN reviews r ON r.game = g.id WHERE ${where})
       GROUP BY player ORDER BY games DESC, player`,
    )
    .all(params) as PlayerTotals[];
}
