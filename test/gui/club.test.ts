/**
 * `thoth gui` for a club: two people (two browser contexts, a desktop and a phone) play Thoth at
 * once on one server, each against an engine process of their own (the real engine), and neither
 * is told that another tab is using the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAVE_CHROMIUM, PHONE, moveFirstPiece, movesText, newGame, open, pickLevel, shot, waitReply } from './browser';
import { realEngineWorks, startGui, type RunningGui } from './helpers';
import { stretched } from '../slowness';

const REAL_ENGINE = await realEngineWorks();
if (!REAL_ENGINE) console.warn('club test SKIPPED: `node dist/cli.js` does not answer `go` with `bestmove` yet.');

describe.skipIf(!HAVE_CHROMIUM || !REAL_ENGINE)('two people play Thoth at once on one thoth gui', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui();
  }, stretched(120_000));
  afterAll(async () => {
    await gui?.stop();
  });

  it(
    'each plays a game of their own, move for move, against an engine of their own',
    async () => {
      const a = await open(gui.url);
      const b = await open(gui.url, { viewport: PHONE });
      const start = async (page: Page): Promise<void> => {
        await page.selectOption('#sel-tc', '');
        await pickLevel(page, 1);
        await newGame(page);
      };
      await start(a.page);
      await start(b.page);
      // Interleaved: A moves, B moves, then both wait for Thoth's replies, three times.
      for (let i = 1; i <= 3; i++) {
        await moveFirstPiece(a.page, 'p0');
        await moveFirstPiece(b.page, 'p0');
        await Promise.all([waitReply(a.page, 2 * i), waitReply(b.page, 2 * i)]);
      }
      for (const { page } of [a, b]) {
        expect(await movesText(page)).toHaveLength(6);
        expect(await page.textContent('#engine-status')).toMatch(/^Thoth .* · (ready|thinking)/);
        expect(await page.isHidden('#engine-action')).toBe(true);
      }
      // The server said how many tabs it serves (the lines after its address).
      expect(gui.output()).toMatch(
        /Serves up to 4 tabs at once, an engine process each; \d+ threads? at full strength/,
      );
      await shot(a.page, 'club-desktop');
      await shot(b.page, 'club-phone');
      expect([...a.errors, ...b.errors]).toEqual([]);
      await a.ctx.close();
      await b.ctx.close();
    },
    stretched(300_000),
  );
});
