/** `thoth genfens` as a user runs it: the entry point (src/cli.ts, through tsx) in a child process. */
import { describe, expect, it } from 'vitest';
import { genfens } from '../../src/match/openings';
import { unwrap } from '../core/helpers';
import { runThoth, type CommandRun } from './helpers';

const thothGenfens = (args: string[]): Promise<CommandRun> => runThoth(['genfens', ...args]);

describe('thoth genfens', () => {
  it('prints the lines genfens makes; bad arguments exit 2 with one line', async () => {
    const [good, notN, badSetup, noDynasty] = await Promise.all([
      thothGenfens(['5', '--seed', '9', '--plies', '4', '--variant', 'khet1', '--setup', 'all']),
      thothGenfens(['x']),
      thothGenfens(['3', '--setup', 'castle']),
      thothGenfens(['3', '--variant', 'deflexion', '--setup', 'dynasty']),
    ]);
    const lines = unwrap(genfens(5, { seed: 9, plies: 4, edition: 'khet1', setups: ['classic', 'imhotep', 'dynasty'] }));
    expect(good).toEqual({ code: 0, out: lines.join('\n') + '\n', err: '' });
    expect(notN.code).toBe(2);
    expect(notN.err).toMatch(/^thoth genfens: usage: thoth genfens <N> .*\n$/);
    expect(badSetup).toMatchObject({ code: 2, err: "thoth genfens: unknown setup 'castle' (classic, imhotep, dynasty, mercury, sophie or all)\n" });
    expect(noDynasty).toMatchObject({ code: 2, err: 'thoth genfens: deflexion has no dynasty setup (it has classic, imhotep)\n' });
  });
});
