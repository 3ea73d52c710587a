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

  it('an engine behind a translator: its line is timed when the engine wrote it, not when the translation is delivered', async () => {
    const e = new EngineProcess(
      { ...spec(), name: 'uki', command: ['node', fixtureScript('uki')], proto: 'uki' },
      knownDialect('uki'),
    );
    e.start();
    try {
      expect(await e.handshake('khet2', 30_000)).toBeUndefined();
      e.send('position startpos');
      // this process busy for 400 ms once the engine's own bestmove has arrived, before its translation
      e.onTraffic = (direction, line) => {
        if (direction !== '<' || !line.startsWith('bestmove')) return;
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
      expect(r.at).toBeGreaterThanOrEqual(t0);
      expect(handled - r.at).toBeGreaterThanOrEqual(400);
    } finally {
      await e.quit();
    }
  });
});
