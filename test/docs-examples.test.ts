/**
 * The examples of docs/cli.md and docs/match.md, run as written: every `$ thoth …` line of their
 * code blocks goes to bash as it stands, with `thoth` on the PATH (bin/thoth.js, as `npm link` puts it there), in a
 * scratch folder. What a `$` line is followed by in the block is what it prints (`…` elides lines);
 * the lines it shows must be among what it prints, in order. The review and animation examples
 * need a match's record: a match of the fake engine writes games.pgn there first (rounds r.1, r.2
 * as every match names its games); its games are not the example's, so what those print is
 * matched by its frame (OTHER_GAME). `$ thoth perft 5` (2.5 billion nodes: minutes) is left out; its count is
 * test/core/perft-bulk.test.ts's.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fake } from './match/helpers';
import { CLI_BUILT, ROOT } from './cli/helpers';
import { stretched } from './slowness';

/** Each `$ ` command of a markdown text's code blocks, with the lines the block shows after it. */
function dollarExamples(md: string): { command: string; shown: string[] }[] {
  const out: { command: string; shown: string[] }[] = [];
  for (const block of md.matchAll(/```[a-z]*\n([^]*?)```/g)) {
    const lines = block[1].split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith('$ ')) continue;
      const shown: string[] = [];
      for (let j = i + 1; j < lines.length && !lines[j].startsWith('$ '); j++)
        if (lines[j] !== '') shown.push(lines[j]);
      out.push({ command: lines[i].slice(2), shown });
    }
  }
  return out;
}

/** Left out, with why (see the header). */
const SKIP = new Set(['thoth perft 5']);

/** An environment with `thoth` on the PATH (bin/thoth.js, as `npm link` puts it there). */
function thothOnPath(): NodeJS.ProcessEnv {
  const bin = path.join(tmpdir(), 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'thoth'),
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin', 'thoth.js')}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'thoth'), 0o755);
  return { ...process.env, PATH: `${bin}:${process.env.PATH}` };
}

/** The lines a block shows after its command (`…` elides lines): among what it printed, in order. */
function expectShown(command: string, shown: string[], stdout: string, stderr: string): void {
  const printed = (stdout + stderr).split('\n');
  let at = 0;
  for (const want of shown.filter((l) => l !== '…')) {
    const k = printed.findIndex((l, i) => i >= at && l === want);
    expect(k, `'${want}' not printed in order by: ${command}\n${printed.join('\n')}`).toBeGreaterThanOrEqual(0);
    at = k + 1;
  }
}

describe.skipIf(!existsSync(CLI_BUILT))('docs/cli.md, run as written', () => {
  const examples = dollarExamples(readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8'));
  const dir = tmpdir();
  const env = thothOnPath();

  it('has examples, the review one among them', () => {
    expect(examples.map((e) => e.command)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^thoth analyse --game games\.pgn --round 7 /)]),
    );
  });

  it('a match record of 8 rounds for the review example', () => {
    const quoted = (w: string): string => `'${w.replace(/'/g, "'\\''")}'`;
    const match = ['thoth', 'match', ...fake('A', '--seed 1'), ...fake('B', '--seed 2 --play random')];
    const flags = '-each tc=10+0.1 -maxplies 40 -rounds 8 -concurrency 2 -pgnout games.pgn';
    const r = spawnSync('bash', ['-c', `${match.map(quoted).join(' ')} ${flags}`], { cwd: dir, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'games.pgn'), 'utf8')).toMatch(/\[Round "7\.1"\]/);
  });

  for (const { command, shown } of examples.filter((e) => !SKIP.has(e.command))) {
    it(command, () => {
      const r = spawnSync('bash', ['-c', command], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: stretched(10 * 60_000),
      });
      const other = OTHER_GAME.find(([re]) => re.test(command));
      if (other) {
        // another game than the example's: its moves differ, the output's frame does not
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toMatch(other[1]);
        return;
      }
      // the lines the block shows, exactly and in order
      expectShown(command, shown, r.stdout, r.stderr);
    });
  }
});

