/**
 * The suite ends what its tests leave (scripts/check-and-test.mjs, test/setup.ts,
 * scripts/suite-owned.mjs): a run of a test file that leaves two processes running and files
 * behind fails, names each, ends the processes and removes the files; a file whose every test is
 * skipped leaves nothing to name.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_TMP, STALE_RUN_MS, removeStaleRuns } from '../../scripts/suite-owned.mjs';
import { ROOT } from '../cli/helpers';

/** Whether a process runs (not ended, not a zombie). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('what a test run leaves', () => {
  it('a process or file left behind fails the run, named, and is ended or removed', async () => {
    const pids = path.join(tmpdir(), 'pids');
    const child = spawn(
      process.execPath,
      [
        'scripts/check-and-test.mjs',
        '--no-typecheck',
        '--config',
        'test/tools/fixtures/leftovers/vitest.config.ts',
        '--reporter',
        'dot',
      ],
      { cwd: ROOT, env: { ...process.env, THOTH_SUITE_GRACE_MS: '1000', LEFTOVERS_PIDS: pids, NO_COLOR: '1' } },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, out).toBe(1);
    const [a, b, c] = readFileSync(pids, 'utf8').split(' ').map(Number);
    // the file's check: the process with its mark, and the one working in its folder whose
    // environment no longer shows the mark
    expect(out).toMatch(/this file left 2 process\(es\) running 1 s after its end \(now ended\):\n/);
    expect(out).toMatch(new RegExp(`\\n\\s+pid ${a}: \\S*node -e setInterval`));
    expect(out).toMatch(new RegExp(`\\n\\s+pid ${c}: \\S*node -e setInterval.* own-environment`));
    // the run's check: the process that escaped the file's, and the file in the run's folder
    expect(out).toMatch(
      new RegExp(`The tests left 1 process\\(es\\) running \\(now ended\\):\\n  pid ${b}: \\S*node -e setInterval`),
    );
    expect(out).toContain('The tests left 1 temporary file(s) or folder(s) (now removed):\n  left-by-the-run\n');
    expect(out).not.toContain('left-in-the-file');
    expect([running(a), running(b), running(c)]).toEqual([false, false, false]);
    // the run's folder (made in this file's) is gone
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('thoth-run-'))).toEqual([]);
  });

  it("a killed run's folder is removed by a later run; a live run's and a recent one are kept", async () => {
    const parent = path.join(tmpdir(), 'system-tmp');
    const old = (Date.now() - STALE_RUN_MS - 60_000) / 1000;
    const folder = (name: string, aged: boolean): string => {
      const dir = path.join(parent, name);
      mkdirSync(path.join(dir, 'f-left'), { recursive: true });
      if (aged) utimesSync(dir, old, old);
      return dir;
    };
    folder('thoth-run-killed', true);
    const live = folder('thoth-run-live', true);
    folder('thoth-run-recent', false);
    folder('other-old', true);
    // a process of the live run: its folder is in its environment, as every process of a run has it
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      env: { ...process.env, [RUN_TMP]: live },
      stdio: 'ignore',
    });
    try {
      await new Promise((r) => child.once('spawn', r));
      expect(removeStaleRuns(parent)).toEqual(['thoth-run-killed']);
      expect(readdirSync(parent).sort()).toEqual(['other-old', 'thoth-run-live', 'thoth-run-recent']);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
