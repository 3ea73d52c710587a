/**
 * Rematch with the colours swapped, and the material count beside each player: the pure parts
 * without a browser, then a game against Thoth in the static page (file://) in Chromium.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseKfen, parseMove, setupKfen } from '../../src/core/index';
import { materialCount, materialLead } from '../../src/gui/page/view/material';
import { rematch } from '../../src/gui/page/state/rematch';
import * as S from '../../src/gui/page/state/state';
import { newTree } from '../../src/gui/page/state/tree';
import { HAVE_CHROMIUM, click, closeBrowser, loadKfen, open, pickLevel, shot } from './browser';
import { ROOT } from './helpers';

const FILE_URL = pathToFileURL(path.join(ROOT, 'dist', 'web', 'index.html')).href;
/** Silver's `j1+` turns its Sphinx north: the beam turns at j7 and hits the Red Pharaoh on e7. */
const MATE_IN_ONE = 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1';

function pos(kfen: string, edition: 'khet2' | 'khet1' = 'khet2') {
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error('bad KFEN');
  return r.value;
}

afterAll(closeBrowser);

describe('material count', () => {
  it('counts the pieces a laser can remove (a stack two), not the Sphinx or the Pharaoh', () => {
    expect(materialCount(pos(setupKfen('khet2', 'classic')!))).toEqual([11, 11]);
    expect(materialCount(pos(setupKfen('khet1', 'classic')!, 'khet1'))).toEqual([13, 13]);
    expect(materialCount(pos(MATE_IN_ONE))).toEqual([1, 0]);
    expect(materialLead(pos(MATE_IN_ONE), 0)).toBe('+1');
    expect(materialLead(pos(MATE_IN_ONE), 1)).toBe('');
    const p = pos(setupKfen('khet2', 'classic')!);
    for (const t of ['j4i3']) {
      // docs/rules.md §7.2: j4i3 removes a piece (Silver's own)
      const m = parseMove(p, t);
      if (!m.ok) throw new Error(t);
      p.make(m.value);
    }
    expect(materialLead(p, 1)).toBe('+1');
    expect(materialLead(p, 0)).toBe('');
  });
});

describe('rematch', () => {
  const base = (mode: S.Mode, side: S.Settings['side']): S.PageState => {
    let s = S.initialState({ ...S.DEFAULT_SETTINGS, side }, () => 0);
    s = S.setMode(s, mode, 0);
    const t = newTree('khet2', MATE_IN_ONE);
    if (!t.ok) throw new Error(t.error);
    return S.newGame(s, t.value, { now: 0 });
  };

  it('against Thoth: the same start, the person on the other side (and the setting with it)', () => {
    const s = base('engine', '0');
    expect(s.humanSide).toBe(0);
    const r = rematch(s, 1);
    expect(r.humanSide).toBe(1);
    expect(r.settings.side).toBe('1');
    expect(r.flipped).toBe(true);
    expect(r.tree.startKfen).toBe(MATE_IN_ONE);
    expect(r.tree.children).toHaveLength(0);
    expect(rematch(r, 2).humanSide).toBe(0);
    // a random colour: the rematch still swaps
    const rnd = base('engine', 'random');
    expect(rematch(rnd, 1).humanSide).toBe(rnd.humanSide ^ 1);
  });

  it('between two players the board turns to the other player', () => {
    const s = base('humans', '0');
    const r = rematch(s, 1);
    expect(r.flipped).toBe(!s.flipped);
    expect(r.tree.startKfen).toBe(MATE_IN_ONE);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('rematch and material in Chromium', () => {
  it('a won game, then Rematch: the person plays Red from the same start, Thoth Silver; +1 beside the side ahead', async () => {
    const { ctx, page, errors } = await open(FILE_URL);
    await pickLevel(page, 8);
    await loadKfen(page, MATE_IN_ONE);
    expect(await page.textContent('#player-bottom')).toMatch(/You · Silver\s*\+1/);
    expect(await page.textContent('#player-top .lost')).toBe('');
    await click(page, 'j1');
    await page.click('#btn-rot-cw');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner-title')).toMatch(/Silver wins · you won/);
    expect(await page.isVisible('#banner-rematch')).toBe(true);
    await shot(page, 'rematch-won');
    await page.click('#banner-rematch');
    // Thoth is Silver now and moves first: it finds the same shot
    await page.waitForFunction(() =>
      /Silver wins · Thoth won/.test(document.getElementById('banner-title')?.textContent ?? ''),
    );
    expect(await page.textContent('#player-bottom')).toMatch(/You · Red/);
    expect(await page.inputValue('#sel-side')).toBe('1');
    await shot(page, 'rematch-lost');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)('Laser Chess setups in the page', () => {
  it('Setup offers Mercury and Sophie in Khet 2.0 only; New game starts them', async () => {
    const { ctx, page, errors } = await open(FILE_URL);
    const names = (): Promise<string[]> => page.$$eval('#sel-setup option', (os) => os.map((o) => o.textContent ?? ''));
    expect(await names()).toEqual(['Classic', 'Imhotep', 'Dynasty', 'Mercury', 'Sophie']);
    await page.selectOption('#sel-setup', 'mercury');
    await page.click('#btn-new');
    await page.waitForFunction(() =>
      (document.getElementById('kfen') as HTMLInputElement).value.startsWith('x>3pvkp>2S>/'),
    );
    await page.evaluate(() => ((document.getElementById('card-io') as HTMLDetailsElement).open = true));
    expect(await page.inputValue('#kfen')).toBe(setupKfen('khet2', 'mercury'));
    await shot(page, 'setup-mercury');
    await page.selectOption('#sel-setup', 'sophie');
    await page.click('#btn-new');
    await page.waitForFunction(() =>
      (document.getElementById('kfen') as HTMLInputElement).value.startsWith('xv3kP<p>3/'),
    );
    await shot(page, 'setup-sophie');
    await page.selectOption('#sel-edition', 'khet1');
    expect(await names()).toEqual(['Classic', 'Imhotep', 'Dynasty']);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
