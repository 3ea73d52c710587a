/** Shared helpers for the match tests: the fake engine bundled once, and runs in-process. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledFixture } from '../bundle';
import { parseMatchArgs } from '../../src/match/config';
import { runMatch, type MatchSummary } from '../../src/match/tournament';

export const FIXTURE = fileURLToPath(new URL('./fixtures/fake-engine.ts', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The fake engine as one plain .mjs file, built once per worker (test/bundle.ts). */
export function fakeEngineScript(): string {
  return bundledFixture(FIXTURE, 'fake-engine');
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
