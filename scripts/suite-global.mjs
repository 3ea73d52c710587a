// vitest's globalSetup (in vitest.config.ts): the run's temporary folder and mark
// (scripts/suite-owned.mjs). scripts/check-and-test.mjs (npm test) makes them and checks them after
// vitest; when vitest runs alone (`npx vitest run FILE`), they are made here, and at the end what
// the run left in its folder is named (an error) and removed. The folder the files share
// (sharedFolder) is removed at the end either way.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RUN_MARK, RUN_TMP, SYSTEM_TMP, leftInFolder, removeStaleRuns, shareTsxCache } from './suite-owned.mjs';

/** The run's folder, when this setup made it (vitest alone). */
let own;

export function setup() {
  if (process.env[RUN_TMP] === undefined) {
    const system = tmpdir();
    removeStaleRuns(system);
    own = mkdtempSync(path.join(system, 'thoth-run-'));
    shareTsxCache(own, system);
    Object.assign(process.env, { TMPDIR: own, [RUN_TMP]: own, [SYSTEM_TMP]: system, [RUN_MARK]: randomUUID() });
  }
}

export function teardown() {
  const runTmp = process.env[RUN_TMP];
  rmSync(path.join(runTmp, 'shared'), { recursive: true, force: true });
  if (own === undefined) return;
  const left = leftInFolder(own);
  rmSync(own, { recursive: true, force: true });
  if (left.length > 0)
    throw new Error(`the tests left ${left.length} temporary file(s) or folder(s) (now removed): ${left.join(', ')}`);
}
