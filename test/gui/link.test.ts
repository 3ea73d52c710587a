/** Links to a position or a game (src/gui/page/state/link.ts), without a browser: round trips and bad input. */
import { describe, expect, it } from 'vitest';
import { setupKfen } from '../../src/core/index';
import {
  decodeLink,
  encodeLink,
  formatLinkError,
  isLinkFragment,
  linkUrl,
  MAX_LINK_TEXT,
  type LinkPayload,
} from '../../src/gui/page/state/link';
import { exportGame, importGame } from '../../src/gui/page/state/record-io';

/** A game with tags, a variation inside a variation, NAGs, comments and clocks, as the page exports it. */
const PGN = exportGame({
  edition: 'khet2',
  startKfen: setupKfen('khet2', 'classic')!,
  players: ['Ann', 'Thoth 1.0 (Level 3)'],
  result: '*',
  timeControl: '300+3',
  termination: 'unterminated',
  moves: [
    { text: 'c1b1', side: 0, clocks: [299_000, 300_000], comment: 'a quiet start', nags: [1] },
    {
      text: 'h8h7',
      side: 1,
      clocks: [299_000, 298_500],
      nags: [2],
      variations: [
        [
          { text: 'd6e6', side: 1, comment: 'the other idea', variations: [[{ text: 'e8e7', side: 1, nags: [6] }]] },
          { text: 'c4c3', side: 0 },
        ],
      ],
    },
    { text: 'j1-', side: 0, engine: { scoreCp: 12, depth: 9, timeMs: 800 } },
  ],
  tags: [
    ['Event', 'Club night'],
    ['Site', 'Bastet'],
  ],
});

/** Bytes in base64url, for hand-made bad links. */
const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
async function deflated(text: string): Promise<Uint8Array> {
  const s = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(s).arrayBuffer());
}

describe('links (#kfen=…, #game=…)', () => {
  it('a position round-trips, in every edition, and the fragment is versioned, compressed base64url', async () => {
    for (const [edition, setup] of [
      ['khet2', 'sophie'],
      ['khet1', 'dynasty'],
      ['deflexion', 'imhotep'],
    ] as const) {
      const p: LinkPayload = { kind: 'kfen', edition, kfen: setupKfen(edition, setup)! };
      const f = await encodeLink(p);
      expect(f).toMatch(/^kfen=1\.[A-Za-z0-9_-]+$/);
      expect(isLinkFragment(f) && isLinkFragment(`#${f}`)).toBe(true);
      expect(await decodeLink(f)).toEqual({ ok: true, value: p });
      expect(await decodeLink(`#${f}`)).toEqual({ ok: true, value: p });
    }
  });

  it('a game round-trips whole: tags, moves, variations, NAGs, comments and clocks', async () => {
    expect(PGN).toMatch(/\(1\.\.\. d6e6 \{the other idea\} \(1\.\.\. e8e7 \$6\) 2\. c4c3\)/);
    const f = await encodeLink({ kind: 'game', pgn: PGN });
    expect(f).toMatch(/^game=1\.[A-Za-z0-9_-]+$/);
    expect(f.length).toBeLessThan(PGN.length); // compressed
    const back = await decodeLink(f);
    expect(back).toEqual({ ok: true, value: { kind: 'game', pgn: PGN } });
    const g = importGame(back.ok && back.value.kind === 'game' ? back.value.pgn : '');
    expect(g.ok && g.value.moves.map((m) => m.text)).toEqual(['c1b1', 'h8h7', 'j1-']);
    expect(g.ok && g.value.moves[1].variations?.[0][0]).toMatchObject({ text: 'd6e6', comment: 'the other idea' });
    expect(g.ok && g.value.tags).toContainEqual(['Event', 'Club night']);
    // non-ASCII text survives
    const f2 = await encodeLink({ kind: 'game', pgn: PGN.replace('a quiet start', 'déjà vu — ☥') });
    const b2 = await decodeLink(f2);
    expect(b2.ok && b2.value.kind === 'game' && b2.value.pgn.includes('déjà vu — ☥')).toBe(true);
  });

  it('bad input gives a typed error, never a throw', async () => {
    const good = await encodeLink({ kind: 'kfen', edition: 'khet2', kfen: setupKfen('khet2', 'classic')! });
    const data = good.slice('kfen=1.'.length);
    const cases: Array<[string, string]> = [
      ['', 'not a link'],
      ['#foo=1.abc', 'not a link'],
      ['kfen=abc', 'not a link'],
      [`kfen=2.${data}`, 'version'],
      [`kfen=.${data}`, 'version'],
      ['kfen=1.ab$c', 'encoding'],
      ['kfen=1.a', 'encoding'],
      [`kfen=1.${b64url(new TextEncoder().encode('not deflated at all'))}`, 'compression'],
      [`kfen=1.${data.slice(0, data.length - 8)}`, 'compression'],
      [`kfen=1.${b64url(await deflated('khet3\nxyz s 0 1'))}`, 'edition'],
      [`kfen=1.${b64url(await deflated('khet2\nxv3avkavp>2/2pv7 s 0 1'))}`, 'kfen'],
      [`game=1.${b64url(await deflated('x'.repeat(MAX_LINK_TEXT + 1)))}`, 'too long'],
      [`game=1.${b64url(new Uint8Array([0xff, 0x00]))}`, 'compression'],
    ];
    for (const [fragment, kind] of cases) {
      const r = await decodeLink(fragment);
      expect(r.ok, fragment).toBe(false);
      if (!r.ok) {
        expect(r.error.kind, fragment).toBe(kind);
        expect(formatLinkError(r.error)).toMatch(/\S/);
      }
    }
    expect(isLinkFragment('#token=1')).toBe(false);
  });

  it('the page address keeps its path and query, drops an old fragment and never carries the token', () => {
    expect(linkUrl('http://127.0.0.1:8080/?token=abc#old', 'kfen=1.x')).toBe('http://127.0.0.1:8080/#kfen=1.x');
    expect(linkUrl('http://h/?a=1&token=abc&b=2', 'game=1.y')).toBe('http://h/?a=1&b=2#game=1.y');
    expect(linkUrl('file:///tmp/web/index.html', 'game=1.y')).toBe('file:///tmp/web/index.html#game=1.y');
  });
});
