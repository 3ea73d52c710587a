/**
 * The engine side of the GUI server: one engine process, spawned from the server's command line,
 * driven by one page at a time (the server gives each page an engine of its own:
 * src/gui/engines.ts). The bridge
 *  - runs the `uci` handshake once and replays it to the page;
 *  - counts searches (`go` sent, `bestmove` received) so that when a page goes away mid-search it
 *    sends `stop` and swallows that search's remaining output, leaving the engine idle and ready;
 *  - forwards only the engine lines to the page that owns the engine now;
 *  - puts the engine back as its handshake left it when a page lets go of it ({@link EngineBridge.reset}),
 *    so that it can serve the next page;
 *  - gives the engine no more `Threads` than its share of full strength ({@link EngineBridge.setShare}):
 *    a page's `setoption name Threads` is what it wants, the engine gets the smaller of that and the
 *    share, again whenever the share changes (the engine applies it once a running search ends).
 */
import { parseBestmove } from '../core/bestmove-line';
import { parseOptionLine, type DeclaredOption } from '../core/option-line';
import { type ForeignProtocol, engineChild, knownDialect } from '../foreign/foreign';
import type { LineChild } from '../process/child';
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
   * Another engine's protocol: it is spoken to through its translator (src/foreign), which reads
   * its moves under the dialect of its known engines; the page plays Thoth's rules (docs/gui.md).
   */
  proto?: ForeignProtocol;
  /**
   * How long each step of the handshake may take: `uci` to `uciok`, then (after `Threads` and
   * `Hash`, which may allocate and start threads) `isready` to `readyok`. Default
   * {@link DEFAULT_HANDSHAKE_MS}.
   */
  handshakeMs?: number;
  /** Receives a copy of the protocol traffic (`> cmd`, `< line`), for debugging. */
  log?: (s: string) => void;
  /** Full strength: `Threads` and `Hash` set after the handshake when the engine declares them. */
  strength?: FullStrength;
  /** The engine's number among the server's, which starts each of its lines in `log`. */
  id?: number;
}

/** How long each step of the handshake may take unless told (`thoth gui --start-timeout`). */
export const DEFAULT_HANDSHAKE_MS = 30_000;

export class EngineBridge {
  state: EngineState = 'starting';
  /** The engine's answer to `uci`, up to and including `uciok`. */
  handshake: string[] = [];
  /** Why the engine failed or exited, for people. */
  message = '';
  /** The start failed because a step of the handshake took longer than `handshakeMs`. */
  timedOut = false;
  /** Searches started and not yet answered by `bestmove`. */
  outstanding = 0;
  /** `bestmove`s still to come from searches whose page went away: their output is dropped. */
  orphans = 0;
  /** What of `strength` the engine took (the options it declares), for the pages. */
  private took: FullStrength | undefined;
  /** The most `Threads` this engine may have now (its share of full strength); none: no limit. */
  private share: number | undefined;
  /** `Threads` as the page last asked (full strength until it asks). */
  private threadsWanted = 0;
  /** `Threads` as the engine was last told. */
  private threadsSent = 0;
  /** The options the page set (by name, in lower case: its last value), put back by {@link reset}. */
  private readonly pageSet = new Map<string, string>();
  private proc: LineChild | null = null;
  private client: BridgeClient | null = null;
  private queue: string[] = [];
  private inHandshake = false;
  private waitingReady = false;
  private readonly listeners = new Set<(line: string) => void>();
  private timer: NodeJS.Timeout | null = null;
  /** Called once the engine started leaves 'starting' (ready or failed). */
  private settleWaiters: ((state: EngineState) => void)[] = [];

  constructor(private readonly opts: BridgeOptions) {}

  /** The engine's number among the server's (0 when alone). */
  get id(): number {
    return this.opts.id ?? 0;
  }

  private log(s: string): void {
    this.opts.log?.(this.opts.id === undefined ? s : `engine ${this.opts.id} ${s}`);
  }

  get commandText(): string {
    return formatCommandLine(this.opts.command);
  }

  /**
   * Full strength as this engine has it now, for the page: the `Threads` and `Hash` it took (the
   * options it declares), the threads cut to its share.
   */
  get strength(): FullStrength | undefined {
    if (!this.took) return undefined;
    return { ...this.took, threads: this.cap(this.took.threads) };
  }

