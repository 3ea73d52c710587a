/**
 * `thoth db <action> …`: the game database (docs/db.md). import (record files), list, show,
 * export, delete, explore (the opening explorer), search (a position by any move order, or a
 * pattern), review (every game on every core or over the distributed workers, resumable), players
 * (accuracy and marks over the reviewed games), index (the static page's explorer index), info,
 * score (a worker's part of a distributed review: src/cli/db-score.ts). Each failure is one line and
 * a non-zero exit; nothing stored before a failure is lost.
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { EDITIONS, formatMove, legalMoves, type Position } from '../core/index';
import { plural } from '../core/plural';
import { parseRecord, serializeRecord } from '../core/record';
import type { ExplorerMove } from '../analysis/explorer';
import { keyOf } from '../analysis/game-keys';
import { parsePattern } from '../analysis/pattern';
import { analysePosition } from '../analysis/analyser';
import { REVIEW_DEPTH, REVIEW_HASH_MB } from '../analysis/review-method';
import { engineSearcher } from '../engine/analysis-engine';
import type { Network } from '../nnue/network';
import { scoreOf } from '../core/score';
import { readRecordFile, writeFileAtomic } from '../process/files';
import { DbError, SCHEMA_VERSION, type GameRow } from '../db/database';
import { GameWriter, importText } from '../db/import';
import {
  countGames,
  deleteGames,
  explorerMoves,
  gamesAtKey,
  gamesMatching,
  getGame,
  getReview,
  listGames,
  type GameFilter,
} from '../db/query';
import { buildIndex } from '../db/static-index';
import { jsonLine } from '../match/results/summary';
import { CommandError, UsageError, intOption, parseArgs, type CommandSpec, type ParsedArgs } from './args';
import { POSITION_OPTIONS, positionFromArgs } from './position-args';
import { ProgressLine } from './progress';
import { FILTERS, dbPath, evaluationNet, filterOf, open } from './db-args';
import { players, review } from './db-review';
import { scoreFile } from './db-score';
import { DISTRIBUTED_OPTIONS } from './datagen-distributed';

const ACTIONS = [
  'import',
  'list',
  'show',
  'export',
  'delete',
  'explore',
  'search',
  'review',
  'players',
  'index',
  'info',
  'score',
];

export const DB_SPEC: CommandSpec = {
  name: 'db',
  positional: `<${ACTIONS.join('|')}> [FILE…|ID…]`,
  summary:
    'The game database (docs/db.md): import record files (duplicates found by their moves), list, show, export and ' +
    "delete games by filters, the opening explorer from any position, the games that reach a position (any move order) or match a pattern, every game reviewed on every core or over `thoth worker` processes (resumable), each player's accuracy and marks, the static page's explorer index.",
  options: [
    { name: 'db', value: 'FILE', help: 'the database file (made when missing)', default: 'games.db' },
    ...FILTERS,
    ...POSITION_OPTIONS.filter((o) => o.name !== 'pharaoh-rotation'),
    { name: 'pattern', value: 'TEXT', help: 'search: positions matching the pattern (docs/db.md, "Patterns")' },
    { name: 'limit', value: 'N', help: 'list, search: at most N games', default: '50' },
    { name: 'offset', value: 'N', help: 'list: skip the first N games', default: '0' },
    {
      name: 'depth',
      value: 'N',
      help: `review: the search depth (explore: of the evaluation, 0 none)`,
      default: `${REVIEW_DEPTH} (explore: 6)`,
    },
    {
      name: 'threads',
      value: 'N',
      help: 'review: games at once, one worker thread each',
      default: 'the number of cores',
    },
    { name: 'hash', value: 'MB', help: "review: each thread's table", default: String(REVIEW_HASH_MB) },
    {
      name: 'net',
      value: 'FILE',
      help: 'review, explore: the network, `default` or `none` (the hand-written evaluation)',
      default: 'default',
    },
    {
      name: 'distributed',
      value: 'URL',
      help: 'review: on `thoth worker` processes through the Redis at redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB] (docs/db.md, "Review over workers")',
    },
    { name: 'chunk', value: 'N', help: 'review with --distributed: database ids per job', default: '4' },
    ...DISTRIBUTED_OPTIONS.filter((o) => !['distributed', 'chunk', 'verify'].includes(o.name)),
    { name: 'out', value: 'FILE', help: 'export, index: the file to write (export: standard output without it)' },
    { name: 'plies', value: 'N', help: 'index: the first N plies of each setup', default: '8' },
    { name: 'min-games', value: 'N', help: 'index: positions reached by at least N games', default: '2' },
    { name: 'budget', value: 'KB', help: 'index: the largest index file', default: '1024' },
    { name: 'json', help: 'one JSON line per answer' },
    { name: 'quiet', help: 'no progress line (it is shown on a terminal only)' },
  ],
  notes: [
    'Examples: thoth db import games.pgn selfplay.pgn',
    '          thoth db list --player thoth-new --result 1-0 --setup dynasty',
    '          thoth db explore --setup classic --moves j4i4',
    '          thoth db search --pattern "Red Pharaoh on e8 with no Anubis beside it"',
    '          thoth db review --threads 2 && thoth db players',
    '          thoth db review --distributed redis://queue.lan:6379 --sign coordinator.key',
  ],
};

export async function dbCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, DB_SPEC);
  const [action, ...rest] = args.positional;
  if (action === undefined) throw new UsageError(`thoth db needs an action: ${ACTIONS.join(', ')} (thoth db --help)`);
  if (!ACTIONS.includes(action)) throw new UsageError(`unknown action '${action}' (${ACTIONS.join(', ')})`);
  if (!['import', 'show', 'delete', 'score'].includes(action) && rest.length > 0)
    throw new UsageError(`unexpected argument '${rest[0]}' after ${action}`);
  const json = args.options.has('json');
  const progress = new ProgressLine(process.stderr, !args.options.has('quiet'));
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  try {
    switch (action) {
      case 'import':
        return importFiles(args, rest, progress, write);
      case 'list':
        return list(args, write, json);
      case 'show':
        return show(args, rest, write, json);
      case 'export':
        return exportGames(args, write);
      case 'delete':
        return remove(args, rest, write);
      case 'explore':
        return explore(args, write, json);
      case 'search':
        return search(args, progress, write, json);
      case 'review':
        return await review(args, progress, write);
      case 'players':
        return players(args, write, json);
      case 'index':
        return index(args, write);
      case 'score':
        return scoreFile(args, rest, write);
      default:
        return info(args, write, json);
    }
  } catch (e) {
    if (e instanceof DbError) throw new CommandError(`${dbPath(args)}: ${e.message}`);
    throw e;
  } finally {
    progress.clear();
  }
}

function importFiles(args: ParsedArgs, files: string[], progress: ProgressLine, write: (s: string) => void): void {
  if (files.length === 0) throw new UsageError('thoth db import needs record files: thoth db import FILE…');
  const db = open(args, false);
  db.pragma('cache_size = -262144');
  const writer = new GameWriter(db);
  let damaged = 0;
  try {
    for (const file of files) {
      const text = readRecordFile(file, 'record file');
      if (!text.ok) throw new CommandError(text.error);
      const t0 = performance.now();
      const t = importText(writer, text.value, file, (t, at) =>
        progress.show(
          `${file}: ${Math.round((100 * at) / Math.max(1, text.value.length))} %, ${plural(t.stored, 'game')} stored, ${plural(t.duplicates, 'duplicate')}`,
        ),
      );
      progress.clear();
      for (const line of t.damaged) process.stderr.write(`thoth db: ${line}\n`);
      damaged += t.damaged.length;
      const secs = (performance.now() - t0) / 1000;
      write(
        `${file}: ${plural(t.games, 'game')} read, ${t.stored} stored, ${plural(t.duplicates, 'duplicate')}, ${t.damaged.length} damaged (skipped) in ${secs.toFixed(1)} s (${Math.round(t.stored / Math.max(secs, 1e-3))} games/s)`,
      );
    }
  } finally {
    db.close();
  }
  write(`${dbPath(args)} holds ${plural(count(args), 'game')}`);
  if (damaged > 0)
    throw new CommandError(
      `${plural(damaged, 'damaged game or text', 'damaged games or texts')} skipped (named above); every other game is stored`,
    );
}

function count(args: ParsedArgs): number {
  const db = open(args, true);
  try {
    return countGames(db, {});
  } finally {
    db.close();
  }
}

function gameLine(g: GameRow, accuracy?: [number | null, number | null]): string {
  const acc = accuracy ? ` [${accuracy.map((a) => (a === null ? '-' : a.toFixed(1))).join('/')}]` : '';
  return `${String(g.id).padStart(6)}  ${g.date ?? '????.??.??'}  ${g.white} - ${g.black}  ${g.result.padEnd(7)}  ${g.variant} ${g.setup}, ${plural(g.plies, 'ply', 'plies')}${g.ending ? `, ${g.ending}` : ''}${acc}`;
}

function list(args: ParsedArgs, write: (s: string) => void, json: boolean): void {
  const db = open(args, true);
  try {
    const f = filterOf(args, true);
    const limit = intOption(args, 'limit', 50, 1, 10_000_000);
    const offset = intOption(args, 'offset', 0, 0, 1_000_000_000);
    const games = listGames(db, f, limit, offset);
    const total = countGames(db, f);
    for (const g of games) {
      const r = getReview(db, g.id);
      const acc: [number | null, number | null] | undefined = r ? [r.accuracy_white, r.accuracy_black] : undefined;
      if (json) write(jsonLine({ ...g, moves: undefined, accuracy: acc }));
      else write(gameLine(g, acc));
    }
    if (!json)
      write(
        `${plural(total, 'game')} match${total === 1 ? 'es' : ''}${total > games.length ? `; shown ${offset + 1}-${offset + games.length} (--limit, --offset)` : ''}`,
      );
  } finally {
    db.close();
  }
}

function ids(rest: string[], what: string): number[] {
  if (rest.length === 0) throw new UsageError(`thoth db ${what} needs game numbers (thoth db list shows them)`);
  return rest.map((w) => {
    if (!/^\d+$/.test(w)) throw new UsageError(`'${w}' is not a game number`);
    return Number(w);
  });
}

function show(args: ParsedArgs, rest: string[], write: (s: string) => void, json: boolean): void {
  const db = open(args, true);
  try {
    for (const id of ids(rest, 'show')) {
      const g = getGame(db, id);
      if (!g) throw new CommandError(`no game ${id} in ${dbPath(args)}`);
      const r = getReview(db, id);
      if (json) {
        write(jsonLine({ ...g, review: r && { ...r, marks: JSON.parse(r.marks), scores: JSON.parse(r.scores) } }));
        continue;
      }
      write(withMarks(g.record, r?.marks).trimEnd());
      if (r) {
        const side = (s: 'white' | 'black'): string =>
          `${r[`accuracy_${s}`]?.toFixed(1) ?? '-'} % accuracy, ${r[`inaccuracies_${s}`]} ?!, ${r[`mistakes_${s}`]} ?, ${r[`blunders_${s}`]} ??`;
        write(`Review at depth ${r.depth}: ${g.white} ${side('white')}; ${g.black} ${side('black')}`);
      }
    }
  } finally {
    db.close();
  }
}

/** The record with the review's marks as NAGs. */
function withMarks(record: string, marks: string | undefined): string {
  if (marks === undefined) return record;
  const r = parseRecord(record);
  if (!r.ok) return record;
  const nags = JSON.parse(marks) as number[];
  r.value.moves.forEach((m, i) => {
    if (nags[i]) m.nags = [nags[i]];
  });
  return serializeRecord(r.value);
}

