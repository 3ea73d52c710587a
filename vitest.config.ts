import { readFileSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { patientForks } from './test/patient-forks.js';
import { SLOWNESS_BORNE } from './test/slowness.js';

/** Test files that drive a real Chromium: those that use the browser harness (test/gui/browser.ts). */
function browserTests(dir = 'test'): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...browserTests(p));
    else if (e.name.endsWith('.test.ts') && /from '\.\/browser'|HAVE_CHROMIUM/.test(readFileSync(p, 'utf8')))
      out.push(p.split(path.sep).join('/'));
  }
  return out;
}

/**
 * The slow kinds of test, by what they start: a browser, a Redis server, real matches between
 * engine processes, the package as npm packs it, the shipped puzzles proved again, and the files
 * that compute for ten seconds or more. `npm test` (and CI) runs every test; `npm run test:fast`
 * (with the type check, in under two minutes on two cores) runs everything but these. A browser test is one that uses the browser harness; the other kinds are listed by path.
 */
export const SLOW = [
  // a real Chromium
  ...browserTests(),
  // a real redis-server
  'test/distributed/**/*.test.ts',
  // real matches between engine processes
  'test/match/e2e-*.test.ts',
  'test/cli/match.test.ts',
  'test/cli/tune.test.ts',
  // README's tour as written: a match and the review of one of its games; docs/cli.md's examples likewise
  'test/readme-tour.test.ts',
  'test/docs-examples.test.ts',
  // every shipped puzzle proved again by the solver
  'test/puzzles/shipped.test.ts',
  // the package as npm packs and installs it
  'test/core/library.test.ts',
  // CPU-bound for ten seconds or more on two cores: random games, perft, solvers, many searches
  'test/core/properties.*.test.ts',
  'test/core/perft-bulk.test.ts',
  'test/core/threats.test.ts',
  'test/search/forced-wins.test.ts',
  'test/search/pharaoh-hit.test.ts',
  'test/analysis/review-repetition.test.ts',
  'test/search/params.test.ts',
  'test/protocol/lifecycle.test.ts',
  'test/node/search-pool.test.ts',
  'test/threads/engine-threads.test.ts',
  // fifteen seconds or more each in the fast project (2026-12-04): the whole source tree read by
  // tsx, puzzle mining, reviews by engine processes, timed searches, fuzzed records, replayed searches
  'test/tools/dead-exports.test.ts',
  'test/cli/puzzles.test.ts',
  'test/cli/db.test.ts',
  'test/cli/analyse.test.ts',
  'test/protocol/movetime.test.ts',
  'test/core/record-fuzz.test.ts',
  'test/search/determinism.test.ts',
  // the engine of thoth gui under a minute of the page's traffic (games, reviews, analysis, puzzles)
  'test/protocol/gui-soak.test.ts',
];

/**
 * Files that run longest (15 s or more in a run of 2026-12-04 evening), longest first. They start first, so that the browser,
 * Redis and match files, which mostly wait on other processes, overlap the CPU-bound ones instead of
 * queueing behind them at the end. Only the order depends on this list: a stale entry costs time,
 * never a result.
 */
const LONGEST = [
  'test/gui/player.test.ts',
  'test/distributed/datagen.test.ts',
  'test/gui/e2e.test.ts',
  'test/puzzles/shipped.test.ts',
  'test/gui/faults.test.ts',
  'test/gui/players.test.ts',
  'test/distributed/e2e.test.ts',
  'test/gui/puzzles.test.ts',
  'test/readme-tour.test.ts',
  'test/gui/learn.test.ts',
  'test/gui/smaller.test.ts',
  'test/distributed/datagen-faults.test.ts',
  'test/node/search-pool.test.ts',
  'test/search/forced-wins.test.ts',
  'test/gui/web.test.ts',
  'test/protocol/lifecycle.test.ts',
  'test/match/e2e-faults.test.ts',
  'test/gui/share.test.ts',
  'test/web/pool-hosts.test.ts',
  'test/tools/dead-exports.test.ts',
  'test/cli/commands.test.ts',
  'test/cli/puzzles.test.ts',
  'test/cli/match.test.ts',
  'test/core/library.test.ts',
  'test/gui/review-parity.test.ts',
];

/** Test files that are fixtures of other tests (a run that leaves things behind: test/tools/leftovers.test.ts). */
const FIXTURES = 'test/**/fixtures/**';

