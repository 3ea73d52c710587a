/**
 * Output that cannot be written: a full disk (ENOSPC, `> /dev/full`), a file that became
 * unwritable. Every command ends the same way on it: one line on stderr naming the output and the
 * system's reason, exit code 1, no stack trace, and no child process (engine) left running (the
 * children's exit hook in child.ts ends them). A reader of stdout that went away (EPIPE, `| head`)
 * ends the command quietly (exit code 0).
 */

/** A write to a named output failed (`stdout`, `the record file 'games.pgn'`). */
export class OutputError extends Error {
  override name = 'OutputError';

  constructor(
    readonly target: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`cannot write ${target}: ${reason}`);
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EPIPE: 'the reader closed the pipe',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file is too large',
  EIO: 'input/output error',
  EBADF: 'the output is closed',
  EACCES: 'permission denied',
  EROFS: 'read-only file system',
};

/** The system's reason for a failed write, in words, with its code: `no space left on device (ENOSPC)`. */
export function writeErrorReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code] !== undefined) return `${REASONS[code]} (${code})`;
  const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
}

/** The OutputError for a failed write to `target`. */
export function outputError(target: string, e: unknown): OutputError {
  if (e instanceof OutputError) return e;
  return new OutputError(target, (e as NodeJS.ErrnoException | undefined)?.code, writeErrorReason(e));
}

/**
 * Ends the program on an error of the standard output or error stream: one line on stderr
 * (`thoth: cannot write stdout: no space left on device (ENOSPC)`), then exit code 1 at once (the
 * children's exit hook ends any engine still running). A reader of stdout that went away (EPIPE:
 * `thoth stats … | head`) wanted no more: the program ends quietly, exit code 0, as `cat` or `git
 * log` end without a word. A failing stderr ends it without a word.
 */
export function exitOnOutputError(prefix = 'thoth'): void {
  let ending = false;
  const end =
    (name: string) =>
    (e: unknown): void => {
      if (ending) return;
      ending = true;
      if (name === 'stdout' && (e as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') process.exit(0);
      if (name !== 'stderr') {
        try {
          process.stderr.write(`${prefix}: ${outputError(name, e).message}\n`);
        } catch {
          // stderr is gone too
        }
      }
      process.exit(1);
    };
  process.stdout.on('error', end('stdout'));
  process.stderr.on('error', end('stderr'));
}
