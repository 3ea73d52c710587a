/** The built engine: `debug on|off` (UCI) adds or removes the `info string debug: …` diagnostics. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Engine, assertBuilt, startEngine } from './spawn-engine';

describe('debug', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine();
  });
  afterAll(() => e?.kill());

  const debugLines = (ls: string[]): string[] => ls.filter((l) => l.startsWith('info string debug: '));

  it('debug on: accepted silently; go then tells its time plan and how the search ended', async () => {
    e.send('debug on');
    expect(await e.sync()).toEqual([]);
    e.send('position startpos');
    e.send('go movetime 200');
    const ls = (await e.collect(/^bestmove /)).map((l) => l.text);
    const d = debugLines(ls);
    expect(d.length, JSON.stringify(ls)).toBeGreaterThanOrEqual(2);
    expect(d[0]).toMatch(/^info string debug: go: .*movetime 200/);
    expect(
      d.some((l) => /ms, \d+ nodes/.test(l)),
      JSON.stringify(d),
    ).toBe(true);
    expect(ls.filter((l) => l.startsWith('info string error'))).toEqual([]);
  });

  it('debug off: no more diagnostics', async () => {
    e.send('debug off');
    expect(await e.sync()).toEqual([]);
    e.send('go depth 2');
    const ls = (await e.collect(/^bestmove /)).map((l) => l.text);
    expect(debugLines(ls)).toEqual([]);
  });

  it('debug without on/off, or with anything else: an error, the mode unchanged', async () => {
    for (const line of ['debug', 'debug maybe', 'debug on off']) {
      e.send(line);
      const out = await e.sync();
      expect(out, line).toHaveLength(1);
      expect(out[0], line).toMatch(/^info string error: debug/);
    }
    e.send('go depth 2');
    expect(debugLines((await e.collect(/^bestmove /)).map((l) => l.text))).toEqual([]);
  });
});
