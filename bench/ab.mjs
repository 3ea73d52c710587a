#!/usr/bin/env node
// The bench of this working tree and of another commit, in one process, in alternation:
//
//   node bench/ab.mjs [--base REV] [--rounds N] [--depth D]
//
// Both trees' src/search/bench.ts are bundled with esbuild into temporary modules and imported
// here; then each round runs the whole bench of A, then of B (B, then A, in odd rounds), and
// times them. On a shared machine whose load changes from second to second this is steadier
// than two processes run one after the other: both builds meet the same load, round by round.
// It measures the search only (no process start-up). Each run is timed by the wall clock and by
// the process's CPU time (process.cpuUsage: time spent waiting for a core is not counted, so on
// a loaded machine the CPU-time ratio is the steadier one). See bench/README.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: node bench/ab.mjs [--base REV] [--rounds N] [--depth D | --perft D]';
const opts = { base: '0b53221', rounds: 5, depth: 6, perft: 0 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = argv[i + 1];
  if (a === '-h' || a === '--help') {
    process.stdout.write(
      `${USAGE}\n  --base REV   the other build (default 0b53221)\n  --rounds N   rounds (default 5)\n  --depth D    bench depth (default 6)\n  --perft D    perft(D) of Khet 2.0 Classic instead of the bench\n`,
    );
    process.exit(0);
  } else if (a === '--base' && v !== undefined) {
    opts.base = v;
    i++;
  } else if (
    (a === '--rounds' || a === '--depth' || a === '--perft') &&
    v !== undefined &&
    /^\d+$/.test(v) &&
    Number(v) >= 1 &&
    Number(v) <= 99
  ) {
    opts[a.slice(2)] = Number(v);
    i++;
  } else {
    process.stderr.write(`ab: bad argument '${a}'\n${USAGE}\n`);
    process.exit(2);
  }
}

const git = (...args) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();
let sha;
try {
  sha = git('rev-parse', '--verify', `${opts.base}^{commit}`);
} catch {
  process.stderr.write(`ab: '${opts.base}' is not a commit of this repository\n`);
  process.exit(2);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'thoth-ab-'));
const baseTree = path.join(tmp, 'base');
mkdirSync(baseTree);
// the base's sources only: its bench imports nothing outside src/
execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${sha} src | tar -x -C "${baseTree}"`]);

async function load(tree, name) {
  const entry = path.join(tree, 'src', opts.perft > 0 ? 'core/index.ts' : 'search/bench.ts');
  if (!existsSync(entry)) throw new Error(`no src/search/bench.ts in ${tree}`);
  const out = path.join(tmp, `${name}.mjs`);
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'error' });
  return import(pathToFileURL(out).href);
}

/** The median of a list of numbers. */
function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
}

/** This process's CPU time (user + system) since `c0` (a process.cpuUsage()), in ms. */
function cpuMs(c0) {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** perft(D) of Khet 2.0 Classic by both builds, alternating, one run each per round. */
async function perftRounds(A, B, say) {
  const kfen = A.setupKfen('khet2', 'classic');
  const pos = (mod) => {
    const r = mod.parseKfen(kfen, 'khet2');
    if (!r.ok) throw new Error('bad KFEN');
    return r.value;
  };
  const pa = pos(A);
  const pb = pos(B);
  const ta = [];
  const tb = [];
  const ca = [];
  const cb = [];
  say(
    `perft(${opts.perft}) of Khet 2.0 Classic, ${opts.rounds} rounds; load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (let i = 0; i < opts.rounds; i++) {
    for (const k of i % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const n = k === 'a' ? A.perft(pa, opts.perft) : B.perft(pb, opts.perft);
      (k === 'a' ? ca : cb).push(cpuMs(c0));
      (k === 'a' ? ta : tb).push(performance.now() - t0);
      if (k === 'a' && i === 0) say(`  nodes ${n}`);
    }
    say(
      `  round ${i + 1}  this ${ta[i].toFixed(0).padStart(6)} ms  base ${tb[i].toFixed(0).padStart(6)} ms  ratio ${(tb[i] / ta[i]).toFixed(2)}` +
        `   CPU this ${ca[i].toFixed(0).padStart(6)} ms  base ${cb[i].toFixed(0).padStart(6)} ms  ratio ${(cb[i] / ca[i]).toFixed(3)}`,
    );
  }
  say(
    `median: this ${median(ta).toFixed(0)} ms, base ${median(tb).toFixed(0)} ms, ${(median(tb) / median(ta)).toFixed(2)}x faster`,
  );
  say(
    `median CPU time: this ${median(ca).toFixed(0)} ms, base ${median(cb).toFixed(0)} ms, ${(median(cb) / median(ca)).toFixed(3)}x faster; ` +
      `median of the round ratios ${median(cb.map((b, i) => b / ca[i])).toFixed(3)}x`,
  );
}

