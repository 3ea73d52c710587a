/**
 * Helpers for the protocol tests (not a test file itself): spawn the real built engine
 * (`node dist/cli.js`) and talk to it line by line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatKfenError, parseKfen, parseMove, setupKfen, type EditionId, type Position } from '../../src/core/index';
import { parseInfo as readInfo, type SearchInfo } from '../../src/core/info';
import { Deadline, patiently, tail } from '../patience';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = path.join(ROOT, 'dist', 'cli.js');

/** Classic Khet 2.0, as the engine starts. */
export const CLASSIC = setupKfen('khet2', 'classic')!;

/** Khet 2.0, Silver to move hits the Red Pharaoh with j5+ (and only with it): the Pyramid on j5 turns the beam west along rank 5. */
export const MATE_IN_1 = 'xv9/10/10/2k6P>/10/10/10/4K4X^ s 0 1';

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (p.includes(`${path.sep}gui${path.sep}page`) || p.endsWith(`${path.sep}static`)) continue;
      newest = Math.max(newest, newestSource(p));
    } else if (e.name.endsWith('.ts')) {
      newest = Math.max(newest, statSync(p).mtimeMs);
    }
  }
  return newest;
}

/**
 * The protocol tests run the built engine (`npm test` builds it first). Throws when dist/ is
 * missing; warns when it is older than the engine's sources (a stale build tests old code).
 */
