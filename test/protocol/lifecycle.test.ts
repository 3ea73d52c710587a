/**
 * The built engine as a process: command-line arguments run as commands, `bench`, `quit` during
 * a search, end of input = quit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine, assertBuilt, startEngine } from './spawn-engine';

/** Runs `node dist/cli.js …args` with stdin closed; returns its lines and exit. */
async function run(
  args: string[],
  timeoutMs = 20_000,
): Promise<{ lines: string[]; code: number | null; stderr: string }> {
  const e = new Engine(args);
  e.endInput();
  try {
    const exit = await e.waitExit(timeoutMs);
    return { lines: e.lines.map((l) => l.text), code: exit.code, stderr: e.stderr };
  } finally {
    e.kill();
  }
}

function benchNodes(lines: string[]): number {
  const l = lines.find((x) => /^Nodes searched\s*:/.test(x));
  if (!l) throw new Error(`no 'Nodes searched' line in ${JSON.stringify(lines.slice(-5))}`);
  return Number(/:\s*(\d+)\s*$/.exec(l)![1]);
}

describe('command-line arguments and process life', () => {
  beforeAll(() => assertBuilt());

  it('thoth "go perft 2" quit: each argument is a command, the output complete, exit 0', async () => {
    const r = await run(['go perft 2', 'quit']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const blank = r.lines.indexOf('');
    expect(blank).toBe(77);
    for (const l of r.lines.slice(0, blank)) expect(l).toMatch(/^\S+: \d+$/);
    expect(r.lines).toContain('Nodes searched: 5920');
    expect(r.lines[r.lines.length - 1]).toMatch(/^Nodes\/second: \d+$/);
  });

  it('thoth "position startpos moves c1d2" d: several commands, then the engine quits by itself', async () => {
    const r = await run(['position startpos moves c1d2', 'd']);
    expect(r.code).toBe(0);
    expect(r.lines.some((l) => /^KFEN: .* r 1 1$/.test(l))).toBe(true);
  });

  it('thoth bench 2: one command from all the arguments; Nodes searched and Nodes/second; deterministic', async () => {
    const a = await run(['bench', '2']);
    expect(a.code).toBe(0);
    expect(a.lines.some((l) => /^Nodes\/second\s*:\s*\d+$/.test(l))).toBe(true);
    const n = benchNodes(a.lines);
    expect(n).toBeGreaterThan(0);
    // the same in another process (a running engine), twice, after a search has filled its table
    const e = await startEngine();
    try {
      e.send('go depth 3');
      await e.waitFor(/^bestmove /);
      for (let i = 0; i < 2; i++) {
        const out = await e.command('bench 2', /^Nodes\/second\s*:/, 20_000);
        expect(benchNodes(out)).toBe(n);
      }
      // the position is not changed by bench
      expect((await e.command('query p1turn', /^response /))[0]).toBe('response true');
    } finally {
      e.kill();
    }
  });

  it('go movetime right after the handshake: the warm-up does not eat the move (the clock starts at go)', async () => {
    // The engine warms its search threads at start; a go that arrives meanwhile must still get
    // its time (the warm-up stops for it). Three fresh engines: each answer comes after most of
    // the budget. How late an answer is depends on the machine's load: bench/latency.mjs measures
    // it; here only a bound that a hung search would break.
    for (let i = 0; i < 3; i++) {
      const e = new Engine();
      try {
        await e.command('uci', /^uciok$/);
        const t0 = e.send('go movetime 300');
        const b = await e.waitFor(/^bestmove /);
        const ms = b.at - t0;
        expect(ms, `bestmove ${ms.toFixed(0)} ms after go movetime 300 (try ${i + 1})`).toBeLessThan(300 + 20_000);
        expect(ms).toBeGreaterThan(200);
      } finally {
        e.kill();
      }
    }
  });

  it('stop or ponderhit right after go, while the go waits its turn (a table clear, a new pool) or starts, applies to that go', async () => {
    // Two fresh engines, three cases each, one after the other: each engine's first case sends its
    // go while the start-up warm-up runs; the others queue it behind a new pool (each engine has
    // 1 thread until its Threads 2) or a table clear.
    for (const cases of [
      [
        ['go infinite', 'stop'],
        ['setoption name Threads value 2', 'go infinite', 'stop'],
        ['ucinewgame', 'go depth 30', 'stop'],
      ],
      [
        ['setoption name Ponder value true', 'go ponder wtime 400 btime 400', 'ponderhit'],
        ['setoption name Ponder value true', 'ucinewgame', 'go ponder wtime 400 btime 400', 'ponderhit'],
        [
          'setoption name Threads value 2',
          'setoption name Ponder value true',
          'go ponder wtime 400 btime 400',
          'ponderhit',
        ],
      ],
    ]) {
      const e = new Engine();
      try {
        await e.command('uci', /^uciok$/);
        for (const lines of cases) {
          for (const l of lines) e.send(l);
          const b = await e.waitFor(/^bestmove /).catch((err: Error) => {
            throw new Error(`${lines.join(', ')}: ${err.message}`);
          });
          expect(b.text, lines.join(', ')).toMatch(/^bestmove [a-j]\d/);
          expect(
            (await e.sync()).filter((l) => l.startsWith('bestmove')),
            lines.join(', '),
          ).toEqual([]);
        }
      } finally {
        e.kill();
      }
    }
  });

  // (quit during go infinite, exactly one bestmove then exit 0: test/threads/engine-threads.test.ts,
  // with 2 threads; end of input during go infinite, below, is the same path with 1 thread)
  it('quit during go movetime / go ponder: exit code 0, long before the search would end', async () => {
    for (const go of [
      'go movetime 600000',
      'go ponder wtime 6000000 btime 6000000',
      'go wtime 6000000 btime 6000000 movestogo 1',
    ]) {
      const e = await startEngine();
      try {
        e.send('position startpos moves c1d2');
        e.send(go);
        await e.waitFor(/^info depth 2 /);
        e.send('quit');
        // (these searches would run for ten minutes or more: an exit within the line wait shows they stopped)
        const exit = await e.waitExit();
        expect(exit.code, go).toBe(0);
        expect(e.lines.filter((l) => l.text.startsWith('bestmove')).length, go).toBeLessThanOrEqual(1);
      } finally {
        e.kill();
      }
    }
  });

  it('end of input = quit: while idle, and during a search (bestmove, then exit 0)', async () => {
    const idle = await startEngine();
    idle.endInput();
    expect((await idle.waitExit()).code).toBe(0);

    const e = await startEngine();
    try {
      e.send('position startpos');
      e.send('go infinite');
      await e.waitFor(/^info depth 3 /);
      e.endInput();
      const exit = await e.waitExit();
      expect(exit.code).toBe(0);
      expect(e.lines.filter((l) => l.text.startsWith('bestmove')).length).toBe(1);
    } finally {
      e.kill();
    }
  });

  it('a piped go then quit: the search stops (as Stockfish), its move printed; the go as an argument runs to its depth', async () => {
    // `echo -e "go depth 30\nquit" | thoth`: depth 30 would take hours, so an exit shows it stopped
    const piped = new Engine();
    try {
      piped.send('go depth 30\nquit');
      piped.endInput();
      expect((await piped.waitExit()).code).toBe(0);
      const lines = piped.lines.map((l) => l.text);
      expect(lines.filter((l) => l.startsWith('bestmove'))).toHaveLength(1);
      expect(lines.at(-1)).toMatch(/^bestmove [a-j]\d/);
      expect(lines.some((l) => l.startsWith('info depth 30 '))).toBe(false);
    } finally {
      piped.kill();
    }
    // `thoth "go depth 4"`: each argument waits for the one before, so the search ends by itself
    const r = await run(['go depth 4']);
    expect(r.code).toBe(0);
    expect(r.lines.filter((l) => l.startsWith('info depth ')).map((l) => l.split(' ')[2])).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(r.lines.at(-1)).toMatch(/^bestmove [a-j]\d/);
  });

  it('quit right after a burst of commands flushes everything before it', async () => {
    const e = new Engine();
    for (let i = 0; i < 50; i++) e.send('isready');
    e.send('go perft 3');
    e.send('quit');
    const exit = await e.waitExit(20_000);
    expect(exit.code).toBe(0);
    const texts = e.lines.map((l) => l.text);
    expect(texts.filter((l) => l === 'readyok').length).toBe(50);
    expect(texts).toContain('Nodes searched: 451859');
  });
});
