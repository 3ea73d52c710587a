import { defineConfig } from 'vitest/config';

/**
 * The slow kinds of test, by what they start: a browser, a Redis server, real matches between
 * engine processes, the package as npm packs it. `npm test` (and CI) runs every test;
 * `npm run test:fast` runs the project `fast`, everything but these.
 */
export const SLOW = [
  // a real Chromium
  'test/gui/e2e.test.ts',
  'test/gui/faults.test.ts',
  'test/gui/web.test.ts',
  'test/gui/*.browser.test.ts',
  'test/nnue/kernels-browser.test.ts',
  // a real redis-server
  'test/distributed/**/*.test.ts',
  // real matches between engine processes
  'test/match/e2e-*.test.ts',
  'test/cli/match.test.ts',
  // the package as npm packs and installs it
  'test/core/library.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
