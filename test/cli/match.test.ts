/**
 * `thoth match` as a user runs it: the entry point (src/cli.ts, through tsx) in a child process.
 * Its exit codes (2 for a bad setting, 1 for an engine that cannot start) and Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords } from '../../src/core/record';
import { fakeEngineScript, tempDir } from '../match/helpers';
import { CLI_SOURCE, ROOT, runThoth, type CommandRun } from './helpers';

const thothMatch = (args: string[]): Promise<CommandRun> => runThoth(['match', ...args]);

describe('thoth match on the command line', () => {
  it('exit codes: 2 for a bad setting, 1 for an engine that cannot start; one line, no stack', async () => {
    const [noTc, bogus, quote, missing] = await Promise.all([
      thothMatch(['-engine', 'cmd=/nonexistent', '-engine', 'cmd=/nonexistent']),
      thothMatch(['-engine', 'cmd=a', 'tc=1', '-engine', 'cmd=b', 'tc=1', '-bogus']),
      thothMatch(['-engine', 'cmd=node "x', 'tc=1', '-engine', 'cmd=b', 'tc=1']),
      thothMatch(['-engine', 'cmd=/nonexistent', 'tc=1', '-engine', 'cmd=/nonexistent', 'tc=1']),
    ]);
    expect(noTc).toMatchObject({ code: 2, err: 'thoth match: -engine #1 has no time control (tc=, st=, depth= or nodes=, or give them with -each)\n' });
    expect(bogus).toMatchObject({ code: 2, err: 'thoth match: unknown flag -bogus\n' });
    expect(quote).toMatchObject({ code: 2, err: 'thoth match: -engine #1 cmd=: unclosed " quote (opened at character 6)\n' });
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^thoth match: engine 'nonexistent' cannot start: cannot run '\/nonexistent': .*ENOENT \(command: \/nonexistent\)\n$/);
  });

  it('Ctrl-C on the command: a clean end with the results so far, and the records saved', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'g.pgn');
    const script = fakeEngineScript();
    const child = spawn(process.execPath, [
      '--import', 'tsx', CLI_SOURCE, 'match',
      '-engine', 'cmd=node', `args=${script} --delay 30`, 'name=A', '-engine', 'cmd=node', `args=${script} --delay 30`, 'name=B',
      '-each', 'tc=10+0.1', '-rounds', '1000', '-pgnout', pgn,
    ], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let sent = false;
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (!sent && /Finished game/.test(out)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(0);
    expect(err).toContain('Interrupted');
    expect(out).toMatch(/Score of A vs B: /);
    expect(out).toMatch(/Match interrupted after (\d+) games/);
    const n = Number(/Match interrupted after (\d+) games/.exec(out)![1]);
    expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(n);
  });
});
