/**
 * A child process spoken to in lines: an engine run by the tournament runner or by the GUI
 * server. It is started without a shell (program and arguments as given), its stdout is read as
 * lines, commands are written as lines, and its end is reported once, whether it exited, was
 * killed, or could not be started at all. Children still running when Thoth exits are killed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { LineSplitter } from './line-splitter';

export interface ChildOptions {
  /** Working directory. */
  cwd?: string;
  /**
   * Run it in a process group of its own (not on Windows): Ctrl-C in the terminal then reaches
   * Thoth only, which ends the child itself, and {@link LineProcess.kill} ends the whole group.
   */
  ownGroup?: boolean;
}

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started (or failed in Node): the system's message. */
  error?: string;
}

/** `exit code 3`, `signal SIGKILL`, or the start error. */
export function describeExit(e: ChildExit): string {
  if (e.error !== undefined) return e.error;
  return e.signal ? `signal ${e.signal}` : `exit code ${e.code}`;
}

/**
 * What the tournament runner and the GUI server need of an engine's process: a child spoken to
 * in lines (LineProcess), or one behind a translator of its protocol (src/foreign).
 */
export interface LineChild {
  onLine?: (line: string) => void;
  onStderr?: (text: string) => void;
  onExit?: (exit: ChildExit) => void;
  /** Every line written to the process (`>`) and read from it (`<`), as the process sees them. */
  onTraffic?: (direction: '>' | '<', line: string) => void;
  /**
   * When the text of the line being handed to onLine came from the engine (performance.now()):
   * what a referee stops an engine's clock at (LineProcess.lineAt).
   */
  readonly lineAt: number;
  start(): void;
  readonly alive: boolean;
  readonly killed: boolean;
  readonly exit: ChildExit | undefined;
  closed(): Promise<void>;
  send(line: string): void;
  endInput(): void;
  kill(signal?: NodeJS.Signals): void;
}

const LIVE = new Set<LineProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const p of LIVE) p.kill();
  });
}

export class LineProcess implements LineChild {
  /** Each line written to stdout, without its line end. */
  onLine?: (line: string) => void;
  /**
   * When the stdout text of the line being handed to onLine arrived (performance.now(), taken as
   * its chunk is read, before any line of it is handled): what a referee stops an engine's clock at,
   * so that the time this process spends on other work is not charged to the engine.
   */
  lineAt = 0;
  onTraffic?: (direction: '>' | '<', line: string) => void;
  /** Text written to stderr, chunk by chunk as it arrives. */
  onStderr?: (text: string) => void;
  /** Called once, when the process exited, was killed, or could not be started. */
  onExit?: (exit: ChildExit) => void;

  private child?: ChildProcessWithoutNullStreams;
  private exitInfo?: ChildExit;
  private killedFlag = false;
  private closedPromise: Promise<void> = Promise.resolve();

  constructor(
    readonly command: readonly string[],
    readonly options: ChildOptions = {},
  ) {}

  /** Starts the process (once). A failure to start is reported through {@link onExit}, never thrown. */
  start(): void {
    if (this.child || this.exitInfo) return;
    installExitHook();
    const [program, ...args] = this.command;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(program ?? '', args, {
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: this.options.ownGroup === true && process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (e) {
      this.ended({ code: null, signal: null, error: e instanceof Error ? e.message : String(e) });
      return;
    }
    this.child = child;
    LIVE.add(this);
    this.closedPromise = new Promise((resolve) => child.on('close', () => resolve()));
    const lines = new LineSplitter((line) => {
      this.onTraffic?.('<', line);
      this.onLine?.(line);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.lineAt = performance.now();
      lines.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.onStderr?.(chunk));
    child.stdin.on('error', () => {
      /* EPIPE when the child is gone: its exit reports that */
    });
    child.on('error', (e) => this.ended({ code: null, signal: null, error: e.message }));
    child.on('exit', (code, signal) => this.ended({ code, signal }));
  }

  private ended(exit: ChildExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    LIVE.delete(this);
    this.onExit?.(exit);
  }

  /** True from {@link start} until the process ended or was killed. */
  get alive(): boolean {
    return this.child !== undefined && this.exitInfo === undefined && !this.killedFlag;
  }

  /** True once {@link kill} was called (the exit may not have been reported yet). */
  get killed(): boolean {
    return this.killedFlag;
  }

  /** How it ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.exitInfo;
  }

  /** Resolves when the process has ended and its output streams are closed (at once if it never ran). */
  closed(): Promise<void> {
    return this.closedPromise;
  }

  /** Writes one line to its stdin (nothing once it is gone). */
  send(line: string): void {
    if (!this.alive) return;
    this.onTraffic?.('>', line);
    this.child?.stdin.write(line + '\n');
  }

  /** Closes its stdin. */
  endInput(): void {
    this.child?.stdin.end();
  }

  /** Sends a signal (SIGKILL by default) to the process, or to its group when it has its own. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    const c = this.child;
    if (!c || this.exitInfo) return;
    this.killedFlag = true;
    try {
      if (this.options.ownGroup && c.pid !== undefined && process.platform !== 'win32') process.kill(-c.pid, signal);
      else c.kill(signal);
    } catch {
      try {
        c.kill(signal);
      } catch {
        /* already gone */
      }
    }
  }
}
