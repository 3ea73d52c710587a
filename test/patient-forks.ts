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
 * an error of the worker, only after `startMs` (60 s times the machine's measured slowness,
 * test/slowness.ts). Everything else is the forks pool as Vitest has it.
 */
import { ForksPoolWorker, type PoolOptions, type PoolRunnerInitializer, type WorkerRequest } from 'vitest/node';

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

/** The pool's name in the config (`pool`), and the worker's. */
export const PATIENT_FORKS = 'patient-forks';

export class PatientForksWorker extends ForksPoolWorker {
  override readonly name: string = PATIENT_FORKS;
  /** The process has answered its `start` (until then the pool's requests wait in `held`). */
  private started = false;
  private held: WorkerRequest[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The pool's message listeners, each with the wrapper that hides the process's own `started`. */
  private wrappers = new Map<Listener, Listener>();
  private errorListeners = new Set<Listener>();

  constructor(
    options: PoolOptions,
    private readonly startMs: number,
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
      this.timer = setTimeout(
        () =>
          this.fail(
            new Error(
              `the test worker process did not start in ${Math.round(this.startMs / 1000)} s (60 s times the machine's slowness)`,
            ),
          ),
        this.startMs,
      );
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
    clearTimeout(this.timer);
    this.held = [];
    return super.stop();
  }

  private onStarted(message: Response): void {
    if (this.started) return;
    this.started = true;
    clearTimeout(this.timer);
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
    this.held = [];
    for (const listener of [...this.errorListeners]) listener(error);
  }
}

/** The pool for vitest.config.ts's `pool`: the forks pool, patient for `startMs` (see above). */
export function patientForks(startMs: number): PoolRunnerInitializer {
  return { name: PATIENT_FORKS, createPoolWorker: (options) => new PatientForksWorker(options, startMs) };
}
