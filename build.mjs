// Builds dist/: the CLI and each worker as its own entry point (piscina loads workers by file
// name, so they cannot be bundled into the CLI), the browser GUI, and the library (`thoth/core`:
// dist/lib/core.js). Packages stay external. `node build.mjs --types` writes the library's type
// declarations instead (dist/types/; `npm run prepare` does both).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

if (process.argv.includes('--types')) {
  // tsc with the library's settings: no DOM and no Node types, so the rules core is proven pure.
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // Relative imports get their `.js`, so that declarations resolve under every moduleResolution.
  const dir = 'dist/types/core';
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.d.ts')) continue;
    const file = join(dir, f);
    const text = readFileSync(file, 'utf8').replace(/(from\s+['"])(\.\.?\/[^'"]+?)(['"])/g, (m, a, spec, b) => (spec.endsWith('.js') ? m : `${a}${spec}.js${b}`));
    writeFileSync(file, text);
  }
  process.exit(0);
}

const entries = [
  { in: 'src/cli.ts', out: 'cli' },
  { in: 'src/threads/perft-worker.ts', out: 'perft-worker' },
  { in: 'src/threads/search-worker.ts', out: 'search-worker' },
  { in: 'src/threads/datagen-worker.ts', out: 'datagen-worker' },
  { in: 'src/threads/train-worker.ts', out: 'train-worker' },
];

await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

// The library: the rules core and the record format, for Node and browsers alike.
await build({
  entryPoints: ['src/core/index.ts'],
  outfile: 'dist/lib/core.js',
  bundle: true,
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
});

// A page for the browser: its TypeScript bundled, and its static files, into one folder of dist/
// (the only folder its server serves).
async function browserPage(entry, staticDir, outDir) {
  const { cpSync, mkdirSync } = await import('node:fs');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: `${outDir}/app.js`,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    logLevel: 'warning',
  });
  cpSync(staticDir, outDir, { recursive: true });
}

// The browser GUI (`thoth gui`), and the status page of distributed runs (`thoth match-status … --page`).
await browserPage('src/gui/page/main.ts', 'src/gui/static', 'dist/gui');
await browserPage('src/distributed/page/main.ts', 'src/distributed/page/static', 'dist/status');
