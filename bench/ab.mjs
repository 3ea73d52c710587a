#!/usr/bin/env node
// The bench of this working tree and of another commit, in one process, in alternation:
//
//   node bench/ab.mjs [--base REV] [--rounds N] [--depth D]
//
// Both trees' src/search/bench.ts are bundled with esbuild into temporary modules and imported
// here; then each round runs the whole bench of A, then of B (B, then A, in odd rounds), and
// times them. On a shared machine whose load changes from second to second this is steadier
// than two processes run one after the other: both builds meet the same load, round by round.
// It measures the search only (no process start-up). See bench/README.md.
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
    process.stdout.write(`${USAGE}\n  --base REV   the other build (default 0b53221)\n  --rounds N   rounds (default 5)\n  --depth D    bench depth (default 6)\n  --perft D    perft(D) of Khet 2.0 Classic instead of the bench\n`);
    process.exit(0);
  } else if (a === '--base' && v !== undefined) {
    opts.base = v;
    i++;
  } else if ((a === '--rounds' || a === '--depth' || a === '--perft') && v !== undefined && /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 99) {
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
  say(`perft(${opts.perft}) of Khet 2.0 Classic, ${opts.rounds} rounds; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (let i = 0; i < opts.rounds; i++) {
    for (const k of i % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      const t0 = performance.now();
      const n = k === 'a' ? A.perft(pa, opts.perft) : B.perft(pb, opts.perft);
      (k === 'a' ? ta : tb).push(performance.now() - t0);
      if (k === 'a' && i === 0) say(`  nodes ${n}`);
    }
    say(`  round ${i + 1}  this ${ta[i].toFixed(0).padStart(6)} ms  base ${tb[i].toFixed(0).padStart(6)} ms  ratio ${(tb[i] / ta[i]).toFixed(2)}`);
  }
  const med = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  say(`median: this ${med(ta).toFixed(0)} ms, base ${med(tb).toFixed(0)} ms, ${(med(tb) / med(ta)).toFixed(2)}x faster`);
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
  say(`bench depth ${opts.depth}, ${opts.rounds} rounds in one process; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const runs = { a: [], b: [] };
  let nodesA = 0;
  let nodesB = 0;
  // Positions alternate one by one (A, B, then B, A for the next), so that both builds meet the
  // same load at the same moment; a round is the whole list.
  const positions = A.BENCH_POSITIONS;
  const one = (mod, i) => {
    const t0 = performance.now();
    const r = mod.runBench(opts.depth, quiet, [positions[i]]);
    return { ms: performance.now() - t0, nodes: r.nodes };
  };
  for (let round = 0; round < opts.rounds; round++) {
    const row = { a: { ms: 0, nodes: 0 }, b: { ms: 0, nodes: 0 } };
    for (let i = 0; i < positions.length; i++) {
      const order = (round + i) % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      for (const k of order) {
        const r = one(k === 'a' ? A : B, i);
        row[k].ms += r.ms;
        row[k].nodes += r.nodes;
      }
    }
    runs.a.push(row.a.ms);
    runs.b.push(row.b.ms);
    nodesA = row.a.nodes;
    nodesB = row.b.nodes;
    say(`  round ${round + 1}  this ${row.a.ms.toFixed(0).padStart(6)} ms  base ${row.b.ms.toFixed(0).padStart(6)} ms  ratio ${(row.b.ms / row.a.ms).toFixed(2)}`);
  }
  const median = (xs) => {
    const s = [...xs].sort((x, y) => x - y);
    const k = s.length >> 1;
    return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
  };
  const ratios = runs.a.map((a, i) => runs.b[i] / a);
  const ma = median(runs.a);
  const mb = median(runs.b);
  say();
  say(`this build: ${nodesA} nodes, median ${ma.toFixed(0)} ms, ${Math.round((nodesA * 1000) / ma)} nodes/s`);
  say(`base ${sha.slice(0, 7)}: ${nodesB} nodes, median ${mb.toFixed(0)} ms, ${Math.round((nodesB * 1000) / mb)} nodes/s`);
  say(`median of the round ratios: time ${median(ratios).toFixed(2)}x faster, nodes/second ${(median(ratios) * nodesA / nodesB).toFixed(2)}x`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
