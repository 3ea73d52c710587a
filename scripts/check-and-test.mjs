#!/usr/bin/env node
// `npm test` after the build: the type check and the tests at once. tsc uses one core for about
// half a minute while the first test files still leave a core free, so running them side by side
// saves that time. tsc's output is held until it ends, then printed whole; the exit code is the
// first non-zero of the two (tsc's if both fail). `--fast` leaves out the slow files (`npm run
// test:fast`: vitest.config.ts's SLOW); the other arguments go to vitest.
//
// The tests run with a mark in their environment and a temporary folder of their own
// (scripts/suite-owned.mjs): when vitest has ended, a process still running with the mark (its
// workers, an engine, a server, a browser any test started) or anything left in the folder fails
// the run, named; then they are ended and removed. (Each test file is checked so at its end too:
// test/setup.ts.)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  RUN_MARK,
  RUN_TMP,
  SYSTEM_TMP,
  describeProcesses,
  graceMs,
  killAll,
  leftInFolder,
  removeStaleRuns,
  shareTsxCache,
  stillRunning,
} from './suite-owned.mjs';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
// `--no-typecheck`: the tests alone (one file with the check of what it leaves)
const args = process.argv.slice(2);
const typecheck = !args.includes('--no-typecheck');
const fast = args.includes('--fast');
const vitestArgs = args.filter((a) => a !== '--fast' && a !== '--no-typecheck');
const tsc = typecheck ? spawn(bin('tsc'), ['--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] }) : undefined;
let tscOut = '';
tsc?.stdout.on('data', (d) => (tscOut += d));
tsc?.stderr.on('data', (d) => (tscOut += d));
const tscDone = new Promise((resolve) => (tsc ? tsc.on('close', (code) => resolve(code ?? 1)) : resolve(0)));

const system = tmpdir();
// the folders of earlier runs that were killed (Ctrl-C twice, a machine's limit) go first
for (const name of removeStaleRuns(system)) process.stdout.write(`Removed ${name}, left by a run that was killed\n`);
const runTmp = mkdtempSync(path.join(system, 'thoth-run-'));
shareTsxCache(runTmp, system);
const run = randomUUID();
const env = { ...process.env, TMPDIR: runTmp, [RUN_TMP]: runTmp, [SYSTEM_TMP]: system, [RUN_MARK]: run };
if (fast) env.THOTH_TEST_FAST = '1';
const vitest = spawn(bin('vitest'), ['run', ...vitestArgs], { stdio: 'inherit', env });
const vitestDone = new Promise((resolve) => vitest.on('close', (code) => resolve(code ?? 1)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => [tsc, vitest].forEach((p) => p?.kill(sig)));

const tscCode = await tscDone;
if (typecheck)
  process.stdout.write(
    tscCode === 0 ? 'tsc --noEmit: no type errors\n' : `tsc --noEmit failed (exit ${tscCode}):\n${tscOut}`,
  );
const vitestCode = await vitestDone;
if (tscCode !== 0) process.stdout.write(`tsc --noEmit failed (exit ${tscCode}): see above\n`);

const running = await stillRunning(RUN_MARK, run, graceMs(), runTmp);
killAll(running);
const files = leftInFolder(runTmp);
rmSync(runTmp, { recursive: true, force: true });
let leftCode = 0;
if (running.length > 0) {
  leftCode = 1;
  process.stdout.write(
    [`The tests left ${running.length} process(es) running (now ended):`, ...describeProcesses(running), ''].join('\n'),
  );
}
if (files.length > 0) {
  leftCode = 1;
  process.stdout.write(
    [
      `The tests left ${files.length} temporary file(s) or folder(s) (now removed):`,
      ...files.map((f) => `  ${f}`),
      '',
    ].join('\n'),
  );
}
process.exit(tscCode || vitestCode || leftCode);
