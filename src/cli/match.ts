/** `thoth match …`: the tournament runner (cutechess-cli / fastchess flags; see src/match). */
import { parseMatchArgs, MATCH_USAGE } from '../match/config';
import { runMatch } from '../match/tournament';
import { UsageError } from './args';

export { MATCH_USAGE };

export async function matchCommand(argv: string[], write: (s: string) => void): Promise<void> {
  if (argv.length === 0 || argv.includes('-help') || argv.includes('--help')) {
    if (argv.length === 0) throw new UsageError(`usage: ${MATCH_USAGE.split('\n')[0]} … (thoth help)`);
    write(MATCH_USAGE);
    return;
  }
  const cfg = parseMatchArgs(argv);
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
    await runMatch(cfg, {
      write,
      signal: ctrl.signal,
      progress: process.stderr.isTTY && process.stdout.isTTY ? process.stderr : undefined,
    });
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
