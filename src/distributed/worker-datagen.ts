/**
 * A worker's side of a distributed datagen run (src/distributed/datagen-jobs.ts): the named
 * Thoth build from the cache (fetched from Redis when missing, checked by checksum), the network
 * likewise, then each chunk job played by that build's own `thoth datagen` in a child process
 * (one thread, no dedup, the chunk's games only) and its file returned as the shard. The child
 * has an IPC channel to this process and ends when it closes, so a worker killed with -9 leaves
 * no game running; BullMQ's stalled-job check puts its chunks back in the queue.
 */
import { spawn } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { buildProblem, CHECKSUM, fetchBuild, fetchNet, shortSum, sumText } from './builds';
import type { ChunkJob, ChunkResult, DatagenRunSettings } from './datagen-jobs';
import { keys, QUEUE_PREFIX, type RedisAddress } from './redis';
import { followRun } from './run-queue';
import type { WorkerOptions } from './worker';
import { linkedStop } from './wait';

/** What serveDatagen needs of the worker that calls it. */
export interface DatagenWorkerHost {
  id: string;
  addr: RedisAddress;
  redis: Redis;
  opts: WorkerOptions;
  bull: typeof import('bullmq');
  refuse(run: string, why: string): Promise<void>;
  /** Called as chunks start (+1) and end (−1), and when one is finished (done). */
  busy(delta: number): void;
  done(): void;
  setRun(run: string | null): void;
  /** The oldest run with work this worker can take (to leave this one when it has none). */
  pickRun(): Promise<string | undefined>;
  waitingCount(run: string): Promise<number>;
}

/** Flags of the worker's own datagen child that the run's settings must not give. */
const WORKER_FLAGS = new Set([
  '--out',
  '--net',
  '--first-game',
  '--games',
  '--positions',
  '--threads',
  '--distributed',
  '--sign',
]);

/** Why a datagen run's settings are malformed (one line), or undefined. */
export function datagenProblem(s: DatagenRunSettings): string | undefined {
  if (typeof s !== 'object' || s === null) return 'its datagen settings are not an object';
  const b = buildProblem(s.build);
  if (b !== undefined) return b;
  if (s.build.kind !== 'thoth') return 'a datagen run needs a Thoth build';
  if (s.net !== null && !(typeof s.net === 'string' && CHECKSUM.test(s.net)))
    return `the network checksum ${sumText(s.net)} is not 64 hex digits`;
  if (!Number.isInteger(s.chunk) || s.chunk < 1) return 'a bad chunk size';
  // The worker sets those flags itself, but for `--net none` (the hand-written evaluation) of a run without a network.
  const own = (a: string, i: number): boolean =>
    WORKER_FLAGS.has(a.split('=')[0]) && !(a === '--net' && s.args[i + 1] === 'none' && s.net === null);
  if (!Array.isArray(s.args) || !s.args.every((a, i) => typeof a === 'string' && !own(a, i)))
    return 'its datagen flags are not ones a worker passes on';
  return undefined;
}

/**
 * Plays one chunk with the build's datagen; the shard's bytes, or throws with datagen's error (the
 * coordinator plays a game of a chunk so too, to check a worker's shard).
 */
