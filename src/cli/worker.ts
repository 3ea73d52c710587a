/** `thoth worker redis://HOST:PORT[/DB] [--concurrency N] …`: plays the game pairs of distributed runs (src/distributed). */
import { availableParallelism } from 'node:os';
import { defaultCacheDir } from '../distributed/builds';
import { RedisUnreachable, parseRedisUrl } from '../distributed/redis';
import { runWorker } from '../distributed/worker';
import { CommandError, UsageError, intOption, parseArgs } from './args';
import { exitSoon } from './match';

export const WORKER_USAGE =
  'thoth worker redis://HOST:PORT[/DB] [--concurrency N] [--cache DIR] [--lock-duration MS] [--stalled-interval MS] ' +
  '[--max-stalled N] [--exit-when-idle]';

export async function workerCommand(argv: string[], write: (s: string) => void): Promise<void> {
  if (argv.includes('--help') || argv.includes('-help')) {
    write(`usage: ${WORKER_USAGE}`);
    return;
  }
  const args = parseArgs(argv, ['concurrency', 'cache', 'lock-duration', 'stalled-interval', 'max-stalled'], ['exit-when-idle']);
  if (args.positional.length !== 1) throw new UsageError(`usage: ${WORKER_USAGE}`);
  const addr = parseRedisUrl(args.positional[0]);
  if (!addr.ok) throw new UsageError(addr.error.message);
  const cores = availableParallelism();
  const concurrency = intOption(args, 'concurrency', 1, 1, 1024);
  if (concurrency > cores) write(`Note: --concurrency ${concurrency} is more than the ${cores} cores here: games may lose on time`);
  const lockDurationMs = intOption(args, 'lock-duration', 30_000, 200, 3_600_000);
  // Ctrl-C: finish the pairs in progress, then stop; again: stop at once (those pairs go back to the queue); a third time: exit.
  const finish = new AbortController();
  const kill = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write('\nStopping: finishing the pairs in progress (Ctrl-C again to stop at once)\n');
      finish.abort();
    } else if (interrupts === 2) {
      kill.abort();
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await runWorker(addr.value, {
      concurrency,
      cacheDir: args.options.get('cache')?.[0] ?? defaultCacheDir(),
      lockDurationMs,
      stalledIntervalMs: intOption(args, 'stalled-interval', 30_000, 100, 3_600_000),
      maxStalledCount: intOption(args, 'max-stalled', 3, 0, 1000),
      pollMs: Math.min(1000, Math.max(100, Math.round(lockDurationMs / 4))),
      write,
      signal: finish.signal,
      kill: kill.signal,
      exitWhenIdle: args.options.has('exit-when-idle'),
    });
  } catch (e) {
    if (e instanceof RedisUnreachable) throw new CommandError(e.message, 1);
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    exitSoon();
  }
}
