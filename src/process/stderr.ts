/**
 * What a child wrote to stderr, kept for messages about why it could not start: the first and the
 * last lines (a long stack trace is not kept whole), and the one line that says what went wrong:
 * `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/brain.js' imported from /x/engine.js`
 * rather than the tail of a Node stack (`at …`, `Node.js v20.…`), Python's last traceback line,
 * or else the first line that is not a stack frame, a source excerpt or a version banner.
 */

import { shorten } from '../core/quote';

/** Lines that say what went wrong in every common runtime (`TypeError: …`, `ModuleNotFoundError: …`, `error: …`). */
const ERROR_LINE =
  /^(?:Uncaught\s+)?(?:[A-Za-z_$][\w$.]*(?:Error|Exception)(?:\s*\[[\w-]+\])?|[Ee]rror|[Ff]atal(?: error)?|panic|thread '.*' panicked at .*):\s*\S/;

/** Lines that are noise around an error: stack frames, source excerpts, markers, banners. */
function isNoise(line: string): boolean {
  const t = line.trim();
  return (
    t === '' ||
    /^at\s/.test(t) || // a JavaScript stack frame
    /^\^+$/.test(t) || // the marker under a source excerpt
    /^(?:node:internal\/|file:\/\/)\S*:\d+/.test(t) || // Node's `where:line` above an excerpt
    /^\/\S+:\d+$/.test(t) ||
    /^Node\.js v\d/.test(t) ||
    /^Traceback \(most recent call last\):$/.test(t) ||
    /^File ".*", line \d+/.test(t) ||
    /^(?:throw|raise)\b/.test(t) || // the excerpt of the throwing line
    /^\{$|^\}$/.test(t) ||
    /^(?:code|errno|syscall|path|url|requireStack|code:)\s*:/.test(t)
  );
}

/**
 * The line of `lines` (a child's stderr) that says what went wrong, clipped to ~200 characters;
 * undefined when there is none.
 */
export function meaningfulLine(lines: readonly string[]): string | undefined {
  const trimmed = lines.map((l) => l.trim());
  const err = trimmed.find((l) => ERROR_LINE.test(l));
  if (err !== undefined) return shorten(err);
  const other = trimmed.find((l) => !isNoise(l));
  return other === undefined ? undefined : shorten(other);
}

/** Keeps the first and the last lines a child writes to stderr. */
export class StderrLines {
  readonly head: string[] = [];
  readonly tail: string[] = [];
  private partial = '';

  constructor(private readonly keep = 40) {}

  /** Adds a chunk as it arrives (a line may span chunks). */
  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const l of parts) this.add(l);
    if (this.partial.length > 4096) {
      this.add(this.partial);
      this.partial = '';
    }
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    if (this.head.length < this.keep) this.head.push(line);
    else {
      this.tail.push(line);
      if (this.tail.length > this.keep) this.tail.shift();
    }
  }

  /** The lines kept (the first ones, then the last ones), with a line not yet ended. */
  lines(): string[] {
    return [...this.head, ...this.tail, ...(this.partial.trim() === '' ? [] : [this.partial])];
  }

  /** The line that says what went wrong (see {@link meaningfulLine}). */
  meaningful(): string | undefined {
    return meaningfulLine(this.lines());
  }
}
