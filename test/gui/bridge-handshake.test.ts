/**
 * The GUI server's engine bridge names the step of the handshake an engine failed: `uci` never
 * answered, or `uciok` answered and `isready` (sent after `Threads` and `Hash`) not. Real engine
 * processes: tiny Node programs that stop answering at one step.
 */
import { describe, expect, it } from 'vitest';
import { EngineBridge } from '../../src/gui/bridge';
import { scaledMs } from '../slowness';

/** A Node program that answers `uci` (or not) and never `isready`. */
const engine = (answersUci: boolean): string[] => [
  process.execPath,
  '-e',
  `require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
     if (l === 'uci' && ${answersUci}) console.log('id name Mute\\noption name Hash type spin default 1 min 1 max 64\\nuciok');
   });`,
];

describe('the engine bridge handshake', () => {
  it('an engine that never answers uci fails, named so', async () => {
    const b = new EngineBridge({ command: engine(false), handshakeMs: 1500 });
    b.start();
    expect(await b.settled()).toBe('failed');
    expect(b.message).toMatch(/^the engine did not answer 'uci' with 'uciok' within 1500 ms \(command: /);
  });

  it("an engine that answers uciok but never readyok fails with that step's message", async () => {
    // The budget must let a Node program start and answer `uci` on this machine as it is now.
    const ms = scaledMs(1500);
    const b = new EngineBridge({ command: engine(true), handshakeMs: ms, strength: { threads: 2, hashMb: 32 } });
    b.start();
    expect(await b.settled()).toBe('failed');
    expect(b.handshake).toContain('uciok');
    expect(b.message).toMatch(
      new RegExp(`^the engine answered 'uciok' but not 'isready' with 'readyok' within ${ms} ms \\(command: `),
    );
  });
});
