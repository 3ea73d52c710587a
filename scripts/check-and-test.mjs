#!/usr/bin/env node
// `npm test` after the build: the type check and the tests at once. tsc uses one core for about
// half a minute while the first test files still leave a core free, so running them side by side
// saves that time. tsc's output is held until it ends, then printed whole; the exit code is the
// first non-zero of the two (tsc's if both fail). Arguments go to vitest (`-- --project fast`).
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const tsc = spawn(bin('tsc'), ['--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] });
let tscOut = '';
tsc.stdout.on('data', (d) => (tscOut += d));
tsc.stderr.on('data', (d) => (tscOut += d));
const tscDone = new Promise((resolve) => tsc.on('close', (code) => resolve(code ?? 1)));
const vitest = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const vitestDone = new Promise((resolve) => vitest.on('close', (code) => resolve(code ?? 1)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => [tsc, vitest].forEach((p) => p.kill(sig)));

const tscCode = await tscDone;
process.stdout.write(
  tscCode === 0 ? 'tsc --noEmit: no type errors\n' : `tsc --noEmit failed (exit ${tscCode}):\n${tscOut}`,
);
const vitestCode = await vitestDone;
if (tscCode !== 0) process.stdout.write(`tsc --noEmit failed (exit ${tscCode}): see above\n`);
process.exit(tscCode || vitestCode);
