#!/usr/bin/env node
// The speed of the network's evaluation (NNUE, H = 128, a random network), in one process:
//
//   node bench/nnue.mjs [--rounds N] [--depth D] [--reps N] [--net FILE|random] [--base REV]
//
// The network (H = 128) is by default trained for the bench with the built CLI (run `npm run
// build` first) on the test fixture test/nnue/fixtures/selfplay.bin, 15 epochs, about 5 s: its
// evaluations are of a trained network's size, so the search's tree looks like a real one
// (a random network's wild evaluations grow the tree tenfold). `--net random` takes a random one.
//
// bench/nnue-entry.ts is bundled with esbuild and imported. Each round runs, in an order that
// turns from round to round, so that every variant meets the same load:
// - a search of the bench's 13 middle games to depth D with the hand-written evaluation (hce), the
//   network with the plain JavaScript kernels (js) and with the WebAssembly SIMD ones, i32
//   accumulators (simd) and i16 ones (simd16, for a network whose accumulators fit);
// - the evaluation alone: every move of those positions made, recorded, evaluated (one lazy
//   update plus the forward pass) and taken back, `reps` times, and the same walk without the
//   evaluation, whose time is taken off the others.
// With --base REV the same entry is bundled with another commit's src/ too and its network path
// runs as the variant `base` (the build before the SIMD kernels: ee638fd).
// Both wall time and this process's CPU time are measured: on a loaded machine the CPU time
// is what an idle core would take. The figures quoted are medians over the rounds.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: node bench/nnue.mjs [--rounds N] [--depth D] [--reps N] [--net FILE|random] [--base REV]';
const opts = { rounds: 7, depth: 5, reps: 20, base: '', net: '' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = argv[i + 1];
  if (a === '-h' || a === '--help') {
    process.stdout.write(
      `${USAGE}\n  --rounds N  rounds (default 7)\n  --depth D   search depth (default 5)\n  --reps N    passes over the moves per evaluation round (default 20)\n  --net F     the network file to time, or 'random' (default: one trained for the bench)\n  --base REV  also time another commit's network path\n`,
    );
    process.exit(0);
  } else if ((a === '--base' || a === '--net') && v !== undefined) {
    opts[a.slice(2)] = v;
    i++;
  } else if (
    (a === '--rounds' || a === '--depth' || a === '--reps') &&
    v !== undefined &&
    /^\d+$/.test(v) &&
    Number(v) >= 1 &&
    Number(v) <= 999
  ) {
    opts[a.slice(2)] = Number(v);
    i++;
  } else {
    process.stderr.write(`nnue bench: bad argument '${a}'\n${USAGE}\n`);
    process.exit(2);
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'thoth-nnue-bench-'));
const say = (s = '') => process.stdout.write(`${s}\n`);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};