  private cap(threads: number): number {
    return this.share === undefined ? threads : Math.max(1, Math.min(threads, this.share));
  }

  /**
   * Sets the most `Threads` this engine may have (its share of the machine's full strength), and
   * tells the engine at once when that changes what it has: a running search keeps its threads
   * until it ends (the protocol holds a `setoption` until then).
   */
  setShare(threads: number): void {
    this.share = threads;
    if (this.state === 'ready') this.sendThreads();
  }

  /** Sends `setoption name Threads` when what the engine has differs from what the page wants, capped. */
  private sendThreads(): void {
    if (!this.took) return;
    const n = this.cap(this.threadsWanted);
    if (n === this.threadsSent) return;
    this.threadsSent = n;
    this.write(`setoption name Threads value ${n}`);
  }

  /** Starts the engine (again, after it exited or failed). */
  start(): void {
    if (this.proc) return;
    this.state = 'starting';
    this.handshake = [];
    this.message = '';
    this.timedOut = false;
    this.outstanding = 0;
    this.orphans = 0;
    const proto = this.opts.proto;
    const proc = engineChild(
      this.opts.command,
      { cwd: this.opts.cwd },
      proto,
      proto && { ...knownDialect(proto), turnedScarabs: false },
    );
    this.proc = proc;
    const stderr = new StderrLines();
    proc.onLine = (line) => this.onLine1(line);
    proc.onStderr = (d) => {
      stderr.push(d);
      this.log(`! ${d.trimEnd()}`);
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
    const ms = this.opts.handshakeMs ?? DEFAULT_HANDSHAKE_MS;
    this.timer = setTimeout(() => {
      if (this.state !== 'starting') return;
      this.timedOut = true;
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
    this.log(message);
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
   * Makes the engine, which a page has let go of, as it was after its handshake for the next page:
   * every option the page set back to the default the engine declared (`Threads` and `Hash` to
   * full strength), the table cleared (`Clear Hash` when declared) and `ucinewgame`. A search the
   * page left running was stopped by {@link release}; its output is still dropped.
   */
  reset(): void {
    if (this.client || this.state !== 'ready') return;
    const declared = new Map<string, DeclaredOption>();
    for (const l of this.handshake) {
      const o = parseOptionLine(l);
      if (o) declared.set(o.name.toLowerCase(), o);
    }
    for (const name of this.pageSet.keys()) {
      const o = declared.get(name);
      if (!o || name === 'threads' || name === 'clear hash') continue;
      const value = name === 'hash' && this.took?.hashMb !== undefined ? String(this.took.hashMb) : o.default;
      if (value !== undefined && o.type !== 'button') this.write(`setoption name ${o.name} value ${value}`);
    }
    this.pageSet.clear();
    if (this.took) {
      this.threadsWanted = this.took.threads;
      this.sendThreads();
    }
    if (declared.get('clear hash')?.type === 'button') this.write(`setoption name ${declared.get('clear hash')?.name}`);
    this.write('ucinewgame');
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
    this.log("restarting the engine at the page's request");
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
    const option = /^setoption name (.+?)(?: value (.*))?$/i.exec(line);
    if (option) this.pageSet.set(option[1].toLowerCase(), option[2] ?? '');
    const threads = /^setoption name threads value (\d+)$/i.exec(line);
    if (threads && this.took) {
      this.threadsWanted = Number(threads[1]);
      this.sendThreads();
      return;
    }
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
    this.log(`> ${line}`);
    this.proc.send(line);
  }

  private onLine1(line: string): void {
    this.log(`< ${line}`);
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
    if (parseBestmove(line)) {
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
    this.took = undefined;
    this.threadsSent = 0;
    const want = this.opts.strength;
    if (!want) return;
    const declared = (name: string): boolean =>
      this.handshake.some((l) => new RegExp(`^option\\s+name\\s+${name}\\s+type\\s`, 'i').test(l));
    if (!declared('Threads')) return;
    this.took = { threads: want.threads };
    this.threadsWanted = want.threads;
    this.sendThreads();
    if (want.hashMb !== undefined && declared('Hash')) {
      this.write(`setoption name Hash value ${want.hashMb}`);
      this.took.hashMb = want.hashMb;
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
    if (!proc) {
      this.settle();
      return;
    }
    // A search nobody stopped yet (a page that went away had its own stopped by release()).
    if (this.outstanding > this.orphans) this.write('stop');
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
    this.settle();
  }
}
