#!/usr/bin/env node
// Would the rules core run faster as WebAssembly? One kernel measured both ways: tracing the
// lasers (the piece the beam takes and the squares it crosses), the work behind the engine's
// beamMask, prepareShots and shot probes. See bench/README.md ("JavaScript or WebAssembly").
//
//   node bench/wasm-trace.mjs [--positions N] [--reps N] [--row N] [--rounds N]
//
// Positions come from random games of every Khet 2.0 setup (seeded: the same set each run).
// Four versions trace both lasers of every position (`row` times in a row, the whole set `reps`
// times) in rounds that alternate:
//   engine  Position.beamMask, the engine's own method (with --row above 1 on one Position set
//           up with each board in turn, so that its data stay in the cache as the others' do);
//   js      the same algorithm as a standalone loop over flat arrays, 80-square bitboards as
//           three 32-bit words (the engine's layout);
//   wasm    the same loop in WebAssembly (text below, compiled with wabt), bitboards as two
//           64-bit words (squares 0–63 and 64–79), whose lowest and highest set bits are single
//           instructions (i64.ctz, i64.clz);
//   wasm-call  the WebAssembly trace called from JavaScript once per beam (what a core in
//           WebAssembly under a search in JavaScript would pay per call).
// All four must agree on a checksum (the taken squares and the crossed squares' counts).
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const USAGE = 'usage: node bench/wasm-trace.mjs [--positions N] [--reps N] [--row N] [--rounds N]';
const opts = { positions: 2000, reps: 100, row: 1, rounds: 5 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const key = { '--positions': 'positions', '--reps': 'reps', '--row': 'row', '--rounds': 'rounds' }[a];
  if (a === '-h' || a === '--help') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const v = argv[++i];
  if (key === undefined || v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1e6) {
    process.stderr.write(`wasm-trace: bad argument '${a}${v === undefined ? '' : ` ${v}`}'\n${USAGE}\n`);
    process.exit(2);
  }
  opts[key] = Number(v);
}

if (!existsSync(fileURLToPath(new URL('../dist/lib/core.js', import.meta.url)))) {
  process.stderr.write('wasm-trace: no dist/lib/core.js: run `npm run build` first\n');
  process.exit(2);
}
const { RAYS, REFLECT, SETUPS, SQUARES, parseKfen, popcount } = await import('../dist/lib/core.js');

// ---- positions: random games from the Khet 2.0 setups, seeded
let seed = 12345;
const rand = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
};
const positions = [];
const moves = new Int32Array(256);
while (positions.length < opts.positions) {
  for (const kfen of Object.values(SETUPS.khet2)) {
    const r = parseKfen(kfen, 'khet2');
    if (!r.ok) throw new Error(r.error.message);
    const pos = r.value;
    for (let ply = 0; ply < 60 && pos.winner < 0 && positions.length < opts.positions; ply++) {
      const n = pos.generate(moves, 0);
      pos.make(moves[rand(n)]);
      if (pos.winner < 0 && ply % 3 === 0) positions.push(pos.clone());
    }
  }
}
const N = positions.length;
const ROW = opts.row;

// ---- flat data shared by the js and wasm versions
const POS_BYTES = 112; // board[80], occLo i64 @80, occHi i64 @88, sq0 @96, dir0 @100, sq1 @104, dir1 @108
const BASE = 8192;
const RAY_BASE = 256;
const pages = Math.ceil((BASE + N * POS_BYTES) / 65536) + 1;
const memory = new WebAssembly.Memory({ initial: pages });
const bytes = new Uint8Array(memory.buffer);
const view = new DataView(memory.buffer);
bytes.set(Uint8Array.from(REFLECT, (x) => x & 0xff), 0);
for (let i = 0; i < 4 * SQUARES; i++) {
  const w0 = RAYS[i * 3] >>> 0;
  const w1 = RAYS[i * 3 + 1] >>> 0;
  const w2 = RAYS[i * 3 + 2] >>> 0;
  view.setUint32(RAY_BASE + i * 16, w0, true);
  view.setUint32(RAY_BASE + i * 16 + 4, w1, true);
  view.setUint32(RAY_BASE + i * 16 + 8, w2, true);
  view.setUint32(RAY_BASE + i * 16 + 12, 0, true);
}
// the js version's arrays: boards, occupancy as three words, lasers
const jsBoard = new Uint8Array(N * 80);
const jsOcc = new Int32Array(N * 3);
const jsLaser = new Int32Array(N * 4);
for (let p = 0; p < N; p++) {
  const pos = positions[p];
  const at = BASE + p * POS_BYTES;
  let found = 0;
  for (let sq = 0; sq < SQUARES; sq++) {
    const piece = pos.board[sq];
    bytes[at + sq] = piece;
    jsBoard[p * 80 + sq] = piece;
    if (piece !== 0) jsOcc[p * 3 + (sq >> 5)] |= 1 << (sq & 31);
    if (((piece >> 2) & 7) === 1) {
      const color = piece >> 5;
      jsLaser[p * 4 + color * 2] = sq;
      jsLaser[p * 4 + color * 2 + 1] = piece & 3;
      found++;
    }
  }
  if (found !== 2) throw new Error('a position without two Sphinxes');
  view.setUint32(at + 80, jsOcc[p * 3] >>> 0, true);
  view.setUint32(at + 84, jsOcc[p * 3 + 1] >>> 0, true);
  view.setUint32(at + 88, jsOcc[p * 3 + 2] >>> 0, true);
  view.setUint32(at + 92, 0, true);
  for (let k = 0; k < 4; k++) view.setInt32(at + 96 + k * 4, jsLaser[p * 4 + k], true);
}

