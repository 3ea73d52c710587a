/**
 * End-to-end: `thoth gui` (the built dist/) in real headless Chromium through playwright-core.
 * Moves are played by clicking and dragging like a person would; screenshots go to test-output/.
 * The suite runs against the fake engine (test/gui/fixtures) and, when the built engine answers
 * the handshake, against the real one started by default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatMove,
  legalMoves,
  moveFrom,
  moveType,
  ROT_CCW,
  ROT_CW,
  setupKfen,
  squareName,
  toKfen,
} from '../../src/core/index';
import { addMoves, mainline, newTree, positionAt, type GameTree } from '../../src/gui/page/state/tree';
import {
  HAVE_CHROMIUM,
  PHONE,
  checkLegal,
  click,
  closeBrowser,
  confirmIfAsked,
  drag,
  levelLabelsFit,
  loadKfen,
  moveCount,
  movesText,
  newGame,
  open as openPage,
  pickLevel,
  playMoves,
  setMode,
  shot,
  targets,
  waitMoves,
  waitReply,
} from './browser';
import { CHROMIUM, FAKE_ENGINE, realEngineWorks, startGui, type RunningGui } from './helpers';

if (!HAVE_CHROMIUM) {
  console.warn(`GUI browser tests SKIPPED: ${CHROMIUM} is missing (Debian: apt-get install chromium).`);
}
const REAL_ENGINE = HAVE_CHROMIUM && (await realEngineWorks());
if (HAVE_CHROMIUM && !REAL_ENGINE) {
  console.warn(
    'GUI tests against the real engine SKIPPED: `node dist/cli.js` does not yet answer `go depth 1` and `go infinite` + `stop` with a `bestmove`.',
  );
}

const CLASSIC = setupKfen('khet2', 'classic') as string;
/** Silver to move; `j1+` turns the Sphinx north and its beam, via j7, hits the Red Pharaoh on e7. */
const SILVER_WINS_KFEN = 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1';
/** The same turned round: Red to move; `a8+` hits the Silver Pharaoh on f2 via a2. */
const RED_WINS_KFEN = 'x>9/5k4/10/10/10/10/p^4K4/9X^ r 0 1';

afterAll(closeBrowser);

const open = (gui: RunningGui, viewport?: { width: number; height: number }) => openPage(gui.url, { viewport });

/** The game of `moves` from `kfen` as the core plays it (throws on an illegal move). */
function coreGame(kfen: string, moves: string[]): GameTree {
  const t = newTree('khet2', kfen);
  if (!t.ok) throw new Error(t.error);
  const r = addMoves(t.value, [], moves);
  if (!r.ok) throw new Error(`${moves[r.error.index]}: ${r.error.message}`);
  return r.value.tree;
}

/** Legal destinations (steps, swaps) of the piece on `sq` according to the core. */
function coreTargets(kfen: string, moves: string[], sq: string): string[] {
  const g = coreGame(kfen, moves);
  const pos = positionAt(g, new Array<number>(moves.length).fill(0));
  return legalMoves(pos)
    .filter((m) => squareName(moveFrom(m)) === sq && moveType(m) !== ROT_CW && moveType(m) !== ROT_CCW)
    .map((m) => formatMove(m).slice(2, 4))
    .sort();
}

/**
 * One `thoth gui` with the fake engine for the file's describes that use it (each page takes the
 * engine over from the page before); a start and a stop of the server cost about 2 s of waiting.
 */
let fake: RunningGui | undefined;
const fakeGui = async (): Promise<RunningGui> => (fake ??= await startGui(['--engine', FAKE_ENGINE]));
afterAll(async () => {
  if (fake) expect(await fake.stop()).toBe(130); // Ctrl-C: exit code 130
});

/**
 * The tests every engine gets: play, the engine answers, the beam, the end, analysis. `start`
 * gives the server; `own`: the suite stops it (and checks that it exits cleanly) at its end.
 */
