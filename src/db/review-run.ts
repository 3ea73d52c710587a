/**
 * Batch review of the database's games (thoth db review, thoth analyse --game FILE --all;
 * docs/db.md, "Review"): the games that pass a filter and have no review at the depth asked for,
 * spread over worker threads (one game per thread at a time), each review stored as soon as its
 * game is done. Stopped (Ctrl-C) or killed, a run loses only the games in progress: the same
 * command again reviews the rest. The searches are the review method's (src/analysis/
 * review-method.ts), so a game's marks are the ones `thoth analyse --game` gives it.
 */
import type Database from 'better-sqlite3';
import type { ReviewResult } from '../analysis/batch-review';
import { workerPool } from '../process/pool';
import type { ReviewWorkerTask } from '../threads/review-worker';
import { DbError, dbErrorText, type ReviewRow } from './database';
import { filterSql, storeReview, type GameFilter } from './query';

/** The games still to review at `depth`, in id order. */
export function gamesToReview(
  db: Database.Database,
  f: GameFilter,
  depth: number,
): { id: number; key: string; record: string }[] {
  const { where, params } = filterSql(f);
  return db
    .prepare(
      `SELECT g.id AS id, g.key AS key, g.record AS record FROM games g
       WHERE ${where} AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.game = g.id AND r.depth = @depth)
       ORDER BY g.id`,
    )
    .all({ ...params, depth }) as { id: number; key: string; record: string }[];
}

/** A review as the database keeps it. */
export function reviewRow(r: ReviewResult): ReviewRow {
  return {
    game: r.game,
    depth: r.depth,
    accuracy_white: r.accuracy[0],
    accuracy_black: r.accuracy[1],
    inaccuracies_white: r.inaccuracies[0],
    mistakes_white: r.mistakes[0],
    blunders_white: r.blunders[0],
    inaccuracies_black: r.inaccuracies[1],
    mistakes_black: r.mistakes[1],
    blunders_black: r.blunders[1],
    cp_loss_white: r.cpLoss[0],
    cp_loss_black: r.cpLoss[1],
    marks: JSON.stringify(r.nags),
    scores: JSON.stringify(r.scores),
    done: new Date().toISOString(),
  };
}

interface ReviewRunOptions {
  depth: number;
  threads: number;
  hashMb: number;
  network: SharedArrayBuffer | null;
  /** Hears each game reviewed (done counts this run's games). */
  each?: (done: number, r: ReviewResult) => void;
}

/** A running batch review on worker threads; stop() drops the games in progress. */
export class ReviewRun {
  done = 0;
  failed: { game: number; message: string }[] = [];
  stopped = false;
  private stopPool: (() => void) | undefined;

  constructor(
    readonly db: Database.Database,
    readonly games: readonly { id: number; record: string }[],
    readonly o: ReviewRunOptions,
  ) {}

  /** Reviews every game (a game whose record fails is named in `failed`; a write failure is a DbError). */
  async run(): Promise<void> {
    const pool = workerPool(new URL('../threads/review-worker.ts', import.meta.url), this.o.threads);
    let writeError: DbError | undefined;
    let stopping = false;
    this.stopPool = () => {
      stopping = true;
      void pool.destroy().catch(() => {});
    };
    let next = 0;
    try {
      await new Promise<void>((resolve) => {
        let running = 0;
        const launch = (): void => {
          while (!stopping && running < this.o.threads && next < this.games.length) {
            const g = this.games[next++];
            const task: ReviewWorkerTask = {
              game: g.id,
              record: g.record,
              depth: this.o.depth,
              hashMb: this.o.hashMb,
              network: this.o.network,
            };
            running++;
            (pool.run(task) as Promise<ReviewResult>)
              .then(
                (r) => {
                  if (stopping) return;
                  try {
                    storeReview(this.db, reviewRow(r));
                  } catch (e) {
                    writeError = new DbError(`${dbErrorText(e)}: the reviews stored before are kept`);
                    this.stopPool!();
                    return;
                  }
                  this.done++;
                  this.o.each?.(this.done, r);
                },
                (e: unknown) => {
                  if (!stopping) this.failed.push({ game: g.id, message: (e as Error).message ?? String(e) });
                },
              )
              .finally(() => {
                running--;
                launch();
                if (running === 0) resolve();
              });
          }
          if (running === 0) resolve();
        };
        launch();
      });
    } finally {
      this.stopPool = undefined;
      if (!stopping) await pool.destroy();
    }
    if (writeError) throw writeError;
  }

  /** Ctrl-C: the games in progress are dropped; the reviews stored stay. */
  stop(): void {
    this.stopped = true;
    this.stopPool?.();
  }
}
