/**
 * An engine's line is timed when its text arrives, before this process handles it: what the
 * referee stops the mover's clock at (referee.ts askMove), so that the time the runner spends on
 * its own work (other games on the same thread, the handlers of the lines) is not charged to the
 * engine. Real processes: the fake engine, and a UKI fixture behind its translator (whose lines
 * reach the runner a turn of the event loop after the engine's).
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { knownDialect } from '../../src/foreign/foreign';
import { EngineProcess, type EngineSpec } from '../../src/match/engine-process';
import { fixtureScript } from '../foreign/helpers';
import { scaledMs, stretched } from '../slowness';
import { fakeEngineScript } from './helpers';

const spec = (): EngineSpec => ({
  name: 'fake',
  nameGiven: true,
  command: ['node', fakeEngineScript(), '--delay', '20'],
  options: [],
  limits: {},
  timeMarginMs: 0,
});

/** The runner's own work: this process busy for 400 ms. */
function busy(): void {
  const until = performance.now() + 400;
  while (performance.now() < until) {
    // nothing but the time
  }
}

/**
 * Starts `e`, asks it for a move with `hook` installed (which keeps this process busy once the
 * answer has come), and returns when the bestmove was timed, when it was handled, and when go was sent.
 */
async function timedAnswer(
  e: EngineProcess,
  hook: (e: EngineProcess) => void,
): Promise<{ at: number; handled: number; t0: number }> {
  e.start();
  try {
    expect(await e.handshake('khet2', scaledMs(30_000))).toBeUndefined();
    e.send('position startpos');
    hook(e);
    const t0 = performance.now();
    e.send('go wtime 1000 btime 1000');
    const r = await e.waitFor((l) => l.startsWith('bestmove'), stretched(30_000));
    const handled = performance.now();
    if (r.kind !== 'line') throw new Error(`no bestmove: ${r.kind}`);
    return { at: r.at, handled, t0 };
  } finally {
    await e.quit();
  }
}

describe('an engine process', () => {
  it("times a line when its text arrives, not when this process's handlers are done with it", async () => {
    const r = await timedAnswer(new EngineProcess(spec()), (e) => {
      e.onLine = (line) => {
        if (line.startsWith('bestmove')) busy();
      };
    });
    expect(r.at).toBeGreaterThanOrEqual(r.t0 + 20); // the engine thought 20 ms
    expect(r.handled - r.at).toBeGreaterThanOrEqual(400);
  });

  it('an engine behind a translator: its line is timed when the engine wrote it, not when the translation is delivered', async () => {
    const uki = new EngineProcess(
      { ...spec(), name: 'uki', command: ['node', fixtureScript('uki')], proto: 'uki' },
      knownDialect('uki'),
    );
    // busy once the engine's own bestmove has arrived, before its translation is delivered
    const r = await timedAnswer(uki, (e) => {
      e.onTraffic = (direction, line) => {
        if (direction === '<' && line.startsWith('bestmove')) busy();
      };
    });
    expect(r.at).toBeGreaterThanOrEqual(r.t0);
    expect(r.handled - r.at).toBeGreaterThanOrEqual(400);
  });
});
