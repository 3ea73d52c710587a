/**
 * `-log FILE [faults]`: the engines' traffic of each game, as the engines saw it (their own
 * protocol's lines for an engine behind a translator), appended to FILE game by game; with
 * `faults`, only the games that ended by an engine's fault (time forfeit, illegal move, crash,
 * stall). docs/match.md, "Output".
 */
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { EngineProcess } from './engine-process';
import type { GameOutcome } from './referee';

export interface TrafficLogSetting {
  path: string;
  /** Only the games that ended by an engine's fault. */
  faultsOnly: boolean;
}

/** One game's traffic, gathered while it is played. */
export class GameTraffic {
  private readonly lines: string[] = [];
  private readonly t0 = performance.now();

  constructor(engines: readonly EngineProcess[], names: readonly string[]) {
    engines.forEach((e, i) => {
      e.onTraffic = (d, line) =>
        this.lines.push(`${(performance.now() - this.t0).toFixed(0).padStart(7)} ${names[i]} ${d} ${line}`);
    });
  }

  /** Stops gathering; appends the game to the log when the setting wants it. */
  finish(
    engines: readonly EngineProcess[],
    setting: TrafficLogSetting,
    title: string,
    o: GameOutcome | undefined,
  ): void {
    for (const e of engines) e.onTraffic = undefined;
    if (o === undefined || (setting.faultsOnly && o.faultSide < 0)) return;
    const head = `# ${title}: ${o.record.result} {${o.reason}}`;
    try {
      appendFileSync(setting.path, `${head}\n${this.lines.join('\n')}\n\n`);
    } catch {
      // a log that cannot be written does not stop the games (the records are what counts)
    }
  }
}
