/** `thoth stats` as a user runs it: the summary of record files equals the run's own, split or merged. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fake, run, tempDir } from '../match/helpers';
import { runThoth } from './helpers';

describe('thoth stats', () => {
  it('recomputes a run\'s summary from its records, also split over two files; bad input exits 2', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'all.pgn');
    const { lines } = await run([
      ...fake('A', '--seed 1 --deterministic'), ...fake('B', '--seed 2 --play random --deterministic'),
      '-each', 'tc=10+0.1', '-rounds', '6', '-sprt', 'elo0=0', 'elo1=50', '-ratinginterval', '0', '-pgnout', pgn,
    ]);
    const summary = lines.slice(lines.findIndex((l) => l.startsWith('Score of')), -1);
    const whole = await runThoth(['stats', pgn, '-sprt', 'elo0=0', 'elo1=50']);
    expect(whole.code, whole.err).toBe(0);
    expect(whole.out.split('\n').filter(Boolean)).toEqual(['Games: 12 from 1 file (6 pairs) | khet2', ...summary]);
    // Two places, each with some of the rounds (and one file given twice: counted once).
    const games = readFileSync(pgn, 'utf8').split(/\n\n(?=\[Event )/);
    writeFileSync(join(dir, 'a.pgn'), games.filter((_, i) => i % 4 < 2).join('\n\n') + '\n\n');
    writeFileSync(join(dir, 'b.pgn'), games.filter((_, i) => i % 4 >= 2).join('\n\n'));
    const split = await runThoth(['stats', join(dir, 'a.pgn'), join(dir, 'b.pgn'), join(dir, 'b.pgn'), '-sprt', 'elo0=0', 'elo1=50']);
    expect(split.code, split.err).toBe(0);
    const out = split.out.split('\n').filter(Boolean);
    expect(out[0]).toBe('Note: 6 records that appear twice counted once');
    expect(out.slice(2)).toEqual(summary);
    const [missing, badSprt, empty] = await Promise.all([
      runThoth(['stats', join(dir, 'nope.pgn')]),
      runThoth(['stats', pgn, '-sprt', 'elo0=5', 'elo1=0']),
      runThoth(['stats']),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^thoth stats: cannot read '.*nope\.pgn': ENOENT/);
    expect(badSprt).toMatchObject({ code: 2, err: 'thoth stats: -sprt: elo1 must be greater than elo0\n' });
    expect(empty.code).toBe(2);
  });
});
