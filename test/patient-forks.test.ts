/**
 * The test pool's worker (test/patient-forks.ts) against a real process that starts slowly
 * (test/tools/fixtures/slow-start-worker.cjs): the pool hears `started` at once, its `run` waits
 * until the process has started, and a process that never starts is an error after the patience
 * given, named.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PoolOptions, WorkerRequest } from 'vitest/node';
import { PatientForksWorker } from './patient-forks';
import { Stopwatch } from './patience';

const FIXTURE = path.resolve('test/tools/fixtures/slow-start-worker.cjs');

interface Answer {
  type: string;
  afterStart?: boolean;
}

function worker(env: Record<string, string>, startMs: number): PatientForksWorker {
  const options = {
    distPath: path.resolve('node_modules/vitest/dist'),
    project: { vitest: { logger: { outputStream: process.stdout, errorStream: process.stderr } } },
    method: 'run',
    environment: { name: 'node', options: null },
    execArgv: [],
    env: { ...process.env, ...env },
  } as unknown as PoolOptions;
  const w = new PatientForksWorker(options, startMs);
  // the stand-in process instead of Vitest's own
  Object.defineProperty(w, 'entrypoint', { value: FIXTURE });
  return w;
}

const start = { __vitest_worker_request__: true, type: 'start' } as unknown as WorkerRequest;
const run = { __vitest_worker_request__: true, type: 'run' } as unknown as WorkerRequest;

let open: PatientForksWorker | undefined;
afterEach(async () => {
  await open?.stop();
  open = undefined;
});

describe('the test pool waits for a slow worker process', () => {
  it('answers started at once, and runs the file only once the process has started', async () => {
    const w = worker({ SLOW_START_MS: '1500' }, 60_000);
    open = w;
    await w.start();
    const answers: Answer[] = [];
    const watch = new Stopwatch();
    let startedAt: number | undefined;
    const finished = new Promise<void>((resolve) =>
      w.on('message', (message) => {
        const m = message as Answer;
        answers.push(m);
        if (m.type === 'started') startedAt = watch.stop().idleMs;
        if (m.type === 'testfileFinished') resolve();
      }),
    );
    w.send(start);
    // the pool sends its run as soon as it hears started
    await new Promise<void>((resolve) => {
      const poll = () => (startedAt !== undefined ? resolve() : setTimeout(poll, 5));
      poll();
    });
    w.send(run);
    await finished;
    // at once: within a second of an idle machine's time, where the process takes 1.8 s of wall time
    expect(startedAt).toBeLessThan(1000);
    // one started (the process's own is not passed on twice), and the run came after its start
    expect(answers).toEqual([
      { __vitest_worker_response__: true, type: 'started' },
      expect.objectContaining({ type: 'testfileFinished', afterStart: true }),
    ]);
  });

  it('a process that never starts is an error after the patience given, named', async () => {
    const w = worker({ NEVER_START: '1' }, 1000);
    open = w;
    await w.start();
    const error = new Promise<Error>((resolve) => w.on('error', (e) => resolve(e as Error)));
    w.on('message', () => undefined);
    w.send(start);
    const e = await error;
    expect(e.message).toMatch(
      /^the test worker process did not start within 1 s of an idle machine's time \(waited \d+\.\d s, the machine \d+\.\d× slower than idle at worst\)$/,
    );
  });
});
