// Builds dist/: the CLI and each worker as its own entry point (piscina loads workers by file
// name, so they cannot be bundled into the CLI). Packages stay external.
import { build } from 'esbuild';

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
