/**
 * `thoth db score FILE`: every move of every game of a record file searched as a review searches
 * it (src/analysis/batch-review.ts scoreGame), one JSON line per game in file order:
 * `{"game":1,"depth":8,"scores":[["j4i4",35,35],…]}` (the engine's choice, its score and the
 * played move's score, mover's point of view), or `{"game":2,"error":"…"}`. A distributed review's
 * worker runs it from the coordinator's build (src/distributed/worker-review.ts), one process per
 * job; the coordinator checks the scores and computes the review (docs/db.md).
 */
import { RecordError, loadGame } from '../analysis/annotate-game';
import { REVIEW_DEPTH, REVIEW_HASH_MB } from '../analysis/review-method';
import { reviewSearcher, scoreGame } from '../analysis/batch-review';
import { parseRecords } from '../core/record';
import { readRecordFile } from '../process/files';
import { UsageError, intOption, type ParsedArgs } from './args';
import { evaluationNet } from './db-args';
import { endWithParent } from './interrupt';

export function scoreFile(args: ParsedArgs, files: string[], write: (s: string) => void): void {
  if (files.length !== 1) throw new UsageError('thoth db score needs one record file');
  const parentAlive = endWithParent();
  const depth = intOption(args, 'depth', REVIEW_DEPTH, 1, 40);
  const searcher = reviewSearcher(intOption(args, 'hash', REVIEW_HASH_MB, 1, 4096));
  searcher.setNetwork(evaluationNet(args).net);
  const text = readRecordFile(files[0], 'record file');
  if (!text.ok) throw new UsageError(text.error);
  const count = parseRecords(text.value).games.filter((g) => g.tags.size > 0 || g.moves.length > 0).length;
  for (let game = 1; game <= count; game++) {
    try {
      const g = loadGame(text.value, game);
      write(JSON.stringify({ game, depth, scores: scoreGame(searcher, g, depth, parentAlive) }));
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      write(JSON.stringify({ game, error: e.message }));
    }
  }
}
