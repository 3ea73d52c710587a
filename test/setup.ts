/**
 * Every test file owns what it starts (vitest's setupFiles: this runs before each file, and its
 * afterAll after the file's own, pass or fail). The file gets a temporary folder of its own
 * (TMPDIR, which os.tmpdir() and the programs it starts follow) and a mark in the environment
 * that every process it starts inherits. When the file ends, a process still running with its
 * mark, or working in its folder (one whose environment lost the mark), fails the file (named,
 * then ended), and the folder is removed with whatever is in it. What
 * files share lives in sharedFolder (scripts/suite-owned.mjs); the run is checked as a whole by
 * scripts/check-and-test.mjs.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { transform, transformSync } from 'esbuild';
import { afterAll, beforeAll, expect } from 'vitest';
import { endFile } from './file-end';
import {
  FILE_MARK,
  RUN_TMP,
  describeProcesses,
  graceMs,
  killAll,
  shareTsxCache,
  stillRunning,
  systemTmp,
} from '../scripts/suite-owned.mjs';

// esbuild's helper processes (one for its synchronous calls, one for the others) serve the whole
// worker for as long as it lives: started here, before the file's mark, they are not the file's.
transformSync('');
await transform('');

const parent = process.env[RUN_TMP] ?? systemTmp();
const folder = mkdtempSync(path.join(parent, 'f-'));
shareTsxCache(folder, systemTmp());
const mark = randomUUID();
process.env.TMPDIR = folder;
process.env[FILE_MARK] = mark;

/**
 * CPU time of this worker and of the children it has reaped (engines, browsers, servers), in ms:
 * /proc/self/stat's utime, stime, cutime and cstime. Linux only; 0 elsewhere.
 */
function cpuMsNow(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100;
  } catch {
    return 0;
  }
}
const cpuLog = process.env.THOTH_TEST_CPU_LOG;
let cpu0 = 0;
let wall0 = 0;
let file = '';
if (cpuLog)
  beforeAll(() => {
    file = expect.getState().testPath ?? '';
    cpu0 = cpuMsNow();
    wall0 = performance.now();
  });

afterAll(async () => {
  // what the file's helpers set up for it (its browser: test/gui/browser.ts), before its processes are judged
  let ended: unknown;
  await endFile().catch((e: unknown) => (ended = e));
  if (cpuLog)
    appendFileSync(
      cpuLog,
      `${JSON.stringify({ file, cpuMs: Math.round(cpuMsNow() - cpu0), wallMs: Math.round(performance.now() - wall0) })}\n`,
    );
  const grace = graceMs();
  const left = await stillRunning(FILE_MARK, mark, grace, folder);
  killAll(left);
  process.env.TMPDIR = parent;
  rmSync(folder, { recursive: true, force: true });
  if (ended !== undefined) throw ended;
  if (left.length > 0)
    throw new Error(
      [
        `this file left ${left.length} process(es) running ${grace / 1000} s after its end (now ended):`,
        ...describeProcesses(left),
      ].join('\n'),
    );
});
