/**
 * The rules core as a library (`thoth/core`): the package is packed as npm would publish it,
 * installed into a scratch project (offline, from npm's cache, with a lockfile of the same
 * dependencies), and docs/library.md's example is run with node and type-checked against the installed
 * declarations.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stretched } from '../slowness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: stretched(120_000) });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The library's example: the first ```js block of docs/library.md. */
function libraryExample(): string {
  const readme = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
  const at = readme.indexOf('# The rules as a library');
  const m = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !m) throw new Error('docs/library.md has no library example');
  return m[1];
}

describe('thoth/core, installed from a packed tarball', () => {
  it("docs/library.md's example runs with node and type-checks against the installed declarations", () => {
    expect(existsSync(join(ROOT, 'dist/lib/core.js')), 'npm run build makes dist/lib/core.js').toBe(true);
    run(process.execPath, ['build.mjs', '--types'], ROOT);
    const packDir = mkdtempSync(join(tmpdir(), 'thoth-pack-'));
    dirs.push(packDir);
    run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packDir], ROOT);
    const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'))!;
    const scratch = mkdtempSync(join(tmpdir(), 'thoth-user-'));
    dirs.push(scratch);
    copyFileSync(join(packDir, tgz), join(scratch, tgz));
    // A lockfile with the package and its dependencies as the repository pins them: `npm ci
    // --offline` then installs from npm's cache (filled by the repository's own `npm ci`).
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const repoLock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    const packages: Record<string, unknown> = {
      '': { name: 'scratch', dependencies: { thoth: `file:${tgz}` } },
      'node_modules/thoth': {
        version: pkg.version,
        resolved: `file:${tgz}`,
        license: pkg.license,
        dependencies: pkg.dependencies,
        bin: pkg.bin,
        engines: pkg.engines,
      },
    };
    for (const [k, v] of Object.entries(repoLock.packages as Record<string, { dev?: boolean }>))
      if (k !== '' && !v.dev) packages[k] = v;
    writeFileSync(
      join(scratch, 'package-lock.json'),
      JSON.stringify({ name: 'scratch', lockfileVersion: 3, requires: true, packages }),
    );
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { thoth: `file:${tgz}` } }),
    );
    run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--silent'], scratch);

    const example = libraryExample();
    writeFileSync(join(scratch, 'example.mjs'), example);
    const out = run(process.execPath, ['example.mjs'], scratch);
    expect(out).toMatch(/^77 legal moves, e\.g\. \S+ \S+ \S+$/m);
    expect(out).toContain('perft(3) = 451859');
    expect(out).toMatch(/ r 0 1 \| Red to move$/m);
    // The same code as TypeScript, against the package's declarations, resolved through `exports`.
    writeFileSync(join(scratch, 'example.ts'), example);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['example.ts'],
      }),
    );
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], scratch);
    // The command comes with it.
    expect(run(process.execPath, ['node_modules/thoth/bin/thoth.js', 'perft', '2'], scratch)).toMatch(
      /^Nodes searched: \d+$/m,
    );
  });
});
