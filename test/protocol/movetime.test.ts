/**
 * The built engine answers `go movetime T` with a legal move, the first search of a fresh engine
 * and the first after `ucinewgame` included, and none is far past T. How close to T the answers
 * come is a measurement of the machine as much as of the engine (a busy machine delays any one
 * answer by hundreds of milliseconds), so it is a benchmark, not a test: `node bench/latency.mjs`
 * reports the medians and the late answers, side by side for two builds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Stopwatch } from '../patience';
import { CLASSIC, type Engine, assertBuilt, checkBestmove, positionOf, startEngine } from './spawn-engine';

interface Try {
  what: string;
  movetime: number;
  ms: number;
  /** How many times slower than idle the machine was during the search (test/patience.ts). */
  slowness: number;
}

/** `go movetime T` from the start position: the time from writing it to reading bestmove. */
async function timed(e: Engine, movetime: number, what: string): Promise<Try> {
  const watch = new Stopwatch();
  const t0 = e.send(`go movetime ${movetime}`);
  const ls = await e.collect(/^bestmove /, movetime + HUNG_MS + 5000);
  const { wallMs, idleMs } = watch.stop();
  const last = ls[ls.length - 1];
  checkBestmove(last.text, positionOf(CLASSIC));
  return { what, movetime, ms: last.at - t0, slowness: wallMs / Math.max(idleMs, 1) };
}

/**
 * A search that goes on this long past T, in idle-machine time, has lost its clock: a busy machine
 * delays far less once its slowness is taken out.
 */
const HUNG_MS = 10_000;
const show = (ts: Try[]): string =>
  ts.map((t) => `${t.what} movetime ${t.movetime}: ${t.ms.toFixed(1)} ms (${t.slowness.toFixed(1)}× slow)`).join('; ');

describe('go movetime: within T as the referee measures it', () => {
  const engines: Engine[] = [];
  afterAll(() => {
    for (const e of engines) e.kill();
  });

  it('first searches of fresh engines, the first after ucinewgame and later ones: a move each, none far past T', async () => {
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
    for (const t of all)
      expect((t.ms - t.movetime) / t.slowness, `${t.what} movetime ${t.movetime}; ${show(all)}`).toBeLessThan(HUNG_MS);
  });
});
