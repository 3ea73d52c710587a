/**
 * Helpers for the parallel-search tests (not a test file itself): the built engine
 * (`node dist/cli.js`) as a child process read line by line, and in-process positions to check
 * its moves against.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatKfenError, formatMove, legalMoves, parseKfen, parseMove, type EditionId, type Position } from '../../src/core/index';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = path.join(ROOT, 'dist', 'cli.js');

/** The engine tests run the build: `npm run build` first. */
export function assertBuilt(): void {
  for (const f of ['cli.js', 'search-worker.js']) {
    const p = path.join(ROOT, 'dist', f);
    if (!existsSync(p)) throw new Error(`${p} is missing: run 'npm run build' first`);
  }
  const src = statSync(path.join(ROOT, 'src', 'protocol', 'search-pool.ts')).mtimeMs;
  const built = statSync(path.join(ROOT, 'dist', 'search-worker.js')).mtimeMs;
  if (src > built + 1000) console.warn('warning: dist/ is older than src/protocol/search-pool.ts: run npm run build');
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

export class Engine {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: Line[] = [];
  stderr = '';
  cursor = 0;
  exit: Exit | undefined;
  readonly exited: Promise<Exit>;
  private partial = '';
  private wakers: Array<() => void> = [];

  constructor(args: string[] = []) {
    this.proc = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
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
      /* EPIPE after the engine exited is not the test's failure */
    });
    this.exited = new Promise<Exit>((resolve) => {
      this.proc.on('close', (code, signal) => {
        if (this.partial !== '') this.lines.push({ text: this.partial, at: performance.now() });
        this.partial = '';
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

  /** Writes a line; returns performance.now() at the write. */
  send(line: string): number {
    this.proc.stdin.write(line + '\n');
    return performance.now();
  }

  pending(): string[] {
    return this.lines.slice(this.cursor).map((l) => l.text);
  }

  /** Consumes lines up to and including the first one matching `re`; returns them. */
  async collect(re: RegExp, timeoutMs = 5000): Promise<Line[]> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (let i = this.cursor; i < this.lines.length; i++) {
        if (re.test(this.lines[i].text)) {
          const out = this.lines.slice(this.cursor, i + 1);
          this.cursor = i + 1;
          return out;
        }
      }
      if (this.exit) {
        throw new Error(`engine exited (${JSON.stringify(this.exit)}) before a line matching ${re}; unread: ${JSON.stringify(this.pending().slice(-20))}; stderr: ${this.stderr}`);
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no line matching ${re} within ${timeoutMs} ms; unread: ${JSON.stringify(this.pending().slice(-20))}; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          this.wakers = this.wakers.filter((w) => w !== done);
          resolve();
        }, left);
        this.wakers.push(done);
      });
    }
  }

  async waitFor(re: RegExp, timeoutMs = 5000): Promise<Line> {
    const ls = await this.collect(re, timeoutMs);
    return ls[ls.length - 1];
  }

  /** isready → readyok; returns the lines before readyok. */
  async sync(timeoutMs = 10_000): Promise<string[]> {
    this.send('isready');
    const ls = await this.collect(/^readyok$/, timeoutMs);
    return ls.slice(0, -1).map((l) => l.text);
  }

  async waitExit(timeoutMs = 5000): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`engine did not exit within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (!this.exit) this.proc.kill('SIGKILL');
  }
}

export async function startEngine(threads = 1): Promise<Engine> {
  const e = new Engine();
  e.send('uci');
  await e.waitFor(/^uciok$/);
  if (threads !== 1) {
    e.send(`setoption name Threads value ${threads}`);
    expect0(await e.sync(), `setoption name Threads value ${threads}`);
  }
  return e;
}

function expect0(lines: string[], what: string): void {
  if (lines.length > 0) throw new Error(`unexpected output after ${what}: ${JSON.stringify(lines)}`);
}

export function positionOf(kfen: string, moves: string[] = [], edition: EditionId = 'khet2'): Position {
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error(`test KFEN rejected: ${formatKfenError(r.error)}: ${kfen}`);
  const pos = r.value;
  for (const t of moves) {
    const m = parseMove(pos, t);
    if (!m.ok) throw new Error(`test move rejected: ${m.error.message}`);
    pos.make(m.value);
  }
  return pos;
}

/** Checks a `bestmove` line against `pos` (the move and its ponder move legal); returns the move. */
export function checkBestmove(line: string, pos: Position): string {
  const b = /^bestmove (\S+)(?: ponder (\S+))?$/.exec(line);
  if (!b) throw new Error(`not a bestmove line: '${line}'`);
  const m = parseMove(pos, b[1]);
  if (!m.ok) throw new Error(`bestmove '${b[1]}' is not legal: ${m.error.message}`);
  if (b[2] !== undefined) {
    pos.make(m.value);
    const p = parseMove(pos, b[2]);
    const over = pos.winner >= 0;
    pos.unmake();
    if (!over && !p.ok) throw new Error(`ponder move '${b[2]}' is not legal after ${b[1]}: ${p.error.message}`);
  }
  return b[1];
}

/** The moves of `pos` split by what they do to the mover's own Pharaoh. */
export function classifyMoves(pos: Position): { safe: string[]; suicide: string[]; win: string[] } {
  const safe: string[] = [];
  const suicide: string[] = [];
  const win: string[] = [];
  const us = pos.side;
  for (const m of legalMoves(pos)) {
    pos.make(m);
    const w = pos.winner;
    pos.unmake();
    (w < 0 ? safe : w === us ? win : suicide).push(formatMove(m));
  }
  return { safe, suicide, win };
}

export interface Info {
  depth: number;
  multipv: number;
  nodes: number;
  pv: string[];
}

export function parseInfo(line: string): Info | undefined {
  const m = /^info depth (\d+) seldepth \d+ multipv (\d+) score (?:cp|mate) -?\d+(?: lowerbound| upperbound)? nodes (\d+) nps \d+ hashfull \d+ time \d+ pv (.+)$/.exec(line);
  if (!m) return undefined;
  return { depth: Number(m[1]), multipv: Number(m[2]), nodes: Number(m[3]), pv: m[4].split(' ') };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
