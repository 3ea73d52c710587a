#!/usr/bin/env node
// Would the rules core run faster as WebAssembly? The same plain perft of Khet 2.0
// (bench/wasm/perft-kernel.ts: move generation, make with the laser's shot, unmake) built twice,
// as JavaScript (esbuild, run by V8 like dist/) and as WebAssembly (AssemblyScript's asc, -O3),
// checked against the engine's perft and timed in alternating rounds. See bench/README.md
// ("JavaScript or WebAssembly").
//
//   node bench/wasm-perft.mjs [--depth D] [--rounds N]
//
// A third build, bench/wasm/perft-kernel64.ts, is the same kernel with 64-bit bitboard words
// (squares 0–63 and 64–79), which only WebAssembly has: `wasm64`.
// The engine's own perft (dist/lib/core.js, with its bulk counts at the last two plies) runs
// beside them for scale; it is not the same algorithm, so its ratio is not the one to quote.
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const USAGE = 'usage: node bench/wasm-perft.mjs [--depth D] [--rounds N]';
const opts = { depth: 5, rounds: 3 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '-h' || a === '--help') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const key = { '--depth': 'depth', '--rounds': 'rounds' }[a];
  const v = argv[++i];
  const max = key === 'depth' ? 6 : 99;
  if (key === undefined || v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) {
    process.stderr.write(`wasm-perft: bad argument '${a}${v === undefined ? '' : ` ${v}`}'\n${USAGE}\n`);
    process.exit(2);
  }
  opts[key] = Number(v);
}

if (!existsSync(fileURLToPath(new URL('../dist/lib/core.js', import.meta.url)))) {
  process.stderr.write('wasm-perft: no dist/lib/core.js: run `npm run build` first\n');
  process.exit(2);
}
const { KHET2, NEIGHBOURS, RAYS, REFLECT, SETUPS, parseKfen, perft: enginePerft } = await import('../dist/lib/core.js');

let asc;
try {
  asc = (await import('assemblyscript/asc')).default;
} catch {
  process.stderr.write('wasm-perft: AssemblyScript is not installed (it is a devDependency: run `npm ci`)\n');
  process.exit(2);
}

const KERNEL = fileURLToPath(new URL('./wasm/perft-kernel.ts', import.meta.url));
const KERNEL64 = fileURLToPath(new URL('./wasm/perft-kernel64.ts', import.meta.url));
const source = readFileSync(KERNEL, 'utf8');

// JavaScript: the kernel bundled by esbuild, imported from a data URL
const js = await esbuild.build({ entryPoints: [KERNEL], bundle: true, format: 'esm', write: false, platform: 'node', target: 'node20', logLevel: 'silent' });
const jsKernel = await import(`data:text/javascript;base64,${Buffer.from(js.outputFiles[0].text).toString('base64')}`);

/** An AssemblyScript source compiled with asc -O3 and instantiated: its exports. */
async function assemble(text) {
  const compiled = await asc.compileString(text, { optimizeLevel: 3, shrinkLevel: 0, runtime: 'stub', noAssert: true, uncheckedBehavior: 'always' });
  if (compiled.error) {
    process.stderr.write(`wasm-perft: asc failed: ${compiled.error.message}\n${compiled.stderr.toString()}\n`);
    process.exit(1);
  }
  const env = { env: { abort: () => { throw new Error('abort'); } } };
  return (await WebAssembly.instantiate(compiled.binary, env)).instance.exports;
}
// WebAssembly: the same source; only Math.clz32 (a float function in AssemblyScript) becomes
// its integer builtin
const wasmKernel = await assemble(source.replaceAll('Math.clz32(', 'clz<i32>('));
// and the kernel with 64-bit words (AssemblyScript only)
const wasm64Kernel = await assemble(readFileSync(KERNEL64, 'utf8'));

// the same tables and start position for both, from the engine
const start = parseKfen(SETUPS.khet2.classic, 'khet2');
if (!start.ok) throw new Error(start.error.message);
for (const k of [jsKernel, wasmKernel, wasm64Kernel]) {
  for (let i = 0; i < RAYS.length; i++) k.setRay(i, RAYS[i]);
  for (let i = 0; i < NEIGHBOURS.length; i++) k.setNeighbour(i, NEIGHBOURS[i]);
  for (let i = 0; i < 256; i++) k.setReflect(i, REFLECT[i]);
  for (let i = 0; i < 6; i++) k.setReserved(i, KHET2.reserved[i]);
  KHET2.laserSquare.forEach((sq, c) => k.setLaser(c, sq));
  for (let sq = 0; sq < 80; sq++) k.setSquare(sq, start.value.board[sq]);
  k.setSide(start.value.side);
  k.finishSetup();
}

// both must count what the engine counts
for (let d = 1; d <= Math.min(opts.depth, 4); d++) {
  const want = enginePerft(start.value.clone(), d);
  const got = { js: jsKernel.perft(d), wasm: wasmKernel.perft(d), wasm64: wasm64Kernel.perft(d) };
  if (got.js !== want || got.wasm !== want || got.wasm64 !== want) {
    process.stderr.write(`wasm-perft: perft(${d}) differs: engine ${want}, js ${got.js}, wasm ${got.wasm}, wasm64 ${got.wasm64}\n`);
    process.exit(1);
  }
}

const versions = {
  js: () => jsKernel.perft(opts.depth),
  wasm: () => wasmKernel.perft(opts.depth),
  wasm64: () => wasm64Kernel.perft(opts.depth),
  engine: () => enginePerft(start.value.clone(), opts.depth),
};
process.stdout.write(`perft(${opts.depth}) of Classic (Khet 2.0), ${opts.rounds} rounds, one thread\n`);
const times = Object.fromEntries(Object.keys(versions).map((k) => [k, []]));
let nodes = 0;
for (let round = 0; round < opts.rounds; round++) {
  const names = Object.keys(versions);
  for (let j = 0; j < names.length; j++) {
    const name = names[(j + round) % names.length];
    const t0 = performance.now();
    const n = versions[name]();
    times[name].push(performance.now() - t0);
    if (nodes === 0) nodes = n;
    else if (n !== nodes) {
      process.stderr.write(`wasm-perft: ${name} counted ${n}, not ${nodes}\n`);
      process.exit(1);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(times.js);
for (const [name, ts] of Object.entries(times)) {
  const m = median(ts);
  process.stdout.write(`${name.padEnd(8)} median ${(m / 1000).toFixed(2).padStart(7)} s  ${nodes} leaves  ${(base / m).toFixed(2)}x js${name === 'engine' ? '  (bulk counts: another algorithm)' : ''}\n`);
}
