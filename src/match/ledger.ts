/**
 * The book of a run, wherever its games are played: it counts the games resumed from the record
 * file and every finished game (in the accounts, accounts.ts), writes each to the record file at
 * once (record-file.ts) and to the JSON report, prints the line per game, the summaries, the plan
 * and the last words (clearing the progress line, progress-bar.ts, first), and takes the SPRT and
 * fault decisions. The local runner (tournament.ts) and the coordinator of a distributed run both
 * keep one.
 */
import { EDITIONS } from '../core/index';
import { plural } from '../core/plural';
import { VERSION } from '../version';
import { Accounts, type FinishedGame } from './accounts';
import type { MatchConfig } from './config';
import type { OpeningBook } from './openings';
import { ProgressBar } from './progress-bar';
import { RunOutputs } from './outputs';
import { readResume, recordPath } from './record-file';
import type { GameOutcome } from './referee';
import { JsonReport, type SummaryLine } from './results/json-report';
import type { Standings } from './results/report';
import { runSettings, settingsTags } from './run-settings';
import type { Schedule, ScheduledGame } from './schedule';
import { describeLimits } from './timecontrol';

export type { FinishedGame } from './accounts';

export type StopReason = 'done' | 'sprt' | 'interrupted' | 'fault';

export interface MatchSummary {
  stop: StopReason;
  /** Why the run stopped early (fault, interruption), in words. */
  message?: string;
  names: string[];
  finished: FinishedGame[];
  standings: Standings;
  schedule: Schedule;
}

/** A decision to end the run, taken on a finished game. */
export interface Halt {
  reason: 'sprt' | 'fault';
  message: string;
  /** Abort the games in progress (the SPRT decided) rather than let them finish (a fault). */
  abortGames: boolean;
}

export class Ledger {
  readonly accounts: Accounts;
  readonly standings: Standings;
  readonly finished: FinishedGame[];
  /** Schedule indices of the finished games (resumed or played). */
  readonly done: Set<number>;
  /**
   * The tags that say what makes this run's games what they are (`MatchSettings`…, run-settings.ts):
   * whoever builds a game's record (the referee, the coordinator from a worker's report) adds them.
   */
  readonly recordTags: readonly [string, string][];
  /** The record file and the JSON report. */
  private readonly outputs = new RunOutputs();
  private readonly bar: ProgressBar;
  /** The standings count at the last summary printed. */
  private summarisedAt = -1;
  /** What makes this run's games what they are (compared with the -resume file's). */
  private readonly settings: [string, string][];

  constructor(
    private readonly cfg: MatchConfig,
    readonly names: string[],
    readonly schedule: Schedule,
    private readonly book: OpeningBook,
    readonly anchor: number,
    private readonly out: (line: string) => void,
    /** Draw a progress line on this stream (a terminal). */
    progress?: NodeJS.WriteStream,
  ) {
    this.accounts = new Accounts(cfg, names, schedule, anchor);
    this.standings = this.accounts.standings;
    this.finished = this.accounts.finished;
    this.done = this.accounts.done;
    this.settings = runSettings(cfg, names);
    this.recordTags = settingsTags(this.settings);
    this.bar = new ProgressBar(progress);
  }

  /** Games finished in this run (not resumed). */
  get playedHere(): number {
    return this.accounts.playedHere;
  }

  /** The halt for a failed output, once one failed. */
  outputHalt(): Halt | undefined {
    const f = this.outputs.failure;
    return f ? { reason: 'fault', message: `${f.message}; stopping the run`, abortGames: true } : undefined;
  }

  /** Writes a line of output (clearing the progress line first). */
  write(line: string): void {
    this.bar.clear();
    this.out(line);
  }

  /**
   * Counts the finished games of the -resume file (they are not played again); throws
   * MatchConfigError when they do not fit this run (record-file.ts's readResume).
   */
  resume(path: string): void {
    const games = readResume(path, {
      cfg: this.cfg,
      names: this.names,
      schedule: this.schedule,
      book: this.book,
      settings: this.settings,
      note: (l) => this.write(l),
    });
    for (const g of games) this.accounts.count({ ...g, resumed: true });
  }

  /** Opens the record file and the JSON report for appending (after {@link resume}). */
  openRecords(): void {
    this.outputs.open(this.cfg);
  }

  closeRecords(): void {
    this.outputs.closeRecords();
  }

