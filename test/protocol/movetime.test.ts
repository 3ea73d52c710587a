/**
 * The built engine keeps `go movetime T` within T as a referee measures it (from writing `go`
 * to reading `bestmove`), with the default Move Overhead, the first search of a fresh engine and
 * the first after `ucinewgame` included. A shared machine may delay any one answer, so the test
 * counts the answers that came late (past T and a slack) and bounds their number, generously;
 * bench/latency.mjs reports the medians.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CLASSIC, Engine, assertBuilt, checkBestmove, positionOf, startEngine } from './spawn-engine';

interface Try {
  what: string;
  movetime: number;
  ms: number;
}

/** `go movetime T` from the start position: the time from writing it to reading bestmove. */
async function timed(e: Engine, movetime: number, what: string): Promise<Try> {
  const t0 = e.send(`go movetime ${movetime}`);
  const ls = await e.collect(/^bestmove /, movetime + 10_000);
  const last = ls[ls.length - 1];
  checkBestmove(last.text, positionOf(CLASSIC));
  return { what, movetime, ms: last.at - t0 };
}

/** Slack for a busy machine (a search thread may wait that long for a core). */
const SLACK = 50;
/** The answers that came after T (+ `slack`). */
const late = (ts: Try[], slack = 0): Try[] => ts.filter((t) => t.ms > t.movetime + slack);
const show = (ts: Try[]): string => ts.map((t) => `${t.what} movetime ${t.movetime}: ${t.ms.toFixed(1)} ms`).join('; ');

describe('go movetime: within T as the referee measures it', () => {
  const engines: Engine[] = [];
  afterAll(() => {
    for (const e of engines) e.kill();
  });

  // Other test files run beside this one (4-thread engines among them): each attempt measures
  // afresh, up to 3 (a late engine fails every attempt: its lateness is systematic).
  it('first searches of fresh engines, the first after ucinewgame and later ones: few late, none far past T', { retry: 2, timeout: 120_000 }, async () => {
    assertBuilt();
    const first: Try[] = [];
    const rest: Try[] = [];
    for (const movetime of [100, 200, 300, 100, 200, 300]) {
      // a fresh engine as a runner starts it: handshake, isready, a new game, the first move
      const e = await startEngine();
      engines.push(e);
      e.send('ucinewgame');
      e.send('position startpos');
      expect(await e.sync()).toEqual([]);
      first.push(await timed(e, movetime, 'fresh engine, first search'));
      for (const t of [50, 100, 200]) {
        e.send('ucinewgame');
        e.send('position startpos');
        rest.push(await timed(e, t, 'first after ucinewgame'));
        rest.push(await timed(e, t, 'a later search'));
      }
      e.kill();
    }
    const all = [...first, ...rest];
    console.log(`go movetime, ms from go to bestmove: ${show(all)}`);
    // Before the fix every first search of a fresh engine came after T (its network was parsed
    // outside the clock: 3 to 50 ms late, 90 to 390 ms on a very busy machine): here at most
    // half may. Of all answers at most one in four may come more than SLACK after T, and none
    // far past it.
    expect(late(first).length, show(first)).toBeLessThanOrEqual(first.length / 2);
    expect(late(all, SLACK).length, show(late(all, SLACK))).toBeLessThanOrEqual(all.length / 4);
    for (const t of all) expect(t.ms, `${t.what} movetime ${t.movetime}`).toBeLessThan(t.movetime + 500);
  });
});
