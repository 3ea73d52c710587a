/** A progress line on stderr for the long-running commands (analyse, datagen, train). */

/** The progress line: overwritten in place on a terminal, plain lines otherwise. */
export class ProgressLine {
  private readonly tty: boolean;
  private last = '';
  private dirty = false;

  constructor(private readonly out: NodeJS.WriteStream, private readonly enabled: boolean) {
    this.tty = out.isTTY === true;
  }

  /** Shows `text`; a `minor` update (a new depth in a long job) is not repeated as a plain line. */
  show(text: string, minor = false): void {
    if (!this.enabled || text === this.last || (minor && !this.tty)) return;
    this.last = text;
    if (this.tty) {
      const width = Math.max(20, (this.out.columns || 80) - 1);
      this.out.write(`\r${text.length > width ? text.slice(0, width - 1) + '…' : text}\x1b[K`);
      this.dirty = true;
    } else {
      this.out.write(`${text}\n`);
    }
  }

  clear(): void {
    if (this.dirty) this.out.write('\r\x1b[K');
    this.dirty = false;
    this.last = '';
  }
}
