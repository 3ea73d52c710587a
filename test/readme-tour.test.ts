/**
 * README.md's five-minute tour, run as written: every command of the tour's ```sh blocks (read
 * from README.md, so that a change there changes what runs) goes to bash as it stands, in a
 * scratch folder that holds the repository's bin/, dist/ and nets/ (so that the files the commands
 * write, games.pgn and reviewed.pgn, land there), one after the other. Each must exit 0 and print
 * what README says it prints. The tour's browser paragraph (`thoth gui`, `npm run build:web`) is
 * prose, not a code block: it needs a browser and is not run here (test/gui/ drives the page).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stretched } from './slowness';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The commands of the ```sh blocks between "## A five-minute tour" and the next "## " heading. */
export function tourCommands(readme: string): string[] {
  const start = readme.indexOf('## A five-minute tour');
  if (start < 0) throw new Error('README.md has no "## A five-minute tour"');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const out: string[] = [];
  for (const m of section.matchAll(/```sh\n([^]*?)```/g)) {
    // A line ending in a backslash goes on on the next: one command.
    for (const c of m[1].replace(/\\\n/g, '\\\n').split(/(?<!\\)\n/)) if (c.trim() !== '') out.push(c);
  }
  return out;
}

/** What each command must print (matched against stdout); a command without one fails the test. */
const EXPECT: [RegExp, RegExp][] = [
  [/ analyse --setup dynasty .*--multipv 3/, /^Analysis: depth 8, .*; 3 best of \d+ legal moves\.$/m],
  [/ "position setup classic moves j4i4" d "go depth 8"/, /^KFEN: [^]*^bestmove \S+/m],
  [/ match -engine /, /^Score of lmr vs nolmr: \d+ - \d+ - \d+ /m],
  [/ analyse --game games\.pgn /, /^Summary \(depth 6\):$[^]*^Annotated record written to reviewed\.pgn$/m],
];

const dir = mkdtempSync(path.join(tmpdir(), 'thoth-tour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!existsSync(path.join(ROOT, 'dist', 'cli.js')))("README's five-minute tour, run as written", () => {
  const commands = tourCommands(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  for (const name of ['bin', 'dist', 'nets']) symlinkSync(path.join(ROOT, name), path.join(dir, name));

  it('has commands to run, each with what it must print', () => {
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const c of commands)
      expect(
        EXPECT.some(([cmd]) => cmd.test(c)),
        `no expectation for: ${c}`,
      ).toBe(true);
  });

  for (const command of commands) {
    it(
      command.split('\n')[0],
      () => {
        const r = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', timeout: stretched(10 * 60_000) });
        expect(r.status, `${command}\n${r.stderr}`).toBe(0);
        const want = EXPECT.find(([cmd]) => cmd.test(command));
        expect(r.stdout).toMatch(want![1]);
        expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/); // no stack trace
      },
      10 * 60_000,
    );
  }
});