let warned = false;
export function assertBuilt(): void {
  const files = ['cli.js', 'search-worker.js'].map((f) => path.join(ROOT, 'dist', f));
  for (const f of files) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run 'npm run build' first`);
  }
  const built = Math.min(...files.map((f) => statSync(f).mtimeMs));
  const src = newestSource(path.join(ROOT, 'src'));
  if (src > built + 1000 && !warned) {
    warned = true;
    console.warn(
      `warning: dist/ is older than src/ (by ${Math.round((src - built) / 1000)} s): the protocol tests run the old build; run 'npm run build'`,
    );
  }
}

export interface Line {
  text: string;
  /** performance.now() when the line was read. */
  at: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * How long a test waits for an engine's line before it fails, in idle-machine time
 * (test/patience.ts: a machine ten times slower waits ten times as long). Only a failing test waits
 * this long, so it is generous: an engine starting beside a busy suite (or a match) on two cores has
 * taken over 5 s to answer its handshake.
 */
export const LINE_TIMEOUT_MS = 30_000;

/** The engine as a child process, read line by line. */
export class Engine {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Every stdout line so far. */
  readonly lines: Line[] = [];
  stderr = '';
  /** Index of the first line not yet consumed by waitFor/collect. */
  cursor = 0;
  readonly exited: Promise<Exit>;
  exit: Exit | undefined;
  private partial = '';
  private wakers: Array<() => void> = [];

  /** `nodeArgs` go to Node before the engine's script (`--import …`), `args` after it; `env` is added to this process's. */
  constructor(args: string[] = [], nodeArgs: string[] = [], env: Record<string, string> = {}) {
    this.proc = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stderr.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      const now = performance.now();
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop()!;
      for (const p of parts) this.lines.push({ text: p.replace(/\r$/, ''), at: now });
      this.wake();
    });
    this.proc.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.proc.stdin.on('error', () => {
      /* the engine may exit before reading everything: EPIPE is not the test's failure */
    });
    this.exited = new Promise<Exit>((resolve) => {
      this.proc.on('close', (code, signal) => {
        if (this.partial !== '') {
          this.lines.push({ text: this.partial, at: performance.now() });
          this.partial = '';
        }
        this.exit = { code, signal };
        this.wake();
        resolve(this.exit);
      });
    });
  }

  private wake(): void {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** Writes one line to the engine's stdin; returns performance.now() at the write. */
  send(line: string): number {
    this.proc.stdin.write(line + '\n');
    return performance.now();
  }

  /** Closes stdin (end of input). */
  endInput(): void {
    this.proc.stdin.end();
  }

  /** The unconsumed lines' texts. */
  pending(): string[] {
    return this.lines.slice(this.cursor).map((l) => l.text);
  }

  /**
   * Waits for the first unconsumed line matching `re`; consumes everything up to and including
   * it and returns the consumed lines (the match last).
   */
  async collect(re: RegExp, timeoutMs = LINE_TIMEOUT_MS): Promise<Line[]> {
    const deadline = new Deadline(
      `a line matching ${re} from the engine`,
      timeoutMs,
      () => `unread: ${JSON.stringify(this.pending().slice(-20))}\nstderr: ${tail(this.stderr)}`,
    );
    for (;;) {
      for (let i = this.cursor; i < this.lines.length; i++) {
        if (re.test(this.lines[i].text)) {
          const out = this.lines.slice(this.cursor, i + 1);
          this.cursor = i + 1;
          return out;
        }
      }
      if (this.exit) {
        throw new Error(
          `engine exited (${JSON.stringify(this.exit)}) before a line matching ${re}; unread: ${JSON.stringify(this.pending())}; stderr: ${this.stderr}`,
        );
      }
      let woken: () => void = () => {};
      try {
        await deadline.race(new Promise<void>((resolve) => this.wakers.push((woken = resolve))));
      } finally {
        this.wakers = this.wakers.filter((w) => w !== woken);
      }
    }
  }

  /** The line matching `re` (see collect). */
  async waitFor(re: RegExp, timeoutMs = LINE_TIMEOUT_MS): Promise<Line> {
    const ls = await this.collect(re, timeoutMs);
    return ls[ls.length - 1];
  }

  /** Sends a command and collects its output up to a line matching `until`. */
  async command(line: string, until: RegExp, timeoutMs = LINE_TIMEOUT_MS): Promise<string[]> {
    this.send(line);
    return (await this.collect(until, timeoutMs)).map((l) => l.text);
  }

  /** `isready` → `readyok`: returns every line written before readyok (readyok excluded). */
  async sync(timeoutMs = LINE_TIMEOUT_MS): Promise<string[]> {
    const ls = await this.command('isready', /^readyok$/, timeoutMs);
    return ls.slice(0, -1);
  }

  /** The KFEN line of `d`. */
  async kfen(): Promise<string> {
    const out = await this.command('d', /^Status: /);
    const k = out.find((l) => l.startsWith('KFEN: '));
    if (!k) throw new Error(`no KFEN line in the output of d: ${JSON.stringify(out)}`);
    return k.slice('KFEN: '.length);
  }

  /** Sends quit and waits for the exit. */
  async quit(timeoutMs = LINE_TIMEOUT_MS): Promise<Exit> {
    if (!this.exit) this.send('quit');
    return this.waitExit(timeoutMs);
  }

  /** The engine's exit, within `timeoutMs` of idle-machine time (test/patience.ts). */
  waitExit(timeoutMs = LINE_TIMEOUT_MS): Promise<Exit> {
    return patiently('the engine to exit', timeoutMs, this.exited, () => `stderr: ${tail(this.stderr)}`);
  }

  /** Kills the process if it is still running (cleanup after a failed test). */
  kill(): void {
    if (!this.exit) this.proc.kill('SIGKILL');
  }
}

/** Starts an engine and does the `uci` handshake. */
export async function startEngine(
  args: string[] = [],
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<Engine> {
  const e = new Engine(args, nodeArgs, env);
  await e.command('uci', /^uciok$/);
  return e;
}

/** A position from a KFEN (or a setup) and moves, built in-process to check the engine's moves. */
export function positionOf(
  kfen: string,
  moves: string[] = [],
  edition: EditionId = 'khet2',
  pharaohRotation = false,
): Position {
  const r = parseKfen(kfen, edition, { pharaohRotation });
  if (!r.ok) throw new Error(`test KFEN rejected: ${formatKfenError(r.error)}: ${kfen}`);
  const pos = r.value;
  for (const t of moves) {
    const m = parseMove(pos, t);
    if (!m.ok) throw new Error(`test move rejected: ${m.error.message}`);
    pos.make(m.value);
  }
  return pos;
}

export interface BestMove {
  move: string;
  ponder?: string;
}

export function parseBestmove(line: string): BestMove {
  const m = /^bestmove (\S+)(?: ponder (\S+))?$/.exec(line);
  if (!m) throw new Error(`not a bestmove line: '${line}'`);
  return { move: m[1], ponder: m[2] };
}

/**
 * Checks that a bestmove line names a legal move in `pos` (and a legal ponder move after it);
 * returns the best move's text.
 */
export function checkBestmove(line: string, pos: Position): BestMove {
  const b = parseBestmove(line);
  const m = parseMove(pos, b.move);
  if (!m.ok) throw new Error(`bestmove '${b.move}' is not legal: ${m.error.message}`);
  if (b.ponder !== undefined) {
    pos.make(m.value);
    const p = parseMove(pos, b.ponder);
    pos.unmake();
    if (!p.ok) throw new Error(`ponder move '${b.ponder}' is not legal after ${b.move}: ${p.error.message}`);
  }
  return b;
}

/**
 * A search report as Thoth writes it, read with the protocol's parser (src/core/info.ts):
 * undefined unless the line carries every field.
 */
export function parseInfo(line: string): SearchInfo | undefined {
  const r = readInfo(line);
  if (!r.ok) return undefined;
  const { depth, seldepth, multipv, score, bound, nodes, nps, hashfull, time, pv } = r.value;
  if (
    depth === undefined ||
    seldepth === undefined ||
    multipv === undefined ||
    score === undefined ||
    bound === undefined
  )
    return undefined;
  if (
    nodes === undefined ||
    nps === undefined ||
    hashfull === undefined ||
    time === undefined ||
    pv === undefined ||
    pv.length === 0
  )
    return undefined;
  return { depth, seldepth, multipv, score, bound, nodes, nps, hashfull, time, pv };
}
