#!/usr/bin/env node
// The explorer in the page, on a game database, as a person meets it (docs/db.md, "Measured"):
//
//   node bench/explorer-page.mjs --db FILE [--walks N] [--plies N] [--engine "<command>"]
//
// Run `npm run build` first. Starts `thoth gui --db FILE` (its own Thoth unless --engine; the
// engine analyses as the page asks, as it would for a person) and Debian's Chromium, puts the page
// in Analysis and, for each setup of the database's games, walks N lines (--walks, 3) of up to P
// plies (--plies, 12) by clicking a row of the database's explorer (the most played move on the
// first walk, a random one on the others): a click plays the move and the page asks the server.
// The time of an answer runs from the click (or from *New game*, for a setup's start) to the
// database's rows drawn for the new position, measured in the page (performance.now() and a
// MutationObserver). Prints p50, p95 and the largest, for all the positions and for the starts
// alone (which every game of the setup passes), and the requests' own times, with the load average.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const db = opt('db');
if (!db) {
  console.error('usage: node bench/explorer-page.mjs --db FILE [--walks N] [--plies N] [--engine "<command>"]');
  process.exit(2);
}
const walks = Number(opt('walks', '3'));
const plies = Number(opt('plies', '12'));
const engine = opt('engine');
const say = (s = '') => process.stdout.write(`${s}\n`);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const gui = spawn(
  process.execPath,
  [path.join(ROOT, 'dist/cli.js'), 'gui', '--port', '0', '--db', db, ...(engine ? ['--engine', engine] : [])],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
);
let printed = '';
const url = await new Promise((resolve, reject) => {
  gui.stdout.on('data', (d) => {
    printed += d;
    const m = /Thoth GUI: (\S+)/.exec(printed);
    if (m && /Explorer: /.test(printed)) resolve(m[1]);
  });
  gui.on('exit', (code) => reject(new Error(`thoth gui exited ${code}:\n${printed}`)));
});
say(`load average ${load()}; ${os.cpus().length} cores; ${/Explorer: (.*)/.exec(printed)[1]}`);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(url);
  await page.evaluate(() => performance.setResourceTimingBufferSize(100_000));
  await page.click('input[name=mode][value=analysis]', { force: true });
  const dialog = page.locator('#dialog-yes');
  if ((await dialog.count()) > 0 && (await dialog.isVisible())) await dialog.click();
  await page.waitForSelector('#explorer h3[data-from=database]');

  /** In the page: runs `act`, then waits for the database's rows of the position it leads to. */
  const timed = (act) =>
    page.evaluate(
      ([act]) =>
        new Promise((resolve) => {
          const box = document.querySelector('#explorer');
          const ready = () => {
            const h = box.querySelector('h3[data-from=database]');
            return h !== null && !h.textContent.includes('asking');
          };
          const t0 = performance.now();
          const drawnAt = (window.__drawn ??= []);
          let acted = false;
          const obs = new MutationObserver(() => {
            if (acted && ready()) {
              obs.disconnect();
              resolve(performance.now() - t0);
            }
          });
          obs.observe(box, { childList: true, subtree: true, characterData: true });
          if (act.kind === 'new') {
            document.querySelector('#btn-new').click();
            const yes = document.querySelector('#dialog-yes');
            if (yes && yes.offsetParent !== null) yes.click(); // "leave this game?"
          } else document.querySelectorAll('#explorer table[data-from=database] tr.ex-move')[act.row].click();
          acted = true;
          drawnAt.push(performance.now() - t0); // the page's own drawing of the move, done before the click returns
          // The page draws itself before the click returns: the new position shows now, asking the
          // database, or with an answer kept from before.
          if (ready()) {
            obs.disconnect();
            resolve(performance.now() - t0);
          }
        }),
      [act],
    );

  const all = [];
  const starts = [];
  let seed = 12345;
  const random = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  for (const edition of ['khet2', 'khet1', 'deflexion']) {
    await page.selectOption('#sel-edition', edition);
    const names = await page.$$eval('#sel-setup option', (os) => os.map((o) => o.value));
    for (const setup of names) {
      for (let w = 0; w < walks; w++) {
        await page.selectOption('#sel-setup', setup);
        // a new game asks the database for the start afresh only the first time: later starts are kept answers
        const ms = await timed({ kind: 'new' });
        if (w === 0) {
          starts.push(ms);
          all.push(ms);
        }
        for (let p = 0; p < plies; p++) {
          const rows = await page.$$eval('#explorer table[data-from=database] tr.ex-move', (r) => r.length);
          if (rows === 0) break;
          all.push(await timed({ kind: 'row', row: w === 0 ? 0 : random(rows) }));
        }
      }
    }
  }
  say(
    `explorer in the page: ${all.length} positions, p50 ${pct(all, 50).toFixed(1)} ms, p95 ${pct(all, 95).toFixed(1)} ms, max ${Math.max(...all).toFixed(1)} ms`,
  );
  say(
    `  setups' starts: ${starts.length}, p50 ${pct(starts, 50).toFixed(1)} ms, p95 ${pct(starts, 95).toFixed(1)} ms, max ${Math.max(...starts).toFixed(1)} ms`,
  );
  const drawn = await page.evaluate(() => window.__drawn);
  say(
    `  of which the page's drawing of the click (board, lines, explorer asking): p50 ${pct(drawn, 50).toFixed(1)} ms, p95 ${pct(drawn, 95).toFixed(1)} ms`,
  );
  // The server's part: each request's time from sending to the last byte (the browser's resource timing).
  const fetches = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/explorer'))
      .map((e) => e.responseEnd - e.startTime),
  );
  if (fetches.length > 0)
    say(
      `  of which the request (server and loopback): ${fetches.length}, p50 ${pct(fetches, 50).toFixed(1)} ms, p95 ${pct(fetches, 95).toFixed(1)} ms, max ${Math.max(...fetches).toFixed(1)} ms`,
    );
  say(`load average at the end ${load()}`);
} finally {
  await browser.close();
  gui.kill('SIGINT');
}
