/**
 * The accounts of a run: the games finished (resumed or played here), the standings they make,
 * and what the accounts say: the summary as data (the JSON report's) and as text (cutechess's
 * lines per encounter, the standings with more than two engines, the games lost on time, how each
 * engine's games ended), and the
 * SPRT's decision. Nothing here writes: the Ledger (ledger.ts) prints and records.
 */
import { EDITIONS } from '../core/index';
import { plural } from '../core/plural';
import { recordPlayers, type GameRecord } from '../core/record';
import type { MatchConfig } from './config';
import { countEndings, endingLines } from './results/endings';
import type { SummaryLine } from './results/json-report';
import { Standings, encounterLines, standingsLines } from './results/report';
import type { Schedule, ScheduledGame } from './schedule';

export interface FinishedGame {
  game: ScheduledGame;
  score: number;
  record: GameRecord;
  /** True when it came from the resume file. */
  resumed: boolean;
}

export class Accounts {
  readonly standings: Standings;
  readonly finished: FinishedGame[] = [];
  /** Schedule indices of the finished games (resumed or played). */
  readonly done = new Set<number>();
  /** Games finished in this run (not resumed). */
  playedHere = 0;

  constructor(
    private readonly cfg: MatchConfig,
    readonly names: string[],
    readonly schedule: Schedule,
    /** The engine whose rating is 0 (-anchor). */
    readonly anchor: number,
  ) {
    this.standings = new Standings(names, schedule.encounters, schedule.paired);
  }

  /** Counts a finished game. */
  count(f: FinishedGame): void {
    this.done.add(f.game.index);
    this.standings.add(f.game, f.score);
    this.finished.push(f);
    if (!f.resumed) this.playedHere++;
  }

  /** The summary as data (what the JSON report writes): every encounter, and the standings with more than two engines. */
  summaryData(final: boolean): SummaryLine {
    const cfg = this.cfg;
    return {
      type: 'summary',
      final,
      games: this.standings.finished,
      encounters: this.schedule.encounters.map((_, k) =>
        this.standings.summary(k, cfg.engines.length === 2 ? cfg.sprt : undefined),
      ),
      standings: cfg.engines.length > 2 ? this.standings.table(this.anchor, cfg.drawScore) : null,
      endings: countEndings(this.finished.map((f) => f.record)),
    };
  }

  /** The summary block: cutechess lines per encounter (two engines or a gauntlet), standings for more. */
  summaryLines(): string[] {
    const cfg = this.cfg;
    const lines: string[] = [];
    const colors = EDITIONS[cfg.variant].colorNames;
    if (cfg.engines.length === 2 || cfg.tournament === 'gauntlet') {
      this.schedule.encounters.forEach((_, k) =>
        lines.push(...encounterLines(this.standings, k, colors, cfg.engines.length === 2 ? cfg.sprt : undefined)),
      );
    }
    if (cfg.engines.length > 2) {
      if (lines.length > 0) lines.push('');
      lines.push(...standingsLines(this.standings, this.anchor, cfg.drawScore));
    }
    const onTime = this.lostOnTime();
    if (onTime !== undefined) lines.push(onTime);
    return [...lines, ...endingLines(countEndings(this.finished.map((f) => f.record)), this.names)];
  }

  /** `Lost on time: 4 of 6 games (lmr 3, nolmr 1)`, when any game was; a clock too short for the machine shows here. */
  private lostOnTime(): string | undefined {
    const losers = new Map<string, number>();
    let n = 0;
    for (const f of this.finished) {
      if (f.record.tags.get('Termination') !== 'time forfeit') continue;
      const [first, second] = recordPlayers(f.record);
      const loser = f.record.result === '1-0' ? second : f.record.result === '0-1' ? first : undefined;
      if (loser === undefined) continue;
      n++;
      losers.set(loser, (losers.get(loser) ?? 0) + 1);
    }
    if (n === 0) return undefined;
    const total = this.finished.length;
    const order = [...losers].sort(([a], [b]) => this.names.indexOf(a) - this.names.indexOf(b));
    return `Lost on time: ${n} of ${plural(total, 'game')} (${order.map(([name, k]) => `${name} ${k}`).join(', ')})`;
  }
}
