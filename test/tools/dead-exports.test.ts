/**
 * tools/dead-exports.ts: no value that src/ exports (the GUI page included) goes unimported, but the
 * typed error of an exported parse function (its result's type). Types that only name the shape of
 * an exported function's argument or result are that module's interface, and are not checked.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function run(...args: string[]): { lines: string[]; status: number | null; stderr: string } {
  return runIn(undefined, ...args);
}

/** The tool over another tree (DEAD_EXPORTS_ROOT), or over this repository. */
function runIn(
  root: string | undefined,
  ...args: string[]
): { lines: string[]; status: number | null; stderr: string } {
  const env = root === undefined ? process.env : { ...process.env, DEAD_EXPORTS_ROOT: root };
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/dead-exports.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
  });
  return { lines: r.stdout.split('\n').filter(Boolean), status: r.status, stderr: r.stderr };
}

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A scratch tree with the folders the tool reads and the given files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'thoth-dead-exports-'));
  scratch.push(root);
  for (const d of ['src/threads', 'test', 'bench', 'tools']) mkdirSync(path.join(root, d), { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), text);
  }
  return root;
}

describe('dead exports', () => {
  it('finds an export that nobody imports (the interface types of the page are listed)', () => {
    const { lines, status } = run('src/gui/page');
    expect(status).toBe(0);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('src/ exports no value that nobody imports, the GUI page included', () => {
    const { lines, status, stderr } = run('--values');
    expect(stderr).not.toContain('defined twice'); // one name, one thing (the tool's own list aside)
    expect(status).toBe(0);
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(['RedisUrlError', 'TrustError']);
  });

  it('fails on an exported name that two modules of src/ define, and names both places', () => {
    const use =
      "import { STOP as A } from '../src/search/control';\nimport { STOP as B } from '../src/train/control';\nexport const x = [A, B];\n";
    const twice = runIn(
      tree({
        'src/search/control.ts': 'export const STOP = 0;\n',
        'src/train/control.ts': '/** another word */\nexport const STOP = 2;\n',
        'test/use.test.ts': use,
      }),
    );
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain('defined twice: STOP (src/search/control.ts:1, src/train/control.ts:2)');
    const once = runIn(
      tree({
        'src/search/control.ts': 'export const STOP = 0;\n',
        'src/train/control.ts': 'export const TRAIN_STOP = 2;\n',
        'test/use.test.ts':
          "import { STOP } from '../src/search/control';\nimport { TRAIN_STOP } from '../src/train/control';\nexport const x = [STOP, TRAIN_STOP];\n",
      }),
    );
    expect(once.status, once.stderr).toBe(0);
    expect(once.stderr).not.toContain('defined twice');
  });
});
