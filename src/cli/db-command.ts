/**
 * `thoth db <action> …`: the game database (docs/db.md). import (record files), list, show,
 * export, delete, explore (the opening explorer), search (a position by any move order, or a
 * pattern), review (every game on every core, resumable), players (accuracy and marks over the
 * reviewed games), index (the static page's explorer index), info. Each failure is one line and
 * a non-zero exit; nothing stored before a failure is lost.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type Database from 'better-sqlite3';
import { EDITIONS, formatMove, isEditionId, legalMoves, type Position } from '../core/index';
import { plural } from '../core/plural';
import { RESULT_TOKENS, parseRecord, serializeRecord } from '../core/record';
import { exploreMoves, type ExplorerMove } from '../analysis/explorer';
import { keyOf } from '../analysis/game-keys';
import { parsePattern } from '../analysis/pattern';
import { analysePosition } from '../analysis/analyser';
import { REVIEW_DEPTH, REVIEW_HASH_MB } from '../analysis/review-method';
import { engineSearcher } from '../engine/analysis-engine';
import { loadNetworkFile } from '../node/network-file';
import type { Network } from '../nnue/network';
import { scoreOf } from '../core/score';
import { readRecordFile, writeFileAtomic } from '../process/files';
import { DbError, SCHEMA_VERSION, openDatabase, type GameRow } from '../db/database';
import { GameWriter, importText } from '../db/import';
import {
  countGames,
  deleteGames,
  explorerRows,
  gamesAtKey,
  gamesMatching,
  getGame,
  getReview,
  listGames,
  playerTotals,
  type GameFilter,
} from '../db/query';
import { ReviewRun, gamesToReview } from '../db/review';
import { buildIndex } from '../db/static-index';
import { jsonLine } from '../match/results/summary';
import { CommandError, EXIT, UsageError, intOption, parseArgs, type CommandSpec, type ParsedArgs } from './args';
import { onInterrupt } from './interrupt';
import { POSITION_OPTIONS, positionFromArgs } from './position-args';
import { ProgressLine, formatDuration } from './progress';

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
];

const FILTERS: CommandSpec['options'] = [
  { name: 'player', value: 'NAME', help: 'games of this player, either side (`*` matches any text; no case)' },
  { name: 'white', value: 'NAME', help: 'games whose first player is NAME' },
  { name: 'black', value: 'NAME', help: 'games whose second player is NAME' },
  { name: 'result', value: 'R', help: '1-0, 0-1, 1/2-1/2 (or draw) or *' },
  {
    name: 'ending',
    value: 'WORDS',
    help: 'how it ended: words of the Termination tag or the ending comment (e.g. repetition)',
  },
  { name: 'min-plies', value: 'N', help: 'games at least N plies long' },
  { name: 'max-plies', value: 'N', help: 'games at most N plies long' },
  { name: 'from', value: 'DATE', help: 'games played on or after DATE (YYYY.MM.DD)' },
  { name: 'to', value: 'DATE', help: 'games played on or before DATE' },
  { name: 'reviewed', help: 'only reviewed games' },
];

export const DB_SPEC: CommandSpec = {
  name: 'db',
  positional: `<${ACTIONS.join('|')}> [FILE…|ID…]`,
  summary:
    'The game database (docs/db.md): import record files (duplicates found by their moves), list, show, export and ' +
    "delete games by filters, the opening explorer from any position, the games that reach a position (any move order) or match a pattern, every game reviewed on every core (resumable), each player's accuracy and marks, the static page's explorer index.",
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
  ],
};

function filterOf(args: ParsedArgs, withSetup: boolean): GameFilter {
  const one = (n: string): string | undefined => args.options.get(n)?.[0];
  const f: GameFilter = {};
  if (one('player') !== undefined) f.player = one('player');
  if (one('white') !== undefined) f.white = one('white');
  if (one('black') !== undefined) f.black = one('black');
  const result = one('result');
  if (result !== undefined) {
    const r = result === 'draw' ? '1/2-1/2' : result;
    if (!(RESULT_TOKENS as readonly string[]).includes(r))
      throw new UsageError(`--result must be 1-0, 0-1, 1/2-1/2 (draw) or *, not '${result}'`);
    f.result = r;
  }
  const variant = one('variant');
  if (variant !== undefined) {
    if (!isEditionId(variant)) throw new UsageError(`unknown variant '${variant}' (khet2, khet1 or deflexion)`);
    f.variant = variant;
  }
  if (withSetup && one('setup') !== undefined) f.setup = one('setup');
  if (one('ending') !== undefined) f.ending = one('ending');
  if (args.options.has('min-plies')) f.minPlies = intOption(args, 'min-plies', 0, 0, 1_000_000);
  if (args.options.has('max-plies')) f.maxPlies = intOption(args, 'max-plies', 0, 0, 1_000_000);
  for (const d of ['from', 'to'] as const) {
    const v = one(d);
    if (v === undefined) continue;
    if (!/^\d{4}[.-]\d\d[.-]\d\d$/.test(v)) throw new UsageError(`--${d} must be a date YYYY.MM.DD, not '${v}'`);
    f[d] = v;
  }
  if (args.options.has('reviewed')) f.reviewed = true;
  return f;
}

function dbPath(args: ParsedArgs): string {
  return args.options.get('db')?.[0] ?? 'games.db';
}

/** Opens the database, a DbError as a CommandError (one line). */
function open(args: ParsedArgs, readonly: boolean): Database.Database {
  try {
    return openDatabase(dbPath(args), { readonly });
  } catch (e) {
    if (e instanceof DbError) throw new CommandError(e.message);
    throw e;
  }
}

