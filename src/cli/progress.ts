/**
 * The progress line of long jobs (perft, genfens, a game's analysis, datagen, train): one line on
 * stderr, overwritten in place, shown only when stderr is a terminal, so pipes and files get the
 * results alone. Durations in it are written by src/core/duration.ts, as in the match's progress bar.
 */

export class ProgressLine {
  private readonly enabled: boolean;
  private last = '';
  private dirty = false;
  private shownAt = 0;

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    enabled = true,
  ) {
    this.enabled = enabled && out.isTTY === true;
  }

  /** Shows `text`; a `minor` update (within a long step) is dropped when the last one is under 100 ms old. */
  show(text: string, minor = false): void {
    if (!this.enabled || text === this.last) return;
    const now = performance.now();
    if (minor && now - this.shownAt < 100) return;
    this.last = text;
    this.shownAt = now;
    const width = Math.max(20, (this.out.columns || 80) - 1);
    this.out.write(`\r${text.length > width ? text.slice(0, width - 1) + '…' : text}\x1b[K`);
    this.dirty = true;
  }

  clear(): void {
    if (this.dirty) this.out.write('\r\x1b[K');
    this.dirty = false;
    this.last = '';
  }
}