function exportGames(args: ParsedArgs, write: (s: string) => void): void {
  const db = open(args, true);
  try {
    const f = filterOf(args, true);
    const out = args.options.get('out')?.[0];
    const parts: string[] = [];
    for (const g of listGames(db, f, Number.MAX_SAFE_INTEGER, 0))
      parts.push(withMarks(getGame(db, g.id)!.record, getReview(db, g.id)?.marks));
    if (out === undefined) {
      process.stdout.write(parts.join(''));
      return;
    }
    writeFileAtomic(out, parts.join(''));
    write(`${plural(parts.length, 'game')} written to ${out}`);
  } finally {
    db.close();
  }
}

function remove(args: ParsedArgs, rest: string[], write: (s: string) => void): void {
  const list = ids(rest, 'delete');
  const db = open(args, false);
  try {
    const n = deleteGames(db, list);
    write(`${plural(n, 'game')} deleted`);
    if (n < list.length) throw new CommandError(`${plural(list.length - n, 'game')} not found (nothing else changed)`);
  } finally {
    db.close();
  }
}

/** The explorer's moves from a position, with Thoth's evaluation of each at `depth` (0: none). */
function exploreAt(
  db: Database.Database,
  pos: Position,
  f: GameFilter,
  depth: number,
  evalNet: () => Network | null,
): { moves: ExplorerMove[]; ms: number } {
  const t0 = performance.now();
  const moves = explorerMoves(db, keyOf(pos), pos.side as 0 | 1, f);
  const ms = performance.now() - t0;
  if (depth > 0 && moves.length > 0) {
    const searcher = engineSearcher(REVIEW_HASH_MB, { network: evalNet(), source: '' });
    const legal = new Map(legalMoves(pos).map((m) => [formatMove(m), m]));
    for (const m of moves) {
      const move = legal.get(m.move);
      if (move === undefined) continue;
      searcher.tt.clear();
      searcher.clearHistory();
      const a = analysePosition(searcher, pos, { depth, timeMs: 0, multiPV: 1, noRemovalLimit: 100 }, [move]);
      const s = a.lines[0]?.score;
      if (s !== undefined) m.eval = scoreOf(s);
    }
  }
  return { moves, ms };
}

