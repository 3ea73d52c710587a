/**
 * The engine side of the GUI server: one engine process, spawned from the server's command line,
 * shared by the pages. Only one page (the newest) drives it at a time. The bridge
 *  - runs the `uci` handshake once and replays it to every page that connects;
 *  - counts searches (`go` sent, `bestmove` received) so that when a page goes away mid-search it
 *    sends `stop` and swallows that search's remaining output, leaving the engine idle and ready;
 *  - forwards only the engine lines to the page that owns the engine now.
 */
import { LineProcess } from '../process/child';
import { formatCommandLine } from '../process/command-line';
import { StderrLines } from '../process/stderr';
import type { EngineState, FullStrength } from './messages';

export interface BridgeClient {
  /** Delivers one engine line. */
  line(text: string): void;
  /** The engine's state or handshake changed. */
  state(): void;
}

export interface BridgeOptions {
  /** Program and arguments. */
  command: string[];
  /** Working directory of the engine. */
  cwd?: string;
  /**
   * How long each step of the handshake may take, in ms: `uci` to `uciok`, then (after `Threads`
   * and `Hash`, which may allocate and start threads) `isready` to `readyok`. Default
   * {@link HANDSHAKE_MS}; 0 waits as long as the engine takes (`thoth gui --handshake-timeout`).
   */
  handshakeMs?: number;
  /** Receives a copy of the protocol traffic (`> cmd`, `< line`), for debugging. */
  log?: (s: string) => void;
  /** Full strength: `Threads` and `Hash` set after the handshake when the engine declares them. */
  strength?: FullStrength;
}

/** The default budget of each step of the engine's handshake (ms). */
export const HANDSHAKE_MS = 10_000;

export class EngineBridge {
  state: EngineState = 'starting';
  /** The engine's answer to `uci`, up to and including `uciok`. */
  handshake: string[] = [];
  /** Why the engine failed or exited, for people. */
  message = '';
  /** Searches started and not yet answered by `bestmove`. */
  outstanding = 0;
  /** `bestmove`s still to come from searches whose page went away: their output is dropped. */
  orphans = 0;
  /** What of `strength` the engine took (the options it declares), for the pages. */
  strength: FullStrength | undefined;
  private proc: LineProcess | null = null;
  private client: BridgeClient | null = null;
  private queue: string[] = [];
  private inHandshake = false;
  private waitingReady = false;
  private readonly listeners = new Set<(line: string) => void>();
  private timer: NodeJS.Timeout | null = null;
  /** Called once the engine started leaves 'starting' (ready or failed). */
  private settleWaiters: ((state: EngineState) => void)[] = [];

  constructor(private readonly opts: BridgeOptions) {}

  get commandText(): string {
    return formatCommandLine(this.opts.command);
  }

  /** Starts the engine (again, after it exited or failed). */
  start(): void {
    if (this.proc) return;
    this.state = 'starting';
    this.handshake = [];
    this.message = '';
    this.outstanding = 0;
    this.orphans = 0;
    const proc = new LineProcess(this.opts.command, { cwd: this.opts.cwd });
    this.proc = proc;
    const stderr = new StderrLines();
    proc.onLine = (line) => this.onLine1(line);
    proc.onStderr = (d) => {
      stderr.push(d);
      this.opts.log?.(`! ${d.trimEnd()}`);
    };
    proc.onExit = async (e) => {
      if (this.proc !== proc) return;
      this.proc = null;
      if (e.error !== undefined) {
        this.fail(`cannot start the engine (${this.commandText}): ${e.error}`);
        return;
      }
      const why = e.signal ? `signal ${e.signal}` : `code ${e.code}`;
      if (this.state === 'starting') {
        // Its last words first (the line that says why, not the tail of a stack trace).
        await Promise.race([proc.closed(), new Promise((r) => setTimeout(r, 1000))]);
        const line = stderr.meaningful();
        this.fail(
          `the engine exited during the handshake (${why}; command: ${this.commandText})${line !== undefined ? `: ${line}` : ''}`,
        );
      } else {
        this.state = 'exited';
        this.message = `the engine exited (${why})`;
        this.clearTimer();
        this.client?.state();
      }
    };
    proc.start();
    if (this.proc !== proc) return; // it could not be started
    this.inHandshake = true;
    this.write('uci');
    this.startTimer(`did not answer 'uci' with 'uciok'`);
  }

