/**
 * The network's kernels in a real Chromium (the GUI's browser): the page bundle compiles the
 * WebAssembly SIMD module on the main thread and gets the same results as the JavaScript kernels.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, theBrowser } from '../gui/browser';
import { CHROMIUM, ROOT } from '../gui/helpers';
import type { PageResult } from './fixtures/kernels-page';
import { stretched } from '../slowness';

if (!HAVE_CHROMIUM)
  console.warn(`NNUE browser test SKIPPED: ${CHROMIUM} is missing (Debian: apt-get install chromium).`);

describe.skipIf(!HAVE_CHROMIUM)('NNUE kernels in Chromium', () => {
  it(
    'runs the SIMD kernels, with the results of the JavaScript ones',
    async () => {
      const bundle = await build({
        entryPoints: [path.join(ROOT, 'test/nnue/fixtures/kernels-page.ts')],
        bundle: true,
        write: false,
        platform: 'browser',
        format: 'iife',
        globalName: 'kernelsPage',
        target: 'es2022',
        logLevel: 'error',
      });
      const page = await (await theBrowser()).newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setContent('<!doctype html><title>kernels</title>');
      await page.addScriptTag({ content: bundle.outputFiles[0].text });
      const r = await page.evaluate(() =>
        (globalThis as unknown as { kernelsPage: { run(): PageResult } }).kernelsPage.run(),
      );
      expect(errors).toEqual([]);
      expect(r.simd).toBe(true);
      expect(r.autoKind).toBe('simd16');
      for (const kind of ['simd16', 'simd']) {
        expect(r.checks[kind].compared).toBeGreaterThan(150);
        expect(r.checks[kind].differ).toBe(0);
      }
    },
    stretched(30000),
  );
});
