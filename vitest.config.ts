import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** Test files that drive a real Chromium: those that use the browser harness (test/gui/browser.ts). */
function browserTests(dir = 'test'): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...browserTests(p));
    else if (e.name.endsWith('.test.ts') && /from '\.\/browser'|HAVE_CHROMIUM/.test(readFileSync(p, 'utf8'))) out.push(p.split(path.sep).join('/'));
  }
  return out;
}

/**
 * The slow kinds of test, by what they start: a browser, a Redis server, real matches between
 * engine processes, the package as npm packs it, the shipped puzzles proved again. `npm test` (and CI) runs every test;
 * `npm run test:fast` runs the project `fast`, everything but these. A browser test is one that
 * uses the browser harness; the other kinds are listed by path.
 */
export const SLOW = [
  // a real Chromium
  ...browserTests(),
  // a real redis-server
  'test/distributed/**/*.test.ts',
  // real matches between engine processes
  'test/match/e2e-*.test.ts',
  'test/cli/match.test.ts',
  // every shipped puzzle proved again by the solver
  'test/puzzles/shipped.test.ts',
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
