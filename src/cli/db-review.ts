/**
 * `thoth db review`, `thoth db players` and `thoth analyse --game FILE --all`: every game reviewed
 * on worker threads (src/db/review-run.ts), or with --distributed on `thoth worker` processes
 * (db-review-distributed.ts), with a progress bar and an ETA, Ctrl-C keeping what is done, then
 * each player's totals.
 */
import { availableParallelism } from 'node:os';
import type Database from 'better-sqlite3';
import { plural } from '../core/plural';
import { REVIEW_DEPTH, REVIEW_HASH_MB } from '../analysis/review-method';
import { loadNetworkFile } from '../node/network-file';
import { readRecordFile } from '../process/files';
import { DbError, openDatabase } from '../db/database';
import { GameWriter, importText } from '../db/import';
import { countGames, reviewedPlayerTotals, type GameFilter } from '../db/query';
import { ReviewRun, gamesToReview } from '../db/review-run';
import { jsonLine } from '../match/results/summary';
import { CommandError, EXIT, UsageError, intOption, type ParsedArgs } from './args';
import { dbPath, evaluationNet, filterOf, open } from './db-args';
import { distributedFlags } from './datagen-distributed';
import { reviewDistributed } from './db-review-distributed';
import { onInterrupt } from './interrupt';
import { fmtDuration } from '../core/duration';
import type { ProgressLine } from './progress';

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
  const db = openDatabase(dbFile);
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

export async function review(args: ParsedArgs, progress: ProgressLine, write: (s: string) => void): Promise<void> {
  const depth = intOption(args, 'depth', REVIEW_DEPTH, 1, 40);
  const distributed = distributedFlags(args, 4);
  const threads = intOption(args, 'threads', availableParallelism(), 1, 256);
  const hashMb = intOption(args, 'hash', REVIEW_HASH_MB, 1, 4096);
  const net = evaluationNet(args);
  const db = open(args, false);
  try {
    const f = filterOf(args, true);
    const todo = gamesToReview(db, f, depth);
    const all = countGames(db, f);
    const where = distributed ? `over the workers at ${distributed.addr.text}` : `on ${plural(threads, 'thread')}`;
    write(
      `Reviewing ${plural(todo.length, 'game')} at depth ${depth} ${where} (${all - todo.length} of ${all} already reviewed)`,
    );
    if (todo.length > 0 && distributed) {
      const t0 = performance.now();
      const done = await reviewDistributed({ db, dbFile: dbPath(args), todo, depth, hashMb, net }, distributed, {
        progress,
        bar: progressBar(progress, todo.length),
        write,
      });
      writeRate(done, t0, write);
    } else if (todo.length > 0)
      await reviewGames(db, todo, { depth, threads, hashMb, network: net.bytes }, progress, write);
    printPlayers(db, f, write);
  } finally {
    db.close();
  }
}

/** The progress bar of a review of `total` games: games done, time, ETA. */
function progressBar(progress: ProgressLine, total: number): (done: number) => void {
  const t0 = performance.now();
  return (done) => {
    const el = performance.now() - t0;
    const width = 20;
    const fill = Math.round((width * done) / total);
    const eta = done > 0 ? ` ETA ${fmtDuration((el / done) * (total - done))}` : '';
    progress.show(
      `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${plural(total, 'game')}, ${fmtDuration(el)} elapsed,${eta}`,
    );
  };
}

function writeRate(done: number, t0: number, write: (s: string) => void): void {
  const min = (performance.now() - t0) / 60000;
  write(
    `Reviewed ${plural(done, 'game')} in ${fmtDuration(min * 60000)} (${(done / Math.max(min, 1e-6)).toFixed(1)} games/minute)`,
  );
}

/** The games reviewed on worker threads with a progress bar; Ctrl-C keeps what is done (exit 130). */
async function reviewGames(
  db: Database.Database,
  todo: { id: number; record: string }[],
  o: { depth: number; threads: number; hashMb: number; network: SharedArrayBuffer | null },
  progress: ProgressLine,
  write: (s: string) => void,
): Promise<void> {
  const t0 = performance.now();
  const bar = progressBar(progress, todo.length);
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
  writeRate(run.done, t0, write);
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
  const rows = reviewedPlayerTotals(db, f);
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

export function players(args: ParsedArgs, write: (s: string) => void, json: boolean): void {
  const db = open(args, true);
  try {
    printPlayers(db, filterOf(args, true), write, json);
  } finally {
    db.close();
  }
}