function explore(args: ParsedArgs, write: (s: string) => void, json: boolean): void {
  const pos = positionFromArgs(args);
  const depth = intOption(args, 'depth', 6, 0, 30);
  const db = open(args, true);
  try {
    const net = (): Network | null => evaluationNet(args).net;
    const { moves, ms } = exploreAt(db, pos, filterOf(args, false), depth, net);
    if (json) {
      write(jsonLine({ key: keyOf(pos), side: pos.side, ms: Math.round(ms * 10) / 10, moves }));
      return;
    }
    const [c0, c1] = EDITIONS[pos.edition.id].colorNames;
    const total = moves.reduce((a, m) => a + m.games, 0);
    write(`${pos.side === 0 ? c0 : c1} to move; ${plural(total, 'game')} in ${dbPath(args)} (${ms.toFixed(1)} ms)`);
    if (moves.length === 0) return;
    write('move      games     win  draw  loss  score   eval   best game');
    for (const m of moves) {
      const pct = (n: number): string => `${Math.round((100 * n) / m.games)}%`.padStart(5);
      const ev = (
        m.eval === undefined ? '-' : m.eval.kind === 'mate' ? `M${m.eval.value}` : (m.eval.value / 100).toFixed(2)
      ).padStart(6);
      const score = Number.isNaN(m.score) ? '    -' : `${(100 * m.score).toFixed(0)}%`.padStart(5);
      write(
        `${m.move.padEnd(8)}${String(m.games).padStart(7)}  ${pct(m.wins)} ${pct(m.draws)} ${pct(m.losses)}  ${score}  ${ev}   ${m.best ? `#${m.best.game} ${m.best.white ?? '?'} - ${m.best.black ?? '?'} ${m.best.result}` : ''}`,
      );
    }
  } finally {
    db.close();
  }
}