/** The network of --net (the shipped one by default), or null for `none`. */
function evaluationNet(args: ParsedArgs): { bytes: SharedArrayBuffer | null; net: Network | null } {
  const file = args.options.get('net')?.[0] ?? 'default';
  if (file === 'none') return { bytes: null, net: null };
  const r = loadNetworkFile(file);
  if (!r.ok) throw new UsageError(`--net: ${r.error}`);
  return { bytes: r.value.bytes, net: r.value.net };
}

export async function dbCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, DB_SPEC);
  const [action, ...rest] = args.positional;
  if (action === undefined) throw new UsageError(`thoth db needs an action: ${ACTIONS.join(', ')} (thoth db --help)`);
  if (!ACTIONS.includes(action)) throw new UsageError(`unknown action '${action}' (${ACTIONS.join(', ')})`);
  if (!['import', 'show', 'delete'].includes(action) && rest.length > 0)
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
  const moves = exploreMoves(explorerRows(db, keyOf(pos), f), pos.side as 0 | 1);
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

/**
 * `thoth analyse --game FILE --all`: the file's games imported into a database (FILE.db unless
 * --db), every one reviewed there, resumably, then each player's totals over the file's games.
 */
export async function reviewFile(
  file: string,
  args: ParsedArgs,
  progress: ProgressLine,
  write: (s: string) => void,
): Promise<void> {
  const dbFile = args.options.get('db')?.[0] ?? `${file}.db`;
  const depth = intOption(args, 'depth', REVIEW_DEPTH, 1, 40);
  const threads = intOption(args, 'threads', availableParallelism(), 1, 256);
  const hashMb = intOption(args, 'hash', REVIEW_HASH_MB, 1, 4096);
  const text = readRecordFile(file, 'record file');
  if (!text.ok) throw new UsageError(text.error);
  let db: Database.Database;
  try {
    db = openDatabase(dbFile);
  } catch (e) {
    throw e instanceof DbError ? new CommandError(e.message) : e;
  }
  try {
    const t = importText(new GameWriter(db), text.value, file);
    for (const line of t.damaged) process.stderr.write(`thoth analyse: ${line}\n`);
    const keys = new Set(t.keys);
    const todo = gamesToReview(db, { keys: [...keys] }, depth);
    write(
      `${file}: ${plural(t.games, 'game')} (${dbFile}); reviewing ${plural(todo.length, 'game')} at depth ${depth} on ${plural(threads, 'thread')}, ${keys.size - todo.length} already reviewed`,
    );
    const r = loadNetworkFile('default');
    const network = r.ok ? r.value.bytes : null;
    if (todo.length > 0) await reviewGames(db, todo, { depth, threads, hashMb, network }, progress, write);
    printPlayers(db, { keys: [...keys] }, write);
  } catch (e) {
    throw e instanceof DbError ? new CommandError(`${dbFile}: ${e.message}`) : e;
  } finally {
    db.close();
  }
}

