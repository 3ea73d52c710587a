/**
 * The page's clocks read a time control with the runner's grammar (src/core/time-control.ts):
 * what `thoth match` takes as `tc=` the page takes as its setting or a record's TimeControl tag,
 * except what its clocks cannot keep (moves per period, no base time).
 */
import { describe, expect, it } from 'vitest';
import { clockFromText, timeControlText } from '../../src/gui/page/state/clock';

describe('clockFromText', () => {
  it.each([
    ['300+3', 300000, 3000],
    ['5+0.05', 5000, 50],
    ['300', 300000, 0],
    ['1:30+1', 90000, 1000],
    [' 60+0 ', 60000, 0],
  ])('%j: base %d ms, increment %d ms', (text, baseMs, incMs) => {
    const c = clockFromText(text);
    expect(c).toMatchObject({ baseMs, incMs, remaining: [baseMs, baseMs], running: -1 });
  });

  it.each(['', '-', '?', 'abc', '300+', '40/60+0.6', '0+1', '0'])('%j: no clocks', (text) => {
    expect(clockFromText(text)).toBeNull();
  });

  it('writes back what it read', () => {
    expect(timeControlText(clockFromText('300+3')!)).toBe('300+3');
    expect(timeControlText(clockFromText('1:30+1')!)).toBe('90+1');
  });
});
