/**
 * `thoth db review --distributed URL` (docs/db.md, "Review over workers"): the games still to
 * review are scored by `thoth worker` processes through Redis (src/distributed/
 * review-coordinator.ts); this process checks each game's scores against its own database (one
 * move of each game, picked at random, searched again here: src/analysis/review-scores.ts),
 * computes the review from them and stores it at once. Ctrl-C or a kill loses no stored review;
 * the same command goes on with what is not stored yet.
 */
import { randomInt } from 'node:crypto';
import type Database from 'better-sqlite3';
import { plural } from '../core/plural';
import { RecordError, loadGame } from '../analysis/annotate-game';
import { reviewOfScores, reviewSearcher } from '../analysis/batch-review';
import { checkScores, scorePly } from '../analysis/review-scores';
import type { Network } from '../nnue/network';
import { dbErrorText } from '../db/database';
import { storeReview } from '../db/query';
import { reviewRow } from '../db/review-run';
import { BuildError } from '../distributed/builds';
import { RedisUnreachable } from '../distributed/redis';
import { ReviewRunError, runReviewCoordinator } from '../distributed/review-coordinator';
import { CommandError, EXIT } from './args';
import type { Distributed } from './datagen-distributed';
import { onInterrupt } from './interrupt';
import { exitSoon } from './match';
import type { ProgressLine } from './progress';

interface DistributedReview {
  db: Database.Database;
  dbFile: string;
  todo: readonly { id: number; record: string }[];
  depth: number;
  hashMb: number;
  net: { bytes: SharedArrayBuffer | null; net: Network | null };
}

/** Reviews `todo` on the workers; the progress bar shows the games stored. */
export async function reviewDistributed(
  r: DistributedReview,
  d: Distributed,
  io: { progress: ProgressLine; bar: (done: number) => void; write: (s: string) => void },
): Promise<number> {
  const searcher = reviewSearcher(r.hashMb);
  searcher.setNetwork(r.net.net);
  const games = new Map(r.todo.map((g) => [g.id, g.record]));
  const stop = new AbortController();
  const detach = onInterrupt(() => {
    io.progress.clear();
    process.stderr.write(
      '\nInterrupted: the reviews stored stay; the workers finish their chunks, kept in Redis; run the same command again to go on\n',
    );
    stop.abort();
  });
  io.bar(0);
  let outcome: Awaited<ReturnType<typeof runReviewCoordinator>>;
  try {
    outcome = await runReviewCoordinator(
      d.addr,
      {
        depth: r.depth,
        hash: r.hashMb,
        chunk: d.chunk,
        network: r.net.bytes === null ? undefined : new Uint8Array(r.net.bytes),
        db: r.dbFile,
        signal: stop.signal,
        signer: d.signer,
      },
      {
        games,
        accept(id, scores) {
          let game: ReturnType<typeof loadGame>;
          try {
            game = loadGame(games.get(id)!, 1);
          } catch (e) {
            if (e instanceof RecordError) return `its record does not load here: ${e.message}`;
            throw e;
          }
          const n = game.moves.length;
          const checked = checkScores(game, scores, {
            plies: n === 0 ? [] : [randomInt(n)],
            score: (ply) => scorePly(searcher, game, ply, r.depth),
          });
          if (typeof checked === 'string') return checked;
          try {
            storeReview(r.db, reviewRow(reviewOfScores(game, { game: id, depth: r.depth }, checked)));
          } catch (e) {
            throw new Error(`${r.dbFile}: ${dbErrorText(e)}: the reviews stored before are kept`);
          }
          return undefined;
        },
        each: (done) => io.bar(done),
        note: (s) => {
          io.progress.clear();
          io.write(s);
        },
      },
    );
  } catch (e) {
    if (e instanceof RedisUnreachable || e instanceof BuildError || e instanceof ReviewRunError)
      throw new CommandError(e.message, EXIT.failure);
    throw e;
  } finally {
    detach();
    io.progress.clear();
    exitSoon();
  }
  for (const w of outcome.tallies)
    io.write(`Worker ${w.id}: ${plural(w.games, 'game')}, ${w.rate.toFixed(1)} games/minute`);
  for (const f of outcome.failed) process.stderr.write(`thoth db: game ${f.id} could not be reviewed: ${f.why}\n`);
  if (outcome.state === 'interrupted')
    throw new CommandError(
      `interrupted: ${plural(outcome.done, 'review')} stored; the same command goes on`,
      EXIT.interrupted,
    );
  if (outcome.failed.length > 0)
    throw new CommandError(`${plural(outcome.failed.length, 'game')} could not be reviewed (named above)`);
  return outcome.done;
}
