/**
 * Vitest's `forks` pool, patient with a slow machine (vitest.config.ts uses it for every project).
 *
 * Vitest 4 gives a new worker process a fixed 60 s (`START_TIMEOUT` in its PoolRunner) from its
 * fork to its `started` answer: node's start, tsx's loader and the runtime's modules. On two cores
 * at a load average of 30 or more that is not enough; the start failed ("Failed to start forks
 * worker … Timeout waiting for worker to respond") and the worker's later exit, with no listener
 * left, killed Vitest itself ("Worker exited unexpectedly", 2026-12-07). A load must make the
 * suite slower, never red, so this worker answers `started` to the pool at once and holds the
 * pool's next requests (`run`, `collect`) until the process has really started; it gives up, as
 * an error of the worker, only after `idleMs` of an idle machine's time: the wall-clock time
 * divided by the machine's slowness (test/slowness.ts), asked every half second while it waits, as
 * test/patience.ts counts. Everything else is the forks pool as Vitest has it.
 */
import { ForksPoolWorker, type PoolOptions, type PoolRunnerInitializer, type WorkerRequest } from 'vitest/node';
import { slownessNow } from './slowness.js';

/** A message the worker process sends, as far as this file reads it. */
interface Response {
  __vitest_worker_response__?: boolean;
  type?: string;
  error?: unknown;
}
type Listener = (message: unknown) => void;

function isStarted(m: unknown): m is Response {
  const r = m as Response | null;
  return typeof r === 'object' && r !== null && r.__vitest_worker_response__ === true && r.type === 'started';
}

/** How often the wait for a start asks how slow the machine is. */
const TICK_MS = 500;

/** The pool's name in the config (`pool`), and the worker's. */
export const PATIENT_FORKS = 'patient-forks';

export class PatientForksWorker extends ForksPoolWorker {
  override readonly name: string = PATIENT_FORKS;
  /** The process has answered its `start` (until then the pool's requests wait in `held`). */
  private started = false;
  private held: WorkerRequest[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Idle-machine milliseconds waited for the process's start, and the wall-clock start of the wait. */
  private waitedIdle = 0;
  private waitStart = 0;
  private worst = 1;
  /** The pool's message listeners, each with the wrapper that hides the process's own `started`. */
  private wrappers = new Map<Listener, Listener>();
  private errorListeners = new Set<Listener>();

  constructor(
    options: PoolOptions,
    private readonly idleMs: number,
  ) {
    super(options);
  }

  override on(event: string, callback: Listener): void {
    if (event === 'error') this.errorListeners.add(callback);
    if (event !== 'message') return super.on(event, callback);
    const wrapper: Listener = (message) => {
      if (!isStarted(message)) return callback(message);
      this.onStarted(message);
    };
    this.wrappers.set(callback, wrapper);
    super.on('message', wrapper);
  }

  override off(event: string, callback: Listener): void {
    if (event === 'error') this.errorListeners.delete(callback);
    if (event !== 'message') return super.off(event, callback);
    const wrapper = this.wrappers.get(callback);
    if (wrapper === undefined) return;
    this.wrappers.delete(callback);
    super.off('message', wrapper);
  }

  override send(message: WorkerRequest): void {
    if (message.type === 'start') {
      super.send(message);
      // the pool hears `started` now; the process's own answer is awaited below
      const answer: Response = { __vitest_worker_response__: true, type: 'started' };
      setImmediate(() => {
        for (const listener of [...this.wrappers.keys()]) listener(answer);
      });
      this.waitStart = performance.now();
      let last = this.waitStart;
      this.timer = setInterval(() => {
        const now = performance.now();
        const slowness = slownessNow();
        this.worst = Math.max(this.worst, slowness);
        this.waitedIdle += (now - last) / slowness;
        last = now;
        if (this.waitedIdle < this.idleMs) return;
        const wall = (now - this.waitStart) / 1000;
        this.fail(
          new Error(
            `the test worker process did not start within ${Math.round(this.idleMs / 1000)} s of an idle machine's time (waited ${wall.toFixed(1)} s, the machine ${this.worst.toFixed(1)}× slower than idle at worst)`,
          ),
        );
      }, TICK_MS);
      return;
    }
    // the process answers its `start` before it reads a test file; other messages (birpc's
    // answers to the process's own calls, `stop`) go at once
    if (!this.started && (message.type === 'run' || message.type === 'collect')) {
      this.held.push(message);
      return;
    }
    super.send(message);
  }

  override async stop(): Promise<void> {
    clearInterval(this.timer);
    this.held = [];
    return super.stop();
  }

  private onStarted(message: Response): void {
    if (this.started) return;
    this.started = true;
    clearInterval(this.timer);
    if (message.error !== undefined) {
      const e = message.error as { message?: string };
      this.fail(new Error(`the test worker process failed to start: ${e.message ?? String(message.error)}`));
      return;
    }
    const held = this.held;
    this.held = [];
    for (const m of held) super.send(m);
  }

  private fail(error: Error): void {
    clearInterval(this.timer);
    this.held = [];
    for (const listener of [...this.errorListeners]) listener(error);
  }
}

/** The pool for vitest.config.ts's `pool`: the forks pool, patient for `idleMs` of idle-machine time (see above). */
export function patientForks(idleMs: number): PoolRunnerInitializer {
  return { name: PATIENT_FORKS, createPoolWorker: (options) => new PatientForksWorker(options, idleMs) };
}