async function bundle(tree, name) {
  const out = path.join(tmp, `${name}.mjs`);
  await build({
    entryPoints: [path.join(tree, 'bench/nnue-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: out,
    logLevel: 'error',
  });
  return import(pathToFileURL(out).href);
}

/** Runs f, returning its result with the wall and CPU milliseconds it took. */
function timed(f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ...r, ms, cpu: (c.user + c.system) / 1000 };
}

try {
  const A = await bundle(ROOT, 'this');
  let B = null;
  let baseSha = '';
  if (opts.base !== '') {
    baseSha = execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${opts.base}^{commit}`], {
      encoding: 'utf8',
    }).trim();
    const tree = path.join(tmp, 'base');
    mkdirSync(tree);
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${baseSha} src | tar -x -C "${tree}"`]);
    // this tree's bench entry and the test helpers it uses, over the base's sources
    for (const f of ['bench/nnue-entry.ts', 'test/nnue/helpers.ts', 'test/core/helpers.ts']) {
      mkdirSync(path.dirname(path.join(tree, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(tree, f));
    }
    B = await bundle(tree, 'base');
  }
  let netFile = opts.net;
  if (netFile === '') {
    netFile = path.join(tmp, 'bench.nnue');
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'bin/thoth.js'),
        'train',
        '--out',
        netFile,
        '--hidden',
        '128',
        '--epochs',
        '15',
        '--batch',
        '256',
        '--seed',
        '1',
        '--threads',
        '1',
        '--quiet',
        path.join(ROOT, 'test/nnue/fixtures/selfplay.bin'),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  const bytes = netFile === 'random' ? null : new Uint8Array(readFileSync(netFile));
  const netName = A.useNetwork(bytes);
  if (B) B.useNetwork(bytes);
  const simd = A.simdAvailable();
  const variants = [
    ['hce', A, 'hce'],
    ['js', A, 'js'],
    ...['simd', 'simd16'].filter((k) => A.kernelsRun(k)).map((k) => [k, A, k]),
    ...(B ? [['base', B, 'js']] : []),
  ];
  say(`NNUE bench: network ${netFile === 'random' ? 'random, ' : ''}${netName}`);
  say(
    `search depth ${opts.depth} of ${A.MIDDLE_GAMES.length} middle games, ${opts.rounds} rounds; WebAssembly SIMD ${simd ? 'available' : 'NOT available'}${B ? `; base ${baseSha.slice(0, 7)}` : ''}`,
  );
  say(`load average at the start: ${load()}`);
  const search = Object.fromEntries(variants.map(([k]) => [k, { nps: [], cpuNps: [], nodes: 0 }]));
  const evalK = [['walk', A, 'walk'], ...variants];
  const ev = Object.fromEntries(evalK.map(([k]) => [k, { ms: [], cpu: [], evals: 0, sum: null }]));
  // warm-up (compilation) outside the rounds
  for (const [, mod, v] of variants) mod.searchRound(v, A.MIDDLE_GAMES.slice(0, 2), Math.min(opts.depth, 3));
  for (const [, mod, v] of evalK) mod.evalRound(v, 2);
  for (let round = 0; round < opts.rounds; round++) {
    const rot = (xs) => xs.map((_, i) => xs[(i + round) % xs.length]);
    const cells = [];
    for (const [k, mod, v] of rot(variants)) {
      const r = timed(() => mod.searchRound(v, A.MIDDLE_GAMES, opts.depth));
      const s = search[k];
      s.nodes = r.nodes;
      s.nps.push((r.nodes * 1000) / r.ms);
      s.cpuNps.push((r.nodes * 1000) / r.cpu);
      cells.push(`${k} ${Math.round((r.nodes * 1000) / r.ms)}`);
    }
    for (const [k, mod, v] of rot(evalK)) {
      const r = timed(() => mod.evalRound(v, opts.reps));
      const e = ev[k];
      e.ms.push(r.ms);
      e.cpu.push(r.cpu);
      e.evals = r.evals;
      if (e.sum !== null && e.sum !== r.sum)
        throw new Error(`${k}: the evaluations changed from one round to the next`);
      e.sum = r.sum;
    }
    say(`  round ${round + 1}: search nodes/s ${cells.join(', ')}; load ${load()}`);
  }
  say();
  say('search (nodes, median nodes/s wall, median nodes/s per CPU-second, relative to hce per CPU-second):');
  const hce = median(search.hce.cpuNps);
  for (const [k] of variants) {
    const s = search[k];
    say(
      `  ${k.padEnd(6)} ${String(s.nodes).padStart(9)} nodes  ${String(Math.round(median(s.nps))).padStart(8)} /s  ${String(Math.round(median(s.cpuNps))).padStart(8)} /CPU-s  ${(median(s.cpuNps) / hce).toFixed(2)}x`,
    );
  }
  for (const [k] of variants.slice(2)) {
    if (k !== 'base' && search[k].nodes !== search.js.nodes)
      say(`  WARNING: js and ${k} searched different trees (their evaluations differ)`);
    if (k !== 'base' && ev[k].sum !== ev.js.sum) say(`  WARNING: js and ${k} evaluations differ`);
  }
  say(
    `evaluation alone (${ev.walk.evals} evaluations a round; the walk without evaluation, ${median(ev.walk.cpu).toFixed(0)} ms CPU, taken off):`,
  );
  for (const [k] of variants) {
    const wall = median(ev[k].ms.map((x, i) => x - ev.walk.ms[i]));
    const cpu = median(ev[k].cpu.map((x, i) => x - ev.walk.cpu[i]));
    say(
      `  ${k.padEnd(6)} ${((wall * 1e6) / ev[k].evals).toFixed(0).padStart(6)} ns wall  ${((cpu * 1e6) / ev[k].evals).toFixed(0).padStart(6)} ns CPU  = ${Math.round(ev[k].evals / (cpu / 1000)).toLocaleString('en')} evaluations per CPU-second`,
    );
  }
  say(`load average at the end: ${load()}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
