/**
 * The network's kernels in a real Chromium (the GUI's browser): the page bundle compiles the
 * WebAssembly SIMD module on the main thread and gets the same results as the JavaScript kernels.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, ROOT } from '../gui/helpers';
import type { PageResult } from './fixtures/kernels-page';
import { stretched } from '../slowness';

const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM)
  console.warn(`NNUE browser test SKIPPED: ${CHROMIUM} is missing (Debian: apt-get install chromium).`);

describe.skipIf(!HAVE_CHROMIUM)('NNUE kernels in Chromium', () => {
  let browser: Browser | null = null;
  afterAll(async () => {
    await browser?.close();
  });

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
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const page = await browser.newPage();
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
