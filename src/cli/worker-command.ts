/** `thoth worker redis[s]://… --trust KEY [--allow-engine PATH] [--concurrency N] …`: plays the game pairs, datagen chunks and review chunks of distributed runs (src/distributed). */
import { availableParallelism } from 'node:os';
import { allowedPath, defaultCacheDir } from '../distributed/builds';
import { REDIS_URL_SYNTAX, redisAddress } from '../distributed/redis';
import { loadTrustedKeys, type TrustedKey } from '../distributed/trust';
import { runWorker } from '../distributed/worker';
import { UsageError, intOption, parseArgs, type CommandSpec } from './args';
import { exitSoon } from './match';

export const WORKER_SPEC: CommandSpec = {
  name: 'worker',
  positional: 'redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB]',
  summary:
    'Plays the game pairs of distributed matches (thoth match -distributed) and the game chunks of distributed datagen ' +
    '(thoth datagen --distributed), and scores the games of distributed reviews (thoth db review --distributed), from the Redis at that address, on any machine; Thoth builds and networks are fetched ' +
    'from Redis into a cache. Only runs signed by a --trust key are taken; other engines than Thoth builds only when ' +
    '--allow-engine allows them. Ctrl-C finishes the pairs in progress, twice stops at once.',
  options: [
    {
      name: 'trust',
      value: 'KEY|FILE',
      repeat: true,
      help: "the coordinator's Ed25519 public key (PEM file, or its base64 line); runs signed by another key or unsigned are refused (repeatable)",
      default: '$THOTH_TRUST',
    },
    {
      name: 'allow-engine',
      value: 'PATH',
      repeat: true,
      help: 'an engine file (or a folder of them) this worker may run besides Thoth builds (repeatable)',
      default: 'none',
    },
    { name: 'redis-ca', value: 'FILE', help: 'the CA certificates of a rediss:// server' },
    {
      name: 'redis-password-file',
      value: 'FILE',
      help: "the Redis password (else the address's, else $THOTH_REDIS_PASSWORD)",
    },
    {
      name: 'concurrency',
      value: 'N',
      help: 'game pairs (or datagen or review chunks) at once (at most the number of cores)',
      default: '1',
    },
    {
      name: 'cache',
      value: 'DIR',
      help: 'where engine builds from Redis are unpacked',
      default: 'a folder under the user cache',
    },
    {
      name: 'lock-duration',
      value: 'MS',
      help: "how long a pair stays this worker's without a sign of life",
      default: '30000',
    },
    { name: 'stalled-interval', value: 'MS', help: 'how often stalled pairs are looked for', default: '30000' },
    { name: 'max-stalled', value: 'N', help: 'stalls before a pair is given up', default: '3' },
    { name: 'exit-when-idle', help: 'exit when the queue is empty (for scripts and tests)' },
  ],
  notes: ['See docs/distributed.md.'],
};

export async function workerCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, WORKER_SPEC);
  if (args.positional.length !== 1)
    throw new UsageError(`give the Redis address: thoth worker ${REDIS_URL_SYNTAX} --trust KEY (thoth worker --help)`);
  const addr = redisAddress(args.positional[0], {
    caFile: args.options.get('redis-ca')?.[0],
    passwordFile: args.options.get('redis-password-file')?.[0],
  });
  if (!addr.ok) throw new UsageError(addr.error.message);
  const trustValues = args.options.get('trust') ?? (process.env.THOTH_TRUST ? [process.env.THOTH_TRUST] : []);
  if (trustValues.length === 0) {
    throw new UsageError(
      "give the coordinator's public key: --trust KEY-or-FILE (or THOTH_TRUST); a worker takes only runs signed with it (docs/distributed.md, Trust)",
    );
  }
  const trusted: TrustedKey[] = [];
  for (const v of trustValues) {
    const k = loadTrustedKeys(v);
    if (!k.ok) throw new UsageError(k.error.message);
    for (const key of k.value) if (!trusted.some((t) => t.id === key.id)) trusted.push(key);
  }
  const allowEngines: string[] = [];
  for (const p of args.options.get('allow-engine') ?? []) {
    const a = allowedPath(p);
    if (!a.ok) throw new UsageError(a.error.message);
    allowEngines.push(a.value);
  }
  const cores = availableParallelism();
  const concurrency = intOption(args, 'concurrency', 1, 1, 1024);
  if (concurrency > cores)
    write(`Note: --concurrency ${concurrency} is more than the ${cores} cores here: games may lose on time`);
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
      trusted,
      allowEngines,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    exitSoon();
  }
}
