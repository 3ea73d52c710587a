/**
 * `thoth analyse --game` and the GUI's *Review the game* review by one method
 * (src/analysis/review-method.ts): the same short game, reviewed by the CLI process and by the
 * page in Chromium against `thoth gui`'s real engine, gets the same mark on every move and the
 * same accuracy per side. The game has a mistake (1.c5b4?: it walks a Pyramid out of the beam's
 * way), a move that is not the engine's choice but costs little (1...a4a3: searched alone), and
 * a quiet move.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, WAIT_MS, click, closeBrowser, open, setMode } from './browser';
import { CLI, realEngineWorks, startGui, type RunningGui } from './helpers';

const REAL_ENGINE = HAVE_CHROMIUM && (await realEngineWorks());

/** Step moves only (two clicks each on the page), from the classic setup. */
const GAME = ['c5b4', 'a4a3', 'j5j6'];

afterAll(closeBrowser);

/**
 * The CLI's review: the mark of each move ('' for none) and each side's accuracy, rounded. It runs
 * while the page reviews (a fixed-depth review on one thread does not depend on timing).
 */
async function cliReview(): Promise<{ marks: string[]; accuracy: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'thoth-parity-'));
  try {
    const file = path.join(dir, 'game.pgn');
    writeFileSync(file, `[Variant "khet2"]\n\n1. ${GAME[0]} ${GAME[1]} 2. ${GAME[2]} *\n`);
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, 'analyse', '--game', file, '--json', '--quiet'],
        { encoding: 'utf8', timeout: 5 * 60_000 },
        (e, stdout, stderr) =>
          resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr }),
      );
    });
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    return {
      marks: j.plies.map((p: { mark: string | null }) => p.mark ?? ''),
      accuracy: j.sides.map((s: { accuracy: number }) => `${Math.round(s.accuracy)}%`),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!REAL_ENGINE)('the CLI and the GUI review a game alike', () => {
  let gui: RunningGui;
  beforeAll(async () => {
    gui = await startGui();
  });
  afterAll(async () => {
    await gui?.stop();
  });

  it('the same marks on every move and the same accuracy per side', async () => {
    const cliRun = cliReview();
    cliRun.catch(() => undefined); // awaited below: a failure is reported there

    const { ctx, page, errors } = await open(gui.url);
    await setMode(page, 'humans');
    for (const m of GAME) {
      await click(page, m.slice(0, 2));
      await click(page, m.slice(2, 4));
    }
    await page.waitForFunction((n) => Number(document.getElementById('moves')?.dataset.count) >= n, GAME.length);
    await setMode(page, 'analysis');
    await page.click('#btn-review');
    await page.waitForSelector('#review .acc', { timeout: 4 * WAIT_MS });
    const marks: string[] = [];
    for (let ply = 1; ply <= GAME.length; ply++) {
      const nag = page.locator(`#moves .mv[data-ply="${ply}"] .nag`);
      marks.push((await nag.count()) > 0 ? ((await nag.textContent()) ?? '').trim() : '');
    }
    const accuracy = await page.$$eval('#review .acc', (as) => as.map((a) => (a.textContent ?? '').trim()));
    const cli = await cliRun;
    // The game has something to mark, and something not to.
    expect(cli.marks.some((m) => m !== '')).toBe(true);
    expect(cli.marks.some((m) => m === '')).toBe(true);
    expect({ marks, accuracy }).toEqual(cli);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
