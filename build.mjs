// Builds dist/: the CLI and each worker as its own entry point (piscina loads workers by file
// name, so they cannot be bundled into the CLI). Packages stay external.
import { build } from 'esbuild';

const entries = [
  { in: 'src/cli.ts', out: 'cli' },
  { in: 'src/threads/perft-worker.ts', out: 'perft-worker' },
  { in: 'src/threads/search-worker.ts', out: 'search-worker' },
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

// The browser GUI (`thoth gui`): the page's TypeScript bundled for the browser, and its static
// files, into dist/gui/ (the only folder the GUI server serves).
{
  const { cpSync, mkdirSync } = await import('node:fs');
  mkdirSync('dist/gui', { recursive: true });
  await build({
    entryPoints: ['src/gui/page/main.ts'],
    outfile: 'dist/gui/app.js',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    logLevel: 'warning',
  });
  cpSync('src/gui/static', 'dist/gui', { recursive: true });
}

// The status page of distributed runs (`thoth match-status … --page`), into dist/status/.
{
  const { cpSync, mkdirSync } = await import('node:fs');
  mkdirSync('dist/status', { recursive: true });
  await build({
    entryPoints: ['src/distributed/page/main.ts'],
    outfile: 'dist/status/app.js',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    logLevel: 'warning',
  });
  cpSync('src/distributed/page/static', 'dist/status', { recursive: true });
}
