/**
 * The built engine with several search threads: the same `bestmove` guarantees as with one
 * thread (exactly one, legal, never a suicide when another move exists) over many go/stop cycles
 * with `Threads` changing between them; `stop` answered at once; `go depth`, `go nodes`, MultiPV,
 * `Hash` and `Clear Hash` with workers alive; `quit` during a multi-threaded search.
 */
import { availableParallelism, loadavg } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorPosition, setupKfen, toKfen, type Position } from '../../src/core/index';
import {
  Engine, assertBuilt, checkBestmove, classifyMoves, median, parseInfo, positionOf, rng, sleep, startEngine,
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
  return { cmd: `position kfen ${kfen}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`, pos, safe: suicide.length > 0 ? [...win, ...safe] : undefined };
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
  expect(await e.sync(20_000), `Threads ${n}`).toEqual([]);
}

interface Played {
  lines: string[];
  move: string;
  /** ms from the last command sent (go, or stop when sent) to reading bestmove. */
  ms: number;
}

/**
 * Runs one `go` (with `stop` after `stopAfter` ms when given), checks the bestmove (legal; safe
 * when the spot says so), then isready: nothing but readyok follows, so exactly one bestmove.
 */
async function play(e: Engine, s: Spot, go: string, stopAfter?: number, stop = 'stop', timeoutMs = 15_000): Promise<Played> {
  let t0 = e.send(go);
  if (stopAfter !== undefined) {
    if (stopAfter > 0) await sleep(stopAfter);
    t0 = e.send(stop);
  }
  const ls = await e.collect(/^bestmove /, timeoutMs);
  const last = ls[ls.length - 1];
  const lines = ls.map((l) => l.text);
  expect(lines.filter((l) => l.startsWith('info string error')), `${s.cmd}; ${go}`).toEqual([]);
  const move = checkBestmove(last.text, s.pos);
  if (s.safe) expect(s.safe, `${s.cmd}; ${go}: ${move} hits its own Pharaoh`).toContain(move);
  const after = await e.sync();
  expect(after.filter((l) => l.startsWith('bestmove')), `a second bestmove after '${go}'`).toEqual([]);
  expect(after.filter((l) => l.startsWith('info string error')), `${s.cmd}; ${go}`).toEqual([]);
  return { lines, move, ms: last.at - t0 };
}

/** stop → bestmove (ms) by thread count: the dedicated trials, and the go/stop cycles (logged only). */
const latencies = new Map<number, number[]>();
const cycleLatencies = new Map<number, number[]>();
function recordLatency(to: Map<number, number[]>, threads: number, ms: number): void {
  if (!to.has(threads)) to.set(threads, []);
  to.get(threads)!.push(ms);
}