// docs/match.md's examples (the compliance check) name the clone's files (dist/cli.js, the fake
// engine's source): they run in the clone, and write nothing there.
describe.skipIf(!existsSync(CLI_BUILT))('docs/match.md, run as written', () => {
  const examples = dollarExamples(readFileSync(path.join(ROOT, 'docs', 'match.md'), 'utf8'));
  const env = thothOnPath();

  it('has examples: the compliance of Thoth and of a broken engine', () => {
    expect(examples.map((e) => e.command)).toEqual([
      'thoth match --compliance "node dist/cli.js"',
      expect.stringMatching(/^thoth match --compliance "node --import tsx test\/match\/fixtures\/fake-engine\.ts /),
    ]);
  });

  for (const { command, shown } of examples) {
    it(command, () => {
      const r = spawnSync('bash', ['-c', command], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: stretched(5 * 60_000),
      });
      // exit 0 when the block ends compliant, 1 when it ends with the step that fails
      expect(r.status, r.stderr).toBe(shown.at(-1)?.startsWith('Compliant: ') ? 0 : 1);
      expectShown(command, shown, r.stdout, r.stderr);
    });
  }
});

/** What an example on a game of games.pgn prints about it (whichever game the record holds). */
const OTHER_GAME: [RegExp, RegExp][] = [
  [
    /^thoth analyse --game games\.pgn --round 7 --depth 5 --out reviewed\.pgn --graph eval\.svg$/,
    /^Game \d+ of 16 in games\.pgn, Round 7\.1\n[^]*^Summary \(depth 5\):\n[^]*^Annotated record written to reviewed\.pgn\nGraph written to eval\.svg\n$/m,
  ],
  // a frame for the start and one a move: the example's game has 80 moves, this record's at most 40
  [
    /^thoth picture --game games\.pgn --index 2 --out game\.gif$/,
    /^games\.pgn, game 2: ([2-9]|[1-3]\d|4[01]) frames, 694x611, written to game\.gif\n$/,
  ],
];

/** A line the block shows, with each of its numbers any number (a time, a speed, a machine's threads). */
function shape(line: string): RegExp {
  const parts = line.split(/\d+(?:\.\d+)?/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('\\d+(?:\\.\\d+)?')}$`);
}

// docs/nnue.md's training example, on the clone's fixture, in a scratch folder (it writes
// nets/a.nnue there): its numbers are timings, speeds and the machine's threads, so each line it
// shows is matched by its shape. Its datagen example (a million positions, stopped with Ctrl-C
// after three minutes in the docs) is not run.
describe.skipIf(!existsSync(CLI_BUILT))("docs/nnue.md's training example, run as written", () => {
  const examples = dollarExamples(readFileSync(path.join(ROOT, 'docs', 'nnue.md'), 'utf8'));
  const train = examples.filter((e) => e.command.startsWith('thoth train '));
  const env = thothOnPath();

  it('is there, once', () => {
    expect(train).toHaveLength(1);
  });

  for (const { command, shown } of train) {
    it(command, () => {
      const dir = path.join(tmpdir(), 'nnue');
      mkdirSync(path.join(dir, 'nets'), { recursive: true });
      mkdirSync(path.join(dir, 'test', 'nnue', 'fixtures'), { recursive: true });
      const fixture = path.join('test', 'nnue', 'fixtures', 'selfplay.bin');
      writeFileSync(path.join(dir, fixture), readFileSync(path.join(ROOT, fixture)));
      const r = spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: stretched(5 * 60_000) });
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(path.join(dir, 'nets', 'a.nnue'))).toBe(true);
      const printed = r.stdout.split('\n');
      let at = 0;
      for (const want of shown) {
        const k = printed.findIndex((l, i) => i >= at && shape(want).test(l));
        expect(k, `'${want}' not printed (by its shape) by: ${command}\n${r.stdout}`).toBeGreaterThanOrEqual(0);
        at = k + 1;
      }
    });
  }
});
