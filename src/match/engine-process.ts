/**
 * An engine as a child process speaking the UCI-like protocol over stdin/stdout, line by line.
 * The runner never trusts it: every wait has a timeout and ends early when the process exits or
 * the run is aborted.
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { THOTH_DIALECT, type Dialect, formatDialect } from '../core/dialect';
import { shorten } from '../core/quote';
import { type ForeignProtocol, PROTOCOLS, TranslatedProcess, type Translator, engineChild } from '../foreign/foreign';
import { type LineChild, describeExit } from '../process/child';
import { formatCommandLine } from '../process/command-line';
import { StderrLines } from '../process/stderr';
import { checkOption, parseOptionLine, type DeclaredOption } from './engine-options';
import type { EngineLimits } from './timecontrol';

export interface EngineSpec {
  /** The name in records and tables (from `name=`, else the engine's `id name`, else the command). */
  name: string;
  /** True when the name was given with `name=` (else it is taken from `id name` on start-up). */
  nameGiven: boolean;
  /** The program and its arguments (`cmd=` split like a shell would, then `args=`). */
  command: string[];
  /** Working directory (`dir=`). */
  dir?: string;
  /** `option.X=Y`, sent as `setoption name X value Y` in order. */
  options: [string, string][];
  limits: EngineLimits;
  /** Time margin in ms: how far past zero a clock may go before the move is a time forfeit. */
  timeMarginMs: number;
  /** `proto=`: another engine's protocol, spoken through a translator (src/foreign); absent: Thoth's. */
  proto?: ForeignProtocol;
  /** `ponder=true`: the engine thinks on its opponent's time (`go ponder`, `ponderhit`), its `Ponder` option set. */
  ponder?: boolean;
}

/**
 * The options that make an engine of Thoth's protocol play a dialect (docs/rules.md §3.1): those
 * of the switches that change the game.
 */
function dialectOptions(d: Dialect | undefined): [string, string][] {
  if (d === undefined) return [];
  const out: [string, string][] = [];
  if (d.pharaohRotation) out.push(['PharaohRotation', 'true']);
  if (d.swapOntoReserved) out.push(['SwapOntoReserved', 'true']);
  if (d.swapSphinx) out.push(['SwapWithSphinx', 'true']);
  return out;
}

/** What a wait ended with. */
export type WaitResult =
  /** `at`: when its text arrived (performance.now(): LineProcess.lineAt). */
  | { kind: 'line'; line: string; at: number }
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

/** The default name of an engine: the file name of its program (or of its script for `node x.js`). */
export function defaultName(command: readonly string[]): string {
  const prog = command[0] ?? 'engine';
  if (/^(node|bun|deno|python3?)$/.test(basename(prog))) {
    const script = command.slice(1).find((w) => /\.(m?js|cjs|ts|py)$/.test(w));
    if (script) return basename(script).replace(/\.(m?js|cjs|ts|py)$/, '');
  }
  return basename(prog);
}

/** An `option.X=Y` the engine does not have or refuses. */
export interface OptionProblem {
  option: string;
  value: string;
  /** Why, in words. */
  text: string;
}

export class EngineProcess {
  private proc?: LineChild;
  /** Every line to and from the process (`-log`), as the process sees them. */
  onTraffic?: (direction: '>' | '<', line: string) => void;
  private waiters: Waiter[] = [];
  /** The first and last lines the engine wrote to stderr (for error messages). */
  readonly stderr = new StderrLines();
  /** Called with every stdout line (for `info` parsing during a search). */
  onLine?: (line: string) => void;
  /** The engine's `id name`, once the handshake has seen it. */
  idName?: string;
  /** `option name X` lines seen in the handshake (names, lower case). */
  readonly optionNames = new Set<string>();
  /** The options declared in the handshake, by lower-case name. */
  readonly declared = new Map<string, DeclaredOption>();

  /** `rules`: the dialect of the games (a translator reads moves under it; an engine of Thoth's protocol is set to it). */
  constructor(
    readonly spec: EngineSpec,
    readonly rules?: Dialect,
  ) {}

  get alive(): boolean {
    return this.proc?.alive ?? false;
  }

  get exit(): { code: number | null; signal: string | null } | undefined {
    const e = this.proc?.exit;
    return e && { code: e.code, signal: e.signal };
  }

  /** The command line, for messages. */
  get commandText(): string {
    return formatCommandLine(this.spec.command);
  }

  /** A description of how the process ended, e.g. `exit code 3` or `signal SIGKILL`. */
  exitText(): string {
    const e = this.proc?.exit;
    if (!e) return this.proc?.killed ? 'killed' : 'running';
    return describeExit(e);
  }

  /** Starts the process. Failure to start shows up as an exit (see {@link exitText}). */
  start(): void {
    // Own process group: Ctrl-C in the terminal reaches the runner only, which then ends the
    // engines itself (so a game in progress is not mistaken for a crash).
    const proc = engineChild(
      this.spec.command,
      { cwd: this.spec.dir, ownGroup: true },
      this.spec.proto,
      this.rules ?? THOTH_DIALECT,
    );
    this.proc = proc;
    proc.onTraffic = (d, line) => this.onTraffic?.(d, line);
    proc.onLine = (line) => this.onLineIn(line);
    proc.onStderr = (chunk) => this.stderr.push(chunk);
    proc.onExit = (e) => {
      const ws = this.waiters;
      this.waiters = [];
      for (const w of ws) this.settle(w, { kind: 'exit', code: e.code, signal: e.signal });
    };
    proc.start();
  }

