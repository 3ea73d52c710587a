/** `thoth match …`: the tournament runner (cutechess-cli / fastchess flags; see src/match). */
import { runDistributed, type DistributedError } from '../distributed/coordinator';
import { RedisUnreachable } from '../distributed/redis';
import { BuildError } from '../distributed/builds';
import { parseMatchArgs, MATCH_USAGE } from '../match/config';
import { EngineStartError, MatchInterrupted } from '../match/errors';
import { runMatch } from '../match/tournament';
import { CommandError, UsageError } from './args';

export { MATCH_USAGE };

export async function matchCommand(argv: string[], write: (s: string) => void): Promise<void> {
  if (argv.length === 0 || argv.includes('-help') || argv.includes('--help')) {
    if (argv.length === 0) throw new UsageError(`usage: ${MATCH_USAGE.split('\n')[0]} … (thoth help)`);
    write(MATCH_USAGE);
    return;
  }
  const parsed = parseMatchArgs(argv);
  if (!parsed.ok) throw new UsageError(parsed.error.message);
  const cfg = parsed.value;
  // Ctrl-C: end the run cleanly (games in progress are dropped; finished ones are saved and
  // summarised). A second Ctrl-C exits at once.
  const ctrl = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nInterrupted: stopping the games in progress (Ctrl-C again to quit at once)\n');
    ctrl.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const opts = {
      write,
      signal: ctrl.signal,
      progress: process.stderr.isTTY && process.stdout.isTTY ? process.stderr : undefined,
    };
    const r = cfg.distributed ? await runDistributed(cfg, opts) : await runMatch(cfg, opts);
    if (!r.ok) throw commandError(r.error);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    // Connections to a Redis that went away keep retrying in the background: do not wait for them.
    if (cfg.distributed) exitSoon();
  }
}

/** Ends the process a moment after the command (with the exit code the entry point sets), whatever is still open. */
export function exitSoon(): void {
  setTimeout(() => process.exit(), 1000).unref();
}

/**
 * Exit codes: a bad setting is bad usage (2); an engine that cannot start, an engine build that
 * cannot be read, or a Redis that cannot be reached (or is lost) is a failure (1); Ctrl-C while starting, 130.
 */
function commandError(e: DistributedError): CommandError {
  if (e instanceof EngineStartError || e instanceof RedisUnreachable || e instanceof BuildError) return new CommandError(e.message, 1);
  if (e instanceof MatchInterrupted) return new CommandError(e.message, 130);
  return new UsageError(e.message);
}
