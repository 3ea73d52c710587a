/**
 * The piscina pools of worker threads (the search threads, parallel perft, datagen's games): a
 * fixed number of threads running one worker entry point, `dist/<name>.js` when running from the build, or the
 * TypeScript source (loaded through tsx) when running from `src/` (tests, tsx).
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

export type WorkerName = 'search-worker' | 'perft-worker' | 'datagen-worker';

/**
 * A pool of exactly `threads` workers. `idleTimeout` is how long an idle thread lives (Infinity:
 * its compiled code and state survive between tasks).
 */
export function workerPool(name: WorkerName, threads: number, idleTimeout = Infinity): Piscina {
  const here = import.meta.url;
  const source = here.endsWith('.ts');
  return new Piscina({
    filename: fileURLToPath(new URL(`./${name}.${source ? 'ts' : 'js'}`, here)),
    execArgv: source ? ['--import', 'tsx'] : [],
    minThreads: threads,
    maxThreads: threads,
    idleTimeout,
    concurrentTasksPerWorker: 1,
  });
}
