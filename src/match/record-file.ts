/**
 * A run's record file: where it is (-pgnout, else the -resume file), the writer that appends each
 * finished game whole and flushes it in the background, and the -resume reader that counts the
 * games it already holds. The Ledger (ledger.ts) owns the writer; the reader runs once, before the
 * first game.
 */
import { closeSync, existsSync, fsync, fsyncSync, openSync, truncateSync } from 'node:fs';
import { plural } from '../core/plural';
import {
  parseRecords,
  recordPlayers,
  recordStart,
  recordVariant,
  scoreOfResult,
  serializeRecord,
  type GameRecord,
} from '../core/record';
import { ok } from '../core/result';
import { appendWhole, readRecordFile } from '../process/files';
import type { MatchConfig } from './config';
import { MatchConfigError } from './errors';
import type { OpeningBook } from './openings';
import { recordedSettings, settingsDifferences } from './run-settings';
import type { Schedule, ScheduledGame } from './schedule';

/** The record file of a run: -pgnout, else the -resume file. */
export function recordPath(cfg: MatchConfig): string | undefined {
  return cfg.pgnout ?? cfg.resume;
}

/**
 * Appends records one game at a time, each written whole before the game counts; the flush to
 * disk (fsync) runs in the background, one at a time, so that the games still being played on
 * this thread do not wait for the disk: a synchronous fsync at each game's end held the other
 * games' clocks for its whole length (bench/referee-overhead.mjs). A flush that fails fails the
 * next write (or close) with its error; one still in flight when close is called ends the file
 * quietly (every game is written by then: only a crash of the machine could still lose them).
 */
export class RecordWriter {
  /** Opened with the first record: a run that finishes no game leaves no empty file behind. */
  private fd?: number;
  /** A flush in flight; games written since the last flush began; its error; close once it ends. */
  private syncing = false;
  private dirty = false;
  private syncError?: NodeJS.ErrnoException;
  private closing = false;
  constructor(readonly path: string) {}
  /**
   * Appends one game whole or not at all: a short write (a full disk) is cut off again and
   * thrown as the error the next write gives, so that a game is counted only once it is in the file.
   */
  append(rec: GameRecord): void {
    this.failed();
    this.fd ??= openSync(this.path, 'a');
    appendWhole(this.fd, Buffer.from(serializeRecord(rec)));
    this.dirty = true;
    this.flush();
  }

  /** Throws the error of a flush that failed. */
  private failed(): void {
    const e = this.syncError;
    this.syncError = undefined;
    if (e) throw e;
  }

  /** Starts a flush of what was written, unless one is in flight (it starts the next when it ends). */
  private flush(): void {
    const fd = this.fd;
    if (this.syncing || !this.dirty || fd === undefined) return;
    this.syncing = true;
    this.dirty = false;
    fsync(fd, (e) => {
      this.syncing = false;
      // A device or a pipe (`-pgnout /dev/null`, /dev/stdout) cannot be synchronised: nothing to flush there.
      if (e && e.code !== 'EINVAL' && e.code !== 'ENOTSUP') this.syncError ??= e;
      if (this.closing) this.close();
      else this.flush();
    });
  }

  close(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    if (this.syncing) {
      this.closing = true; // closed when the flush in flight ends
      return;
    }
    this.fd = undefined;
    try {
      if (this.dirty) fsyncSync(fd);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'ENOTSUP') this.syncError ??= e as NodeJS.ErrnoException;
    } finally {
      closeSync(fd);
    }
    if (!this.closing) this.failed();
  }
}

/** A game of the -resume file that this run counts. */
interface ResumedGame {
  game: ScheduledGame;
  score: number;
  record: GameRecord;
}

/** What the -resume reader checks the file's games against: this run's schedule, names, openings and settings. */
interface ResumeContext {
  cfg: MatchConfig;
  names: readonly string[];
  schedule: Schedule;
  book: OpeningBook;
  /** This run's settings (runSettings). */
  settings: readonly [string, string][];
  /** Receives the notes (a file without games, an unfinished record dropped, the games counted). */
  note: (line: string) => void;
}

/**
 * The finished games of the -resume file (they are not played again), dropping an unfinished
 * record at its end. Throws MatchConfigError when the file's games do not fit this run (other
 * engines or variant; other settings or openings unless -resume-force), naming the difference.
 */
export function readResume(path: string, run: ResumeContext): ResumedGame[] {
  const { cfg, names, schedule, note } = run;
  const read = existsSync(path) ? readRecordFile(path) : ok('');
  if (!read.ok) throw new MatchConfigError(`-resume: ${read.error}`);
  const text = read.value;
  if (text.trim() === '') {
    note(`Note: ${path} holds no games yet: starting a new run`);
    return [];
  }
  const parsed = parseRecords(text);
  if (parsed.incomplete && (cfg.pgnout === undefined || cfg.pgnout === path)) {
    truncateSync(path, Buffer.byteLength(text.slice(0, parsed.end), 'utf8'));
    note(`Note: dropped an unfinished game record at the end of ${path}`);
  }
  const games: ResumedGame[] = [];
  const seen = new Set<number>();
  let ignored = 0;
  let forced: string | undefined;
  for (const rec of parsed.games) {
    const idx = schedule.indexOfTag(rec.tags.get('Round') ?? '');
    const score = scoreOfResult(rec.result);
    if (idx === undefined || score === undefined || seen.has(idx)) {
      ignored++;
      continue;
    }
    const g = schedule.game(idx);
    const [p0, p1] = recordPlayers(rec);
    if (recordVariant(rec) !== cfg.variant || p0 !== names[g.first] || p1 !== names[g.second]) {
      throw new MatchConfigError(
        `-resume ${path}: game ${rec.tags.get('Round')} is ${p0} vs ${p1} (${recordVariant(rec)}), but this run ` +
          `schedules ${names[g.first]} vs ${names[g.second]} (${cfg.variant}) there: resume with the same engines and flags`,
      );
    }
    const recorded = recordedSettings(rec.tags);
    const diffs = recorded === undefined ? [] : settingsDifferences(recorded, run.settings);
    if (diffs.length > 0) {
      const what = `game ${rec.tags.get('Round')} was played with other settings (${diffs.join('; ')})`;
      if (!cfg.resumeForce) {
        throw new MatchConfigError(
          `-resume ${path}: ${what}: give the same flags, or add -resume-force to count its games anyway`,
        );
      }
      forced ??= what;
    }
    if (recordStart(rec) !== run.book.get(g.openingIndex).kfen && !cfg.resumeForce) {
      throw new MatchConfigError(
        `-resume ${path}: game ${rec.tags.get('Round')} started from another opening than this run gives it: ` +
          'resume with the same -openings and -srand (or -resume-force to count its games anyway)',
      );
    }
    seen.add(idx);
    games.push({ game: g, score, record: rec });
  }
  if (forced !== undefined) note(`Note: -resume-force: counting the games of ${path} although ${forced}`);
  note(
    `Resumed ${plural(games.length, 'finished game')} from ${path}${ignored > 0 ? ` (${plural(ignored, 'record')} ignored)` : ''}`,
  );
  return games;
}
