/** `thoth genfens`: the command around src/match/openings.ts's genfens. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args';
import { genfensCommand } from '../../src/cli/genfens';
import { genfens } from '../../src/match/openings';
import { unwrap } from '../core/helpers';

describe('thoth genfens', () => {
  it('prints the lines genfens makes; bad arguments are usage errors', async () => {
    const lines = unwrap(genfens(5, { seed: 9, plies: 4, edition: 'khet1', setups: ['classic', 'imhotep', 'dynasty'] }));
    const out: string[] = [];
    await genfensCommand(['5', '--seed', '9', '--plies', '4', '--variant', 'khet1', '--setup', 'all'], (s) => out.push(s));
    expect(out).toEqual(lines);
    await expect(genfensCommand(['x'], () => {})).rejects.toThrow(UsageError);
    await expect(genfensCommand(['3', '--setup', 'castle'], () => {})).rejects.toThrow(/unknown setup 'castle'/);
    const noDynasty = genfensCommand(['3', '--variant', 'deflexion', '--setup', 'dynasty'], () => {});
    await expect(noDynasty).rejects.toThrow(UsageError);
    await expect(genfensCommand(['3', '--variant', 'deflexion', '--setup', 'dynasty'], () => {})).rejects.toThrow(
      'deflexion has no dynasty setup (it has classic, imhotep)',
    );
  });
});
