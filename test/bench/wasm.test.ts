/**
 * The JavaScript-or-WebAssembly benchmarks (bench/wasm-*.mjs) on small sizes: every build of a
 * kernel must count what the engine counts (the scripts exit 1 otherwise), and bad arguments
 * exit 2. Timings are not checked here.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../protocol/spawn-engine';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bench', script), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });

describe('bench/wasm-perft.mjs', () => {
  beforeAll(() => assertBuilt());

  it('builds the kernel as JavaScript and as WebAssembly (32- and 64-bit words), all counting the engine’s perft(3)', () => {
    const r = run('wasm-perft.mjs', ['--depth', '3', '--rounds', '1']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const name of ['js', 'wasm', 'wasm64', 'engine']) expect(r.stdout).toMatch(new RegExp(`^${name} +median .* 451859 leaves`, 'm'));
  });

  it('exits 2 on a bad argument', () => {
    const r = run('wasm-perft.mjs', ['--depth', '9']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bad argument');
  });
});

describe('bench/wasm-trace.mjs', () => {
  beforeAll(() => assertBuilt());

  it('traces with the engine, JavaScript and WebAssembly to the same checksum', () => {
    const r = run('wasm-trace.mjs', ['--positions', '50', '--reps', '2', '--row', '2', '--rounds', '1']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const name of ['engine', 'js', 'wasm', 'wasm-call']) expect(r.stdout).toMatch(new RegExp(`^${name} +median`, 'm'));
  });

  it('exits 2 on a bad argument', () => {
    const r = run('wasm-trace.mjs', ['--positions']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bad argument');
  });
});
