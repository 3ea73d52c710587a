/** Every script of tools/ answers `--help` with what it does and how it is run, and does nothing else. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess, type ProcessRun } from '../patience';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPTS = readdirSync(join(ROOT, 'tools')).filter((f) => f.endsWith('.ts') && f !== 'help.ts');

/**
 * `tsx tools/<script> <arg>`, within a minute of an idle machine's time (test/patience.ts): a script
 * that ignores --help and works is killed, and fails.
 */
function run(script: string, arg: string): Promise<ProcessRun> {
  return runProcess([process.execPath, '--import', 'tsx', join('tools', script), arg], { cwd: ROOT, idleMs: 60_000 });
}

describe('tools/*.ts --help', () => {
  it("prints the script's usage and exits 0", async () => {
    expect(SCRIPTS.length).toBeGreaterThanOrEqual(5);
    // One run per script, the two spellings taken in turn: both reach the one check in
    // tools/help.ts, and each script's run proves it asks that check before it does any work.
    const runs = await Promise.all(
      SCRIPTS.map(async (s, i) => {
        const arg = i % 2 === 0 ? '--help' : '-h';
        return { s, arg, r: await run(s, arg) };
      }),
    );
    expect(new Set(runs.map((r) => r.arg)).size).toBe(2);
    for (const { s, arg, r } of runs) {
      expect(r.code, `${s} ${arg}: ${r.err}`).toBe(0);
      expect(r.err, `${s} ${arg}`).toBe('');
      expect(r.out, `${s} ${arg}`).toMatch(new RegExp(`(tsx tools/${s.replace('.', '\\.')}|npm run build:wasm)`));
      expect(r.out, `${s} ${arg}`).not.toMatch(/^\s*\*/m);
    }
  });
});
