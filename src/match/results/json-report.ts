/**
 * `thoth match -report json=FILE`: the run as JSON lines appended to FILE, for scripts: a `start`
 * line (engines, limits, plan), a `game` line per finished game, a `summary` line with every
 * summary the text prints (the last one `final`, with why the run stopped). Numbers JSON cannot
 * hold (an Elo after only wins) are null. Each line is written through at once.
 */
import type { EndingCounts } from './endings';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { GameRecord } from '../../core/record';
import { recordPlayers, recordReason, recordStart } from '../../core/record';
import { MatchConfigError } from '../errors';
import { jsonLine, type EncounterSummary, type StandingRow, type SprtSummary } from './summary';

export interface StartLine {
  type: 'start';
  version: string;
  /** ISO time the run started. */
  date: string;
  engines: string[];
  variant: string;
  /** Each engine's limits, in the order of `engines`. */
  limits: string[];
  /** Games planned; null = until the SPRT decides. */
  games: number | null;
  sprt: Pick<SprtSummary, 'elo0' | 'elo1' | 'alpha' | 'beta' | 'model'> | null;
  openings: string;
  /** Where the games are played: `concurrency 2`, or `distributed redis://… (run …)`. */
  where: string;
  /** Games counted from a -resume file. */
  resumed: number;
}

export interface GameLine {
  type: 'game';
  /** The game's number in the run, from 1. */
  game: number;
  round: string;
  white: string;
  black: string;
  result: string;
  /** White's (the first player's) score: 1, 0.5, 0. */
  score: number;
  termination: string;
  reason: string | null;
  plies: number;
  opening: string | null;
  kfen: string | null;
}

export interface SummaryLine {
  type: 'summary';
  /** The last summary of the run. */
  final: boolean;
  /** On the final line: why the run stopped (`done`, `sprt`, `interrupted`, `fault`) and the message. */
  stop?: string;
  message?: string | null;
  /** Finished games so far. */
  games: number;
  encounters: EncounterSummary[];
  /** With more than two engines: the standings, best first. */
  standings: StandingRow[] | null;
  /** Each engine's wins, losses and draws by how its games ended (endings.ts). */
  endings: EndingCounts;
}

export class JsonReport {
  private readonly fd: number;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Opens FILE for appending; a path that cannot be written is a MatchConfigError. */
  static open(path: string): JsonReport {
    try {
      return new JsonReport(path, openSync(path, 'a'));
    } catch (e) {
      throw new MatchConfigError(`cannot write the report file '${path}': ${(e as Error).message}`);
    }
  }

  write(line: StartLine | GameLine | SummaryLine): void {
    writeSync(this.fd, jsonLine(line) + '\n');
  }

  /** The `game` line of a finished game. */
  static gameLine(game: number, rec: GameRecord, score: number): GameLine {
    const [white, black] = recordPlayers(rec);
    return {
      type: 'game',
      game,
      round: rec.tags.get('Round') ?? '?',
      white,
      black,
      result: rec.result,
      score,
      termination: rec.tags.get('Termination') ?? 'normal',
      reason: recordReason(rec) ?? null,
      plies: rec.moves.length,
      opening: rec.tags.get('Opening') ?? null,
      kfen: recordStart(rec) ?? null,
    };
  }

  close(): void {
    closeSync(this.fd);
  }
}
