/**
 * The piscina pools of worker threads (the search threads, parallel perft, datagen's games): a
 * fixed number of threads running one worker entry point, `dist/<name>.js` when running from the
 * build (every bundle sits in dist/), or the TypeScript source `src/threads/<name>.ts` (loaded
 * through tsx) when running from `src/` (tests, tsx). And single worker threads outside a pool
 * (the trainer's).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';

export type WorkerName = 'search-worker' | 'perft-worker' | 'datagen-worker' | 'review-worker';

/** The entry point of worker `name`: beside the bundle in dist/, or in src/threads/ from the source. */
function entryUrl(name: string, here: string): URL {
  return here.endsWith('.ts') ? new URL(`../threads/${name}.ts`, here) : new URL(`./${name}.js`, here);
}

/**
 * A pool of exactly `threads` workers. `idleTimeout` is how long an idle thread lives (Infinity:
 * its compiled code and state survive between tasks).
 */
export function workerPool(name: WorkerName, threads: number, idleTimeout = Infinity): Piscina {
  const here = import.meta.url;
  const source = here.endsWith('.ts');
  return new Piscina({
    filename: fileURLToPath(entryUrl(name, here)),
    execArgv: source ? ['--import', 'tsx'] : [],
    minThreads: threads,
    maxThreads: threads,
    idleTimeout,
    concurrentTasksPerWorker: 1,
  });
}

/**
 * A plain worker thread on entry point `name`, outside a pool. From the source the thread first
 * registers tsx and then imports the entry point: a plain worker's entry point is loaded before
 * `--import tsx` in its execArgv would take effect.
 */
export function startWorker(name: 'train-worker', workerData: unknown): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(fileURLToPath(entryUrl(name, here)), { workerData });
  const require = createRequire(here);
  const pkg = require.resolve('tsx/package.json');
  const exports = (require(pkg) as { exports: Record<string, { import: { default: string } }> }).exports;
  const api = pathToFileURL(join(dirname(pkg), exports['./esm/api'].import.default)).href;
  const entry = entryUrl(name, here).href;
  return new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    {
      eval: true,
      workerData,
    },
  );
}
