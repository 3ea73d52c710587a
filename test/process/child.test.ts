/** LineProcess with real child processes (node -e scripts): lines both ways, exits, kills, start failures. */
import { describe, expect, it } from 'vitest';
import { LineProcess, describeExit, type ChildExit } from '../../src/process/child';

/** A node child running `script`, with its lines and its exit collected. */
function run(script: string, options = {}): { proc: LineProcess; lines: string[]; stderr: string[]; exit: Promise<ChildExit> } {
  const proc = new LineProcess([process.execPath, '-e', script], options);
  const lines: string[] = [];
  const stderr: string[] = [];
  const exit = new Promise<ChildExit>((resolve) => {
    proc.onExit = resolve;
  });
  proc.onLine = (l) => lines.push(l);
  proc.onStderr = (t) => stderr.push(t);
  proc.start();
  return { proc, lines, stderr, exit };
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
    const { proc, lines, exit } = run(ECHO);
    expect(proc.alive).toBe(true);
    proc.send('uci');
    proc.send('isready');
    await new Promise((r) => setTimeout(r, 0));
    while (lines.length < 2) await new Promise((r) => setTimeout(r, 10));
    expect(lines).toEqual(['got uci', 'got isready']);
    proc.send('quit');
    expect(await exit).toEqual({ code: 0, signal: null });
    await proc.closed();
    expect(proc.alive).toBe(false);
    expect(describeExit(proc.exit!)).toBe('exit code 0');
    proc.send('ignored'); // gone: nothing happens
  });

  it('passes arguments as they are, without a shell', async () => {
    const proc = new LineProcess([process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$HOME', 'a b', '*', "'q'"]);
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
    // The child starts a grandchild that would live for a minute, and prints its pid.
    const { proc, lines, exit } = run(
      `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
       console.log(c.pid); setTimeout(() => {}, 60000);`,
      { ownGroup: true },
    );
    while (lines.length < 1) await new Promise((r) => setTimeout(r, 10));
    const grandchild = Number(lines[0]);
    proc.kill();
    expect(proc.alive).toBe(false);
    expect(proc.killed).toBe(true);
    expect(await exit).toEqual({ code: null, signal: 'SIGKILL' });
    let gone = false;
    for (let k = 0; k < 100 && !gone; k++) {
      try {
        process.kill(grandchild, 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        gone = true;
      }
    }
    expect(gone).toBe(true);
  });

  it('kill with another signal', async () => {
    const { proc, exit } = run('setTimeout(() => {}, 60000)');
    await new Promise((r) => setTimeout(r, 50));
    proc.kill('SIGTERM');
    expect(await exit).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
