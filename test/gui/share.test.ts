/**
 * Links in Chromium: a `#game=…` or `#kfen=…` address opens its game or position in the static
 * page (file://) and in `thoth gui`'s page; *Copy link* makes one that opens the same game again;
 * *Copy PGN* gives the record; a damaged link says why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { constants, deflateRawSync, inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupKfen } from '../../src/core/index';
import { encodeLink } from '../../src/gui/page/state/link';
import { exportGame } from '../../src/gui/page/state/record-io';
import { HAVE_CHROMIUM, click, closeBrowser, movesText, open, setMode, shot, theBrowser, waitMoves } from './browser';
import { FAKE_ENGINE, ROOT, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;

/** A game with a variation, NAGs and a comment, Silver's c4b4 answered by Red. */
const PGN = exportGame({
  edition: 'khet2',
  startKfen: setupKfen('khet2', 'classic')!,
  players: ['Ann', 'Bob'],
  result: '*',
  timeControl: '-',
  termination: 'unterminated',
  moves: [
    { text: 'c1b1', side: 0, nags: [1], comment: 'a quiet start' },
    { text: 'h8h7', side: 1, nags: [4], variations: [[{ text: 'c7d7', side: 1, comment: 'the other idea' }]] },
    { text: 'c4b4', side: 0 },
  ],
  tags: [['Event', 'Link test']],
});

/** The piece on a square, as the board draws it (its class list), or '' for none. */
const pieceOn = (page: import('playwright-core').Page, sq: string): Promise<string> =>
  page.evaluate((s) => document.querySelector(`#layer-pieces .piece[data-sq=${s}]`)?.getAttribute('class') ?? '', sq);

afterAll(closeBrowser);

/**
 * A zlib stream (as `deflateSync` writes one) of `mb` megabytes of zeros, built without
 * compressing them all: a megabyte of zeros compressed once and flushed with its dictionary reset
 * (byte-aligned, independent of what comes before) repeated `mb` times, an empty final block, and
 * the Adler-32 of the zeros (a = 1, b = their count mod 65521). Compressing the gigabyte itself
 * took 2 CPU-seconds of each run (the gigabyte's stream was checked with zlib's inflate, 2026-12-04).
 */
function zerosDeflated(mb: number): Buffer {
  const n = mb * 2 ** 20;
  const chunk = deflateRawSync(Buffer.alloc(2 ** 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((n % 65521) * 65536 + 1) >>> 0);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...new Array<Buffer>(mb).fill(chunk),
    deflateRawSync(Buffer.alloc(0)),
    adler,
  ]);
}

