/**
 * `-resume` with other flags than the record's games were played with is refused, naming the
 * difference (a time control, an option, the openings, an engine's command), unless -resume-force;
 * flags that do not change the games (more rounds) are fine. Real fake-engine processes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRecords } from '../../src/core/record';
import { MatchConfigError } from '../../src/match/errors';
import { recordedSettings } from '../../src/match/run-settings';
import { runBuilt } from '../cli/helpers';
import { fake, run, tempDir } from './helpers';

describe('-resume checks the flags against the record', () => {
  let pgn = '';
  const engines = (a = '', b = ''): string[] => [
    ...fake('A', '--seed 1', a ? a.split(' ') : []),
    ...fake('B', '--seed 2', b ? b.split(' ') : []),
  ];
  const base = ['-each', 'tc=10+0.1', '-rounds', '1', '-srand', '7'];

  beforeAll(async () => {
    pgn = join(tempDir(), 'games.pgn');
    const { summary } = await run([...engines('option.Hash=32'), ...base, '-pgnout', pgn]);
    expect(summary.finished).toHaveLength(2);
  });

  it('every record holds the settings it was played with', () => {
    const games = parseRecords(readFileSync(pgn, 'utf8')).games;
    expect(games).toHaveLength(2);
    for (const g of games) {
      for (const [t, v] of g.tags) if (t.startsWith('MatchSettings')) expect(v.length, t).toBeLessThanOrEqual(255);
      const s = recordedSettings(g.tags)!;
      expect(s).toMatch(/^variant=khet2 \| openings=setups=classic plies=4 \| srand=7 \| games=2 \| /);
      expect(s).toContain(' | engine A options=hash=32 | engine A limits=10+0.1 | ');
      expect(s).toContain(' | engine B options=(none) | ');
    }
  });

  const refused: [string, string[], RegExp][] = [
    [
      'another time control',
      [...engines('option.Hash=32'), '-each', 'tc=5+0.05', '-rounds', '1', '-srand', '7'],
      /engine A limits: 10\+0\.1 in the record, 5\+0\.05 now; engine B limits: 10\+0\.1 in the record, 5\+0\.05 now/,
    ],
    [
      'another option value',
      [...engines('option.Hash=64'), ...base],
      /\(engine A options: hash=32 in the record, hash=64 now\)/,
    ],
    [
      'an option added',
      [...engines('option.Hash=32', 'option.Style=wild'), ...base],
      /\(engine B options: \(none\) in the record, style=wild now\)/,
    ],
    [
      'other openings',
      [...engines('option.Hash=32'), ...base, '-openings', 'setups=classic', 'plies=2'],
      /\(openings: setups=classic plies=4 in the record, setups=classic plies=2 now\)/,
    ],
    [
      'another engine command',
      [...fake('A', '--seed 3', ['option.Hash=32']), ...fake('B', '--seed 2'), ...base],
      /engine A cmd: node \S+fake-engine-\d+\.mjs --seed 1 in the record, node \S+fake-engine-\d+\.mjs --seed 3 now/,
    ],
  ];
  for (const [what, argv, diff] of refused) {
    it(`${what}: refused, the difference named`, async () => {
      const p = run([...argv, '-resume', pgn]);
      await expect(p).rejects.toThrow(MatchConfigError);
      await expect(p).rejects.toThrow(/^-resume \S+games\.pgn: game 1\.1 was played with other settings \(/);
      await expect(p).rejects.toThrow(diff);
      await expect(p).rejects.toThrow(/: give the same flags, or add -resume-force to count its games anyway$/);
    });
  }

  it('the same flags with more rounds: resumed, the rest played', async () => {
    const copy = join(tempDir(), 'more.pgn');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(copy, readFileSync(pgn));
    const { summary, lines } = await run([
      ...engines('option.hash=32'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '2',
      '-srand',
      '7',
      '-resume',
      copy,
    ]);
    expect(lines).toContain(`Resumed 2 finished games from ${copy}`);
    expect(summary.finished.filter((f) => !f.resumed)).toHaveLength(2);
  });

  it('-resume-force counts the games anyway, with a note', async () => {
    const copy = join(tempDir(), 'forced.pgn');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(copy, readFileSync(pgn));
    const { summary, lines } = await run([...engines('option.Hash=64'), ...base, '-resume', copy, '-resume-force']);
    expect(
      lines.some((l) =>
        /^Note: -resume-force: counting the games of \S+ although game 1\.1 was played with other settings \(engine A options: hash=32 in the record, hash=64 now\)$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(summary.finished.filter((f) => f.resumed)).toHaveLength(2);
    expect(summary.finished.filter((f) => !f.resumed)).toHaveLength(0);
  });

  it('thoth match: one line on stderr and exit code 2; -resume-force needs -resume', async () => {
    const r = await runBuilt([
      'match',
      ...engines('option.Hash=32'),
      '-each',
      'tc=5+0.05',
      '-rounds',
      '1',
      '-srand',
      '7',
      '-resume',
      pgn,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^thoth match: -resume \S+: game 1\.1 was played with other settings \(engine A limits: 10\+0\.1 in the record, 5\+0\.05 now; .*-resume-force to count its games anyway\n$/,
    );
    await expect(run([...engines(), ...base, '-resume-force'])).rejects.toThrow(
      /^-resume-force goes with -resume FILE$/,
    );
  });
});