  /** Fails the start unless the handshake's next step ends within `handshakeMs`. */
  private startTimer(what: string): void {
    this.clearTimer();
    const ms = this.opts.handshakeMs ?? HANDSHAKE_MS;
    if (ms === 0) return;
    this.timer = setTimeout(() => {
      if (this.state !== 'starting') return;
      this.fail(`the engine ${what} within ${ms} ms (command: ${this.commandText})`);
      this.proc?.kill('SIGTERM');
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private fail(message: string): void {
    this.clearTimer();
    this.state = 'failed';
    this.message = message;
    this.opts.log?.(message);
    this.client?.state();
    this.settle();
  }

  private settle(): void {
    const ws = this.settleWaiters;
    this.settleWaiters = [];
    for (const w of ws) w(this.state);
  }

  /** Resolves with the state once the engine has started ('ready') or failed to. */
  settled(): Promise<EngineState> {
    if (this.state !== 'starting') return Promise.resolve(this.state);
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  /** Makes `c` the page that drives the engine; returns the page it replaced. */
  attach(c: BridgeClient): BridgeClient | null {
    const old = this.client;
    if (old && old !== c) this.release(old);
    this.client = c;
    if (!this.proc && (this.state === 'exited' || this.state === 'failed')) this.start();
    return old && old !== c ? old : null;
  }

  /** The page went away: stop its search and forget it. */
  release(c: BridgeClient): void {
    if (this.client !== c) return;
    this.client = null;
    this.queue = this.queue.filter((l) => !l.startsWith('go'));
    if (this.outstanding > 0) {
      this.orphans = this.outstanding;
      this.write('stop');
    }
  }

  /**
   * Ends the engine at once and starts it again, for the page `c` that drives it (the engine
   * stopped answering). The page gets the new handshake when it is ready.
   */
  restart(c: BridgeClient): void {
    if (this.client !== c) return;
    const proc = this.proc;
    this.proc = null;
    this.clearTimer();
    this.queue = [];
    proc?.kill('SIGKILL');
    this.opts.log?.("restarting the engine at the page's request");
    this.start();
    c.state();
  }

  /** Sends one (already filtered) command from the page `c`. */
  send(c: BridgeClient, line: string): void {
    if (this.client !== c) return;
    if (line === 'uci') {
      // Answered from the handshake, so the engine is not disturbed.
      for (const l of this.handshake) c.line(l);
      return;
    }
    if (this.state === 'starting') {
      this.queue.push(line);
      return;
    }
    if (this.state !== 'ready') return;
    if (line.startsWith('go')) this.outstanding++;
    this.write(line);
  }

  /** Calls `f` with every line the engine writes (tests and logging). */
  onLine(f: (line: string) => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  private write(line: string): void {
    if (!this.proc) return;
    this.opts.log?.(`> ${line}`);
    this.proc.send(line);
  }

  private onLine1(line: string): void {
    this.opts.log?.(`< ${line}`);
    for (const f of this.listeners) f(line);
    const first = line.trim().split(/\s+/)[0];
    if (this.inHandshake) {
      if (first === 'id' || first === 'option' || first === 'uciok') this.handshake.push(line.trim());
      if (first === 'uciok') {
        this.inHandshake = false;
        this.waitingReady = true;
        this.setUpStrength();
        this.write('isready');
        this.startTimer(`answered 'uciok' but not 'isready' with 'readyok'`);
      }
      return;
    }
    if (this.waitingReady && first === 'readyok') {
      this.waitingReady = false;
      this.clearTimer();
      this.state = 'ready';
      this.client?.state();
      this.settle();
      const q = this.queue;
      this.queue = [];
      for (const l of q) if (this.client) this.send(this.client, l);
      return;
    }
    if (first === 'bestmove') {
      if (this.outstanding > 0) this.outstanding--;
      if (this.orphans > 0) {
        this.orphans--;
        return;
      }
    } else if (this.orphans > 0 && first === 'info') {
      return; // the output of a search nobody watches any more
    }
    this.client?.line(line);
  }

  /** Sets `Threads` and `Hash` for full strength, each only when the engine declares it. */
  private setUpStrength(): void {
    this.strength = undefined;
    const want = this.opts.strength;
    if (!want) return;
    const declared = (name: string): boolean =>
      this.handshake.some((l) => new RegExp(`^option\\s+name\\s+${name}\\s+type\\s`, 'i').test(l));
    if (!declared('Threads')) return;
    this.write(`setoption name Threads value ${want.threads}`);
    this.strength = { threads: want.threads };
    if (want.hashMb !== undefined && declared('Hash')) {
      this.write(`setoption name Hash value ${want.hashMb}`);
      this.strength.hashMb = want.hashMb;
    }
  }

  /** Resolves when the engine has answered `readyok` (or at once when it is not running). */
  ping(timeoutMs = 5000): Promise<boolean> {
    if (!this.proc || this.state !== 'ready') return Promise.resolve(false);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        off();
        resolve(false);
      }, timeoutMs);
      const off = this.onLine((l) => {
        if (l.trim() === 'readyok') {
          clearTimeout(t);
          off();
          resolve(true);
        }
      });
      this.write('isready');
    });
  }

  /** Ends the engine: `stop` and `quit`, then a kill if it lingers. */
  async close(graceMs = 1000): Promise<void> {
    this.clearTimer();
    this.client = null;
    const proc = this.proc;
    if (!proc) return;
    if (this.outstanding > 0) this.write('stop');
    this.write('quit');
    proc.endInput();
    const exited = proc.closed();
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs));
    if ((await Promise.race([exited, timer])) === 'timeout') {
      proc.kill('SIGTERM');
      const t2 = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs));
      if ((await Promise.race([exited, t2])) === 'timeout') proc.kill('SIGKILL');
    }
    this.proc = null;
    this.state = 'exited';
  }
}
