// A plain perft of Khet 2.0 (no Pharaoh rotation), written once in the subset of TypeScript that
// AssemblyScript also compiles: bench/wasm-perft.mjs bundles it as JavaScript with esbuild and
// compiles it to WebAssembly with asc, and times both. Bitboards as three 32-bit words (the
// engine's layout), typed arrays, module-level state, no objects: what V8 and asc both do well.
// The tables (rays, neighbours, reflections, reserved squares, the lasers) are filled by the
// driver from the engine's own; leaves are counted at depth 1 without making the moves.
// (`i32` is AssemblyScript's type; the TypeScript build declares it as `number`.)
//@ts-nocheck

const SQ: i32 = 80;
const STEP: i32 = 0;
const SWAP: i32 = 1;
const ROT_CW: i32 = 2;
const ROT_CCW: i32 = 3;

const board = new Uint8Array(80);
const occ = new Int32Array(9); // colour 0, colour 1, all
const rays = new Int32Array(4 * 80 * 3);
const neighbours = new Int32Array(80 * 3);
const reflect = new Int8Array(256);
const reserved = new Int32Array(6);
const laser = new Int32Array(2);
const moves = new Int32Array(16 * 256);
// per ply: the removed piece and its square (square -1: none)
const killSq = new Int32Array(16);
const killPiece = new Int32Array(16);
let side: i32 = 0;

export function setRay(i: i32, v: i32): void { rays[i] = v; }
export function setNeighbour(i: i32, v: i32): void { neighbours[i] = v; }
export function setReflect(i: i32, v: i32): void { reflect[i] = <i8>v; }
export function setReserved(i: i32, v: i32): void { reserved[i] = v; }
export function setLaser(c: i32, sq: i32): void { laser[c] = sq; }
export function setSquare(sq: i32, p: i32): void { board[sq] = <u8>p; }
export function setSide(c: i32): void { side = c; }
export function finishSetup(): void {
  for (let i: i32 = 0; i < 9; i++) occ[i] = 0;
  for (let sq: i32 = 0; sq < SQ; sq++) {
    const p: i32 = board[sq];
    if (p !== 0) {
      occ[(p >> 5) * 3 + (sq >> 5)] |= 1 << (sq & 31);
      occ[6 + (sq >> 5)] |= 1 << (sq & 31);
    }
  }
}

function put(sq: i32, p: i32): void {
  board[sq] = <u8>p;
  const w: i32 = sq >> 5;
  const bit: i32 = 1 << (sq & 31);
  occ[(p >> 5) * 3 + w] |= bit;
  occ[6 + w] |= bit;
}

function take(sq: i32): i32 {
  const p: i32 = board[sq];
  board[sq] = 0;
  const w: i32 = sq >> 5;
  const bit: i32 = ~(1 << (sq & 31));
  occ[(p >> 5) * 3 + w] &= bit;
  occ[6 + w] &= bit;
  return p;
}

function nextOccupied(sq: i32, dir: i32): i32 {
  const r: i32 = (dir * SQ + sq) * 3;
  let x: i32;
  if (dir < 2) {
    x = rays[r] & occ[6];
    if (x !== 0) return 31 - Math.clz32(x & -x);
    x = rays[r + 1] & occ[7];
    if (x !== 0) return 63 - Math.clz32(x & -x);
    x = rays[r + 2] & occ[8];
    if (x !== 0) return 95 - Math.clz32(x & -x);
    return -1;
  }
  x = rays[r + 2] & occ[8];
  if (x !== 0) return 95 - Math.clz32(x);
  x = rays[r + 1] & occ[7];
  if (x !== 0) return 63 - Math.clz32(x);
  x = rays[r] & occ[6];
  if (x !== 0) return 31 - Math.clz32(x);
  return -1;
}

/** The square the laser of `color` takes, or -1. */
function fire(color: i32): i32 {
  const sq: i32 = laser[color];
  let dir: i32 = board[sq] & 3;
  let t: i32 = nextOccupied(sq, dir);
  for (let guard: i32 = 0; t >= 0 && guard < 100; guard++) {
    const out: i32 = reflect[(board[t] << 2) | dir];
    if (out >= 4) return out === 4 ? t : -1;
    dir = out;
    t = nextOccupied(t, dir);
  }
  return -1;
}

function pushTargets(n: i32, w: i32, x: i32, base: i32): i32 {
  while (x !== 0) {
    const low: i32 = x & -x;
    x ^= low;
    const to: i32 = (w << 5) + 31 - Math.clz32(low);
    moves[n++] = base | (to << 7);
  }
  return n;
}