  private onLineIn(raw: string): void {
    const line = raw.trim();
    if (line === '') return;
    this.onLine?.(line);
    const w = this.waiters.find((x) => x.match(line));
    if (w) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      this.settle(w, { kind: 'line', line, at: this.proc?.lineAt ?? performance.now() });
    }
  }

  private settle(w: Waiter, r: WaitResult): void {
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve(r);
  }

  /**
   * The translator of an engine of another protocol, and a way to write to it in its own protocol
   * (fingerprint.ts); undefined for an engine of Thoth's protocol.
   */
  get foreign(): { translator: Translator; sendRaw: (line: string) => void } | undefined {
    const p = this.proc;
    return p instanceof TranslatedProcess ? { translator: p.translator, sendRaw: (l) => p.sendRaw(l) } : undefined;
  }

  /** Writes one command line (ignored when the process is gone). */
  send(line: string): void {
    this.proc?.send(line);
  }

  /**
   * Waits for the first line that `match` accepts (lines before it go to {@link onLine} only),
   * at most `timeoutMs` (undefined = no limit).
   */
  waitFor(match: (line: string) => boolean, timeoutMs: number | undefined, signal?: AbortSignal): Promise<WaitResult> {
    const exit = this.exit;
    if (exit) return Promise.resolve({ kind: 'exit', ...exit });
    if (!this.proc) return Promise.resolve({ kind: 'exit', code: null, signal: null });
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
   * the variant, then `isready` → `readyok`. Returns an error text, or undefined when ready. An
   * `option.X` the engine does not declare, or a value outside what it declares, or one it answers
   * with `info string error: …` is an {@link OptionProblem} (nothing is sent after it).
   */
  async handshake(
    variant: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<string | OptionProblem | undefined> {
    const prev = this.onLine;
    this.onLine = (line) => {
      const id = /^id\s+name\s+(.+)$/.exec(line);
      if (id) this.idName = id[1].trim();
      const opt = parseOptionLine(line);
      if (opt) {
        this.optionNames.add(opt.name.toLowerCase());
        this.declared.set(opt.name.toLowerCase(), opt);
      }
    };
    try {
      this.send('uci');
      const r = await this.waitFor((l) => l === 'uciok', timeoutMs, signal);
      if (r.kind === 'aborted') return 'aborted';
      if (r.kind === 'timeout')
        return this.spec.proto !== undefined
          ? `no answer to the ${PROTOCOLS[this.spec.proto].label} handshake (${PROTOCOLS[this.spec.proto].handshake}) within ${timeoutMs / 1000} s`
          : `no 'uciok' within ${timeoutMs / 1000} s after 'uci'`;
      if (r.kind === 'exit') {
        await this.drained();
        return this.endText(" before 'uciok'");
      }
      // an engine of Thoth's protocol is set to the dialect of the games
      const rules = this.spec.proto === undefined ? dialectOptions(this.rules) : [];
      if (this.spec.ponder && this.declared.has('ponder')) rules.push(['Ponder', 'true']);
      for (const [name, value] of this.spec.options) {
        const bad = checkOption(this.declared, name, value);
        if (bad !== undefined) return { option: name, value, text: bad };
      }
      for (const [name, value] of rules) {
        if (!this.declared.has(name.toLowerCase()))
          return {
            option: name,
            value,
            text: `the engine has no option ${name}, which the rules of these games (${formatDialect(this.rules ?? THOTH_DIALECT)}) need`,
          };
      }
      // Each option is followed by a ping, so that an error line is known to answer it.
      const settings: [string, string][] = [...this.spec.options, ...rules];
      if (variant !== 'khet2') settings.push(['UCI_Variant', variant]);
      for (const [name, value] of settings) {
        let refusal: string | undefined;
        this.onLine = (line) => {
          if (refusal === undefined && /^info\s+string\s+error\b/i.test(line)) refusal = line;
        };
        this.send(`setoption name ${name} value ${value}`);
        const problem = await this.ping(timeoutMs, signal);
        if (problem !== undefined) return problem;
        // An engine without UCI_Variant is told anyway (the run notes that it may not play the variant).
        if (refusal !== undefined && this.declared.has(name.toLowerCase())) {
          return { option: name, value, text: `the engine answers '${shorten(refusal)}'` };
        }
      }
      this.onLine = undefined;
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
    if (r.kind === 'timeout')
      return this.spec.proto !== undefined
        ? `no answer to the ${PROTOCOLS[this.spec.proto].label} ping (${PROTOCOLS[this.spec.proto].ping}) within ${timeoutMs / 1000} s`
        : `no 'readyok' within ${timeoutMs / 1000} s after 'isready'`;
    await this.drained();
    return this.endText('');
  }

  /** Waits until the ended process's output is read to its end (its last stderr lines), at most a second. */
  private async drained(): Promise<void> {
    const closed = this.proc?.closed();
    if (!closed) return;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise<void>((r) => (t = setTimeout(r, 1000)))]);
    clearTimeout(t);
  }

  /** Why the process is gone: it could not be run, or it ended (`when`) with this on stderr. */
  private endText(when: string): string {
    const error = this.proc?.exit?.error;
    if (error !== undefined) return `cannot run '${this.spec.command[0] ?? ''}': ${error}`;
    return `the process ended (${this.exitText()})${when}${this.stderrHint()}`;
  }

  /** `; stderr: <the line that says what went wrong>` (not the tail of a stack trace), or ''. */
  private stderrHint(): string {
    const line = this.stderr.meaningful();
    return line !== undefined ? `; stderr: ${line}` : '';
  }

  /** Kills the process (its whole process group) at once. */
  kill(): void {
    this.proc?.kill();
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