// ---- the js version: the engine's algorithm (prepareShots without its segment records)
let maskA = 0;
let maskB = 0;
let maskC = 0;
function nextOcc(p, sq, dir) {
  const r = (dir * SQUARES + sq) * 3;
  const o = p * 3;
  let x;
  if (dir < 2) {
    x = RAYS[r] & jsOcc[o];
    if (x !== 0) return 31 - Math.clz32(x & -x);
    x = RAYS[r + 1] & jsOcc[o + 1];
    if (x !== 0) return 63 - Math.clz32(x & -x);
    x = RAYS[r + 2] & jsOcc[o + 2];
    if (x !== 0) return 95 - Math.clz32(x & -x);
    return -1;
  }
  x = RAYS[r + 2] & jsOcc[o + 2];
  if (x !== 0) return 95 - Math.clz32(x);
  x = RAYS[r + 1] & jsOcc[o + 1];
  if (x !== 0) return 63 - Math.clz32(x);
  x = RAYS[r] & jsOcc[o];
  if (x !== 0) return 31 - Math.clz32(x);
  return -1;
}
function jsTrace(p, sq, dir) {
  let m0 = sq < 32 ? 1 << sq : 0;
  let m1 = sq >= 32 && sq < 64 ? 1 << (sq - 32) : 0;
  let m2 = sq >= 64 ? 1 << (sq - 64) : 0;
  let t = nextOcc(p, sq, dir);
  let kill = -1;
  for (let guard = 0; guard < 100; guard++) {
    const r = (dir * SQUARES + sq) * 3;
    if (t < 0) {
      m0 |= RAYS[r];
      m1 |= RAYS[r + 1];
      m2 |= RAYS[r + 2];
      break;
    }
    const rt = (dir * SQUARES + t) * 3;
    m0 |= RAYS[r] & ~RAYS[rt];
    m1 |= RAYS[r + 1] & ~RAYS[rt + 1];
    m2 |= RAYS[r + 2] & ~RAYS[rt + 2];
    const out = REFLECT[(jsBoard[p * 80 + t] << 2) | dir];
    if (out >= 4) {
      if (out === 4) kill = t;
      break;
    }
    sq = t;
    dir = out;
    t = nextOcc(p, sq, dir);
  }
  maskA = m0;
  maskB = m1;
  maskC = m2;
  return kill;
}
function jsRun(reps) {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let p = 0; p < N; p++) {
      for (let k = 0; k < ROW; k++) {
        for (let c = 0; c < 2; c++) {
          const kill = jsTrace(p, jsLaser[p * 4 + c * 2], jsLaser[p * 4 + c * 2 + 1]);
          sum = (sum + kill + popcount(maskA) + popcount(maskB) + popcount(maskC)) | 0;
        }
      }
    }
  }
  return sum;
}

// ---- the engine's own method, on one Position set up with each board in turn
const engineMask = new Int32Array(3);
const enginePos = positions[0].clone();
function engineRun(reps) {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let p = 0; p < N; p++) {
      const pos = ROW > 1 ? enginePos : positions[p];
      if (ROW > 1) pos.setup(positions[p].board, positions[p].side);
      for (let k = 0; k < ROW; k++) {
        for (let c = 0; c < 2; c++) {
          engineMask[0] = 0;
          engineMask[1] = 0;
          engineMask[2] = 0;
          const kill = pos.beamMask(c, engineMask, 0);
          sum = (sum + kill + popcount(engineMask[0]) + popcount(engineMask[1]) + popcount(engineMask[2])) | 0;
        }
      }
    }
  }
  return sum;
}

