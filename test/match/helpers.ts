/** Shared helpers for the match tests: the fake engine bundled once, and runs in-process. */
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedFolder } from '../../scripts/suite-owned.mjs';
import { parseMatchArgs } from '../../src/match/config';
import { runMatch, type MatchSummary } from '../../src/match/tournament';

export const FIXTURE = fileURLToPath(new URL('./fixtures/fake-engine.ts', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let bundled: string | undefined;

/**
 * The fake engine as one plain .mjs file (starts in ~50 ms, where tsx needs ~300 ms), built once
 * per worker into the folder the run's files share (a file's own folder ends with the file).
 */
export function fakeEngineScript(): string {
  if (bundled) return bundled;
  const out = join(sharedFolder('fake-engine'), `fake-engine-${process.pid}.mjs`);
  buildSync({
    entryPoints: [FIXTURE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  });
  bundled = out;
  return out;
}

/** A temporary directory for a test's files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'thoth-match-'));
}

/** `-engine` words for a fake engine: `fake('A', '--mode crash --at 4')`. */
export function fake(name: string, args = '', extra: string[] = []): string[] {
  return ['-engine', 'cmd=node', `args=${fakeEngineScript()} ${args}`.trim(), `name=${name}`, ...extra];
}

/** Runs a match in-process; returns the summary and the output lines, or throws the run's MatchError. */
export async function run(
  argv: string[],
  signal?: AbortSignal,
  onLine?: (l: string) => void,
): Promise<{ summary: MatchSummary; lines: string[] }> {
  const lines: string[] = [];
  const cfg = parseMatchArgs(argv);
  if (!cfg.ok) throw cfg.error;
  const summary = await runMatch(cfg.value, {
    write: (l) => {
      lines.push(l);
      onLine?.(l);
    },
    signal,
  });
  return { summary, lines };
}
