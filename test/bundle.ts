/**
 * A fixture program written in TypeScript (a fake engine), bundled once per test worker into one
 * plain .mjs file: it starts in about 50 ms of CPU, where `node --import tsx` spends about 400 ms
 * loading tsx and its transform for each process (2026-12-07). The file goes into the folder the
 * run's files share (scripts/suite-owned.mjs), so that it outlives the file that built it.
 */
import { buildSync } from 'esbuild';
import path from 'node:path';
import { sharedFolder } from '../scripts/suite-owned.mjs';

const built = new Map<string, string>();

/** The bundled file of `source` (named `<its name>-<this worker's pid>.mjs` in the shared `folder`). */
export function bundledFixture(source: string, folder: string): string {
  const known = built.get(source);
  if (known) return known;
  const out = path.join(sharedFolder(folder), `${path.basename(source, '.ts')}-${process.pid}.mjs`);
  buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  });
  built.set(source, out);
  return out;
}
