/**
 * A worker's side of a distributed review run (src/distributed/review-jobs.ts): the named Thoth
 * build and network from the cache (fetched from Redis when missing, checked by checksum), then
 * each chunk job, once its signature by the run's key is checked, scored by that build's own
 * `thoth db score` in a child process (one thread) and its lines returned as the result. The
 * child has an IPC channel to this process and ends when it closes, so a worker killed with -9
 * leaves no search running; BullMQ's stalled-job check puts its chunk back in the queue.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Job, Queue } from 'bullmq';
import { plural } from '../core/plural';
import { buildProblem, CHECKSUM, fetchBuild, fetchNet, shortSum, sumText } from './builds';
import {
  type ReviewJob,
  type ReviewJobResult,
  type ReviewRunSettings,
  type SignedReviewJob,
  reviewJobProblem,
} from './review-jobs';
import { refuseUnsigned } from './trust';
import { type DatagenWorkerHost, followChunks } from './worker-datagen';
import { linkedStop } from './wait';

/** Why a review run's settings are malformed (one line), or undefined. */
function reviewProblem(s: ReviewRunSettings): string | undefined {
  if (typeof s !== 'object' || s === null) return 'its review settings are not an object';
  const b = buildProblem(s.build);
  if (b !== undefined) return b;
  if (s.build.kind !== 'thoth') return 'a review run needs a Thoth build';
  if (s.net !== null && !(typeof s.net === 'string' && CHECKSUM.test(s.net)))
    return `the network checksum ${sumText(s.net)} is not 64 hex digits`;
  if (!Number.isInteger(s.chunk) || s.chunk < 1 || s.chunk > 10_000) return 'a bad chunk size';
  if (!Number.isInteger(s.depth) || s.depth < 1 || s.depth > 40) return 'a bad depth';
  if (!Number.isInteger(s.hash) || s.hash < 1 || s.hash > 4096) return 'a bad table size';
  return undefined;
}

interface ServedReview {
  run: string;
  signer: string;
  settings: ReviewRunSettings;
  cli: string;
  netFile: string | undefined;
  results: Queue;
}

