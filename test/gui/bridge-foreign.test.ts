/**
 * The GUI server's bridge runs an engine of another protocol (`thoth gui --engine … --engine-proto
 * uki`) through its translator: the page sees Thoth's handshake and Thoth's notation. A real engine
 * process: the UKI fixture engine of test/foreign.
 */
import { describe, expect, it } from 'vitest';
import { EngineBridge } from '../../src/gui/bridge';
import { fixtureScript } from '../foreign/helpers';

describe('the engine bridge with a UKI engine', () => {
  it('answers the handshake as Thoth would, and its moves in Thoth notation', async () => {
    const b = new EngineBridge({
      command: [process.execPath, fixtureScript('uki')],
      proto: 'uki',
      handshakeMs: 20_000,
    });
    b.start();
    expect(await b.settled()).toBe('ready');
    expect(b.handshake).toEqual(expect.arrayContaining(['id name fixture-uki', 'uciok']));
    const lines: string[] = [];
    let resolveBest: (l: string) => void = () => {};
    const best = new Promise<string>((resolve) => (resolveBest = resolve));
    const client = {
      line: (l: string) => {
        lines.push(l);
        if (l.startsWith('bestmove')) resolveBest(l);
      },
      state: () => {},
    };
    b.attach(client);
    // the Silver Scarab on j4 turns to hit the Red Pharaoh on c4: UKI's j4R comes back as j4+
    b.send(client, 'position kfen xv9/5K4/10/10/2k6S>/10/10/9X^ s 0 1');
    b.send(client, 'go depth 2');
    expect(await best).toBe('bestmove j4+');
    expect(lines.some((l) => /^info depth 1 score mate 1 .* pv j4\+$/.test(l))).toBe(true);
    await b.close();
  });
});
