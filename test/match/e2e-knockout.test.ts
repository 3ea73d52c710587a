/** `-tournament knockout`: a bracket of matches between fake engines, seeded in the order given. */
import { describe, expect, it } from 'vitest';
import { parseMatchArgs } from '../../src/match/config';
import { pairings, runKnockout } from '../../src/match/knockout';
import { fake } from './helpers';

describe('knockout', () => {
  it('pairs the best seed with the worst; the top seeds go through without a game when the field is not a power of two', () => {
    expect(pairings([0, 1, 2, 3])).toEqual({
      pairs: [
        [0, 3],
        [1, 2],
      ],
      bye: [],
    });
    expect(pairings([0, 1, 2, 3, 4])).toEqual({ pairs: [[3, 4]], bye: [0, 1, 2] });
    expect(pairings([0, 2])).toEqual({ pairs: [[0, 2]], bye: [] });
  });

  it('plays the bracket: the engine that always hits the Pharaoh it can wins it', async () => {
    const argv = [
      ...fake('random1', '--play random --seed 1'),
      ...fake('random2', '--play random --seed 2'),
      ...fake('greedy', '--seed 3'),
      ...fake('random4', '--play random --seed 4'),
      '-tournament',
      'knockout',
      '-each',
      'depth=1',
      '-rounds',
      '2',
    ];
    const cfg = parseMatchArgs(argv);
    if (!cfg.ok) throw cfg.error;
    const lines: string[] = [];
    const r = await runKnockout(cfg.value, { write: (l) => lines.push(l) });
    expect(r.stop).toBe('done');
    expect(lines).toContain('Knockout round 1: random1 vs random4, random2 vs greedy');
    expect(lines.filter((l) => l.startsWith('Knockout round 2: random'))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/^Knockout winner: \w+$/);
    expect(r.winner).toBe(2);
    // every pairing played its 2 pairs (4 games), tie-breaks a pair more
    expect(r.finished.length).toBeGreaterThanOrEqual(12);
  });

  it('goes without -sprt, -resume and -distributed', () => {
    const r = parseMatchArgs([...fake('a'), ...fake('b'), '-each', 'tc=1', '-tournament', 'knockout', '-sprt']);
    expect(!r.ok && r.error.message).toBe('-tournament knockout goes without -sprt, -resume and -distributed');
  });
});
