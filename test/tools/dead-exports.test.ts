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

  it('fails on a top-level function copied into a second file, exported or not', () => {
    const clip = "const clip = (s: string): string => (s.length > 9 ? s.slice(0, 9) + '…' : s);\n";
    const twice = runIn(
      tree({
        'src/process/stderr.ts': `${clip}export const a = clip('x');\n`,
        'src/match/engine.ts': `/** a copy */\n${clip}export const b = clip('y');\n`,
        'test/use.test.ts':
          "import { a } from '../src/process/stderr';\nimport { b } from '../src/match/engine';\nexport const x = [a, b];\n",
      }),
    );
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain('defined twice: clip (src/match/engine.ts:2, src/process/stderr.ts:1)');
  });

  it('fails on a regular expression copied into a second file; short idioms and a default export pass', () => {
    const files = (re: string): Record<string, string> => ({
      'src/gui/filter.ts': `export const ok1 = (t: string): boolean => ${re}.test(t);\n`,
      'src/cli/stats.ts': `\nexport const ok2 = (t: string): boolean => ${re}.test(t);\n`,
      'test/use.test.ts':
        "import { ok1 } from '../src/gui/filter';\nimport { ok2 } from '../src/cli/stats';\nexport const x = [ok1, ok2];\n",
    });
    const move = '/^[a-j][1-8](?:[a-j][1-8]u?|[+\\-RL])$/';
    const twice = runIn(tree(files(move)));
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain(`defined twice: ${move} (src/cli/stats.ts:2, src/gui/filter.ts:1)`);
    const idiom = runIn(
      tree({
        ...files('/^\\d+$/'),
        'src/threads/a-worker.ts': 'export default function run(): number {\n  return 1;\n}\n',
        'src/threads/b-worker.ts': 'export default function run(): number {\n  return 2;\n}\n',
      }),
    );
    expect(idiom.status, idiom.stderr).toBe(0);
    expect(idiom.stderr).not.toContain('defined twice');
  });

  it('lets a listed coincidence pass', () => {
    const now = 'const now = (): number => performance.now();\n';
    const r = runIn(
      tree({
        'src/gui/page/controller.ts': `${now}export const a = now();\n`,
        'src/match/referee.ts': `${now}export const b = now();\n`,
        'test/use.test.ts':
          "import { a } from '../src/gui/page/controller';\nimport { b } from '../src/match/referee';\nexport const x = [a, b];\n",
      }),
    );
    expect(r.status, r.stderr).toBe(0);
  });
});