describe('the engine with several threads', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine(2);
  });
  afterAll(() => {
    e?.kill();
    console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (const [what, map] of [['trials', latencies], ['go/stop cycles', cycleLatencies]] as const) {
      for (const [t, ms] of [...map].sort((a, b) => a[0] - b[0])) {
        console.log(`stop → bestmove (${what}), Threads ${t}: ${ms.map((x) => x.toFixed(1)).join(', ')} ms (median ${median(ms).toFixed(1)}, max ${Math.max(...ms).toFixed(1)})`);
      }
    }
  });

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
      if (infos[i].depth > infos[i - 1].depth) expect(infos[i].nodes, `nodes at depth ${infos[i].depth}`).toBeGreaterThan(infos[i - 1].nodes);
      else expect(infos[i].nodes).toBeGreaterThanOrEqual(infos[i - 1].nodes);
    }
    for (const l of r.lines.filter((x) => x.startsWith('info depth'))) {
      expect(l).toMatch(/^info depth \d+ seldepth \d+ multipv 1 score (cp|mate) -?\d+( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+ time \d+ pv \S+( \S+)*$/);
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
    for (const cmd of ['setoption name Hash value 64', 'setoption name Clear Hash', 'ucinewgame', 'setoption name Hash value 1', 'setoption name Clear Hash']) {
      e.send(cmd);
      expect(await e.sync(), cmd).toEqual([]);
      const r = await play(e, s, 'go depth 4');
      expect(r.lines.map(parseInfo).filter((i) => i !== undefined).at(-1)!.depth, cmd).toBe(4);
    }
    // a running search is not disturbed by a Clear Hash queued behind it
    e.send('go infinite');
    await sleep(150);
    e.send('setoption name Clear Hash');
    e.send('setoption name Hash value 16');
    e.send('stop');
    checkBestmove((await e.waitFor(/^bestmove /, 5000)).text, s.pos);
    expect((await e.sync()).filter((l) => l.startsWith('bestmove') || l.startsWith('info string error'))).toEqual([]);
    await play(e, s, 'go depth 3');
    await setThreads(e, 2);
  });

  it('never a move that hits its own Pharaoh when another exists (2 and 4 threads, Silver and Red)', async () => {
    const spots = [spot(SUICIDE), redSuicide()];
    for (const s of spots) {
      expect(s.safe!.length).toBeGreaterThan(0);
      expect(classifyMoves(s.pos).suicide.length).toBeGreaterThan(4 * s.safe!.length);
    }
    const gos: Array<[string, number | undefined]> = [
      ['go depth 1', undefined], ['go depth 2', undefined], ['go depth 5', undefined], ['go nodes 1', undefined],
      ['go nodes 3000', undefined], ['go movetime 40', undefined], ['go wtime 120 btime 120', undefined],
      ['go infinite', 0], ['go infinite', 60], ['go depth 30', 5],
    ];
    for (const threads of [2, 4]) {
      await setThreads(e, threads);
      for (const s of spots) {
        await setPosition(e, s);
        for (const [go, stopAfter] of gos) await play(e, s, go, stopAfter);
        e.send('ucinewgame');
        expect(await e.sync()).toEqual([]);
      }
    }
    await setThreads(e, 2);
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
      const r = await play(e, s, `go depth 3 searchmoves ${suicide.slice(0, 5).join(' ')} ${safe} ${suicide.slice(5, 10).join(' ')}`);
      expect(r.move).toBe(safe);
    }
    await setThreads(e, 2);
  });

  it('30 go/stop cycles with Threads changing between 1, 2 and 4: exactly one legal bestmove each', async () => {
    const random = rng(20240605);
    const spots = [
      spot(CLASSIC), spot(CLASSIC, ['c1d2', 'h8g7']), spot(IMHOTEP), spot(DYNASTY, ['d3e3']), spot(SUICIDE), redSuicide(), spot(MATE_IN_1),
    ];
    const kinds: Array<[string, number | undefined, string?]> = [
      ['go infinite', 0], ['go infinite', 25], ['go infinite', 120], ['go infinite', 200],
      ['go movetime 80', undefined], ['go movetime 400', 60], ['go depth 3', undefined], ['go nodes 20000', undefined],
      ['go wtime 800 btime 800 winc 0 binc 0', undefined], ['go depth 40', 100],
      ['go ponder wtime 600 btime 600', 80, 'ponderhit'], ['go ponder wtime 5000 btime 5000', 50, 'stop'],
    ];
    const threadPlan = [1, 2, 4, 2, 1, 4];
    let threads = 2;
    for (let cycle = 0; cycle < 30; cycle++) {
      if (cycle % 5 === 0) {
        threads = threadPlan[cycle / 5];
        await setThreads(e, threads);
      }
      const s = spots[Math.floor(random() * spots.length)];
      const [go, stopAfter, stop] = kinds[cycle % kinds.length];
      await setPosition(e, s);
      const r = await play(e, s, go, stopAfter, stop);
      if (go === 'go infinite' && stopAfter! >= 100) recordLatency(cycleLatencies, threads, r.ms);
      if (s.cmd.includes(MATE_IN_1) && go !== 'go infinite') expect(r.move).toBe('j5+');
      // a stop while idle is ignored
      if (cycle % 7 === 3) {
        e.send('stop');
        expect(await e.sync()).toEqual([]);
      }
    }
  });

  // The machine is shared and has 2 cores: a burst of load elsewhere can delay a descheduled
  // search thread by 100+ ms. Each attempt measures afresh; up to 3 attempts (all logged).
  let attempt = 0;
  it(`stop is answered within 50 ms (median) and 200 ms (max) with 1, 2 and 4 threads`, { retry: 2 }, async () => {
    attempt++;
    latencies.clear();
    const s = spot(CLASSIC, ['c1d2']);
    const random = rng(7 + attempt);
    for (const threads of [1, 2, 4]) {
      await setThreads(e, threads);
      await setPosition(e, s);
      // the steady state: one search first, so the fresh workers' code is compiled (the first
      // search of a new pool is the next test's subject)
      await play(e, s, 'go infinite', 150);
      for (let trial = 0; trial < 9; trial++) {
        const r = await play(e, s, 'go infinite', 120 + Math.floor(random() * 150));
        recordLatency(latencies, threads, r.ms);
      }
      const ms = latencies.get(threads)!;
      const why = `Threads ${threads}: ${ms.map((x) => x.toFixed(1)).join(', ')} ms (load average ${loadavg()[0].toFixed(1)} on this machine)`;
      console.log(`attempt ${attempt}: stop → bestmove, ${why}; median ${median(ms).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}`);
      // soft: every thread count is measured and reported even when one fails
      expect.soft(median(ms), why).toBeLessThan(50);
      expect.soft(Math.max(...ms), why).toBeLessThan(200);
    }
  });

  it('the first search of a freshly built 4-thread pool also answers stop within 50 ms (median of 5 rebuilds)', async () => {
    // Each `setoption name Threads` builds a new pool; its workers have never searched, so their
    // code still runs unoptimised: the first 1024 nodes between two looks at the stop flag take
    // far longer than in a warm worker, four times over on two cores. The pool should warm its
    // workers when it builds them (engine-conventions.md: "warm the pool at start-up").
    const s = spot(CLASSIC, ['c1d2']);
    const first: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      await setThreads(e, 3);
      await setThreads(e, 4);
      await setPosition(e, s);
      await sleep(100);
      first.push((await play(e, s, 'go infinite', 200)).ms);
      // the same pool once warm, measured right after (the same load on the machine)
      await play(e, s, 'go infinite', 200);
      warm.push((await play(e, s, 'go infinite', 200)).ms);
    }
    const show = (xs: number[]): string => `${xs.map((x) => x.toFixed(1)).join(', ')} ms (median ${median(xs).toFixed(1)})`;
    console.log(`stop → bestmove, Threads 4, first search of a new pool: ${show(first)}; warm: ${show(warm)}; load average ${loadavg()[0].toFixed(1)}`);
    expect(median(first), `first search of a new 4-thread pool: ${show(first)}; the same pool warm: ${show(warm)}`).toBeLessThan(50);
    await setThreads(e, 2);
  });
});

