/**
 * The coordinator's notes about workers are bounded (src/distributed/notes.ts): anyone who can write
 * to the queues can make thousands of refused results or refusals, and a terminal flooded with them
 * hides the run. The first few of a kind are printed, then the kind is summed up once a minute at
 * most, and once more when the run ends.
 */
import { describe, expect, it } from 'vitest';
import { NoteLimiter } from '../../src/distributed/notes';

describe('notes about workers', () => {
  it('10,000 refused results print five lines, then a count a minute with the last, and the rest at the end', () => {
    const lines: string[] = [];
    let t = 1_000_000;
    const notes = new NoteLimiter(
      (l) => lines.push(l),
      () => t,
    );
    // 10,000 refused results over 100 s, and some refusals of the run among them
    for (let k = 1; k <= 10_000; k++) {
      notes.note('refused results', `Note: the result of pair-${k} from worker w is refused (junk)`);
      if (k % 1000 === 0) notes.note('refusals of this run', `Note: worker w${k} refuses this run: no build`);
      t += 10;
    }
    notes.flush();
    expect(lines.slice(0, 5)).toEqual(
      [1, 2, 3, 4, 5].map((k) => `Note: the result of pair-${k} from worker w is refused (junk)`),
    );
    const refusals = lines.filter((l) => l.includes('refuses this run'));
    expect(refusals.slice(0, 5)).toEqual(
      [1000, 2000, 3000, 4000, 5000].map((k) => `Note: worker w${k} refuses this run: no build`),
    );
    // the sixth refused result began the count: a minute later, its line; the rest when the run ends
    expect(lines.filter((l) => l.includes('more refused results'))).toEqual([
      'Note: 6001 more refused results in the last 60 seconds (the last: the result of pair-6006 from worker w is refused (junk))',
      'Note: 3994 more refused results in the last 40 seconds (the last: the result of pair-10000 from worker w is refused (junk))',
    ]);
    expect(lines.filter((l) => l.includes('more refusals of this run'))).toEqual([
      'Note: 5 more refusals of this run in the last 40 seconds (the last: worker w10000 refuses this run: no build)',
    ]);
    expect(lines).toHaveLength(5 + 5 + 2 + 1);
  });
});
