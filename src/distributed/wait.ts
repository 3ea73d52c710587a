/**
 * Waiting in the distributed runner's loops: a pause that an abort ends early, and a bounded wait
 * for a promise (closing connections to a Redis that may be gone). Shared by the match and
 * datagen coordinators and workers.
 */

/** Resolves after `ms`, or at once when `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Waits for `p` at most `ms`: its value, or undefined when it fails or takes longer. */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<undefined>((r) => (t = setTimeout(() => r(undefined), ms)))]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(t);
  }
}

/**
 * A job's own stop: its signal aborts when any of `signals` does (BullMQ's signal for the job, the
 * worker's kill); `release` unhooks it from them when the job ends.
 */
export function linkedStop(...signals: (AbortSignal | undefined)[]): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  for (const s of signals) s?.addEventListener('abort', abort, { once: true });
  return {
    signal: stop.signal,
    release: () => {
      for (const s of signals) s?.removeEventListener('abort', abort);
    },
  };
}
