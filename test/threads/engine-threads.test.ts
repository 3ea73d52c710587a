/**
 * The built engine with several search threads: the same `bestmove` guarantees as with one
 * thread (exactly one, legal, never a suicide when another move exists) over many go/stop cycles
 * with `Threads` changing between them; `stop` ends every search, the first of a new pool too;
 * `go depth`, `go nodes`, MultiPV, `Hash` and `Clear Hash` with workers alive; `quit` during a
 * multi-threaded search. No latency is asserted here: bench/latency.mjs measures them.
 */
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorPosition, setupKfen, toKfen, type Position } from '../../src/core/index';
import {
  type Engine,
  assertBuilt,
  checkBestmove,
  classifyMoves,
  parseInfo,
  positionOf,
  rng,
  startEngine,
} from './helpers';

const CLASSIC = setupKfen('khet2', 'classic')!;
const IMHOTEP = setupKfen('khet2', 'imhotep')!;
const DYNASTY = setupKfen('khet2', 'dynasty')!;
/** Silver hits the Red Pharaoh with j5+, and only with j5+. */
const MATE_IN_1 = 'xv9/10/10/2k6P>/10/10/10/4K4X^ s 0 1';
/**
 * Silver's own beam (Sphinx j1, firing north) hits the Silver Pharaoh on j5: of 41 moves only 4
 * do not lose at once (rotate the Sphinx, or step the Pharaoh off the j-file).
 */
const SUICIDE = 'xv9/10/10/2k6K/10/3P^6/2S^7/1P^P^P^A^4X^ s 0 1';

interface Spot {
  cmd: string;
  pos: Position;
  /** When set, the only acceptable moves (the others hit the mover's own Pharaoh). */
  safe?: string[];
}

function spot(kfen: string, moves: string[] = []): Spot {
  const pos = positionOf(kfen, moves);
  const { safe, suicide, win } = classifyMoves(pos);
  return {
    cmd: `position kfen ${kfen}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`,
    pos,
    safe: suicide.length > 0 ? [...win, ...safe] : undefined,
  };
}

function redSuicide(): Spot {
  const red = mirrorPosition(positionOf(SUICIDE));
  return spot(toKfen(red));
}

/** Sends the position and checks that it is silent. */
async function setPosition(e: Engine, s: Spot): Promise<void> {
  e.send(s.cmd);
  expect(await e.sync(), s.cmd).toEqual([]);
}

async function setThreads(e: Engine, n: number): Promise<void> {
  e.send(`setoption name Threads value ${n}`);
  expect(await e.sync(), `Threads ${n}`).toEqual([]);
}

interface Played {
  lines: string[];
  move: string;
}

/**
 * Runs one `go`, with `stop` (or `ponderhit`) when `stopAt` is given: 0 right after the `go`, N
 * once the search has reported depth N (or has ended by itself). Checks the bestmove (legal;
 * safe when the spot says so), then isready: nothing but readyok follows, so exactly one bestmove
 * and the search has stopped.
 */
async function play(
  e: Engine,
  s: Spot,
  go: string,
  stopAt?: number,
  stop = 'stop',
  timeoutMs = 15_000,
): Promise<Played> {
  e.send(go);
  const ls = [];
  if (stopAt !== undefined) {
    for (let depth = 0; depth < stopAt; ) {
      const got = await e.collect(/^(info depth \d+ |bestmove )/, timeoutMs);
      ls.push(...got);
      const text = got[got.length - 1].text;
      if (text.startsWith('bestmove')) break;
      depth = parseInfo(text)?.depth ?? 0;
    }
    e.send(stop);
  }
  if (!ls.some((l) => l.text.startsWith('bestmove'))) ls.push(...(await e.collect(/^bestmove /, timeoutMs)));
  const last = ls[ls.length - 1];
  const lines = ls.map((l) => l.text);
  expect(
    lines.filter((l) => l.startsWith('info string error')),
    `${s.cmd}; ${go}`,
  ).toEqual([]);
  const move = checkBestmove(last.text, s.pos);
  if (s.safe) expect(s.safe, `${s.cmd}; ${go}: ${move} hits its own Pharaoh`).toContain(move);
  const after = await e.sync();
  expect(
    after.filter((l) => l.startsWith('bestmove')),
    `a second bestmove after '${go}'`,
  ).toEqual([]);
  expect(
    after.filter((l) => l.startsWith('info string error')),
    `${s.cmd}; ${go}`,
  ).toEqual([]);
  return { lines, move };
}