function search(args: ParsedArgs, progress: ProgressLine, write: (s: string) => void, json: boolean): void {
  const limit = intOption(args, 'limit', 50, 1, 10_000_000);
  const text = args.options.get('pattern')?.[0];
  const db = open(args, true);
  try {
    const t0 = performance.now();
    let games: (GameRow & { ply: number })[];
    let looked: number | undefined;
    if (text !== undefined) {
      for (const o of ['kfen', 'moves'])
        if (args.options.has(o)) throw new UsageError(`--${o} does not go with --pattern`);
      const p = parsePattern(text);
      if (!p.ok) throw new UsageError(`--pattern: ${p.error}`);
      const r = gamesMatching(db, p.value, filterOf(args, true), limit, (n) =>
        progress.show(`searching: ${plural(n, 'game')} looked at`),
      );
      games = r.games;
      looked = r.looked;
    } else {
      if (!args.options.has('kfen') && !args.options.has('moves'))
        throw new UsageError('thoth db search needs a position (--kfen, or --setup with --moves) or --pattern');
      games = gamesAtKey(db, keyOf(positionFromArgs(args)), filterOf(args, false), limit);
    }
    const ms = performance.now() - t0;
    progress.clear();
    for (const g of games) {
      if (json) write(jsonLine({ ...g, moves: undefined }));
      else write(`${gameLine(g)}  (at ply ${g.ply})`);
    }
    if (!json)
      write(
        `${plural(games.length, 'game')} found in ${ms.toFixed(0)} ms${looked !== undefined ? ` (${plural(looked, 'game')} looked at)` : ''}${games.length >= limit ? ' (--limit reached)' : ''}`,
      );
  } finally {
    db.close();
  }
}

