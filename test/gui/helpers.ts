/** Shared helpers for the GUI tests: start `thoth gui`, the fake engine's command, the browser. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledFixture } from '../bundle';
import { patiently, tail } from '../patience';
import { scaledMs } from '../slowness';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');
export const FAKE_ENGINE_FILE = path.join(ROOT, 'test', 'gui', 'fixtures', 'fake-engine.ts');
/** The fake engine, bundled once per worker (test/bundle.ts), as a command line for `--engine`. */
export const FAKE_ENGINE_SCRIPT = bundledFixture(FAKE_ENGINE_FILE, 'gui-fake-engine');
export const FAKE_ENGINE = `node ${FAKE_ENGINE_SCRIPT}`;
export const FAKE_ENGINE_ARGV = [process.execPath, FAKE_ENGINE_SCRIPT];
export const CHROMIUM = '/usr/bin/chromium';
export const OUT = path.join(ROOT, 'test-output');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** True when the built engine answers the handshake (it may not search yet). */
export function realEngineAnswers(): boolean {
  if (!existsSync(CLI)) return false;
  const r = spawnSync(process.execPath, [CLI], { input: 'uci\nquit\n', timeout: scaledMs(60_000), encoding: 'utf8' });
  return /^uciok\s*$/m.test(r.stdout ?? '');
}

/**
 * True when the built engine plays: it answers the handshake, `go depth 1` with a `bestmove`, and
 * `go infinite` then `stop` with a `bestmove` (what the GUI relies on). The waits are generous, and
 * scaled to the machine's slowness (test/patience.ts): a busy machine must not turn the real-engine
 * tests into skipped ones.
 */
export async function realEngineWorks(idleMs = 60_000): Promise<boolean> {
  if (!realEngineAnswers()) return false;
  const timeoutMs = scaledMs(idleMs);
  const proc = spawn(process.execPath, [CLI], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  proc.stdout.setEncoding('utf8');
  const waitFor = (re: RegExp, count: number, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): boolean => (out.match(re) ?? []).length >= count;
      if (check()) return resolve(true);
      const t = setTimeout(() => {
        proc.stdout.off('data', on);
        resolve(false);
      }, ms);
      const on = (): void => {
        if (check()) {
          clearTimeout(t);
          proc.stdout.off('data', on);
          resolve(true);
        }
      };
      proc.stdout.on('data', on);
    });
  proc.stdout.on('data', (d: string) => (out += d));
  try {
    proc.stdin.write('uci\nisready\nposition startpos\ngo depth 1\n');
    if (!(await waitFor(/^bestmove \S+/gm, 1, timeoutMs))) return false;
    proc.stdin.write('go infinite\n');
    await new Promise((r) => setTimeout(r, 300));
    proc.stdin.write('stop\n');
    return await waitFor(/^bestmove \S+/gm, 2, timeoutMs);
  } finally {
    proc.stdin.end('quit\n');
    setTimeout(() => proc.kill(), 2000).unref();
  }
}

export interface RunningGui {
  url: string;
  port: number;
  token: string;
  proc: ChildProcess;
  output: () => string;
  /** Ctrl-C (SIGINT; SIGKILL a minute later); resolves to the exit code: 130 when it stopped as it should. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node dist/cli.js gui --port 0 ...` and waits for the URL it prints: within 30 s of an idle
 * machine's time (test/patience.ts), its engine's handshake given an hour unless `args` bound it
 * (the wait here is the judge; the GUI's own --start-timeout would fail a machine busy enough).
 */
export async function startGui(args: string[] = []): Promise<RunningGui> {
  if (!existsSync(path.join(ROOT, 'dist', 'gui', 'index.html')) || !existsSync(CLI)) {
    throw new Error('dist/ is not built: run `npm run build` first (npm test does)');
  }
  const bounded = args.includes('--start-timeout') ? [] : ['--start-timeout', '3600000'];
  const proc = spawn(process.execPath, [CLI, 'gui', '--port', '0', ...bounded, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.setEncoding('utf8');
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (d: string) => (out += d));
  const printed = new Promise<string>((resolve, reject) => {
    proc.stdout?.on('data', (d: string) => {
      out += d;
      const m = /Thoth GUI: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`thoth gui exited (${code}):\n${out}`)));
  });
  // The address comes once the first engine has answered its handshake (a second or two idle).
  const url = await patiently('the URL `thoth gui` prints', 30_000, printed, () => `its output:\n${tail(out)}`).catch(
    (e: unknown) => {
      proc.kill('SIGKILL');
      throw e;
    },
  );
  const u = new URL(url);
  return {
    url,
    port: Number(u.port),
    token: u.searchParams.get('token') ?? '',
    proc,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve(proc.exitCode);
        // only a server that hangs waits this long: a busy machine may take seconds to end its engine
        const t = setTimeout(() => proc.kill('SIGKILL'), 60_000);
        proc.once('exit', (code) => {
          clearTimeout(t);
          resolve(code);
        });
        proc.kill('SIGINT');
      }),
  };
}

/** The longest time control the page offers: its search deadline (30 min + 5 s) outlasts any test. */
export const LONG_TC = '1800+0';

/**
 * A `thoth gui` whose fake engine moves only when the test says so (`release()` writes its gate
 * file), not after a think that a loaded machine's clicks can outlast. The server starts on the
 * first `gui()` and is shared by the file's tests; `stop()` (in afterAll) ends it and the gate.
 * The page stops a search that outlasts Thoth's time by 5 s (its `deadlineMs`), and the engine
 * then moves: a test that acts while Thoth thinks plays with {@link LONG_TC}, not without a clock
 * (2 s a move, so 7 s, which a loaded machine's clicks outlasted on 2026-12-07: a premove became
 * a move).
 */
export function gatedFakeGui(): { gui: () => Promise<RunningGui>; release: () => void; stop: () => Promise<void> } {
  const gate = path.join(mkdtempSync(path.join(tmpdir(), 'thoth-gate-')), 'gate');
  let running: RunningGui | undefined;
  return {
    gui: async () => (running ??= await startGui(['--engine', `${FAKE_ENGINE} --gate ${gate}`])),
    release: () => writeFileSync(gate, ''),
    stop: async () => {
      await running?.stop();
      rmSync(path.dirname(gate), { recursive: true, force: true });
    },
  };
}
