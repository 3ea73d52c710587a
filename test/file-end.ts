/**
 * What a helper module must undo when the test file that used it ends. Test workers run one file
 * after another with their modules kept (vitest.config.ts: `isolate: false`), so a helper cannot
 * register an `afterAll` when it is first imported: that hook would belong to the first file only.
 * Instead it calls {@link atFileEnd} when a file first uses it; test/setup.ts, which runs for every
 * file, calls {@link endFile} after the file's own hooks.
 */

const ends: Array<() => unknown> = [];

/** Runs `fn` when the current test file ends (after its own `afterAll` hooks), last registered first. */
export function atFileEnd(fn: () => unknown): void {
  ends.push(fn);
}

/** Runs and forgets what the file registered; the first error is thrown once all have run. */
export async function endFile(): Promise<void> {
  let first: unknown;
  for (const fn of ends.splice(0).reverse()) {
    try {
      await fn();
    } catch (e) {
      first ??= e;
    }
  }
  if (first !== undefined) throw first;
}
