#!/usr/bin/env node
// Where a move's time goes between the engine and the referee's clock, under load; reported,
// never asserted. See bench/README.md.
//
//   node bench/referee-overhead.mjs [--tree DIR]… [--runs N] [--load K] [--games G] [--concurrency C] [--tc TC] [--delay MS]
//
// Each tree (default: this repository) is a source tree whose runner is bundled (bench/referee-entry.ts,
// its ../src/ imports taken from that tree) and run in turn, the order alternating run by run, while
// K busy processes (default 6) load the machine. A run is a local match of G games (default 24) at
// TC (default 0.5+0.01) on C slots (default 4) between two fake engines that answer after MS ms (default
// 5) and report the microseconds from reading `go` to writing `bestmove`. Per tree: the referee's share
// of each move (the move's time in the record less the engine's own), as percentiles over every
// move of every run, the event loop's delay (medians over runs), and the games lost on time; and
// the floor: the same engine processes asked for moves by loops that do nothing else (no rules, no
// records), what the pipes and the machine's scheduling cost alone.
// Exit code: 0, 1 when a run fails, 2 for bad arguments.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: node bench/referee-overhead.mjs [--tree DIR]… [--runs N] [--load K] [--games G] [--concurrency C] [--tc TC] [--delay MS]';
const usage = (msg) => {
  process.stderr.write(`referee-overhead: ${msg}\n${USAGE}\n`);
  process.exit(2);
};

const trees = [];
let runs = 3;
let load = 6;
let games = 24;
let concurrency = 4;
let tc = '0.5+0.01';
let delay = 5;
const argv = process.argv.slice(2);
const num = (i) => {
  if (!/^\d+$/.test(argv[i + 1] ?? '')) usage(`${argv[i]} needs a whole number`);
  return Number(argv[i + 1]);
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--tree' && argv[i + 1]) trees.push(path.resolve(argv[++i]));
  else if (a === '--runs') runs = num(i++);
  else if (a === '--load') load = num(i++);
  else if (a === '--games') games = num(i++);
  else if (a === '--concurrency') concurrency = num(i++);
  else if (a === '--delay') delay = num(i++);
  else if (a === '--tc' && argv[i + 1]) tc = argv[++i];
  else usage(`unknown or incomplete argument '${a}'`);
}
if (trees.length === 0) trees.push(ROOT);
for (const t of trees)
  if (!existsSync(path.join(t, 'src', 'match', 'tournament.ts'))) usage(`${t} is not a Thoth source tree`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-referee-overhead-'));
const fake = path.join(dir, 'fake-engine.mjs');
await build({
  entryPoints: [path.join(ROOT, 'test', 'match', 'fixtures', 'fake-engine.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: fake,
  logLevel: 'warning',
});
/** The entry bundled against `tree`'s src/. */
const entries = [];
for (const [k, tree] of trees.entries()) {
  const out = path.join(dir, `entry-${k}.mjs`);
  await build({
    entryPoints: [path.join(ROOT, 'bench', 'referee-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    nodePaths: [path.join(ROOT, 'node_modules')],
    outfile: out,
    logLevel: 'warning',
    plugins: [
      {
        name: 'tree',
        setup(b) {
          b.onResolve({ filter: /^\.\.\/src\// }, (args) => ({ path: path.join(tree, args.path.slice(3)) + '.ts' }));
        },
      },
    ],
  });
  entries.push(out);
}

// The load: busy processes, as other work on a shared machine.
const burners = Array.from({ length: load }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const stopBurners = () => {
  for (const b of burners) b.kill('SIGKILL');
};
process.on('exit', stopBurners);

const runOnce = (entry, k, floor = false) =>
  new Promise((resolve, reject) => {
    const pgn = path.join(dir, `run-${k}-${Date.now()}.pgn`);
    const child = spawn(
      process.execPath,
      [
        entry,
        fake,
        pgn,
        '-each',
        `tc=${tc}`,
        '-games',
        '2',
        '-rounds',
        String(games / 2),
        '-concurrency',
        String(concurrency),
        '-ratinginterval',
        '0',
        '-maxplies',
        '120',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FAKE_DELAY: String(delay), FLOOR: floor ? '1' : '0', FLOOR_MOVES: String(floorMoves) },
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`run failed (${code}): ${err.slice(-500)}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });

// The floor (the last column): the same engines asked by loops that do nothing else, with the last tree's EngineProcess.
const floorMoves = Math.round((games * 100) / concurrency);
const results = [...trees, 'floor'].map(() => ({ overheads: [], loops: [], forfeits: 0, games: 0 }));
process.stdout.write(
  `referee overhead: ${runs} runs × ${games} games at ${tc} on ${concurrency} slots, fake engines thinking ${delay} ms, ${load} busy processes; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);
let failed = false;
for (let r = 0; r < runs; r++) {
  const order = [...trees, 'floor'].map((_, k) => k);
  if (r % 2 === 1) order.reverse();
  for (const k of order) {
    try {
      const floor = k === trees.length;
      const res = await runOnce(entries[floor ? k - 1 : k], k, floor);
      for (const [refMs, engUs] of res.moves) results[k].overheads.push(refMs - engUs / 1000);
      results[k].loops.push(res.loop);
      results[k].forfeits += res.forfeits;
      results[k].games += res.games;
    } catch (e) {
      process.stderr.write(`${e.message}\n`);
      failed = true;
    }
  }
}
stopBurners();
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => pct(xs, 50);
for (const [k, tree] of [...trees, 'the floor (pipes and scheduling alone)'].entries()) {
  const o = results[k].overheads;
  const f = (x) => x.toFixed(1);
  process.stdout.write(
    `${k === trees.length ? tree : path.relative(path.dirname(ROOT), tree) || tree}: ${o.length} moves; referee's share (ms) p50 ${f(pct(o, 50))}, p90 ${f(pct(o, 90))}, p99 ${f(pct(o, 99))}, max ${f(pct(o, 100))}; ` +
      `over 5 ms ${((100 * o.filter((x) => x > 5).length) / o.length).toFixed(1)} %, over 10 ms ${((100 * o.filter((x) => x > 10).length) / o.length).toFixed(1)} %; ` +
      `event loop delay p50 ${f(median(results[k].loops.map((l) => l.p50)))} p99 ${f(median(results[k].loops.map((l) => l.p99)))} max ${f(median(results[k].loops.map((l) => l.max)))} ms; ` +
      `${k === trees.length ? '' : `lost on time ${results[k].forfeits} of ${results[k].games} games`}\n`,
  );
}
rmSync(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
