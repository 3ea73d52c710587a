/** Text that arrives in chunks (a child's stdout), cut into lines. */

/** The longest line kept; a longer one (a runaway engine) is dropped up to its end. */
const MAX_LINE_LENGTH = 1 << 20;

/**
 * Hands every complete line to `onLine`, without its `\n` or `\r\n`. Text after the last newline
 * waits for the next chunk.
 */
export class LineSplitter {
  private buffer = '';
  /** True while the rest of a line that was too long is being skipped. */
  private skipping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLength = MAX_LINE_LENGTH,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const skip = this.skipping || line.length > this.maxLength;
      this.skipping = false;
      if (!skip) this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (this.buffer.length > this.maxLength) {
      this.buffer = '';
      this.skipping = true;
    }
  }
}
