/**
 * Locates a worker entry point: `dist/<name>.js` when running from the build, or the TypeScript
 * source (loaded through tsx) when running from `src/` (tests, tsx).
 */
import { fileURLToPath } from 'node:url';

export interface WorkerFile {
  filename: string;
  execArgv: string[];
}

export function workerFile(name: string): WorkerFile {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return { filename: fileURLToPath(new URL(`./${name}.ts`, here)), execArgv: ['--import', 'tsx'] };
  }
  return { filename: fileURLToPath(new URL(`./${name}.js`, here)), execArgv: [] };
}