/** The chunk's games scored by the build's `thoth db score`: one parsed line per game, in order. */
function scoreChunk(served: ServedReview, job: ReviewJob, signal: AbortSignal): Promise<unknown[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'thoth-review-'));
  const file = path.join(dir, 'games.pgn');
  writeFileSync(file, job.games.map((g) => g.record.trim()).join('\n\n') + '\n');
  const { settings } = served;
  const args = [
    served.cli,
    'db',
    'score',
    file,
    '--depth',
    String(settings.depth),
    '--hash',
    String(settings.hash),
    '--net',
    served.netFile ?? 'none',
  ];
  return new Promise<unknown[]>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, THOTH_PARENT: String(process.pid) },
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err = (err + d).slice(-2000)));
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    signal.addEventListener('abort', kill, { once: true });
    const done = (): void => {
      signal.removeEventListener('abort', kill);
      rmSync(dir, { recursive: true, force: true });
    };
    child.on('error', (e) => {
      done();
      reject(e);
    });
    child.on('exit', (code, sig) => {
      done();
      if (code !== 0) {
        const last = err.trim().split('\n').pop() ?? '';
        reject(new Error(sig ? `db score ended by ${sig}` : `db score exited with code ${code}: ${last}`));
        return;
      }
      try {
        resolve(
          out
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => JSON.parse(l) as unknown),
        );
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

/** Reviews a review run's chunks until the run ends, or it has no chunks waiting and another run has. */
export async function serveReview(host: DatagenWorkerHost, run: string, text: string, signer: string): Promise<void> {
  const { opts, redis } = host;
  let settings: ReviewRunSettings;
  try {
    settings = JSON.parse(text) as ReviewRunSettings;
  } catch {
    return host.refuse(run, 'its review settings are not JSON');
  }
  const why = reviewProblem(settings);
  if (why !== undefined) return host.refuse(run, why);
  if (settings.build.kind !== 'thoth') return host.refuse(run, 'a review run needs a Thoth build');
  const dir = await fetchBuild(redis, settings.build.checksum, opts.cacheDir, settings.build.bytes);
  if (!dir.ok) return host.refuse(run, dir.error.message);
  let netFile: string | undefined;
  if (settings.net !== null) {
    const n = await fetchNet(redis, settings.net, opts.cacheDir);
    if (!n.ok) return host.refuse(run, n.error.message);
    netFile = n.value;
  }
  const cli = path.join(dir.value, settings.build.kind === 'thoth' ? settings.build.script : 'dist/cli.js');
  if (!cli.startsWith(dir.value + path.sep))
    return host.refuse(run, `its script is outside Thoth build ${shortSum(settings.build.checksum)}`);
  opts.write(
    `Serving review run ${run}: Thoth build ${shortSum(settings.build.checksum)}, ${settings.net ? `network ${shortSum(settings.net)}` : 'hand-written evaluation'}, depth ${settings.depth}`,
  );
  await followChunks(host, run, (results) => {
    const served: ServedReview = { run, signer, settings, cli, netFile, results };
    return (job, token, signal) => reviewJob(host, served, job, token, signal);
  });
}

/** A job as the coordinator signed it, or why not. */
function signedReviewJob(served: ServedReview, host: DatagenWorkerHost, id: string, data: unknown): ReviewJob | string {
  const { body, sig } = (data ?? {}) as Partial<SignedReviewJob>;
  if (typeof body !== 'string' || typeof sig !== 'string') return 'it is not signed';
  if (refuseUnsigned(host.opts.trusted, served.run, `job ${id}`, body, sig, served.signer) !== undefined)
    return "it does not match its signature by the run's key (changed in Redis)";
  let job: ReviewJob;
  try {
    job = JSON.parse(body) as ReviewJob;
  } catch {
    return 'its text is not JSON';
  }
  return reviewJobProblem(job, served.settings.chunk) ?? job;
}

/** One chunk job: its games scored and the scores written as a result of its own, or the job back to the queue. */
async function reviewJob(
  host: DatagenWorkerHost,
  served: ServedReview,
  job: Job,
  token?: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const { opts, bull } = host;
  host.busy(1);
  const stop = linkedStop(signal, opts.kill);
  const t0 = Date.now();
  try {
    // The queue is writable by every worker's Redis user: a job is reviewed only as the coordinator signed it.
    const data = signedReviewJob(served, host, String(job.id), job.data);
    if (typeof data === 'string') throw new bull.UnrecoverableError(`${job.id} is not a job of this run: ${data}`);
    let lines: unknown[];
    try {
      lines = await scoreChunk(served, data, stop.signal);
    } catch (e) {
      if (!stop.signal.aborted) throw e;
      if (opts.kill.aborted) {
        // This worker is going away: the chunk goes back to the queue for another worker.
        await job.moveToWait(token);
        throw new bull.WaitingError();
      }
      return { cancelled: true };
    }
    const games = data.games.map((g, i) => {
      const l = (lines[i] ?? {}) as { game?: unknown; scores?: unknown; error?: unknown };
      if (l.game !== i + 1) return { id: g.id, error: 'no answer from db score' };
      return typeof l.error === 'string' ? { id: g.id, error: l.error } : { id: g.id, scores: l.scores };
    });
    const result: ReviewJobResult = { job: String(job.id), worker: host.id, games, ms: Date.now() - t0 };
    // A result of its own (not the chunk's id: a forged result under that id would hide this one).
    await served.results.add('result', result, { jobId: `${job.id}.${randomUUID()}`, removeOnComplete: true });
    host.done();
    opts.write(
      `Reviewed ${job.id} of run ${served.run} (${plural(data.games.length, 'game')}, ids ${data.games[0].id}-${data.games[data.games.length - 1].id}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    return { games: games.length };
  } finally {
    stop.release();
    host.busy(-1);
  }
}
