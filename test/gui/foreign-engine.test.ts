/**
 * `thoth gui --engine … --engine-proto P`: a person plays another Khet engine in Chromium, through
 * the translator of its protocol: the UKI fixture engine always, and ddket itself when it is here
 * (engines/, docs/match.md "Other engines"; skipped with a message otherwise). Screenshots go to
 * test-output/.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SETUPS, parseKfen, parseMove } from '../../src/core/index';
import { fixtureScript } from '../foreign/helpers';
import { HAVE_CHROMIUM, movesText, open, pickLevel, playMoves, shot } from './browser';
import { ROOT, startGui, type RunningGui } from './helpers';

const DDKET = path.join(ROOT, 'engines/6.172/project4/khetplayer.dailey');
if (!existsSync(DDKET)) console.log('skipped: ddket is not in engines/ (docs/match.md, "Other engines")');

/** The moves replay under Thoth's rules (the page's): each engine move was legal. */
function replays(moves: string[]): boolean {
  const r = parseKfen(SETUPS.khet2.classic, 'khet2');
  if (!r.ok) return false;
  for (const t of moves) {
    const m = parseMove(r.value, t);
    if (!m.ok) return false;
    r.value.make(m.value);
  }
  return true;
}

const cases = [
  {
    label: 'the UKI fixture engine',
    have: true,
    args: ['--engine', `node ${fixtureScript('uki')}`, '--engine-proto', 'uki'],
    name: /fixture-uki/,
    file: 'gui-uki-fixture',
  },
  {
    label: 'ddket',
    have: existsSync(DDKET),
    args: ['--engine', DDKET, '--engine-proto', 'uki'],
    name: /ddket/,
    file: 'gui-ddket',
  },
];

describe.each(cases)('the GUI against $label', (c) => {
  let gui: RunningGui | undefined;
  afterAll(async () => {
    if (gui) expect(await gui.stop()).toBe(0);
  });

  it.skipIf(!HAVE_CHROMIUM || !c.have)(
    'a person plays it: its moves come back in Thoth notation and are legal',
    async () => {
      gui = await startGui(c.args);
      const { ctx, page, errors } = await open(gui.url);
      expect(await page.textContent('#engine-status')).toMatch(c.name);
      await pickLevel(page, 8);
      await playMoves(page, 4);
      const moves = await movesText(page);
      expect(moves.length).toBeGreaterThanOrEqual(2);
      expect(replays(moves)).toBe(true);
      await shot(page, c.file);
      expect(errors).toEqual([]);
      await ctx.close();
    },
  );
});
