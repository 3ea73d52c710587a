/**
 * The one time-control grammar (src/core/time-control.ts) that the tournament runner's `tc=` and
 * the GUI page's clocks read.
 */
import { describe, expect, it } from 'vitest';
import { TimeControlError, formatTimeControl, parseTimeControl } from '../../src/core/time-control';
import { unwrap } from './helpers';

describe('parseTimeControl', () => {
  it.each([
    ['40/60+0.6', { moves: 40, baseMs: 60000, incMs: 600 }],
    ['10+0.1', { moves: 0, baseMs: 10000, incMs: 100 }],
    ['60', { moves: 0, baseMs: 60000, incMs: 0 }],
    ['40/60', { moves: 40, baseMs: 60000, incMs: 0 }],
    ['1:30+1', { moves: 0, baseMs: 90000, incMs: 1000 }],
    ['0.5+0.01', { moves: 0, baseMs: 500, incMs: 10 }],
    ['.25', { moves: 0, baseMs: 250, incMs: 0 }],
    ['0+1', { moves: 0, baseMs: 0, incMs: 1000 }],
    [' 5+0.05 ', { moves: 0, baseMs: 5000, incMs: 50 }],
  ])('%s', (text, want) => {
    expect(parseTimeControl(text)).toEqual({ ok: true, value: want });
  });

  it.each(['', 'abc', '10+', '+0.1', '0/10', '40/', '10+0.1+1', '-5', '10+x', '1:90:00', '0', '0+0'])(
    'rejects %j',
    (text) => {
      const r = parseTimeControl(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toBeInstanceOf(TimeControlError);
    },
  );

  it('formats back to the canonical text', () => {
    for (const t of ['40/60+0.6', '10+0.1', '60', '40/60', '0.5+0.01'])
      expect(formatTimeControl(unwrap(parseTimeControl(t)))).toBe(t);
    expect(formatTimeControl(unwrap(parseTimeControl('1:30+1')))).toBe('90+1');
  });
});