// ---- the wasm version
const WAT = `(module
  (import "env" "memory" (memory 1))
  (global $mlo (mut i64) (i64.const 0))
  (global $mhi (mut i64) (i64.const 0))
  ;; the first occupied square from sq (excluded) towards dir on position p, or -1
  (func $next (param $p i32) (param $sq i32) (param $dir i32) (result i32)
    (local $ra i32) (local $x i64)
    (local.set $ra (i32.add (i32.const ${RAY_BASE}) (i32.shl (i32.add (i32.mul (local.get $dir) (i32.const 80)) (local.get $sq)) (i32.const 4))))
    (if (i32.lt_u (local.get $dir) (i32.const 2))
      (then
        (local.set $x (i64.and (i64.load (local.get $ra)) (i64.load offset=80 (local.get $p))))
        (if (i64.ne (local.get $x) (i64.const 0)) (then (return (i32.wrap_i64 (i64.ctz (local.get $x))))))
        (local.set $x (i64.and (i64.load offset=8 (local.get $ra)) (i64.load offset=88 (local.get $p))))
        (if (i64.ne (local.get $x) (i64.const 0)) (then (return (i32.add (i32.const 64) (i32.wrap_i64 (i64.ctz (local.get $x)))))))
        (return (i32.const -1))))
    (local.set $x (i64.and (i64.load offset=8 (local.get $ra)) (i64.load offset=88 (local.get $p))))
    (if (i64.ne (local.get $x) (i64.const 0)) (then (return (i32.sub (i32.const 127) (i32.wrap_i64 (i64.clz (local.get $x)))))))
    (local.set $x (i64.and (i64.load (local.get $ra)) (i64.load offset=80 (local.get $p))))
    (if (i64.ne (local.get $x) (i64.const 0)) (then (return (i32.sub (i32.const 63) (i32.wrap_i64 (i64.clz (local.get $x)))))))
    (i32.const -1))
  ;; the square the beam from sq (a Sphinx) towards dir takes on position p, or -1; its squares in $mlo/$mhi
  (func $trace (export "trace") (param $p i32) (param $sq i32) (param $dir i32) (result i32)
    (local $lo i64) (local $hi i64) (local $t i32) (local $ra i32) (local $rt i32) (local $out i32) (local $guard i32)
    (if (i32.lt_u (local.get $sq) (i32.const 64))
      (then (local.set $lo (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $sq)))))
      (else (local.set $hi (i64.shl (i64.const 1) (i64.extend_i32_u (i32.sub (local.get $sq) (i32.const 64)))))))
    (local.set $t (call $next (local.get $p) (local.get $sq) (local.get $dir)))
    (block $done
      (loop $seg
        (local.set $ra (i32.add (i32.const ${RAY_BASE}) (i32.shl (i32.add (i32.mul (local.get $dir) (i32.const 80)) (local.get $sq)) (i32.const 4))))
        (if (i32.lt_s (local.get $t) (i32.const 0))
          (then
            (local.set $lo (i64.or (local.get $lo) (i64.load (local.get $ra))))
            (local.set $hi (i64.or (local.get $hi) (i64.load offset=8 (local.get $ra))))
            (local.set $t (i32.const -1))
            (br $done)))
        (local.set $rt (i32.add (i32.const ${RAY_BASE}) (i32.shl (i32.add (i32.mul (local.get $dir) (i32.const 80)) (local.get $t)) (i32.const 4))))
        (local.set $lo (i64.or (local.get $lo) (i64.and (i64.load (local.get $ra)) (i64.xor (i64.load (local.get $rt)) (i64.const -1)))))
        (local.set $hi (i64.or (local.get $hi) (i64.and (i64.load offset=8 (local.get $ra)) (i64.xor (i64.load offset=8 (local.get $rt)) (i64.const -1)))))
        (local.set $out (i32.load8_s (i32.or (i32.shl (i32.load8_u (i32.add (local.get $p) (local.get $t))) (i32.const 2)) (local.get $dir))))
        (if (i32.ge_s (local.get $out) (i32.const 4))
          (then
            (if (i32.ne (local.get $out) (i32.const 4)) (then (local.set $t (i32.const -1))))
            (br $done)))
        (local.set $sq (local.get $t))
        (local.set $dir (local.get $out))
        (local.set $t (call $next (local.get $p) (local.get $sq) (local.get $dir)))
        (local.set $guard (i32.add (local.get $guard) (i32.const 1)))
        (br_if $seg (i32.lt_u (local.get $guard) (i32.const 100)))
        (local.set $t (i32.const -1))))
    (global.set $mlo (local.get $lo))
    (global.set $mhi (local.get $hi))
    (local.get $t))
  ;; the crossed squares of the last trace
  (func (export "count") (result i32)
    (i32.wrap_i64 (i64.add (i64.popcnt (global.get $mlo)) (i64.popcnt (global.get $mhi)))))
  ;; both beams of n positions, each traced row times in a row, the whole set reps times: the checksum
  (func (export "run") (param $n i32) (param $row i32) (param $reps i32) (result i32)
    (local $r i32) (local $i i32) (local $p i32) (local $sum i32) (local $k i32) (local $j i32)
    (block $out (loop $rep
      (br_if $out (i32.ge_u (local.get $r) (local.get $reps)))
      (local.set $i (i32.const 0))
      (block $pe (loop $pos
        (br_if $pe (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $p (i32.add (i32.const ${BASE}) (i32.mul (local.get $i) (i32.const ${POS_BYTES}))))
        (local.set $j (i32.const 0))
        (block $je (loop $again
          (br_if $je (i32.ge_u (local.get $j) (local.get $row)))
          (local.set $k (call $trace (local.get $p) (i32.load offset=96 (local.get $p)) (i32.load offset=100 (local.get $p))))
          (local.set $sum (i32.add (local.get $sum) (i32.add (local.get $k) (i32.wrap_i64 (i64.add (i64.popcnt (global.get $mlo)) (i64.popcnt (global.get $mhi)))))))
          (local.set $k (call $trace (local.get $p) (i32.load offset=104 (local.get $p)) (i32.load offset=108 (local.get $p))))
          (local.set $sum (i32.add (local.get $sum) (i32.add (local.get $k) (i32.wrap_i64 (i64.add (i64.popcnt (global.get $mlo)) (i64.popcnt (global.get $mhi)))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $again)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $pos)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rep)))
    (local.get $sum)))`;

