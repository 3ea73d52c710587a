/**
 * A run's progress line on a terminal: `[####....] 12/40 games, 1m05s elapsed, ETA 3m40s`, or
 * for a run without an end (an SPRT until it decides) the games, the time and the LLR. It is
 * redrawn after each game and cleared before any other line is written.
 */
import { performance } from 'node:perf_hooks';
import { plural } from '../core/plural';
import { fmtDuration } from '../core/duration';
import { fixedOrNa } from './results/report';

/** Where the run stands, as the progress line shows it. */
interface RunProgress {
  /** Games finished, resumed ones included. */
  finished: number;
  /** Games finished in this run: the pace the ETA is taken from. */
  playedHere: number;
  /** The schedule's games; Infinity for a run until the SPRT decides. */
  total: number;
  /** The SPRT's LLR so far, when the run has a test (asked only when the line shows it). */
  llr?: () => number;
}

export class ProgressBar {
  private shown = false;
  private readonly t0 = performance.now();

  /** Draws on `stream` (a terminal); without one, draws nothing. */
  constructor(private readonly stream?: NodeJS.WriteStream) {}

  draw(p: RunProgress): void {
    const stream = this.stream;
    if (!stream) return;
    const { finished: n, total } = p;
    const el = performance.now() - this.t0;
    let text: string;
    if (Number.isFinite(total)) {
      const width = 30;
      const fill = Math.round((width * n) / total);
      const eta = p.playedHere > 0 ? ((total - n) * el) / p.playedHere : NaN;
      text = `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${n}/${plural(total, 'game')}, ${fmtDuration(el)} elapsed, ETA ${fmtDuration(eta)}`;
    } else {
      text = `${plural(n, 'game')}, ${fmtDuration(el)} elapsed`;
      if (p.llr !== undefined) text += `, LLR ${fixedOrNa(p.llr(), 2)}`;
    }
    stream.write(`\r\x1b[K${text}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown && this.stream) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
