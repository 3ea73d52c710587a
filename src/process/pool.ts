/**
 * The piscina pools of worker threads (the search threads, parallel perft, datagen's games): a
 * fixed number of threads running one worker entry point, and single worker threads outside a
 * pool (the trainer's). The caller names the entry point: its source in src/threads, as a `new
 * URL` of the path from the caller and `import.meta.url`, so that the import is written where the
 * threads are started, where test/layers.test.ts sees it. The thread runs that file when
 * running from `src/` (tests, tsx; through tsx), and from the build its bundle of the same name,
 * `dist/<name>.js`, beside this one (every bundle sits in dist/; build.mjs bundles each entry
 * point of src/threads).
 */
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Piscina } from 'piscina';

/** The file a thread on `entry` runs: the source from the source, its bundle in dist/ from the build. */
function threadFile(entry: URL): string {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return fileURLToPath(entry);
  return join(dirname(fileURLToPath(here)), `${basename(fileURLToPath(entry)).replace(/\.ts$/, '')}.js`);
}

/**
 * A pool of exactly `threads` workers. `idleTimeout` is how long an idle thread lives (Infinity:
 * its compiled code and state survive between tasks). A thread takes its tasks as messages, its
 * event loop running between them: piscina's default, waiting with Atomics.wait and reading the
 * next task straight off its port, never let the loop run, and a port the thread closed (a
 * search's port for its reports) is only let go there: every search left one behind (docs/gui.md,
 * "The engine's memory").
 */
export function workerPool(entry: URL, threads: number, idleTimeout = Infinity): Piscina {
  const here = import.meta.url;
  const source = here.endsWith('.ts');
  // loaded here, not on import: most of the commands start no pool; written as one call, the
  // form a distributed build reads to pack the package (src/distributed/builds.ts, packagesLoaded)
  const { Piscina: Pool } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
  return new Pool({
    filename: threadFile(entry),
    execArgv: source ? ['--import', 'tsx'] : [],
    minThreads: threads,
    maxThreads: threads,
    idleTimeout,
    concurrentTasksPerWorker: 1,
    atomics: 'disabled',
  });
}

/**
 * A plain worker thread on entry point `entry`, outside a pool. From the source the thread first
 * registers tsx and then imports the entry point: a plain worker's entry point is loaded before
 * `--import tsx` in its execArgv would take effect.
 */
export function startWorker(entry: URL, workerData: unknown): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(threadFile(entry), { workerData });
  const require = createRequire(here);
  const pkg = require.resolve('tsx/package.json');
  const exports = (require(pkg) as { exports: Record<string, { import: { default: string } }> }).exports;
  const api = pathToFileURL(join(dirname(pkg), exports['./esm/api'].import.default)).href;
  return new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
    {
      eval: true,
      workerData,
    },
  );
}