export function playChunk(
  cli: string,
  settings: DatagenRunSettings,
  netFile: string | undefined,
  job: ChunkJob,
  signal: AbortSignal,
): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'thoth-chunk-'));
  const out = path.join(dir, 'shard.bin');
  const args = [
    cli,
    'datagen',
    '--out',
    out,
    ...settings.args,
    ...(netFile ? ['--net', netFile] : []),
    '--first-game',
    String(job.first),
    '--games',
    String(job.games),
    '--positions',
    '2000000000',
    '--threads',
    '1',
    '--no-dedup',
    '--quiet',
  ];
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let err = '';
    child.stderr!.on('data', (d) => (err = (err + d).slice(-2000)));
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    signal.addEventListener('abort', kill, { once: true });
    child.on('error', (e) => {
      signal.removeEventListener('abort', kill);
      rmSync(dir, { recursive: true, force: true });
      reject(e);
    });
    child.on('exit', (code, sig) => {
      signal.removeEventListener('abort', kill);
      try {
        if (code === 0) resolve(readFileSync(out));
        else
          reject(
            new Error(
              sig
                ? `datagen ended by ${sig}`
                : `datagen exited with code ${code}: ${err.trim().split('\n').pop() ?? ''}`,
            ),
          );
      } catch (e) {
        reject(e as Error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** A datagen run as this worker plays it: its settings, the build's entry point and the network file. */
interface DatagenRun {
  run: string;
  settings: DatagenRunSettings;
  cli: string;
  netFile: string | undefined;
  results: Queue;
}

/**
 * The run's settings checked, its build and network fetched into the cache: the entry point and
 * the network file, or why the run is refused. The settings' signature was checked by the caller;
 * their shape is checked here, before any file operation.
 */
async function datagenFiles(
  host: DatagenWorkerHost,
  text: string,
): Promise<{ settings: DatagenRunSettings; cli: string; netFile: string | undefined } | string> {
  const { opts, redis } = host;
  let settings: DatagenRunSettings;
  try {
    settings = JSON.parse(text) as DatagenRunSettings;
  } catch {
    return 'its datagen settings are not JSON';
  }
  const why = datagenProblem(settings);
  if (why !== undefined) return why;
  if (settings.build.kind !== 'thoth') return 'a datagen run needs a Thoth build';
  const dir = await fetchBuild(redis, settings.build.checksum, opts.cacheDir, settings.build.bytes);
  if (!dir.ok) return dir.error.message;
  let netFile: string | undefined;
  if (settings.net !== null) {
    const n = await fetchNet(redis, settings.net, opts.cacheDir);
    if (!n.ok) return n.error.message;
    netFile = n.value;
  }
  const cli = path.join(dir.value, settings.build.kind === 'thoth' ? settings.build.script : 'dist/cli.js');
  if (!cli.startsWith(dir.value + path.sep))
    return `its script is outside Thoth build ${shortSum(settings.build.checksum)}`;
  return { settings, cli, netFile };
}

/** Plays a datagen run's chunks until the run ends, or it has no chunks waiting and another run has. */
export async function serveDatagen(host: DatagenWorkerHost, run: string, text: string): Promise<void> {
  const files = await datagenFiles(host, text);
  if (typeof files === 'string') return host.refuse(run, files);
  const { settings } = files;
  host.opts.write(
    `Serving datagen run ${run}: Thoth build ${shortSum(settings.build.checksum)}, ${settings.net ? `network ${shortSum(settings.net)}` : 'hand-written evaluation'}, ${settings.chunk} games a chunk`,
  );
  await followChunks(host, run, (results) => {
    const served: DatagenRun = { run, ...files, results };
    return (job, token, signal) => playChunkJob(host, served, job, token, signal);
  });
}

/**
 * Takes run `run`'s chunk jobs (datagen's or a review's) with the processor `make` gives for the
 * run's results queue, until the run ends or this worker leaves it; the run is this worker's
 * current one meanwhile.
 */
export async function followChunks(
  host: DatagenWorkerHost,
  run: string,
  make: (results: Queue) => (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>,
): Promise<void> {
  const { opts, redis, bull } = host;
  host.setRun(run);
  const results = new bull.Queue(keys.resultsQueue(run), { connection: redis, prefix: QUEUE_PREFIX });
  results.on('error', () => undefined);
  try {
    await followRun({
      bull,
      redis,
      addr: host.addr,
      run,
      id: host.id,
      opts,
      noun: 'chunk',
      processor: make(results),
      waiting: () => host.waitingCount(run),
      pickRun: () => host.pickRun(),
    });
  } finally {
    await results.close();
    host.setRun(null);
  }
}

/** One chunk job: its games played by the build and the shard written as the result, or the job back to the queue. */
async function playChunkJob(
  host: DatagenWorkerHost,
  served: DatagenRun,
  job: Job,
  token?: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const { opts, bull } = host;
  const { run, settings } = served;
  host.busy(1);
  const stop = linkedStop(signal, opts.kill);
  const t0 = Date.now();
  try {
    const data = job.data as ChunkJob;
    if (
      !Number.isSafeInteger(data?.chunk) ||
      data.chunk < 0 ||
      data.first !== data.chunk * settings.chunk ||
      !Number.isSafeInteger(data.games) ||
      data.games < 1 ||
      data.games > settings.chunk
    ) {
      throw new Error(`${job.id} is not a chunk of this run (${settings.chunk} games a chunk)`);
    }
    let shard: Buffer;
    try {
      shard = await playChunk(served.cli, settings, served.netFile, data, stop.signal);
    } catch (e) {
      if (!stop.signal.aborted) throw e;
      if (opts.kill.aborted) {
        // This worker is going away: the chunk goes back to the queue for another worker.
        await job.moveToWait(token);
        throw new bull.WaitingError();
      }
      return { cancelled: true };
    }
    const result: ChunkResult = {
      chunk: data.chunk,
      worker: host.id,
      shard: shard.toString('base64'),
      ms: Date.now() - t0,
    };
    // A result of its own (not the chunk's id: a forged result under that id would hide this one).
    await served.results.add('result', result, { jobId: `${job.id}.${randomUUID()}`, removeOnComplete: true });
    host.done();
    opts.write(
      `Played ${job.id} of run ${run} (games ${data.first}-${data.first + data.games - 1}, ${shard.length} bytes) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    return { bytes: shard.length };
  } finally {
    stop.release();
    host.busy(-1);
  }
}

/** `n` distinct games of the chunk (the coordinator plays them again to check a shard) `first … first + count − 1`, at random. */
export function pickGames(first: number, count: number, n: number): number[] {
  const all = Array.from({ length: count }, (_, i) => first + i);
  for (let i = all.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, Math.min(n, count));
}