describe('the engine with several threads', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine(2);
  });
  afterAll(() => e?.kill());

  it('the Threads option goes up to twice the cores', async () => {
    e.send('uci');
    const ls = (await e.collect(/^uciok$/)).map((l) => l.text);
    const opt = ls.find((l) => l.startsWith('option name Threads '));
    expect(opt).toMatch(/^option name Threads type spin default 1 min 1 max (\d+)$/);
    expect(Number(/max (\d+)/.exec(opt!)![1])).toBe(Math.max(2, 2 * availableParallelism()));
  });

  it('go depth 5 with 2 threads: a legal move, info lines at every depth, nodes growing', async () => {
    const s = spot(CLASSIC);
    await setPosition(e, s);
    const r = await play(e, s, 'go depth 5');
    const infos = r.lines.map(parseInfo).filter((i) => i !== undefined);
    // one line per depth (more only while an aspiration window fails after 2 s)
    expect([...new Set(infos.map((i) => i.depth))]).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < infos.length; i++) {
      expect(infos[i].depth).toBeGreaterThanOrEqual(infos[i - 1].depth);
      if (infos[i].depth > infos[i - 1].depth)
        expect(infos[i].nodes, `nodes at depth ${infos[i].depth}`).toBeGreaterThan(infos[i - 1].nodes);
      else expect(infos[i].nodes).toBeGreaterThanOrEqual(infos[i - 1].nodes);
    }
    for (const l of r.lines.filter((x) => x.startsWith('info depth'))) {
      expect(l).toMatch(
        /^info depth \d+ seldepth \d+ multipv 1 score (cp|mate) -?\d+( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+ time \d+ pv \S+( \S+)*$/,
      );
    }
  });

  it('go nodes 100000 with 2 threads stops near the budget (nodes of all threads)', async () => {
    const s = spot(CLASSIC, ['c1d2']);
    await setPosition(e, s);
    const r = await play(e, s, 'go nodes 100000');
    const infos = r.lines.map(parseInfo).filter((i) => i !== undefined);
    expect(infos.length).toBeGreaterThan(0);
    const last = infos[infos.length - 1];
    expect(last.nodes).toBeLessThan(3 * 100_000);
  });

  it('MultiPV 3 with 2 threads: multipv 1, 2, 3 at every depth, distinct first moves', async () => {
    e.send('setoption name MultiPV value 3');
    const s = spot(CLASSIC);
    await setPosition(e, s);
    const r = await play(e, s, 'go depth 4');
    const infos = r.lines.map(parseInfo).filter((i) => i !== undefined);
    for (let d = 1; d <= 4; d++) {
      const last = new Map<number, string>();
      for (const i of infos.filter((x) => x.depth === d)) last.set(i.multipv, i.pv[0]);
      expect([...last.keys()].sort(), `multipv lines at depth ${d}`).toEqual([1, 2, 3]);
      expect(new Set(last.values()).size, `distinct moves at depth ${d}`).toBe(3);
    }
    e.send('setoption name MultiPV value 1');
    expect(await e.sync()).toEqual([]);
  });

  it('Hash resize, Clear Hash and ucinewgame with 4 workers alive; searches go on', async () => {
    await setThreads(e, 4);
    const s = spot(IMHOTEP);
    await setPosition(e, s);
    await play(e, s, 'go depth 4');
    for (const cmd of [
      'setoption name Hash value 64',
      'setoption name Clear Hash',
      'ucinewgame',
      'setoption name Hash value 1',
      'setoption name Clear Hash',
    ]) {
      e.send(cmd);
      expect(await e.sync(), cmd).toEqual([]);
      const r = await play(e, s, 'go depth 4');
      expect(
        r.lines
          .map(parseInfo)
          .filter((i) => i !== undefined)
          .at(-1)!.depth,
        cmd,
      ).toBe(4);
    }
    // a running search is not disturbed by a Clear Hash queued behind it
    e.send('go infinite');
    await e.waitFor(/^info depth 2 /);
    e.send('setoption name Clear Hash');
    e.send('setoption name Hash value 16');
    e.send('stop');
    checkBestmove((await e.waitFor(/^bestmove /)).text, s.pos);
    expect((await e.sync()).filter((l) => l.startsWith('bestmove') || l.startsWith('info string error'))).toEqual([]);
    await play(e, s, 'go depth 3');
    // (left at 4 threads: the next test starts with them; each test sets the threads it needs, and
    // a pool rebuilt only to be rebuilt again costs a warm-up search per thread)
  });

  it('searchmoves with 4 threads: the voted move is always one of them', async () => {
    await setThreads(e, 4);
    const start = spot(CLASSIC);
    await setPosition(e, start);
    for (const go of ['go depth 4 searchmoves c1d2 c4b5', 'go nodes 30000 searchmoves j1- f4g5']) {
      const allowed = go.split(' searchmoves ')[1].split(' ');
      for (let i = 0; i < 2; i++) expect(allowed).toContain((await play(e, start, go)).move);
    }
    // only one safe move among the searchmoves: it is played
    const s = spot(SUICIDE);
    await setPosition(e, s);
    const suicide = classifyMoves(s.pos).suicide;
    for (const safe of s.safe!) {
      const r = await play(
        e,
        s,
        `go depth 3 searchmoves ${suicide.slice(0, 5).join(' ')} ${safe} ${suicide.slice(5, 10).join(' ')}`,
      );
      expect(r.move).toBe(safe);
    }
  });

  it('never a move that hits its own Pharaoh when another exists (4 and 2 threads, Silver and Red)', async () => {
    const spots = [spot(SUICIDE), redSuicide()];
    for (const s of spots) {
      expect(s.safe!.length).toBeGreaterThan(0);
      expect(classifyMoves(s.pos).suicide.length).toBeGreaterThan(4 * s.safe!.length);
    }
    const gos: Array<[string, number | undefined]> = [
      ['go depth 1', undefined],
      ['go depth 2', undefined],
      ['go depth 5', undefined],
      ['go nodes 1', undefined],
      ['go nodes 3000', undefined],
      ['go movetime 40', undefined],
      ['go wtime 120 btime 120', undefined],
      ['go infinite', 0],
      ['go infinite', 2],
      ['go depth 30', 1],
    ];
    for (const threads of [4, 2]) {
      await setThreads(e, threads);
      for (const s of spots) {
        await setPosition(e, s);
        for (const [go, stopAfter] of gos) await play(e, s, go, stopAfter);
        e.send('ucinewgame');
        expect(await e.sync()).toEqual([]);
      }
    }
  });

  it('30 go/stop cycles with Threads changing between 2, 1 and 4: exactly one legal bestmove each', async () => {
    const random = rng(20240605);
    const spots = [
      spot(CLASSIC),
      spot(CLASSIC, ['c1d2', 'h8g7']),
      spot(IMHOTEP),
      spot(DYNASTY, ['d3e3']),
      spot(SUICIDE),
      redSuicide(),
      spot(MATE_IN_1),
    ];
    const kinds: Array<[string, number | undefined, string?]> = [
      ['go infinite', 0],
      ['go infinite', 1],
      ['go infinite', 3],
      ['go infinite', 4],
      ['go movetime 80', undefined],
      ['go movetime 400', 2],
      ['go depth 3', undefined],
      ['go nodes 20000', undefined],
      ['go wtime 800 btime 800 winc 0 binc 0', undefined],
      ['go depth 40', 3],
      ['go ponder wtime 600 btime 600', 2, 'ponderhit'],
      ['go ponder wtime 5000 btime 5000', 1, 'stop'],
    ];
    // 10 cycles at each thread count, from the 2 the previous test leaves (new pools: the
    // fresh-pool test below checks more of those; a rebuild costs a warm-up search per thread)
    const threadPlan = [2, 1, 4];
    let threads = 2;
    for (let cycle = 0; cycle < 30; cycle++) {
      if (cycle % 10 === 0) {
        threads = threadPlan[cycle / 10];
        await setThreads(e, threads);
      }
      const s = spots[Math.floor(random() * spots.length)];
      const [go, stopAfter, stop] = kinds[cycle % kinds.length];
      await setPosition(e, s);
      const r = await play(e, s, go, stopAfter, stop);
      if (s.cmd.includes(MATE_IN_1) && go !== 'go infinite') expect(r.move).toBe('j5+');
      // a stop while idle is ignored
      if (cycle % 7 === 3) {
        e.send('stop');
        expect(await e.sync()).toEqual([]);
      }
    }
  });

  it('stop ends go infinite with 1, 2 and 4 threads, at several depths: one legal bestmove, nothing after', async () => {
    const s = spot(CLASSIC, ['c1d2']);
    // (4 first: the previous test leaves 4 threads, and a rebuild costs a warm-up per thread)
    for (const threads of [4, 2, 1]) {
      await setThreads(e, threads);
      await setPosition(e, s);
      for (const depth of [0, 1, 2, 3, 4, 5]) await play(e, s, 'go infinite', depth);
    }
  });

  it('the first search of a freshly built pool of 2 to 4 threads also ends at stop (5 rebuilds)', async () => {
    // Each `setoption name Threads` builds a new pool, warmed up before it answers (protocol.md).
    // Each rebuild is one whose first search is tested, each pool has several workers (the
    // previous test leaves 1 thread), and the last has 4 for the next test.
    const s = spot(CLASSIC, ['c1d2']);
    for (const threads of [2, 3, 4, 3, 4]) {
      await setThreads(e, threads);
      await setPosition(e, s);
      await play(e, s, 'go infinite', 2);
      await play(e, s, 'go infinite', 2);
    }
  });

  it('end of input during a 4-thread search: exit code 0 (long before its clock would end it)', async () => {
    // The shared engine (the previous test leaves it 4 threads: no new pool), in the describe's
    // last test, as the engine ends here (afterAll's kill then does nothing).
    await setThreads(e, 4);
    try {
      const s = spot(IMHOTEP);
      await setPosition(e, s);
      const from = e.lines.length; // (the lines of this search only)
      e.send('go wtime 100000000 btime 100000000');
      await e.waitFor(/^info depth 2 /);
      e.proc.stdin.end();
      // (its share of a clock of 100,000 s is near an hour: an exit within the line wait shows it stopped)
      const exit = await e.waitExit();
      expect(exit, e.stderr).toEqual({ code: 0, signal: null });
      const best = e.lines.slice(from).filter((l) => l.text.startsWith('bestmove'));
      expect(best.length).toBe(1);
      checkBestmove(best[0].text, s.pos);
    } finally {
      e.kill();
    }
  });
});

describe('leaving during a multi-threaded search', () => {
  it('quit during a 2-thread go infinite: the bestmove, then exit code 0', async () => {
    assertBuilt();
    const e = await startEngine(2);
    try {
      const s = spot(CLASSIC);
      await setPosition(e, s);
      e.send('go infinite');
      await e.waitFor(/^info depth 3 /);
      e.send('quit');
      const exit = await e.waitExit();
      expect(exit, e.stderr).toEqual({ code: 0, signal: null });
      const best = e.lines.filter((l) => l.text.startsWith('bestmove'));
      expect(best.length).toBe(1);
      checkBestmove(best[0].text, s.pos);
      expect(e.stderr).toBe('');
    } finally {
      e.kill();
    }
  });
});
