/** The built engine: `debug on|off` (UCI) adds or removes the `info string debug: …` diagnostics. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Engine, assertBuilt, startEngine } from './spawn-engine';

describe('debug', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine();
    await e.sync(); // the handshake a GUI makes: its isready starts the search threads
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

  it('a clock charged beyond the engine time: the lag becomes the overhead of the next go', async () => {
    const overhead = async (go: string): Promise<number> => {
      e.send('position startpos');
      e.send(go);
      const d = debugLines((await e.collect(/^bestmove /)).map((l) => l.text));
      const m = / overhead (\d+) ms/.exec(d.find((l) => l.includes(' go: ')) ?? '');
      expect(m, JSON.stringify(d)).not.toBeNull();
      return Number(m![1]);
    };
    e.send('ucinewgame');
    expect(await overhead('go wtime 1000 btime 1000 winc 10 binc 10')).toBe(10);
    // 500 ms charged for a move of well under 500 ms (a referee on a busy machine)
    expect(await overhead('go wtime 510 btime 1000 winc 10 binc 10')).toBeGreaterThanOrEqual(200);
    e.send('ucinewgame');
    e.send('setoption name Move Overhead value 500');
    expect(await overhead('go wtime 1000 btime 1000 winc 10 binc 10')).toBe(500);
    e.send('setoption name Move Overhead value 10');
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
