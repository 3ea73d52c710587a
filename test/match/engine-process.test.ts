/**
 * An engine's line is timed when its text arrives, before this process handles it: what the
 * referee stops the mover's clock at (referee.ts askMove), so that the time the runner spends on
 * its own work (other games on the same thread, the handlers of the lines) is not charged to the
 * engine. A real fake-engine process.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { EngineProcess, type EngineSpec } from '../../src/match/engine-process';
import { fakeEngineScript } from './helpers';

const spec = (): EngineSpec => ({
  name: 'fake',
  nameGiven: true,
  command: ['node', fakeEngineScript(), '--delay', '20'],
  options: [],
  limits: {},
  timeMarginMs: 0,
});

describe('an engine process', () => {
  it("times a line when its text arrives, not when this process's handlers are done with it", async () => {
    const e = new EngineProcess(spec());
    e.start();
    try {
      expect(await e.handshake('khet2', 30_000)).toBeUndefined();
      e.send('position startpos');
      // this process busy for 400 ms on the answer, once it has arrived
      e.onLine = (line) => {
        if (!line.startsWith('bestmove')) return;
        const until = performance.now() + 400;
        while (performance.now() < until) {
          // the runner's own work
        }
      };
      const t0 = performance.now();
      e.send('go wtime 1000 btime 1000');
      const r = await e.waitFor((l) => l.startsWith('bestmove'), 30_000);
      const handled = performance.now();
      expect(r.kind).toBe('line');
      if (r.kind !== 'line') return;
      expect(r.at).toBeGreaterThanOrEqual(t0 + 20); // the engine thought 20 ms
      expect(handled - r.at).toBeGreaterThanOrEqual(400);
    } finally {
      await e.quit();
    }
  });
});