function generate(n: i32): i32 {
  const us: i32 = side;
  const cb: i32 = us * 3;
  const f0: i32 = ~(occ[6] | reserved[cb]);
  const f1: i32 = ~(occ[7] | reserved[cb + 1]);
  const f2: i32 = ~(occ[8] | reserved[cb + 2]);
  for (let w: i32 = 0; w < 3; w++) {
    let x: i32 = occ[cb + w];
    while (x !== 0) {
      const low: i32 = x & -x;
      x ^= low;
      const from: i32 = (w << 5) + 31 - Math.clz32(low);
      const p: i32 = board[from];
      const kind: i32 = (p >> 2) & 7;
      if (kind === 1) {
        moves[n++] = from | (from << 7) | (((p & 1) === 1 ? ROT_CW : ROT_CCW) << 14);
        continue;
      }
      const nb: i32 = from * 3;
      const base: i32 = from | (STEP << 14);
      n = pushTargets(n, 0, neighbours[nb] & f0, base);
      n = pushTargets(n, 1, neighbours[nb + 1] & f1, base);
      n = pushTargets(n, 2, neighbours[nb + 2] & f2, base);
      if (kind === 3 || kind === 4) {
        moves[n++] = from | (from << 7) | (ROT_CW << 14);
        moves[n++] = from | (from << 7) | (ROT_CCW << 14);
      } else if (kind === 5) {
        // swaps with an adjacent Pyramid or Anubis of either colour, each allowed on its new square
        for (let v: i32 = 0; v < 3; v++) {
          let y: i32 = neighbours[nb + v] & occ[6 + v] & ~reserved[cb + v];
          while (y !== 0) {
            const lo: i32 = y & -y;
            y ^= lo;
            const to: i32 = (v << 5) + 31 - Math.clz32(lo);
            const q: i32 = board[to];
            const qk: i32 = (q >> 2) & 7;
            if ((qk === 3 || qk === 4) && (reserved[(q >> 5) * 3 + (from >> 5)] & (1 << (from & 31))) === 0) {
              moves[n++] = from | (to << 7) | (SWAP << 14);
            }
          }
        }
        moves[n++] = from | (from << 7) | (ROT_CW << 14);
      }
    }
  }
  return n;
}

function turned(p: i32, type: i32): i32 {
  const kind: i32 = (p >> 2) & 7;
  const o: i32 = p & 3;
  const no: i32 = kind === 5 ? (o + 1) & 1 : type === ROT_CW ? (o + 1) & 3 : (o + 3) & 3;
  return (p & ~3) | no;
}

function unturned(p: i32, type: i32): i32 {
  return turned(p, type === ROT_CW ? ROT_CCW : ROT_CW) ;
}

/** Makes m and fires: returns 1 when the shot took a Pharaoh (the game ends). */
function make(m: i32, ply: i32): i32 {
  const from: i32 = m & 127;
  const to: i32 = (m >>> 7) & 127;
  const type: i32 = m >>> 14;
  if (type === STEP) {
    put(to, take(from));
  } else if (type === SWAP) {
    const a: i32 = take(from);
    const b: i32 = take(to);
    put(to, a);
    put(from, b);
  } else {
    put(from, turned(take(from), type));
  }
  const t: i32 = fire(side);
  killSq[ply] = t;
  side ^= 1;
  if (t < 0) return 0;
  const victim: i32 = take(t);
  killPiece[ply] = victim;
  return ((victim >> 2) & 7) === 2 ? 1 : 0;
}

function unmake(m: i32, ply: i32): void {
  side ^= 1;
  const t: i32 = killSq[ply];
  if (t >= 0) put(t, killPiece[ply]);
  const from: i32 = m & 127;
  const to: i32 = (m >>> 7) & 127;
  const type: i32 = m >>> 14;
  if (type === STEP) {
    put(from, take(to));
  } else if (type === SWAP) {
    const a: i32 = take(to);
    const b: i32 = take(from);
    put(from, a);
    put(to, b);
  } else {
    put(from, unturned(take(from), type));
  }
}

function search(depth: i32, ply: i32): f64 {
  const start: i32 = ply * 256;
  const end: i32 = generate(start);
  if (depth === 1) return <f64>(end - start);
  let nodes: f64 = 0;
  for (let i: i32 = start; i < end; i++) {
    const m: i32 = moves[i];
    if (make(m, ply) === 0) nodes += search(depth - 1, ply + 1);
    unmake(m, ply);
  }
  return nodes;
}

/** Leaves at `depth` from the position set up (a game that ends before `depth` has none). */
export function perft(depth: i32): f64 {
  return depth <= 0 ? 1 : search(depth, 0);
}