function engineSuite(label: string, start: () => Promise<RunningGui>, own: boolean, expectName: RegExp): void {
  describe.skipIf(!HAVE_CHROMIUM)(`the GUI in Chromium with ${label}`, () => {
    let gui: RunningGui;
    beforeAll(async () => {
      gui = await start();
    });
    afterAll(async () => {
      if (own) expect(await gui?.stop()).toBe(130); // Ctrl-C: exit code 130
    });

    it('plays moves by clicking and dragging; the engine answers; the beam is drawn; illegal moves are impossible', async () => {
      // with the page's animations at full length, as most people see them (the harness reduces motion)
      const { ctx, page, errors } = await openPage(gui.url, { motion: true });
      expect(await page.textContent('#engine-status')).toMatch(expectName);
      await pickLevel(page, 1);
      await shot(page, `${label}-start`);

      // The opponent's pieces cannot be picked up.
      await click(page, 'a8');
      expect(await page.locator('#layer-marks .selected').count()).toBe(0);
      // A piece shows exactly the core's legal targets.
      await click(page, 'c1');
      expect(await page.locator('#layer-marks .selected').count()).toBe(1);
      expect(await targets(page)).toEqual(coreTargets(CLASSIC, [], 'c1'));
      await shot(page, `${label}-selected`);
      // A click on a square that is no target makes no move; nor does a drag there.
      await click(page, 'c3');
      expect(await moveCount(page)).toBe(0);
      await drag(page, 'c1', 'e5');
      expect(await moveCount(page)).toBe(0);
      // Reserved squares are never offered: i1 is Red's.
      await click(page, 'h2');
      expect(await targets(page)).toEqual(coreTargets(CLASSIC, [], 'h2'));
      expect(await targets(page)).not.toContain('i1');
      await drag(page, 'h2', 'i1');
      expect(await moveCount(page)).toBe(0);

      // A move by clicking; the engine answers with a legal move.
      await click(page, 'c1');
      await click(page, 'd2');
      await waitReply(page, 2);
      const m1 = await movesText(page);
      expect(m1[0]).toBe('c1d2');
      const g = coreGame(CLASSIC, m1.slice(0, 2)); // throws if the engine's move were illegal
      // The beam of the engine's (Red's) laser, exactly as the core traces it.
      await page.waitForSelector('#layer-beam[data-side="1"] polyline.beam-core', { state: 'attached' });
      const beamPath = await page.getAttribute('#layer-beam', 'data-path');
      expect(beamPath).toBe(
        mainline(g)[1]
          .ply.beam.steps.map((s) => squareName(s.square))
          .join(' '),
      );
      expect(beamPath?.startsWith('a8')).toBe(true);

      // A rotation with the on-board button, then a move by dragging.
      await click(page, 'h2');
      await page.click('#layer-controls [data-rot="+"]');
      await waitReply(page, 4);
      expect((await movesText(page))[2]).toBe('h2+');
      await drag(page, 'd2', 'd3');
      await waitReply(page, 6);
      const all = await movesText(page);
      expect(all[4]).toBe('d2d3');
      expect(await page.inputValue('#kfen')).toBe(
        toKfen(positionAt(coreGame(CLASSIC, all), new Array<number>(all.length).fill(0))),
      );
      await shot(page, `${label}-after-moves`);

      // Take back returns to the human's turn.
      await page.click('#btn-takeback');
      expect(await moveCount(page)).toBe(4);
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it('plays Khet 1.0 and Deflexion too, at a fast level', async () => {
      const { ctx, page, errors } = await open(gui);
      expect(await page.$$eval('#sel-level option', (os) => os.map((o) => (o.textContent ?? '').slice(0, 7)))).toEqual(
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `Level ${n}`),
      );
      expect(await levelLabelsFit(page)).toBe(true);
      await pickLevel(page, 1);
      for (const edition of ['khet1', 'deflexion'] as const) {
        await page.selectOption('#sel-edition', edition);
        await newGame(page);
        expect(await page.getAttribute('body', 'class')).toBe(`ed-${edition}`);
        await playMoves(page, 3);
        checkLegal(edition, await movesText(page));
        await shot(page, `${label}-${edition}`);
      }
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it('ends the game with a banner when the engine hits the Pharaoh', async () => {
      const { ctx, page, errors } = await open(gui);
      await setMode(page, 'engine');
      await page.selectOption('#sel-side', '0');
      await pickLevel(page, 2);
      await loadKfen(page, RED_WINS_KFEN);
      await page.waitForSelector('#banner:not([hidden])');
      expect(await page.textContent('#banner-title')).toBe('Red wins · Thoth won');
      expect(await page.textContent('#banner-text')).toContain('hit the Silver Pharaoh on f2 (a8+)');
      expect(await page.getAttribute('#layer-beam', 'data-end')).toBe('kill f2');
      expect(await movesText(page)).toEqual(['a8+']);
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it('analyses with several lines, draws the best move, previews a line and stops', async () => {
      const { ctx, page, errors } = await open(gui);
      await setMode(page, 'analysis');
      await page.waitForSelector('#card-analysis:not([hidden])');
      await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
      // attached, not 'visible': the arrow of a straight step is a line with no width, which
      // Playwright counts as hidden
      await page.waitForSelector('#layer-arrows .arrow.best', { state: 'attached' });
      expect(await page.textContent('#an-info')).toMatch(/depth \d+/);
      expect(await page.getAttribute('#engine-status', 'data-state')).toBe('thinking');
      const pv = (await page.textContent('#lines .line[data-line="0"] .pv')) ?? '';
      expect(pv).toMatch(/^1\. [a-j][1-8]/);
      await shot(page, `${label}-analysis`);

      // Clicking a line previews it on the board. With the stand-in engine (a new depth every
      // 100 ms, for 60 s) the button is held until the line has changed under the pointer, as a
      // person's click often is: the press and the release must still make one click (the line's
      // element is updated in place, not replaced).
      const line1 = '#lines .line[data-line="1"]';
      if (label === 'fake-engine') {
        const box = (await page.locator(line1).boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        const held = await page.locator(line1).elementHandle();
        const depth = await page.textContent(`${line1} .depth`);
        await page.mouse.down();
        await page.waitForFunction(([sel, d]) => document.querySelector(sel)?.textContent !== d, [
          `${line1} .depth`,
          depth,
        ] as const);
        await page.mouse.up();
        expect(await held!.evaluate((e) => e.isConnected)).toBe(true);
      } else {
        await page.click(line1);
      }
      await page.waitForSelector('#preview-bar:not([hidden])');
      expect(await page.textContent('#preview-text')).toMatch(/^Line 2, move 1 of \d+/);
      await shot(page, `${label}-preview`);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#preview-bar', { state: 'hidden' });

      // A move on the board: the analysis follows the new position.
      await click(page, 'c1');
      await click(page, 'd2');
      await waitMoves(page, 1);
      await page.waitForFunction(() => document.querySelectorAll('#lines .line').length === 3);
      const pv2 = (await page.textContent('#lines .line[data-line="0"] .pv')) ?? '';
      expect(pv2).toMatch(/^1… [a-j][1-8]/);

      // Stop: the engine goes idle and the lines stay.
      await page.click('#btn-analyse');
      await page.waitForSelector('#lines[data-state=stopped]');
      await page.waitForSelector('#engine-status[data-state=ready]');
      const info = await page.textContent('#an-info');
      await page.waitForTimeout(600);
      expect(await page.textContent('#an-info')).toBe(info);
      expect(await page.locator('#lines .line').count()).toBe(3);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  });
}

engineSuite('fake-engine', fakeGui, false, /FakeThoth/);

describe.skipIf(!REAL_ENGINE)('the default engine', () => {
  engineSuite('thoth', () => startGui([]), true, /Thoth/);
});

describe.skipIf(!HAVE_CHROMIUM)('the GUI in Chromium: board, records, keyboard, phone', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await fakeGui();
  });

  it('a Pharaoh hit ends a two-player game with the right banner, the beam and the piece leaving', async () => {
    const { ctx, page, errors } = await open(gui);
    await setMode(page, 'humans');
    await loadKfen(page, SILVER_WINS_KFEN);
    expect(await moveCount(page)).toBe(0);
    await click(page, 'j1');
    // The Sphinx has one rotation: only one button.
    expect(await page.locator('#layer-controls [data-rot]').count()).toBe(1);
    // The removed piece is on show for 2.3 s: on a loaded machine the checks below may come later,
    // so what enters the effects layer is noted as it enters.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { leaving: string[] }).leaving = seen;
      new MutationObserver((changes) => {
        for (const c of changes)
          c.addedNodes.forEach((n) => {
            if (n instanceof Element && n.classList.contains('leaving')) seen.push(n.getAttribute('data-piece') ?? '');
          });
      }).observe(document.getElementById('layer-fx')!, { childList: true });
    });
    await page.click('#layer-controls [data-rot]');
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner-title')).toBe('Silver wins');
    expect(await page.textContent('#banner-text')).toBe("Silver's laser hit the Red Pharaoh on e7 (j1+).");
    expect(await page.getAttribute('#layer-beam', 'data-path')).toBe('j1 j2 j3 j4 j5 j6 j7 i7 h7 g7 f7 e7');
    expect(await page.getAttribute('#layer-beam', 'data-end')).toBe('kill e7');
    expect(await page.evaluate(() => (window as unknown as { leaving: string[] }).leaving)).toEqual(['k']);
    await shot(page, 'pharaoh-hit');
    // The game is over: nothing moves any more.
    await page.click('#banner-close');
    await click(page, 'a8');
    await click(page, 'e2');
    expect(await page.locator('#layer-marks .selected').count()).toBe(0);
    expect(await page.textContent('#moves .result')).toContain('1-0');
    await page.waitForFunction(() => document.querySelectorAll('#layer-fx .leaving').length === 0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('exports and imports games and positions; navigates the move list', async () => {
    const { ctx, page, errors } = await open(gui);
    await setMode(page, 'humans');
    await page.selectOption('#sel-tc', '60+1');
    await newGame(page);
    expect(await page.textContent('#player-top .clock')).toBe('1:00');
    await click(page, 'c1');
    await click(page, 'd2');
    // Red's clock runs once Silver has moved; Silver got the increment.
    expect(await page.textContent('#player-bottom .clock')).toBe('1:01');
    expect(await page.locator('#player-top .clock.running').count()).toBe(1);
    await page.waitForFunction(() => document.querySelector('#player-top .clock')?.textContent === '0:59');
    await click(page, 'a4');
    await click(page, 'a3');
    await click(page, 'j5');
    await page.click('#layer-controls [data-rot="-"]');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'j5-']);
    await page.click('#card-io summary');
    await page.click('#rec-export');
    const rec = await page.inputValue('#record');
    for (const tag of [
      'Event',
      'Site',
      'Date',
      'Round',
      'White',
      'Black',
      'Result',
      'SetUp',
      'FEN',
      'Variant',
      'KFEN',
      'TimeControl',
      'Termination',
    ]) {
      expect(rec).toMatch(new RegExp(`^\\[${tag} "[^"]*"\\]$`, 'm'));
    }
    expect(rec).toContain(`[KFEN "${CLASSIC}"]`);
    expect(rec).toContain('[Variant "khet2"]');
    expect(rec).toContain('[TimeControl "60+1"]');
    // Each move with the mover's clock after it.
    expect(rec).toMatch(
      /\n\n1\. c1d2 \{\[%clk 0:01:01\]\} a4a3 \{\[%clk 0:0[01]:\d\d\]\} 2\. j5- \{\[%clk 0:0[01]:\d\d\]\} \*\n+$/,
    );
    expect(await page.isVisible('#rec-download')).toBe(true);

    // Back through the list and forward again.
    await page.click('#moves .mv[data-ply="1"]');
    expect(await page.inputValue('#kfen')).toBe(toKfen(positionAt(coreGame(CLASSIC, ['c1d2']), [0])));
    await page.click('#nav-first');
    expect(await page.inputValue('#kfen')).toBe(CLASSIC);
    await page.click('#nav-last');

    // A new game (confirmed: it abandons the one in progress), then the record brings the moves back.
    await newGame(page);
    expect(await moveCount(page)).toBe(0);
    await page.fill('#record', rec);
    await page.click('#rec-import');
    expect(await movesText(page)).toEqual(['c1d2', 'a4a3', 'j5-']);
    expect(await page.textContent('#io-msg')).toContain('2 moves (3 plies)');
    // A bad KFEN is reported, the game kept.
    await page.fill('#kfen', 'not a kfen');
    await page.click('#kfen-load');
    expect(await page.textContent('#io-msg')).toMatch(/Not a KFEN/);
    expect(await moveCount(page)).toBe(3);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('reviews a finished game: accuracy, marks on the moves, a graph to click', async () => {
    const { ctx, page, errors } = await open(gui);
    await setMode(page, 'humans');
    for (const [a, b] of [
      ['c1', 'd2'],
      ['a4', 'a3'],
      ['j4', 'i4'],
      ['a3', 'a4'],
    ]) {
      await click(page, a);
      await click(page, b);
    }
    await page.click('#btn-resign');
    await page.click('#dialog-yes');
    await page.click('#banner-review');
    await page.waitForSelector('#card-analysis:not([hidden])');
    await page.waitForSelector('#review .acc');
    const acc = await page.$$eval('#review .acc', (as) => as.map((a) => a.textContent ?? ''));
    expect(acc).toHaveLength(2);
    for (const a of acc) expect(a).toMatch(/^\d+%$/);
    // Silver's j4i4 removed its own Pyramid: the review marks it.
    expect(await page.textContent('#moves .mv[data-ply="3"] .nag')).toMatch(/^\?[!?]?$/);
    expect(await page.locator('#graph svg .dot').count()).toBe(5);
    // the graph may sit below the fold (the Analysis card holds notes, practice and watch too)
    await page.locator('#graph svg').scrollIntoViewIfNeeded();
    const g = await page.locator('#graph svg').boundingBox();
    await page.mouse.click(g!.x + g!.width / 2, g!.y + g!.height / 2);
    expect(await page.getAttribute('#moves .mv.current', 'data-ply')).toBe('2');
    await shot(page, 'review');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('is usable from the keyboard', async () => {
    const { ctx, page, errors } = await open(gui);
    await setMode(page, 'humans');
    await page.focus('#board');
    await page.keyboard.press('ArrowUp'); // shows the cursor on the first own piece (c1)
    expect(await page.locator('#layer-marks .cursor').count()).toBe(1);
    await page.keyboard.press('Enter'); // picks up c1
    expect(await targets(page)).toEqual(coreTargets(CLASSIC, [], 'c1'));
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter'); // c1c2
    await waitMoves(page, 1);
    // Red: up the c file to the pyramid on c7, and rotate it with +.
    await page.keyboard.press('ArrowUp'); // c3
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowUp'); // c7 (Red pyramid)
    await page.keyboard.press('Enter');
    await page.keyboard.press('+');
    await waitMoves(page, 2);
    expect(await movesText(page)).toEqual(['c1c2', 'c7+']);
    await page.keyboard.press('Home');
    expect(await page.inputValue('#kfen')).toBe(CLASSIC);
    await page.keyboard.press('End');
    await page.keyboard.press('t');
    await confirmIfAsked(page);
    expect(await moveCount(page)).toBe(1);
    await page.keyboard.press('f');
    await shot(page, 'keyboard-flipped');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('moves a whole obelisk stack or only its top in Khet 1.0', async () => {
    const { ctx, page, errors } = await open(gui);
    await setMode(page, 'humans');
    await page.selectOption('#sel-edition', 'khet1');
    await newGame(page);
    expect(await page.getAttribute('body', 'class')).toBe('ed-khet1');
    await click(page, 'd1');
    expect(await page.isVisible('#btn-stack')).toBe(true);
    expect(await page.textContent('#btn-stack')).toBe('Whole stack');
    const whole = await targets(page);
    await page.keyboard.press('u');
    expect(await page.textContent('#btn-stack')).toBe('Top obelisk only');
    expect(await targets(page)).toEqual(whole);
    await click(page, 'd2');
    await waitMoves(page, 1);
    expect(await movesText(page)).toEqual(['d1d2u']);
    await shot(page, 'khet1');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('fits a phone-sized window', async () => {
    const { ctx, page, errors } = await open(gui, PHONE);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    const box = await page.locator('svg.board').boundingBox();
    expect(box && box.width).toBeGreaterThan(340);
    await click(page, 'c1');
    await click(page, 'd2');
    await waitReply(page, 2);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'phone', true);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
