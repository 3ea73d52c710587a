/**
 * An engine as a child process speaking the UCI-like protocol over stdin/stdout, line by line.
 * The runner never trusts it: every wait has a timeout and ends early when the process exits or
 * the run is aborted.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { basename } from 'node:path';
import type { SearchLimits } from './timecontrol';

export interface EngineSpec {
  /** The name in records and tables (from `name=`, else the engine's `id name`, else the command). */
  name: string;
  /** True when the name was given with `name=` (else it is taken from `id name` on start-up). */
  nameGiven: boolean;
  cmd: string;
  args: string[];
  /** Working directory (`dir=`). */
  dir?: string;
  /** `option.X=Y`, sent as `setoption name X value Y` in order. */
  options: [string, string][];
  limits: SearchLimits;
  /** Time margin in ms: how far past zero a clock may go before the move is a time forfeit. */
  timeMarginMs: number;
}

/** What a wait ended with. */
export type WaitResult =
  | { kind: 'line'; line: string }
  | { kind: 'timeout' }
  | { kind: 'exit'; code: number | null; signal: string | null }
  | { kind: 'aborted' };

interface Waiter {
  match: (line: string) => boolean;
  resolve: (r: WaitResult) => void;
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
  signal?: AbortSignal;
}

/** Every live engine process, so that they can all be killed when the runner exits. */
const LIVE = new Set<EngineProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const e of LIVE) e.kill();
  });
}

/** Splits a command line into words: whitespace-separated, with '…' and "…" quoting and \ escapes. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length && (text[i + 1] === '"' || text[i + 1] === '\\')) cur += text[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur !== '') out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has || cur !== '') out.push(cur);
  return out;
}

/** The default name of an engine: the file name of its command (or of its script for `node x.js`). */
export function defaultName(spec: Pick<EngineSpec, 'cmd' | 'args'>): string {
  const words = [...splitWords(spec.cmd), ...spec.args];
  const prog = words[0] ?? 'engine';
  if (/^(node|bun|deno|python3?)$/.test(basename(prog))) {
    const script = words.slice(1).find((w) => /\.(m?js|cjs|ts|py)$/.test(w));
    if (script) return basename(script).replace(/\.(m?js|cjs|ts|py)$/, '');
  }
  return basename(prog);
}

export class EngineProcess {
  private child?: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiters: Waiter[] = [];
  private exitInfo?: { code: number | null; signal: string | null };
  /** Last lines the engine wrote to stderr (for error messages). */
  readonly stderrTail: string[] = [];
  /** Called with every stdout line (for `info` parsing during a search). */
  onLine?: (line: string) => void;
  /** The engine's `id name`, once the handshake has seen it. */
  idName?: string;
  /** `option name X` lines seen in the handshake (names, lower case). */
  readonly optionNames = new Set<string>();

  constructor(readonly spec: EngineSpec) {}

  /** Set by kill(): the process is as good as gone even before its exit event arrives. */
  private killed = false;

  get alive(): boolean {
    return this.child !== undefined && this.exitInfo === undefined && !this.killed;
  }

  get exit(): { code: number | null; signal: string | null } | undefined {
    return this.exitInfo;
  }

  /** A description of how the process ended, e.g. `exit code 3` or `signal SIGKILL`. */
  exitText(): string {
    const e = this.exitInfo;
    if (!e) return this.killed ? 'killed' : 'running';
    return e.signal ? `signal ${e.signal}` : `exit code ${e.code}`;
  }