async function review(args: ParsedArgs, progress: ProgressLine, write: (s: string) => void): Promise<void> {
  const depth = intOption(args, 'depth', REVIEW_DEPTH, 1, 40);
  const threads = intOption(args, 'threads', availableParallelism(), 1, 256);
  const hashMb = intOption(args, 'hash', REVIEW_HASH_MB, 1, 4096);
  const net = evaluationNet(args);
  const db = open(args, false);
  try {
    const f = filterOf(args, true);
    const todo = gamesToReview(db, f, depth);
    const all = countGames(db, f);
    write(
      `Reviewing ${plural(todo.length, 'game')} at depth ${depth} on ${plural(threads, 'thread')} (${all - todo.length} of ${all} already reviewed)`,
    );
    if (todo.length > 0) await reviewGames(db, todo, { depth, threads, hashMb, network: net.bytes }, progress, write);
    printPlayers(db, f, write);
  } finally {
    db.close();
  }
}

/** The games reviewed on worker threads with a progress bar; Ctrl-C keeps what is done (exit 130). */
export async function reviewGames(
  db: Database.Database,
  todo: { id: number; record: string }[],
  o: { depth: number; threads: number; hashMb: number; network: SharedArrayBuffer | null },
  progress: ProgressLine,
  write: (s: string) => void,
): Promise<void> {
  const t0 = performance.now();
  const bar = (done: number): void => {
    const el = performance.now() - t0;
    const width = 20;
    const fill = Math.round((width * done) / todo.length);
    const eta = done > 0 ? ` ETA ${formatDuration((el / done) * (todo.length - done))}` : '';
    progress.show(
      `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${plural(todo.length, 'game')}, ${formatDuration(el)} elapsed,${eta}`,
    );
  };
  bar(0);
  const run = new ReviewRun(db, todo, { ...o, each: (done) => bar(done) });
  const detach = onInterrupt(() => {
    progress.clear();
    process.stderr.write('\nInterrupted: the games in progress are dropped; run the same command again to go on\n');
    run.stop();
  });
  try {
    await run.run();
  } finally {
    detach();
    progress.clear();
  }
  const min = (performance.now() - t0) / 60000;
  write(
    `Reviewed ${plural(run.done, 'game')} in ${formatDuration(min * 60000)} (${(run.done / Math.max(min, 1e-6)).toFixed(1)} games/minute)`,
  );
  for (const f of run.failed) process.stderr.write(`thoth db: game ${f.game} could not be reviewed: ${f.message}\n`);
  if (run.stopped)
    throw new CommandError(
      `interrupted: ${plural(run.done, 'review')} stored; the same command goes on`,
      EXIT.interrupted,
    );
  if (run.failed.length > 0)
    throw new CommandError(`${plural(run.failed.length, 'game')} could not be reviewed (named above)`);
}

function printPlayers(db: Database.Database, f: GameFilter, write: (s: string) => void, json = false): void {
  const rows = playerTotals(db, f);
  if (json) {
    for (const r of rows) write(jsonLine(r));
    return;
  }
  if (rows.length === 0) return write('No reviewed game.');
  write('player                    games  accuracy  ?!    ?     ??    avg loss');
  for (const r of rows)
    write(
      `${r.player.slice(0, 24).padEnd(24)}${String(r.games).padStart(7)}  ${r.accuracy === null ? '     -' : `${r.accuracy.toFixed(1)}%`.padStart(7)}  ${String(r.inaccuracies).padEnd(5)} ${String(r.mistakes).padEnd(5)} ${String(r.blunders).padEnd(5)} ${r.cpLoss === null ? '-' : r.cpLoss.toFixed(0)}`,
    );
}

function players(args: ParsedArgs, write: (s: string) => void, json: boolean): void {
  const db = open(args, true);
  try {
    printPlayers(db, filterOf(args, true), write, json);
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