function index(args: ParsedArgs, write: (s: string) => void): void {
  const out = args.options.get('out')?.[0];
  if (out === undefined) throw new UsageError('thoth db index needs --out FILE');
  const plies = intOption(args, 'plies', 8, 1, 40);
  const minGames = intOption(args, 'min-games', 2, 1, 1_000_000);
  const budget = intOption(args, 'budget', 1024, 1, 1_000_000) * 1024;
  const db = open(args, true);
  try {
    const r = buildIndex(db, { plies, minGames, budget, filter: filterOf(args, true) });
    writeFileAtomic(out, r.text);
    write(
      `${out}: ${plural(r.positions, 'position')} of ${plural(r.games, 'game')} (the first ${plural(r.plies, 'ply', 'plies')} of each setup, positions reached by ${r.minGames}+ games), ${(r.text.length / 1024).toFixed(0)} KB of ${budget / 1024} KB`,
    );
  } finally {
    db.close();
  }
}

function info(args: ParsedArgs, write: (s: string) => void, json: boolean): void {
  const db = open(args, true);
  try {
    const games = countGames(db, {});
    const positions = (db.prepare('SELECT count(*) AS n FROM positions').get() as { n: number }).n;
    const reviews = (db.prepare('SELECT count(*) AS n FROM reviews').get() as { n: number }).n;
    const bytes = statSync(dbPath(args)).size;
    const o = { file: dbPath(args), schema: SCHEMA_VERSION, games, positions, reviews, bytes };
    if (json) write(jsonLine(o));
    else
      write(
        `${o.file}: ${plural(games, 'game')}, ${plural(positions, 'position')}, ${plural(reviews, 'review')}; ${(bytes / 1048576).toFixed(1)} MB, schema ${o.schema}`,
      );
  } finally {
    db.close();
  }
}
