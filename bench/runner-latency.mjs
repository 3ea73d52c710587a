#!/usr/bin/env node
// The tournament runner's latencies, reported and never asserted (the tests check behaviour only). See bench/README.md.
//
//   node bench/runner-latency.mjs [--runs N]
//
// Each figure is a median over N runs (default 5) of the built `thoth match` (dist/cli.js: run
// `npm run build` first) as a child process, with the fake engine of the match tests
// (test/match/fixtures/fake-engine.ts, bundled with esbuild into a temporary .mjs):
//   -starttimeout  a shell-script engine that never answers `uci` (it notes when it read it),
//                  -starttimeout 500: how long after `uci` + 0.5 s the `thoth match` process has
//                  ended (an engine that starts late reads `uci` late: then the figure is low, even
//                  below 0; the median is the figure to read)
//   a move         two fake engines that answer at once: one game of 100 plies less one of 2
//                  (-maxplies), over the 98 plies between (the runner and both engines' I/O)
// Exit code: 0, 1 when a run did not end as expected, 2 for bad arguments.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'cli.js');
const FIXTURE = path.join(ROOT, 'test', 'match', 'fixtures', 'fake-engine.ts');
const USAGE = 'usage: node bench/runner-latency.mjs [--runs N]';

function usage(msg) {
  process.stderr.write(`runner-latency: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

let runs = 5;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs' && /^[1-9]\d*$/.test(argv[i + 1] ?? '')) runs = Number(argv[++i]);
  else usage(`unknown or incomplete argument '${argv[i]}'`);
}
if (!existsSync(CLI)) usage(`${path.relative(ROOT, CLI)} is missing: run 'npm run build' first`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-runner-latency-'));
const fakeEngine = path.join(dir, 'fake-engine.mjs');
await build({
  entryPoints: [FIXTURE],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: fakeEngine,
  logLevel: 'warning',
});

const engine = (name, args = '') => ['-engine', 'cmd=node', `args=${fakeEngine} ${args}`.trim(), `name=${name}`];

/** Runs `thoth match ...args`; resolves with its wall time in ms, exit code and output. */
function match(args) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'match', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ ms: performance.now() - t0, code, out }));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;

let failed = false;
process.stdout.write(
  `runner latency: ${runs} runs each, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
const stats = (xs) =>
  `median ${fmt(median(xs))}   (min ${fmt(Math.min(...xs))}, max ${fmt(Math.max(...xs))}, ${xs.length} runs)`;
try {
  // An engine that never answers `uci` and notes when it was asked (ms since 1970 in its file): a
  // shell script, which starts in a millisecond or two where node takes a few hundred.
  const stamp = path.join(dir, 'uci-at');
  const mute = path.join(dir, 'mute.sh');
  writeFileSync(mute, `read line; date +%s%3N > '${stamp}'; exec sleep 60\n`);
  const late = [];
  for (let i = 0; i < runs; i++) {
    rmSync(stamp, { force: true });
    const r = await match([
      '-engine',
      'cmd=sh',
      `args=${mute}`,
      'name=mute',
      ...engine('ok'),
      '-each',
      'tc=10+0.1',
      '-starttimeout',
      '500',
    ]);
    const end = Date.now();
    if (!/no 'uciok' within 0\.5 s/.test(r.out) || !existsSync(stamp)) {
      process.stderr.write(`runner-latency: starttimeout: unexpected end (exit code ${r.code}):\n${r.out}\n`);
      failed = true;
    } else late.push(end - Number(readFileSync(stamp, 'utf8')) - 500);
  }
  if (late.length) process.stdout.write(`-starttimeout 0.5 s: the run ended after 'uci' + 0.5 s + ${stats(late)}\n`);

  // Per move: a game of 100 plies less a game of 2, over the 98 plies between.
  const pgn = path.join(dir, 'games.pgn');
  const game = (plies) => [
    ...engine('A', '--seed 1 --play quiet'),
    ...engine('B', '--seed 2 --play quiet'),
    '-each',
    'tc=10+0.1',
    '-maxplies',
    String(plies),
    '-rounds',
    '1',
    '-games',
    '1',
    '-pgnout',
    pgn,
  ];
  /** The run's wall time, when it played exactly `plies` plies (each ply's comment ends in its time: {+0.00/1 0.001s}). */
  const played = async (plies) => {
    rmSync(pgn, { force: true });
    const r = await match(game(plies));
    const n = r.code === 0 && existsSync(pgn) ? (readFileSync(pgn, 'utf8').match(/\{[^}]*s\}/g) ?? []).length : 0;
    if (n !== plies) {
      process.stderr.write(`runner-latency: per move: ${n} plies, not ${plies} (exit code ${r.code}):\n${r.out}\n`);
      failed = true;
      return undefined;
    }
    return r.ms;
  };
  const perMove = [];
  for (let i = 0; i < runs; i++) {
    const short = await played(2);
    const long = await played(100);
    if (short !== undefined && long !== undefined) perMove.push((long - short) / 98);
  }
  if (perMove.length)
    process.stdout.write(`a move (runner and both engines' I/O, engines answering at once): ${stats(perMove)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
