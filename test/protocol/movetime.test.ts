/**
 * The built engine keeps `go movetime T` within T as a referee measures it (from writing `go`
 * to reading `bestmove`), with the default Move Overhead, the first search of a fresh engine and
 * the first after `ucinewgame` included. A shared machine may delay any one answer, so the test
 * counts the answers that came late (past T and a slack) and bounds their number, generously;
 * bench/latency.mjs reports the medians.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CLASSIC, Engine, assertBuilt, checkBestmove, positionOf, startEngine } from './engine';

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

/** Slack for a busy machine (a search thread may wait that long for a core): late is past T + SLACK. */
const SLACK = 50;
const late = (ts: Try[]): Try[] => ts.filter((t) => t.ms > t.movetime + SLACK);
const show = (ts: Try[]): string => ts.map((t) => `${t.what} movetime ${t.movetime}: ${t.ms.toFixed(1)} ms`).join('; ');

describe('go movetime: within T as the referee measures it', () => {
  const engines: Engine[] = [];
  afterAll(() => {
    for (const e of engines) e.kill();
  });

  it('first searches of fresh engines, the first after ucinewgame and later ones: few late, none far past T', async () => {
    assertBuilt();
    const first: Try[] = [];
    const rest: Try[] = [];
    for (const movetime of [100, 200, 300, 200]) {
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
    // Before the fix every first search of a fresh engine came late (its network was parsed
    // outside the clock; 40 to 250 ms late on a busy machine): here at most one may, and of all
    // answers at most one in eight; none far past its time.
    expect(late(first).length, show(first)).toBeLessThanOrEqual(1);
    expect(late(all).length, show(late(all))).toBeLessThanOrEqual(all.length / 8);
    for (const t of all) expect(t.ms, `${t.what} movetime ${t.movetime}`).toBeLessThan(t.movetime + 500);
  }, 120_000);
});
