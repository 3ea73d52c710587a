/** LineProcess with real child processes (node -e scripts): lines both ways, exits, kills, start failures. */
import { describe, expect, it } from 'vitest';
import { LineProcess, describeExit, type ChildExit } from '../../src/process/child';

/** Generous: a node child starts in well under a second, also on a loaded machine. */
const PATIENCE_MS = 20_000;

/** `p`, or a rejection saying what did not happen after {@link PATIENCE_MS}. */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${PATIENCE_MS / 1000} s`)), PATIENCE_MS);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

interface Running {
  proc: LineProcess;
  lines: string[];
  stderr: string[];
  exit: Promise<ChildExit>;
  /** Resolves once `n` lines in all have arrived. */
  linesArrived(n: number): Promise<string[]>;
}

/** A node child running `script`, with its lines and its exit collected. */
function run(script: string, options = {}): Running {
  const proc = new LineProcess([process.execPath, '-e', script], options);
  const lines: string[] = [];
  const stderr: string[] = [];
  const exit = new Promise<ChildExit>((resolve) => {
    proc.onExit = resolve;
  });
  let waiters: { n: number; resolve: () => void }[] = [];
  proc.onLine = (l) => {
    lines.push(l);
    waiters = waiters.filter((w) => (lines.length >= w.n ? (w.resolve(), false) : true));
  };
  proc.onStderr = (t) => stderr.push(t);
  proc.start();
  const linesArrived = (n: number): Promise<string[]> =>
    within(
      lines.length >= n
        ? Promise.resolve(lines)
        : new Promise<string[]>((resolve) => waiters.push({ n, resolve: () => resolve(lines) })),
      `${n} line(s) from the child (got ${JSON.stringify(lines)})`,
    );
  return { proc, lines, stderr, exit, linesArrived };
}

const ECHO = `
process.stdin.setEncoding('utf8');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (line === 'quit') process.exit(0);
    process.stdout.write('got ' + line + '\\r\\n');
  }
});`;

describe('LineProcess', () => {
  it('writes lines, reads lines, reports the exit, and closes its streams', async () => {
    const { proc, exit, linesArrived } = run(ECHO);
    expect(proc.alive).toBe(true);
    proc.send('uci');
    proc.send('isready');
    expect(await linesArrived(2)).toEqual(['got uci', 'got isready']);
    proc.send('quit');
    expect(await exit).toEqual({ code: 0, signal: null });
    await proc.closed();
    expect(proc.alive).toBe(false);
    expect(describeExit(proc.exit!)).toBe('exit code 0');
    proc.send('ignored'); // gone: nothing happens
  });

  it('passes arguments as they are, without a shell', async () => {
    const proc = new LineProcess([
      process.execPath,
      '-e',
      'console.log(JSON.stringify(process.argv.slice(1)))',
      '$HOME',
      'a b',
      '*',
      "'q'",
    ]);
    const lines: string[] = [];
    proc.onLine = (l) => lines.push(l);
    proc.start();
    await proc.closed();
    expect(JSON.parse(lines[0])).toEqual(['$HOME', 'a b', '*', "'q'"]);
  });

  it('reports a non-zero exit and stderr', async () => {
    const { exit, stderr, proc } = run('process.stderr.write("cannot open my brain\\n"); process.exit(3)');
    expect(await exit).toEqual({ code: 3, signal: null });
    await proc.closed();
    expect(stderr.join('')).toBe('cannot open my brain\n');
  });

  it('a program that does not exist: an exit with the error, not a throw', async () => {
    const proc = new LineProcess(['/no/such/engine', 'x']);
    const exit = new Promise<ChildExit>((resolve) => (proc.onExit = resolve));
    proc.start();
    const e = await exit;
    expect(e.error).toMatch(/ENOENT/);
    expect(describeExit(e)).toMatch(/ENOENT/);
    expect(proc.alive).toBe(false);
    const empty = new LineProcess([]);
    let seen: ChildExit | undefined;
    empty.onExit = (x) => (seen = x);
    empty.start();
    expect(seen?.error).toBeDefined();
  });

  it('kill ends it at once; with its own group, its children too', async () => {
    // The child starts a grandchild that would live for a minute and shares the child's stdout,
    // then prints 'started'. The stdout pipe closes only when both have ended: that is the event.
    const { proc, exit, linesArrived } = run(
      `require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: ['ignore', 'inherit', 'ignore'] })
         .on('spawn', () => console.log('started'));
       setTimeout(() => {}, 60000);`,
      { ownGroup: true },
    );
    expect(await linesArrived(1)).toEqual(['started']);
    proc.kill();
    expect(proc.alive).toBe(false);
    expect(proc.killed).toBe(true);
    expect(await within(exit, 'the exit')).toEqual({ code: null, signal: 'SIGKILL' });
    await within(proc.closed(), "the grandchild's end (the stdout it shares stays open while it lives)");
  });

  it('kill with another signal', async () => {
    const { proc, exit, linesArrived } = run("console.log('ready'); setTimeout(() => {}, 60000)");
    await linesArrived(1);
    proc.kill('SIGTERM');
    expect(await exit).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
