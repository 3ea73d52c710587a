/**
 * `thoth datagen --distributed URL`: the games are played by `thoth worker` processes through
 * Redis (src/distributed/datagen-coordinator.ts); this process writes them in game order through
 * its DatagenRun (src/train/datagen-run.ts). The flags and the lines it prints.
 */
import { plural } from '../core/plural';
import { DatagenRunForgotten, runDatagenCoordinator } from '../distributed/datagen-coordinator';
import { RedisUnreachable, redisAddress, type RedisAddress } from '../distributed/redis';
import { signerFor, type Signer } from '../distributed/trust';
import { gameBytes } from '../train/data';
import type { DatagenRun } from '../train/datagen-run';
import { CommandError, EXIT, UsageError, intOption, type FlagSpec, type ParsedArgs } from './args';
import { onInterrupt } from './interrupt';
import { exitSoon } from './match';
import type { ProgressLine } from './progress';

export const DISTRIBUTED_OPTIONS: FlagSpec[] = [
  {
    name: 'distributed',
    value: 'URL',
    help: 'play the games on `thoth worker` processes through the Redis at redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB] (docs/distributed.md)',
  },
  {
    name: 'sign',
    value: 'FILE',
    help: 'with --distributed: the Ed25519 private key that signs the run for the workers',
    default: '$THOTH_SIGN_KEY',
  },
  { name: 'redis-ca', value: 'FILE', help: 'with --distributed rediss://: the CA certificates of the Redis server' },
  {
    name: 'redis-password-file',
    value: 'FILE',
    help: "with --distributed: the Redis password (else the address's, else $THOTH_REDIS_PASSWORD)",
  },
  { name: 'chunk', value: 'N', help: 'with --distributed: games per job', default: '32' },
  {
    name: 'verify',
    value: 'N',
    help: "with --distributed: games of each chunk this process plays itself, at random, to check the worker's shard (0: trust the workers)",
    default: '1',
  },
];

export interface Distributed {
  addr: RedisAddress;
  signer: Signer;
  chunk: number;
  /** Games of each chunk the coordinator plays itself to check the shards (--verify). */
  verify: number;
}

/** The --distributed flags, checked (--chunk `chunkDefault` when not given); undefined for a local run. */
export function distributedFlags(args: ParsedArgs, chunkDefault = 32): Distributed | undefined {
  const url = args.options.get('distributed')?.[0];
  const chunk = intOption(args, 'chunk', chunkDefault, 1, 10_000);
  const verify = intOption(args, 'verify', 1, 0, 10_000);
  if (url === undefined) return undefined;
  const addr = redisAddress(url, {
    caFile: args.options.get('redis-ca')?.[0],
    passwordFile: args.options.get('redis-password-file')?.[0],
  });
  if (!addr.ok) throw new UsageError(`--distributed: ${addr.error.message}`);
  if (args.options.has('threads'))
    throw new UsageError(
      "--threads is for a local run; with --distributed the workers' --concurrency says how many games run at once",
    );
  const signer = signerFor(args.options.get('sign')?.[0]);
  if (!signer.ok) throw new UsageError(`--distributed: ${signer.error.message}`);
  return { addr: addr.value, signer: signer.value, chunk, verify };
}

/** Runs the coordinator over `run` (opened, not yet done); `args` the flags that fix the games. */
export async function distributedDatagen(
  run: DatagenRun,
  d: Distributed,
  game: { args: string[]; network?: Uint8Array; networkFile?: string },
  io: { progress: ProgressLine; write: (s: string) => void },
): Promise<void> {
  const { out, games } = run.o;
  run.begin();
  const stop = new AbortController();
  const detach = onInterrupt(() => {
    io.progress.clear();
    process.stderr.write(
      '\nInterrupted: the workers finish the chunks in progress, kept in Redis; run the same command again to go on\n',
    );
    stop.abort();
  });
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    const t = run.totals();
    io.progress.show(
      `datagen: ${t.positions.toLocaleString('en')}${Number.isFinite(run.o.positions) ? `/${plural(run.o.positions, 'position', 'positions', run.o.positions.toLocaleString('en'))}` : ' positions'}, ` +
        `${plural(t.games, 'game', 'games', t.games.toLocaleString('en'))}${Number.isFinite(run.o.games) ? ` of ${run.o.games.toLocaleString('en')}` : ''}, ${(run.positions / Math.max(s, 1e-3)).toFixed(0)} positions/s (distributed)`,
      true,
    );
  }, 1000);
  ticker.unref();
  let outcome: Awaited<ReturnType<typeof runDatagenCoordinator>>;
  try {
    outcome = await runDatagenCoordinator(
      d.addr,
      {
        ...game,
        chunk: d.chunk,
        out,
        signal: stop.signal,
        signer: d.signer,
        verify: d.verify,
        targetPositions: Number.isFinite(run.o.positions) ? run.o.positions : null,
        targetGames: Number.isFinite(games) ? games : null,
      },
      {
        nextGame: run.nextGame,
        endGame: Number.isFinite(games) ? run.nextGame + (games - run.had.games) : Infinity,
        write: (first, count, shard) => run.appendShard(first, count, shard),
        gameOf: (shard, game) => gameBytes(shard, game),
        done: () => run.done(),
        totals: () => run.totals(),
        note: (s) => {
          io.progress.clear();
          io.write(s);
        },
      },
    );
  } catch (e) {
    if (e instanceof DatagenRunForgotten)
      throw new CommandError(`${e.message}; the games so far are in ${out}: the same command finishes the run`, 1);
    if (e instanceof RedisUnreachable) throw new CommandError(`${e.message}; the games so far are in ${out}`, 1);
    throw e;
  } finally {
    detach();
    clearInterval(ticker);
    io.progress.clear();
    run.close();
    exitSoon();
  }
  const secs = (performance.now() - t0) / 1000;
  const t = run.totals();
  io.write(
    `Wrote ${plural(run.positions, 'position')} of ${plural(run.games, 'game')} to ${out} in ${secs.toFixed(1)} s (${(run.positions / Math.max(secs, 1e-3)).toFixed(1)} positions/s, ` +
      `distributed run ${outcome.run}, ${plural(d.chunk, 'game')} a chunk); the file holds ${plural(t.positions, 'position')} of ${plural(t.games, 'game')}`,
  );
  io.write(`Duplicates dropped: ${run.duplicates}`);
  for (const w of outcome.tallies)
    io.write(
      `Worker ${w.id}: ${plural(w.chunks, 'chunk')}, ${plural(w.positions, 'position')}, ${w.rate.toFixed(1)} positions/s`,
    );
  // Ctrl-C ends the command as a local run's does: the file whole, exit 130.
  if (outcome.state === 'interrupted')
    throw new CommandError(
      `interrupted: ${out} holds ${plural(t.positions, 'position')}; the same command goes on`,
      EXIT.interrupted,
    );
}
