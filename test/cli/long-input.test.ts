/**
 * A command line with a word of 20,000 characters is answered as the protocol answers one: one
 * line on stderr quoting at most ~200 characters of it (then `… (N characters)`), exit code 2.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../bin/thoth.js', import.meta.url));
const X = 'x'.repeat(20_000);

function thoth(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b) => (stdout += b));
    p.stderr.on('data', (b) => (stderr += b));
    p.on('close', (status) => done({ status, stdout, stderr }));
  });
}

const CASES: string[][] = [
  [X],
  ['help', X],
  [`--${X}`],
  ['perft', '--moves', X, '2'],
  ['stats', X],
  ['stats', join('/tmp', X)],
  ['genfens', X],
  ['match', `-${X}`],
  ['match', '-engine', 'cmd=a', '-engine', 'cmd=b', '-each', 'depth=1', '-openings', `file=${X}`],
];

describe('a word of 20,000 characters on the command line', () => {
  it('is quoted clipped in one line, exit 2', async () => {
    const runs = await Promise.all(CASES.map(thoth));
    runs.forEach((r, i) => {
      const what = `thoth ${CASES[i].join(' ').replace(X, 'x×20000')}: ${r.stderr.slice(0, 300)}`;
      expect(r.status, what).toBe(2);
      expect(r.stdout, what).toBe('');
      expect(r.stderr.split('\n'), what).toHaveLength(2); // one line and its newline
      expect(r.stderr, what).toMatch(/^thoth[ :]/);
      expect(r.stderr.length, what).toBeLessThan(400);
      expect(r.stderr, what).toMatch(/x{150,200}… \(2000\d characters\)/);
      expect(r.stderr, what).not.toMatch(/x{201}/);
    });
  });
});
