/**
 * tools/dead-exports.ts: no value that src/ exports (the GUI page included) goes unimported, but the
 * typed error of an exported parse function (its result's type). Types that only name the shape of
 * an exported function's argument or result are that module's interface, and are not checked.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function run(...args: string[]): { lines: string[]; status: number | null } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/dead-exports.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { lines: r.stdout.split('\n').filter(Boolean), status: r.status };
}

describe('dead exports', () => {
  it('finds an export that nobody imports (the interface types of the page are listed)', () => {
    const { lines, status } = run('src/gui/page');
    expect(status).toBe(0);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('src/ exports no value that nobody imports, the GUI page included', () => {
    const { lines, status } = run('--values');
    expect(status).toBe(0);
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(['RedisUrlError', 'TrustError']);
  });
});
