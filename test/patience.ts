/**
 * Waiting on other processes in tests (an engine's line, a server's address, a command's end) so
 * that a busy machine makes a test slower, never red, and a real hang still fails, with its reason.
 *
 * A wait's bound is given in idle-machine time: how long the event may take on a machine with
 * nothing else to do, with the test's margin. This machine's time is counted in those units by a
 * clock that asks, every half second while a wait runs, how slow the machine is now
 * (test/slowness.ts): ten times slower than idle, a wait of 30 s lasts 300 s. Whatever the
 * bound, a wait ends a few seconds before the test's own timeout (vitest's), so that the test fails
 * with what it waited for instead of vitest's bare "Test timed out": the step, the time waited in
 * wall-clock and idle-machine time, how slow the machine was, and what the process wrote.
 */
import { spawn } from 'node:child_process';
import { TestRunner } from 'vitest';
import { slownessNow } from './slowness';

/** Counts idle-machine milliseconds: wall-clock time divided by the machine's slowness. */
class MachineClock {
  private idle = 0;
  private at = performance.now();
  private factor = 1;
  private timer: NodeJS.Timeout | undefined;
  private readonly watchers = new Set<() => void>();

  /** Idle-machine milliseconds since the clock was made (only differences mean anything). */
  now(): number {
    const t = performance.now();
    this.idle += (t - this.at) / this.factor;
    this.at = t;
    return this.idle;
  }

  /** The slowness of the latest sample. */
  slowness(): number {
    return this.factor;
  }

  private readonly tick = (): void => {
    const f = slownessNow();
    // The time since the last sample counts at the slower of the two samples around it.
    this.factor = Math.max(f, this.factor);
    this.now();
    this.factor = f;
    for (const w of [...this.watchers]) w();
  };

  watch(w: () => void): void {
    this.watchers.add(w);
    this.timer ??= setInterval(this.tick, 500).unref();
  }

  unwatch(w: () => void): void {
    this.watchers.delete(w);
    if (this.watchers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

const clock = new MachineClock();

/** How long before the test's own timeout a wait gives up, so that its message is the one seen. */
function margin(timeoutMs: number): number {
  return Math.max(2000, timeoutMs * 0.05);
}

/** The running test's timeout and the milliseconds left of it (Infinity outside a test: a hook). */
function testTime(): { timeout: number; left: number } {
  const t = TestRunner.getCurrentTest();
  const start = t?.result?.startTime;
  if (!t || start === undefined || !(t.timeout > 0)) return { timeout: Infinity, left: Infinity };
  return { timeout: t.timeout, left: start + t.timeout - Date.now() };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The error of a wait that ran out. */
export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

/**
 * One wait's bound, started when it is made: {@link race} any number of promises against it (a
 * loop that reads lines one by one races each read against the same deadline).
 */
export class Deadline {
  private readonly wallStart = performance.now();
  private readonly idleStart = clock.now();
  private worst = clock.slowness();

  /**
   * @param what the step waited for, as the failure names it: "'uciok' from thoth (after 'uci')"
   * @param idleMs how long it may take on an idle machine; Infinity: bounded by the test's timeout only
   * @param detail what the failure adds: the process's output and stderr, the messages seen
   */
  constructor(
    readonly what: string,
    readonly idleMs: number,
    private readonly detail?: () => string,
  ) {}

  /** The error to fail with, once the bound (or the test's own timeout) is reached; else undefined. */
  expired(): WaitTimeout | undefined {
    this.worst = Math.max(this.worst, clock.slowness());
    const idle = clock.now() - this.idleStart;
    const test = testTime();
    const nearTestTimeout = Number.isFinite(test.left) && test.left <= margin(test.timeout);
    if (idle < this.idleMs && !nearTestTimeout) return undefined;
    const wall = performance.now() - this.wallStart;
    const bound = Number.isFinite(this.idleMs) ? `within ${seconds(this.idleMs)} of an idle machine's time` : '';
    const why = nearTestTimeout
      ? `the test's own timeout of ${seconds(test.timeout)} is near${bound ? ` (the bound: ${bound})` : ''}`
      : bound;
    const speed = `the machine ${Math.max(1, wall / Math.max(idle, 1)).toFixed(1)}× slower than idle on average, ${this.worst.toFixed(1)}× at worst`;
    const more = this.detail?.() ?? '';
    return new WaitTimeout(
      `waited ${seconds(wall)} for ${this.what}, in vain: ${why}; ${speed}${more ? `\n${more}` : ''}`,
    );
  }

  /** `p`, unless the deadline comes first: then a {@link WaitTimeout} (after `onTimeout`, e.g. a kill). */
  race<T>(p: Promise<T>, onTimeout?: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = (): void => {
        const e = this.expired();
        if (!e) return;
        clock.unwatch(check);
        onTimeout?.();
        reject(e);
      };
      clock.watch(check);
      p.then(
        (v) => {
          clock.unwatch(check);
          resolve(v);
        },
        (e: unknown) => {
          clock.unwatch(check);
          reject(e);
        },
      );
      check();
    });
  }
}

/**
 * Times an interval in wall-clock and idle-machine time, for a test that judges how long something
 * took (a search's lateness past its movetime) against the machine's own speed, not a constant.
 */
export class Stopwatch {
  private readonly wallStart = performance.now();
  private readonly idleStart = clock.now();
  private readonly keep = (): void => {};

  constructor() {
    clock.watch(this.keep);
  }

  /** Stops the watch: the wall-clock and idle-machine milliseconds since it started. */
  stop(): { wallMs: number; idleMs: number } {
    clock.unwatch(this.keep);
    return { wallMs: performance.now() - this.wallStart, idleMs: clock.now() - this.idleStart };
  }
}

/** `p` within `idleMs` of idle-machine time (see {@link Deadline}). */
export function patiently<T>(what: string, idleMs: number, p: Promise<T>, detail?: () => string): Promise<T> {
  return new Deadline(what, idleMs, detail).race(p);
}

/** Resolves once `cond()` holds (asked every 25 ms), within `idleMs` of idle-machine time. */
export function until(what: string, idleMs: number, cond: () => boolean, detail?: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const held = new Promise<void>((resolve) => {
    const ask = (): void => {
      if (cond()) resolve();
      else timer = setTimeout(ask, 25);
    };
    ask();
  });
  return patiently(what, idleMs, held, detail).finally(() => clearTimeout(timer));
}

/** The last `n` characters of a process's stream, for a failure message. */
export function tail(s: string, n = 2000): string {
  return s.length <= n ? s : `…${s.slice(-n)}`;
}

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/**
 * Runs `argv[0] argv[1…]` to its end, its output collected. Past `idleMs` of idle-machine time (or
 * near the test's own timeout) it is killed and the wait fails, naming the command with its output
 * and stderr so far.
 */
export function runProcess(
  argv: string[],
  opts: { cwd?: string; idleMs?: number; input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessRun> {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  if (opts.input !== undefined) {
    child.stdin?.on('error', () => {
      /* a command that exits before reading its input */
    });
    child.stdin?.end(opts.input);
  }
  const ended = new Promise<ProcessRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
  const what = `the end of \`${argv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\``;
  return patiently(what, opts.idleMs ?? Infinity, ended, () => `output: ${tail(out)}\nstderr: ${tail(err)}`).catch(
    (e: unknown) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      throw e;
    },
  );
}