  /** The plan in words: `Match: A vs B | Khet 2.0 | 10+0.1 | 400 games | openings: … | <where>`. */
  planLine(where: string): void {
    const cfg = this.cfg;
    const total = this.schedule.total;
    const lims = [...new Set(cfg.engines.map((s) => describeLimits(s.limits)))].join(' / ');
    const op =
      cfg.openings.kind === 'setups'
        ? `setups ${cfg.openings.setups.join(',')} +${cfg.openings.plies} random plies`
        : `file ${cfg.openings.path} (${cfg.openings.order})`;
    this.write(
      `Match: ${this.names.join(' vs ')} | ${EDITIONS[cfg.variant].name} | ${lims} | ${Number.isFinite(total) ? `${plural(total, 'game')}` : 'until SPRT decides'}` +
        `${cfg.engines.length > 2 ? ` | ${cfg.tournament}` : ''} | openings: ${op} | ${where}`,
    );
    this.outputs.writeReport({
      type: 'start',
      version: VERSION,
      date: new Date().toISOString(),
      engines: this.names,
      variant: cfg.variant,
      limits: cfg.engines.map((s) => describeLimits(s.limits)),
      games: Number.isFinite(total) ? total : null,
      sprt: cfg.sprt && cfg.engines.length === 2 ? { ...cfg.sprt } : null,
      openings: op,
      where,
      resumed: this.done.size,
    });
  }

  /** The summary as data (what the JSON report writes). */
  summaryData(final: boolean): SummaryLine {
    return this.accounts.summaryData(final);
  }

  /** The summary block (accounts.ts). */
  summaryLines(): string[] {
    return this.accounts.summaryLines();
  }

  summary(): void {
    this.summarisedAt = this.standings.finished;
    this.outputs.writeReport(this.summaryData(false));
    for (const l of this.summaryLines()) this.write(l);
  }

  /** The SPRT's decision as a halt (a resumed run whose test had already decided plays nothing more). */
  sprtHalt(): Halt | undefined {
    const s = this.cfg.sprt;
    const d = s ? this.standings.sprtDecision(s) : null;
    return d ? { reason: 'sprt', message: `SPRT: ${d} was accepted`, abortGames: true } : undefined;
  }

  /**
   * Counts a finished game: the record file, the line, the standings, the summary every
   * -ratinginterval games. Returns a halt when the SPRT decides, or when an engine was lost and
   * the run does not -recover.
   */
  add(g: ScheduledGame, o: GameOutcome): Halt | undefined {
    const cfg = this.cfg;
    const names = this.names;
    if (!this.outputs.writeRecord(o.record)) {
      // Not in the record file, so not counted: the summary says what the file holds, and -resume plays it again.
      this.write(
        `Game ${g.index + 1} (${names[g.first]} vs ${names[g.second]}) finished but is not counted: the record file cannot be written`,
      );
      return this.outputHalt();
    }
    this.outputs.writeReport(JsonReport.gameLine(g.index + 1, o.record, o.score));
    this.accounts.count({ game: g, score: o.score, record: o.record, resumed: false });
    this.write(
      `Finished game ${g.index + 1} (${names[g.first]} vs ${names[g.second]}): ${o.record.result} {${o.reason}}`,
    );
    if (cfg.ratingInterval > 0 && this.standings.finished % cfg.ratingInterval === 0) this.summary();
    let halt = this.outputHalt() ?? this.sprtHalt();
    if (!halt && o.engineLost && !cfg.recover) {
      const who = names[o.faultSide === 0 ? g.first : g.second];
      halt = {
        reason: 'fault',
        message: `engine ${who}: ${o.termination} (${o.reason}); stopping the run (-recover restarts engines that fail)`,
        abortGames: false,
      };
    }
    this.drawBar();
    return halt;
  }

  /** The progress line, on a terminal. */
  drawBar(): void {
    const sprt = this.cfg.sprt;
    this.bar.draw({
      finished: this.finished.length,
      playedHere: this.playedHere,
      total: this.schedule.total,
      llr: sprt ? () => this.standings.llr(sprt) : undefined,
    });
  }

  /**
   * The last words: the summary (unless the last game just printed it) and the line that says
   * how the run ended. `detail` is added to an SPRT stop (what became of the games in progress).
   */
  end(stop: StopReason, message: string | undefined, detail = ''): MatchSummary {
    this.bar.clear();
    if (!(this.summarisedAt === this.standings.finished && this.playedHere > 0)) this.summary();
    const total = this.schedule.total;
    const remaining = Number.isFinite(total) ? total - this.done.size : undefined;
    const outPath = recordPath(this.cfg);
    switch (stop) {
      case 'done':
        this.write('Finished match');
        break;
      case 'sprt':
        this.write(`Finished match (${message}${detail})`);
        break;
      case 'interrupted':
        this.write(
          `Match interrupted after ${plural(this.finished.length, 'game')}${remaining !== undefined ? `; ${remaining} still to play` : ''}` +
            `${outPath ? ` (continue with -resume ${outPath})` : ''}`,
        );
        break;
      case 'fault':
        this.write(`Match stopped: ${message}`);
        break;
    }
    this.outputs.writeReport({ ...this.summaryData(true), stop, message: message ?? null });
    this.outputs.closeReport();
    return {
      stop,
      message,
      names: this.names,
      finished: this.finished,
      standings: this.standings,
      schedule: this.schedule,
    };
  }
}
