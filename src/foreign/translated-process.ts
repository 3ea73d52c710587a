/**
 * An engine that speaks another protocol, behind a translator: to its user (the tournament runner,
 * the GUI server) it is a child speaking Thoth's protocol. Lines the translator answers itself
 * are delivered after the call that caused them returns, in order with the engine's own lines,
 * so that a caller who sends and then waits hears them. The traffic hook sees the engine's own
 * lines, as written and read.
 */
import { performance } from 'node:perf_hooks';
import { type ChildExit, type ChildOptions, type LineChild, LineProcess } from '../process/child';
import type { Translator } from './translator';

export class TranslatedProcess implements LineChild {
  onLine?: (line: string) => void;
  onStderr?: (text: string) => void;
  onExit?: (exit: ChildExit) => void;
  onTraffic?: (direction: '>' | '<', line: string) => void;
  /** When the line being delivered came: its engine line's arrival, or the call the translator answered. */
  lineAt = 0;
  private readonly inner: LineProcess;
  /** Lines to deliver, each with when it came (so that the wait for delivery is not the engine's). */
  private readonly queue: { line: string; at: number }[] = [];
  private flushing = false;
  private stopTimer?: NodeJS.Timeout;

  constructor(
    command: readonly string[],
    options: ChildOptions,
    readonly translator: Translator,
  ) {
    this.inner = new LineProcess(command, options);
  }

  start(): void {
    const inner = this.inner;
    inner.onTraffic = (d, line) => this.onTraffic?.(d, line);
    inner.onLine = (line) => {
      for (const out of this.translator.fromEngine(line)) {
        if (out.startsWith('bestmove')) this.clearStop();
        this.deliver(out, inner.lineAt);
      }
    };
    inner.onStderr = (text) => this.onStderr?.(text);
    inner.onExit = (e) => {
      this.clearStop();
      this.onExit?.(e);
    };
    inner.start();
  }

  /** A line to the user: after the current call, in order. */
  private deliver(line: string, at: number): void {
    this.queue.push({ line, at });
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      for (let q = this.queue.shift(); q !== undefined; q = this.queue.shift()) {
        this.lineAt = q.at;
        this.onLine?.(q.line);
      }
    });
  }

  private clearStop(): void {
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.stopTimer = undefined;
  }

  get alive(): boolean {
    return this.inner.alive;
  }
  get killed(): boolean {
    return this.inner.killed;
  }
  get exit(): ChildExit | undefined {
    return this.inner.exit;
  }
  closed(): Promise<void> {
    return this.inner.closed();
  }

  send(line: string): void {
    if (!this.alive) return;
    const t = this.translator.fromThoth(line);
    const cmd = line.trim().split(/\s+/)[0];
    if (cmd === 'stop' || cmd === 'quit') this.clearStop();
    for (const l of t.toEngine) this.inner.send(l);
    for (const l of t.toThoth) this.deliver(l, performance.now());
    if (t.stopAfterMs !== undefined) {
      this.clearStop();
      this.stopTimer = setTimeout(() => {
        this.stopTimer = undefined;
        for (const l of this.translator.fromThoth('stop').toEngine) this.inner.send(l);
      }, t.stopAfterMs);
    }
  }

  /** A line straight to the engine, in its own protocol (the fingerprint's named setups). */
  sendRaw(line: string): void {
    this.inner.send(line);
  }

  endInput(): void {
    this.inner.endInput();
  }

  kill(signal?: NodeJS.Signals): void {
    this.clearStop();
    this.inner.kill(signal);
  }
}