  /** Starts the process. Failure to spawn shows up as an exit (see {@link exitText}). */
  start(): void {
    installExitHook();
    const words = splitWords(this.spec.cmd);
    const prog = words[0] ?? '';
    const child = spawn(prog, [...words.slice(1), ...this.spec.args], {
      cwd: this.spec.dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group: Ctrl-C in the terminal reaches the runner only, which then ends the
      // engines itself (so a game in progress is not mistaken for a crash).
      detached: process.platform !== 'win32',
    });
    this.child = child;
    LIVE.add(this);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onData(chunk));
    child.stderr.on('data', (chunk: string) => {
      for (const l of chunk.split(/\r?\n/)) {
        if (l.trim() === '') continue;
        this.stderrTail.push(l);
        if (this.stderrTail.length > 20) this.stderrTail.shift();
      }
    });
    child.stdin.on('error', () => {
      /* EPIPE when the engine died: the exit event reports it */
    });
    child.on('error', (e) => {
      this.stderrTail.push(`cannot run '${prog}': ${e.message}`);
      this.onExit(null, null);
    });
    child.on('exit', (code, signal) => this.onExit(code, signal));
  }

  private onExit(code: number | null, signal: string | null): void {
    if (this.exitInfo) return;
    this.exitInfo = { code, signal };
    LIVE.delete(this);
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) this.settle(w, { kind: 'exit', code, signal });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.onLineIn(line);
    }
    if (this.buffer.length > 1 << 20) this.buffer = ''; // a runaway line: drop it
  }

  private onLineIn(raw: string): void {
    const line = raw.trim();
    if (line === '') return;
    this.onLine?.(line);
    const w = this.waiters.find((x) => x.match(line));
    if (w) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      this.settle(w, { kind: 'line', line });
    }
  }

  private settle(w: Waiter, r: WaitResult): void {
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve(r);
  }

  /** Writes one command line (ignored when the process is gone). */
  send(line: string): void {
    if (!this.alive || !this.child) return;
    this.child.stdin.write(line + '\n');
  }

  /**
   * Waits for the first line that `match` accepts (lines before it go to {@link onLine} only),
   * at most `timeoutMs` (undefined = no limit).
   */
  waitFor(match: (line: string) => boolean, timeoutMs: number | undefined, signal?: AbortSignal): Promise<WaitResult> {
    if (this.exitInfo) return Promise.resolve({ kind: 'exit', ...this.exitInfo });
    if (!this.child) return Promise.resolve({ kind: 'exit', code: null, signal: null });
    if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
    return new Promise((resolve) => {
      const w: Waiter = { match, resolve, signal };
      const drop = (r: WaitResult): void => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) {
          this.waiters.splice(i, 1);
          this.settle(w, r);
        }
      };
      if (timeoutMs !== undefined) w.timer = setTimeout(() => drop({ kind: 'timeout' }), Math.max(0, timeoutMs));
      if (signal) {
        w.onAbort = () => drop({ kind: 'aborted' });
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.waiters.push(w);
    });
  }

  /**
   * The handshake: `uci` → `uciok` (collecting `id name` and the options), then the options and
   * the variant, then `isready` → `readyok`. Returns an error text, or undefined when ready.
   */
  async handshake(variant: string, timeoutMs: number, signal?: AbortSignal): Promise<string | undefined> {
    const prev = this.onLine;
    this.onLine = (line) => {
      const id = /^id\s+name\s+(.+)$/.exec(line);
      if (id) this.idName = id[1].trim();
      const opt = /^option\s+name\s+(.+?)\s+type\s/.exec(line);
      if (opt) this.optionNames.add(opt[1].toLowerCase());
    };
    try {
      this.send('uci');
      const r = await this.waitFor((l) => l === 'uciok', timeoutMs, signal);
      if (r.kind === 'aborted') return 'aborted';
      if (r.kind === 'timeout') return `no 'uciok' within ${timeoutMs / 1000} s after 'uci'`;
      if (r.kind === 'exit') return `the process ended (${this.exitText()}) before 'uciok'${this.stderrHint()}`;
      for (const [name, value] of this.spec.options) this.send(`setoption name ${name} value ${value}`);
      if (variant !== 'khet2') this.send(`setoption name UCI_Variant value ${variant}`);
      return await this.ping(timeoutMs, signal);
    } finally {
      this.onLine = prev;
    }
  }

  /** `isready` → `readyok` within `timeoutMs`; returns an error text or undefined. */
  async ping(timeoutMs: number, signal?: AbortSignal): Promise<string | undefined> {
    this.send('isready');
    const r = await this.waitFor((l) => l === 'readyok', timeoutMs, signal);
    if (r.kind === 'line') return undefined;
    if (r.kind === 'aborted') return 'aborted';
    if (r.kind === 'timeout') return `no 'readyok' within ${timeoutMs / 1000} s after 'isready'`;
    return `the process ended (${this.exitText()})${this.stderrHint()}`;
  }

  private stderrHint(): string {
    const t = this.stderrTail.slice(-3).join(' | ');
    return t ? `; stderr: ${t.length > 300 ? t.slice(0, 300) + '…' : t}` : '';
  }

  /** Kills the process (its whole process group) at once. */
  kill(): void {
    const c = this.child;
    if (!c || this.exitInfo) return;
    this.killed = true;
    try {
      if (c.pid !== undefined && process.platform !== 'win32') process.kill(-c.pid, 'SIGKILL');
      else c.kill('SIGKILL');
    } catch {
      try {
        c.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }

  /** Sends `quit` and waits up to `graceMs` for the process to end, then kills it. */
  async quit(graceMs = 500): Promise<void> {
    if (!this.alive) return;
    this.send('quit');
    const r = await this.waitFor(() => false, graceMs);
    if (r.kind !== 'exit') this.kill();
    if (this.alive) await this.waitFor(() => false, 1000);
  }
}
