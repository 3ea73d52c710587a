// Builds dist/: the CLI and each worker as its own entry point (piscina loads workers by file
// name, so they cannot be bundled into the CLI). Packages stay external.
import { build } from 'esbuild';

const entries = [
  { in: 'src/cli.ts', out: 'cli' },
  { in: 'src/threads/perft-worker.ts', out: 'perft-worker' },
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