describe.skipIf(!HAVE_CHROMIUM)('links in Chromium', () => {
  it('the static page opens a #game= link: its moves, variation, marks and tags, in Analysis', async () => {
    const fragment = await encodeLink({ kind: 'game', pgn: PGN });
    // In Analysis the engine is busy at once: no wait for 'ready'.
    const { ctx, page, errors } = await open(`${FILE_URL}#${fragment}`, { ready: false });
    await waitMoves(page, 3);
    expect(await movesText(page)).toEqual(['c1b1', 'h8h7', 'c4b4']);
    expect(await page.textContent('#moves')).toMatch(/c7d7/);
    expect(await page.textContent('#moves')).toMatch(/!/);
    expect(await page.isChecked('input[name=mode][value=analysis]')).toBe(true);
    expect(await pieceOn(page, 'b4')).toMatch(/p0/);
    expect(await pieceOn(page, 'c4')).toBe('');
    expect(await page.evaluate(() => location.hash)).toBe(''); // a reload keeps what is played next
    await page.click('#card-io summary');
    await page.click('#share-pgn');
    expect(await page.inputValue('#record')).toMatch(/\[Event "Link test"\][\s\S]*\(1\.\.\. c7d7 \{the other idea\}\)/);
    await shot(page, 'link-game');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Copy link makes a link that opens the same game; a position link opens the position and edition', async () => {
    const { ctx, page, errors } = await open(FILE_URL);
    await setMode(page, 'humans');
    for (const [a, b] of [
      ['c1', 'c2'],
      ['h8', 'h7'],
      ['c2', 'c3'],
    ]) {
      const before = (await movesText(page)).length;
      await click(page, a);
      await click(page, b);
      await waitMoves(page, before + 1);
    }
    const played = await movesText(page);
    await page.click('#card-io summary');
    await page.click('#share-link');
    await page.waitForFunction(() => (document.getElementById('share-url') as HTMLInputElement).value !== '');
    const href = await page.inputValue('#share-url');
    expect(href).toMatch(/^file:\/\/.*index\.html#game=1\.[A-Za-z0-9_-]+$/);
    expect(await page.textContent('#io-msg')).toMatch(/link/i);
    await shot(page, 'link-copy');
    const other = await ctx.newPage();
    await other.goto(href);
    await waitMoves(other, played.length);
    expect(await movesText(other)).toEqual(played);
    // A position link: Khet 1.0 Dynasty.
    const kfen = setupKfen('khet1', 'dynasty')!;
    await ctx.close();
    // (a fresh browser profile: in this one the game played above would be abandoned, after a question)
    const { ctx: ctx3, page: third } = await open(
      `${FILE_URL}#${await encodeLink({ kind: 'kfen', edition: 'khet1', kfen })}`,
      { ready: false },
    );
    await third.waitForFunction(() =>
      /Position opened from the link/.test(document.getElementById('io-msg')?.textContent ?? ''),
    );
    expect(await third.inputValue('#kfen')).toBe(kfen);
    expect(await third.inputValue('#sel-edition')).toBe('khet1');
    // Without moves, Copy link gives a position link.
    await third.click('#card-io summary');
    await third.click('#share-link');
    await third.waitForFunction(() => (document.getElementById('share-url') as HTMLInputElement).value !== '');
    expect(await third.inputValue('#share-url')).toMatch(/#kfen=1\./);
    expect(errors).toEqual([]);
    await ctx3.close();
  });

  it('a damaged link says why and leaves the page as it was', async () => {
    const { ctx, page } = await open(`${FILE_URL}#game=1.AAAA`);
    await page.waitForFunction(() => /Cannot open the link/.test(document.getElementById('io-msg')?.textContent ?? ''));
    expect(await page.textContent('#io-msg')).toMatch(/damaged/);
    expect(await page.isVisible('#io-msg')).toBe(true);
    expect(await movesText(page)).toEqual([]);
    await page.evaluate(() => (location.hash = 'kfen=7.abc'));
    await page.waitForFunction(() => /format 7/.test(document.getElementById('io-msg')?.textContent ?? ''));
    // a good link to a game whose moves break the rules (Red moving Silver's d6)
    const bad = await encodeLink({ kind: 'game', pgn: PGN.replace('c7d7', 'd6e6') });
    await page.evaluate((f) => (location.hash = f), bad);
    await page.waitForFunction(() =>
      /Cannot open the link: .*d6e6/.test(document.getElementById('io-msg')?.textContent ?? ''),
    );
    expect(await movesText(page)).toEqual([]);
    await ctx.close();
  });

  it("a link that unpacks to a gigabyte is refused at the limit, the tab's memory staying small (it is fed to the decompressor in slices)", async () => {
    // the stream is what zlib writes: a small one inflates to its zeros, checksum and all
    expect(inflateSync(zerosDeflated(3)).equals(Buffer.alloc(3 * 2 ** 20))).toBe(true);
    const huge = zerosDeflated(1024).toString('base64url'); // 1.42 MB of link
    const { ctx, page } = await open(FILE_URL);
    const cdp = await (await theBrowser()).newBrowserCDPSession();
    const renderers = async (): Promise<number[]> => {
      const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
      return info.processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
    };
    /** The largest peak resident memory (VmHWM) of the browser's renderer processes, in MB. */
    const peakMb = async (): Promise<number> => {
      let most = 0;
      for (const pid of await renderers()) {
        try {
          const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          if (m) most = Math.max(most, Number(m[1]) / 1024);
        } catch {
          // gone meanwhile
        }
      }
      return most;
    };
    const before = await peakMb();
    await page.evaluate((f) => (location.hash = f), `game=1.${huge}`);
    await page.waitForFunction(
      () => /Cannot open the link/.test(document.getElementById('io-msg')?.textContent ?? ''),
      undefined,
      { timeout: stretched(60_000) },
    );
    expect(await page.textContent('#io-msg')).toMatch(/unpacks to more than 1048576 bytes/);
    const after = await peakMb();
    expect(after, `renderer peak ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`).toBeLessThan(
      Math.max(before, 100) + 200,
    );
    await cdp.detach();
    await ctx.close();
  });

  describe('in thoth gui', () => {
    let gui: RunningGui;
    beforeAll(async () => {
      gui = await startGui(['--engine', FAKE_ENGINE]);
    });
    afterAll(() => gui?.stop());

    it('opens a #game= link, and its Copy link carries no token', async () => {
      const fragment = await encodeLink({ kind: 'game', pgn: PGN });
      const { ctx, page, errors } = await open(`${gui.url}#${fragment}`, { ready: false });
      await waitMoves(page, 3);
      expect(await movesText(page)).toEqual(['c1b1', 'h8h7', 'c4b4']);
      await page.click('#card-io summary');
      await page.click('#share-link');
      await page.waitForFunction(() => (document.getElementById('share-url') as HTMLInputElement).value !== '');
      const href = await page.inputValue('#share-url');
      expect(href).not.toMatch(/token/);
      expect(href).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${gui.port}/#game=1\\.`));
      // The same browser (its cookie) opens it.
      const other = await ctx.newPage();
      await other.goto(href);
      await waitMoves(other, 3);
      expect(await movesText(other)).toEqual(['c1b1', 'h8h7', 'c4b4']);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  });
});