const WORKERS = availableParallelism() + 2;
/** As many Chromium files at once as test/gui/browser.ts lets run (its BROWSER_SLOTS). */
const BROWSER_SLOTS = 4;
const BROWSER = new Set(browserTests());

/**
 * Vitest's own order runs one project after the other; this one runs `LONGEST` first, then larger
 * files first, except that no more browser files start next to each other than there are browser
 * slots: a worker whose file waits for a slot idles, while another file could use the core.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rel = (f: TestSpecification): string =>
      path.relative(f.project.config.root, f.moduleId).split(path.sep).join('/');
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.indexOf(rel(f));
      return i < 0 ? LONGEST.length : i;
    };
    const left = [...files].sort((a, b) => rank(a) - rank(b) || statSync(b.moduleId).size - statSync(a.moduleId).size);
    const out: TestSpecification[] = [];
    while (left.length > 0) {
      const near = out.slice(-(WORKERS - 1)).filter((f) => BROWSER.has(rel(f))).length;
      const i = near < BROWSER_SLOTS ? 0 : left.findIndex((f) => !BROWSER.has(rel(f)));
      out.push(...left.splice(Math.max(i, 0), 1));
    }
    return out;
  }
}

/**
 * A test's (and a hook's) own timeout: three minutes on an idle machine, times the slowness the
 * suite is built to bear (test/slowness.ts, SLOWNESS_BORNE: ten), whatever the machine is like as
 * the run starts: the load can rise after. A run that started beside other clones' `npm ci` at 4.2×
 * ran at 15× half an hour later, beside their suites and datagen (2026-12-07): timeouts set from the
 * 4.2 leave a test that takes 47 s on an idle machine 630 s where it needs 700. A test's waits are scaled as they wait (test/patience.ts)
 * and fail by their own idle-machine bounds, naming what they waited for, long before this. The
 * factor can be set: `THOTH_TEST_SLOWNESS=1 npm test` keeps the idle machine's timeouts.
 */
const SLOWNESS = Number(process.env.THOTH_TEST_SLOWNESS) || SLOWNESS_BORNE;
process.env.THOTH_TEST_SLOWNESS ||= String(SLOWNESS);
const TIMEOUT_MS = Math.round(180_000 * SLOWNESS);

export default defineConfig({
  test: {
    testTimeout: TIMEOUT_MS,
    hookTimeout: TIMEOUT_MS,
    // Vitest's forks, patient with a slow machine: a worker process gets 60 s of an idle machine's
    // time to start (counted as the slowness is while it starts), not Vitest's fixed 60 s
    // (test/patient-forks.ts).
    pool: patientForks(60_000),
    // A run, and each file in it, owns what it starts: a temporary folder and its processes, ended
    // with it (scripts/suite-owned.mjs; the run's: suite-global.mjs, a file's: test/setup.ts).
    globalSetup: ['scripts/suite-global.mjs'],
    setupFiles: ['test/setup.ts'],
    // Test files load src/ natively through tsx, not through Vite's module runner: the runner's
    // rewritten imports (every imported name read off a module object) made the engine's hot loops
    // about four times slower (the shipped puzzles' proof: 76 CPU-seconds, natively 18; 2026-12-04).
    // Neither module mocking nor in-source tests are used, so its loader hooks are off too.
    execArgv: ['--import', 'tsx'],
    experimental: { viteModuleRunner: false, nodeLoader: false },
    // Most files wait on engines, browsers and servers more than they compute: two more files than
    // there are cores keep the cores busy (Vitest's default is one fewer; with one more, a run on
    // two cores used 1.3 of them on average: 731 CPU-seconds in 549 s, 2026-12-04).
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
    // One project, its files sharing their workers' modules (`isolate: false`): a worker goes on
    // from one file to the next instead of a new process importing the engine afresh for each file.
    // Vitest keeps a worker only when the next file in its queue is of the same project, so three
    // projects (fast, slow, browser), their files interleaved by LongestFirst above, cost a process a
    // file: 116 workers, about 170 of a run's 1,460 CPU-seconds (2026-12-07). A helper that sets
    // up something for a file undoes it when the file ends (test/file-end.ts).
    isolate: false,
    include: ['test/**/*.test.ts'],
    // `npm run test:fast` (scripts/check-and-test.mjs --fast) leaves out the slow files
    exclude: process.env.THOTH_TEST_FAST === '1' ? [...SLOW, FIXTURES] : [FIXTURES],
  },
});