try {
  const A = await load(ROOT, 'this');
  const B = await load(baseTree, 'base');
  const say = (s = '') => process.stdout.write(`${s}\n`);
  if (opts.perft > 0) {
    await perftRounds(A, B, say);
    process.exit(0);
  }
  const quiet = () => {};
  say(
    `bench depth ${opts.depth}, ${opts.rounds} rounds in one process; load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const runs = { a: [], b: [] };
  let nodesA = 0;
  let nodesB = 0;
  // Positions alternate one by one (A, B, then B, A for the next), so that both builds meet the
  // same load at the same moment; a round is the whole list.
  const positions = A.BENCH_POSITIONS;
  const one = (mod, i) => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = mod.runBench(opts.depth, quiet, [positions[i]]);
    return { ms: performance.now() - t0, cpu: cpuMs(c0), nodes: r.nodes };
  };
  const cpu = { a: [], b: [] };
  for (let round = 0; round < opts.rounds; round++) {
    const row = { a: { ms: 0, cpu: 0, nodes: 0 }, b: { ms: 0, cpu: 0, nodes: 0 } };
    for (let i = 0; i < positions.length; i++) {
      const order = (round + i) % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      for (const k of order) {
        const r = one(k === 'a' ? A : B, i);
        row[k].ms += r.ms;
        row[k].cpu += r.cpu;
        row[k].nodes += r.nodes;
      }
    }
    runs.a.push(row.a.ms);
    runs.b.push(row.b.ms);
    cpu.a.push(row.a.cpu);
    cpu.b.push(row.b.cpu);
    nodesA = row.a.nodes;
    nodesB = row.b.nodes;
    say(
      `  round ${round + 1}  this ${row.a.ms.toFixed(0).padStart(6)} ms  base ${row.b.ms.toFixed(0).padStart(6)} ms  ratio ${(row.b.ms / row.a.ms).toFixed(2)}` +
        `   CPU this ${row.a.cpu.toFixed(0).padStart(6)} ms  base ${row.b.cpu.toFixed(0).padStart(6)} ms  ratio ${(row.b.cpu / row.a.cpu).toFixed(3)}`,
    );
  }
  const ratios = runs.a.map((a, i) => runs.b[i] / a);
  const ma = median(runs.a);
  const mb = median(runs.b);
  say();
  say(`this build: ${nodesA} nodes, median ${ma.toFixed(0)} ms, ${Math.round((nodesA * 1000) / ma)} nodes/s`);
  say(
    `base ${sha.slice(0, 7)}: ${nodesB} nodes, median ${mb.toFixed(0)} ms, ${Math.round((nodesB * 1000) / mb)} nodes/s`,
  );
  say(
    `median of the round ratios: time ${median(ratios).toFixed(2)}x faster, nodes/second ${((median(ratios) * nodesA) / nodesB).toFixed(2)}x`,
  );
  const cpuRatios = cpu.a.map((a, i) => cpu.b[i] / a);
  say(
    `CPU time: this median ${median(cpu.a).toFixed(0)} ms, base ${median(cpu.b).toFixed(0)} ms; median of the round ratios ${median(cpuRatios).toFixed(3)}x faster, ` +
      `nodes per CPU-second ${((median(cpuRatios) * nodesA) / nodesB).toFixed(3)}x`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