const w = await wabt();
const mod = w.parseWat('trace.wat', WAT);
mod.validate();
const { buffer } = mod.toBinary({ log: false });
mod.destroy();
const { instance } = await WebAssembly.instantiate(buffer, { env: { memory } });
const { run: wasmRun, trace: wasmTrace, count: wasmCount } = instance.exports;

function wasmCallRun(reps) {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let p = 0; p < N; p++) {
      const at = BASE + p * POS_BYTES;
      for (let k = 0; k < ROW; k++) {
        for (let c = 0; c < 2; c++) {
          const kill = wasmTrace(at, jsLaser[p * 4 + c * 2], jsLaser[p * 4 + c * 2 + 1]);
          sum = (sum + kill + wasmCount()) | 0;
        }
      }
    }
  }
  return sum;
}

const versions = {
  engine: (reps) => engineRun(reps),
  js: (reps) => jsRun(reps),
  wasm: (reps) => wasmRun(N, ROW, reps),
  'wasm-call': (reps) => wasmCallRun(reps),
};

// warm up and check that all four agree
const check = {};
for (const [name, f] of Object.entries(versions)) {
  for (let i = 0; i < 3; i++) f(2);
  check[name] = f(1);
}
const sums = new Set(Object.values(check));
if (sums.size !== 1) {
  process.stderr.write(`wasm-trace: the versions disagree: ${JSON.stringify(check)}\n`);
  process.exit(1);
}

const beams = 2 * N * opts.reps * ROW;
process.stdout.write(`${N} positions (random Khet 2.0 games), each traced ${ROW} time(s) in a row, ${opts.reps} time(s) over; ${beams} beams per round, ${opts.rounds} rounds\n`);
const times = Object.fromEntries(Object.keys(versions).map((k) => [k, []]));
for (let round = 0; round < opts.rounds; round++) {
  const names = Object.keys(versions);
  // rotate the order from round to round, so that a change in load hits each version
  for (let j = 0; j < names.length; j++) {
    const name = names[(j + round) % names.length];
    const t0 = performance.now();
    versions[name](opts.reps);
    times[name].push(performance.now() - t0);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(times.js);
for (const [name, ts] of Object.entries(times)) {
  const m = median(ts);
  process.stdout.write(`${name.padEnd(10)} median ${m.toFixed(1).padStart(8)} ms  ${((m * 1e6) / beams).toFixed(1).padStart(6)} ns/beam  ${(base / m).toFixed(2)}x js\n`);
}
