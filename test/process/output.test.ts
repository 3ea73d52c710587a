/**
 * Output that cannot be written ends a command with one line on stderr and exit code 1: no stack
 * trace, no hang, no engine process left running. The built CLI in child processes, writing to
 * /dev/full (ENOSPC) or to a pipe whose reader went away (EPIPE); real fake-engine processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputError, writeErrorReason } from '../../src/process/output';
import { CLI_BUILT, ROOT } from '../cli/helpers';
import { fake, tempDir } from '../match/helpers';

interface Ended {
  code: number | null;
  err: string;
}

/** Runs the built `thoth` with its stdout on `/dev/full` (or piped, when `stdout` is 'pipe'). */
function thoth(args: string[], stdout: 'full' | 'ignore' = 'full'): Promise<Ended> {
  const fd = stdout === 'full' ? openSync('/dev/full', 'w') : 'ignore';
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BUILT, ...args], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
    if (typeof fd === 'number') closeSync(fd);
    let err = '';
    child.stderr?.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, err }));
  });
}

/** Processes whose command line holds `token` (the fake engines of one test), by `ps`. */
function processesWith(token: string): string[] {
  const r = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.includes(token) && !l.includes('ps -eo'));
}

/** Resolves once no process holds `token` (the engines' end is reported by the kernel, not awaited here). */
async function noneLeft(token: string): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const left = processesWith(token);
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesWith(token);
}

/** Two fake engines tagged with a token of this test (in their command lines). */
function engines(token: string): string[] {
  return [...fake('A', `--name ${token}`), ...fake('B', `--name ${token}`), '-each', 'tc=10+0.1', '-rounds', '2'];
}

let serial = 0;
const tokenOf = (): string => `out-test-${process.pid}-${++serial}`;

describe.skipIf(!existsSync('/dev/full') || !existsSync(CLI_BUILT))('output errors', () => {
  it('thoth match > /dev/full', async () => {
    const token = tokenOf();
    const r = await thoth(['match', ...engines(token)]);
    expect(r.err).toBe('thoth: cannot write stdout: no space left on device (ENOSPC)\n');
    expect(r.code).toBe(1);
    expect(await noneLeft(token)).toEqual([]);
  });

  it('thoth match -pgnout /dev/full', async () => {
    const token = tokenOf();
    const r = await thoth(['match', ...engines(token), '-pgnout', '/dev/full'], 'ignore');
    expect(r.err).toBe(
      "thoth match: the run stopped: cannot write the record file '/dev/full': no space left on device (ENOSPC); stopping the run\n",
    );
    expect(r.code).toBe(1);
    expect(await noneLeft(token)).toEqual([]);
  });

  it('thoth match -report json=/dev/full', async () => {
    const token = tokenOf();
    const r = await thoth(['match', ...engines(token), '-report', 'json=/dev/full'], 'ignore');
    expect(r.err).toBe(
      "thoth match: the run stopped: cannot write the report file '/dev/full': no space left on device (ENOSPC); stopping the run\n",
    );
    expect(r.code).toBe(1);
    expect(await noneLeft(token)).toEqual([]);
  });

  it('thoth stats x.pgn > /dev/full', async () => {
    const pgn = join(tempDir(), 'x.pgn');
    writeFileSync(pgn, '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1-0\n');
    const r = await thoth(['stats', pgn]);
    expect(r.err).toBe('thoth: cannot write stdout: no space left on device (ENOSPC)\n');
    expect(r.code).toBe(1);
  });

  /** The command with a reader that reads the first chunk of its output, then closes the pipe (as `| head -c1`). */
  const headed = (args: string[]): Promise<Ended> =>
    new Promise<Ended>((resolve) => {
      const child = spawn(process.execPath, [CLI_BUILT, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => resolve({ code, err }));
    });

  it('thoth perft 4 --divide | head -c1: the reader goes away, the command ends quietly', async () => {
    const r = await headed(['perft', '4', '--divide']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('thoth stats FILES… | head: no EPIPE message', async () => {
    // 300 files that each end with an unfinished record: a Note line each, written one by one
    const dir = tempDir();
    const files = Array.from({ length: 300 }, (_, k) => {
      const f = join(dir, `x${k}.pgn`);
      writeFileSync(f, '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1-0\n\n[White "a"]\n\n1. j4i4');
      return f;
    });
    const r = await headed(['stats', ...files]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('the reason in words', () => {
  it('names the code, and keeps an unknown error to its first line', () => {
    const e = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(writeErrorReason(e)).toBe('no space left on device (ENOSPC)');
    expect(outputError('stdout', e).message).toBe('cannot write stdout: no space left on device (ENOSPC)');
    expect(writeErrorReason(Object.assign(new Error('odd\n  at x'), { code: 'EODD' }))).toBe('odd (EODD)');
  });
});
