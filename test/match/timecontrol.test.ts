import { describe, expect, it } from 'vitest';
import { MatchConfigError } from '../../src/match/errors';
import { parseTimeControl } from '../../src/core/time-control';
import {
  PlayerClock,
  applyLimit,
  describeLimits,
  goForMove,
  moveDeadlineMs,
  parseMoveTime,
  type EngineLimits,
} from '../../src/match/timecontrol';
import { unwrap } from '../core/helpers';

describe('limits', () => {
  it('st=, depth=, nodes=, tc=', () => {
    const l: EngineLimits = {};
    expect(applyLimit(l, 'st', '0.5')).toEqual({ ok: true, value: true });
    expect(applyLimit(l, 'depth', '7')).toEqual({ ok: true, value: true });
    expect(applyLimit(l, 'nodes', '5000')).toEqual({ ok: true, value: true });
    expect(applyLimit(l, 'name', 'x')).toEqual({ ok: true, value: false });
    expect(l).toEqual({ movetimeMs: 500, depth: 7, nodes: 5000 });
    expect(describeLimits(l)).toBe('st=0.5 depth=7 nodes=5000');
    applyLimit(l, 'tc', 'inf');
    expect(l.tc).toBeUndefined();
    expect(applyLimit(l, 'depth', '0')).toMatchObject({
      ok: false,
      error: { message: "depth= must be a whole number from 1 to 1000, not '0'" },
    });
    expect(applyLimit(l, 'nodes', '1e5')).toMatchObject({ ok: false });
    // tc= reads core's grammar; its refusal is the run's configuration error, with core's message
    const bad = applyLimit(l, 'tc', '10+x');
    expect(bad).toMatchObject({
      ok: false,
      error: { message: "bad time control '10+x': increment 'x' is not a number of seconds" },
    });
    if (!bad.ok) expect(bad.error).toBeInstanceOf(MatchConfigError);
    expect(l).toEqual({ movetimeMs: 500, depth: 7, nodes: 5000 }); // untouched by the bad values
    expect(parseMoveTime('0')).toMatchObject({
      ok: false,
      error: { message: "bad move time '0' (seconds per move, e.g. st=0.5)" },
    });
    expect(describeLimits({})).toBe('-');
  });
});

describe('PlayerClock', () => {
  it('sudden death with increment', () => {
    const c = new PlayerClock(unwrap(parseTimeControl('10+0.1')));
    expect(c.movesToGo()).toBeUndefined();
    expect(c.charge(1000)).toBe(true);
    expect(c.remainingMs).toBeCloseTo(9100, 9);
    expect(c.charge(9100)).toBe(true); // exactly zero is still in time
    expect(c.remainingMs).toBeCloseTo(100, 9);
    expect(c.charge(100.5)).toBe(false);
  });

  it('a time margin lets the clock go a little past zero', () => {
    const c = new PlayerClock(unwrap(parseTimeControl('1')));
    expect(c.charge(1040, 50)).toBe(true);
    expect(c.charge(20, 50)).toBe(false);
  });

  it('moves per period: movestogo counts down and the period repeats', () => {
    const c = new PlayerClock(unwrap(parseTimeControl('3/6+0.5')));
    expect(c.movesToGo()).toBe(3);
    c.charge(1000);
    expect(c.movesToGo()).toBe(2);
    c.charge(1000);
    c.charge(1000); // third move: the next period's 6 s arrive
    expect(c.movesToGo()).toBe(3);
    expect(c.remainingMs).toBeCloseTo(6000 - 3000 + 1500 + 6000, 9);
  });

  it('go commands', () => {
    const tc = unwrap(parseTimeControl('40/60+0.6'));
    const clocks = [new PlayerClock(tc), new PlayerClock(tc)];
    clocks[1].charge(1234.7);
    expect(goForMove({ tc }, 1, clocks)).toBe('go wtime 60000 btime 59365 winc 600 binc 600 movestogo 39');
    expect(goForMove({ tc, depth: 5 }, 0, clocks)).toBe(
      'go wtime 60000 btime 59365 winc 600 binc 600 movestogo 40 depth 5',
    );
    expect(goForMove({ movetimeMs: 500 }, 0, [undefined, undefined])).toBe('go movetime 500');
    expect(goForMove({ depth: 3 }, 0, [undefined, undefined])).toBe('go depth 3');
    expect(goForMove({ nodes: 1000 }, 1, [undefined, undefined])).toBe('go nodes 1000');
    expect(goForMove({}, 1, [undefined, undefined])).toBe('go infinite');
    // A player without a clock is shown the mover's time.
    expect(goForMove({ tc }, 0, [clocks[0], undefined])).toBe(
      'go wtime 60000 btime 60000 winc 600 binc 0 movestogo 40',
    );
  });

  it('deadlines', () => {
    const tc = unwrap(parseTimeControl('1+0.1'));
    const c = new PlayerClock(tc);
    expect(moveDeadlineMs({ tc }, c, 25)).toBe(1025);
    expect(moveDeadlineMs({ movetimeMs: 300 }, undefined, 10)).toBe(310);
    expect(moveDeadlineMs({ depth: 4 }, undefined, 10)).toBeUndefined();
  });
});