describe('leaving during a multi-threaded search', () => {
  it('quit during a 2-thread go infinite: the bestmove, then exit code 0 within 2 s', async () => {
    assertBuilt();
    const e = await startEngine(2);
    try {
      const s = spot(CLASSIC);
      await setPosition(e, s);
      e.send('go infinite');
      await sleep(400);
      const t0 = e.send('quit');
      const exit = await e.waitExit(2000);
      const ms = performance.now() - t0;
      expect(exit, e.stderr).toEqual({ code: 0, signal: null });
      expect(ms).toBeLessThan(2000);
      const best = e.lines.filter((l) => l.text.startsWith('bestmove'));
      expect(best.length).toBe(1);
      checkBestmove(best[0].text, s.pos);
      expect(e.stderr).toBe('');
    } finally {
      e.kill();
    }
  });

  it('end of input during a 4-thread search: exit code 0 within 2 s', async () => {
    const e = await startEngine(4);
    try {
      const s = spot(IMHOTEP);
      await setPosition(e, s);
      e.send('go wtime 100000 btime 100000');
      await sleep(300);
      const t0 = performance.now();
      e.proc.stdin.end();
      const exit = await e.waitExit(2000);
      expect(exit, e.stderr).toEqual({ code: 0, signal: null });
      expect(performance.now() - t0).toBeLessThan(2000);
      const best = e.lines.filter((l) => l.text.startsWith('bestmove'));
      expect(best.length).toBe(1);
      checkBestmove(best[0].text, s.pos);
    } finally {
      e.kill();
    }
  });
});
