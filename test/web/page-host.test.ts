/** The page's host (src/web/page-host.ts): EvalFile's network travels inside the page, and no files. */
import { afterEach, describe, expect, it } from 'vitest';
import { writeNetwork } from '../../src/nnue/network';
import { floatNetwork, quantise } from '../../src/train/float-network';
import { pageHost } from '../../src/web/page-host';

const loadNetworkFile = (file: string) => pageHost.loadNetworkFile(file);

const g = globalThis as { __DEFAULT_NETWORK__?: string };

afterEach(() => {
  delete g.__DEFAULT_NETWORK__;
});

describe('the network of the static page', () => {
  it('reads the shipped network from the page, and refuses paths', () => {
    const net = quantise(floatNetwork(8), { scale: 400, editions: 3, name: 'test' });
    const bytes = writeNetwork(net);
    g.__DEFAULT_NETWORK__ = Buffer.from(bytes).toString('base64');
    const r = loadNetworkFile('default');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.net.hidden).toBe(8);
      expect(new Uint8Array(r.value.bytes)).toEqual(bytes);
    }
    expect(loadNetworkFile('/tmp/other.nnue')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/reads no files/),
    });
    g.__DEFAULT_NETWORK__ = Buffer.from('not a network').toString('base64');
    expect(loadNetworkFile('default')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not one Thoth can use/),
    });
  });

  it('says so when the build has no network', () => {
    g.__DEFAULT_NETWORK__ = '';
    expect(loadNetworkFile('default')).toEqual({ ok: false, error: 'this build of the page has no network' });
  });
});
