// perft-kernel.ts with 64-bit bitboard words, for AssemblyScript only (JavaScript has no fast
// 64-bit integers): squares 0–63 in one u64 and 64–79 in another. bench/wasm-perft.mjs times it
// beside the 32-bit kernel built both ways. The same rules, the same setters (the driver hands
// over the engine's tables as three 32-bit words per bitboard) and the same counts.
//@ts-nocheck

const SQ: i32 = 80;
const STEP: i32 = 0;
const SWAP: i32 = 1;
const ROT_CW: i32 = 2;
const ROT_CCW: i32 = 3;

const board = new StaticArray<u8>(80);
const occ = new StaticArray<u64>(6); // colour 0 (lo, hi), colour 1, all
const rays = new StaticArray<u64>(4 * 80 * 2);
const neighbours = new StaticArray<u64>(80 * 2);
const reflect = new StaticArray<i8>(256);
const reserved = new StaticArray<u64>(4);
const laser = new StaticArray<i32>(2);
const moves = new StaticArray<i32>(16 * 256);
const killSq = new StaticArray<i32>(16);
const killPiece = new StaticArray<i32>(16);
let side: i32 = 0;

/** Word `i` of a table in three 32-bit words per bitboard, into the two 64-bit words at `t`. */
function setWord(t: StaticArray<u64>, i: i32, v: i32): void {
  const e: i32 = i / 3;
  const w: i32 = i % 3;
  const u: u64 = <u64>(<u32>v);
  if (w === 0) t[e * 2] = (t[e * 2] & 0xffffffff00000000) | u;
  else if (w === 1) t[e * 2] = (t[e * 2] & 0xffffffff) | (u << 32);
  else t[e * 2 + 1] = u;
}

export function setRay(i: i32, v: i32): void { setWord(rays, i, v); }
export function setNeighbour(i: i32, v: i32): void { setWord(neighbours, i, v); }
export function setReflect(i: i32, v: i32): void { reflect[i] = <i8>v; }
export function setReserved(i: i32, v: i32): void { setWord(reserved, i, v); }
export function setLaser(c: i32, sq: i32): void { laser[c] = sq; }
export function setSquare(sq: i32, p: i32): void { board[sq] = <u8>p; }
export function setSide(c: i32): void { side = c; }
export function finishSetup(): void {
  for (let i: i32 = 0; i < 6; i++) occ[i] = 0;
  for (let sq: i32 = 0; sq < SQ; sq++) {
    const p: i32 = board[sq];
    if (p !== 0) {
      const w: i32 = sq >= 64 ? 1 : 0;
      const bit: u64 = (<u64>1) << <u64>(sq & 63);
      occ[(p >> 5) * 2 + w] |= bit;
      occ[4 + w] |= bit;
    }
  }
}

@inline function put(sq: i32, p: i32): void {
  board[sq] = <u8>p;
  const w: i32 = sq >= 64 ? 1 : 0;
  const bit: u64 = (<u64>1) << <u64>(sq & 63);
  occ[(p >> 5) * 2 + w] |= bit;
  occ[4 + w] |= bit;
}

@inline function take(sq: i32): i32 {
  const p: i32 = board[sq];
  board[sq] = 0;
  const w: i32 = sq >= 64 ? 1 : 0;
  const bit: u64 = ~((<u64>1) << <u64>(sq & 63));
  occ[(p >> 5) * 2 + w] &= bit;
  occ[4 + w] &= bit;
  return p;
}

function nextOccupied(sq: i32, dir: i32): i32 {
  const r: i32 = (dir * SQ + sq) * 2;
  let x: u64;
  if (dir < 2) {
    x = rays[r] & occ[4];
    if (x !== 0) return <i32>ctz<u64>(x);
    x = rays[r + 1] & occ[5];
    if (x !== 0) return 64 + <i32>ctz<u64>(x);
    return -1;
  }
  x = rays[r + 1] & occ[5];
  if (x !== 0) return 127 - <i32>clz<u64>(x);
  x = rays[r] & occ[4];
  if (x !== 0) return 63 - <i32>clz<u64>(x);
  return -1;
}

function fire(color: i32): i32 {
  const sq: i32 = laser[color];
  let dir: i32 = board[sq] & 3;
  let t: i32 = nextOccupied(sq, dir);
  for (let guard: i32 = 0; t >= 0 && guard < 100; guard++) {
    const out: i32 = reflect[(<i32>board[t] << 2) | dir];
    if (out >= 4) return out === 4 ? t : -1;
    dir = out;
    t = nextOccupied(t, dir);
  }
  return -1;
}

@inline function pushTargets(n: i32, w: i32, x: u64, base: i32): i32 {
  while (x !== 0) {
    const to: i32 = (w << 6) + <i32>ctz<u64>(x);
    x &= x - 1;
    moves[n++] = base | (to << 7);
  }
  return n;
}

function generate(n: i32): i32 {
  const us: i32 = side;
  const cb: i32 = us * 2;
  const f0: u64 = ~(occ[4] | reserved[cb]);
  const f1: u64 = ~(occ[5] | reserved[cb + 1]);
  for (let w: i32 = 0; w < 2; w++) {
    let x: u64 = occ[cb + w];
    while (x !== 0) {
      const from: i32 = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      const p: i32 = board[from];
      const kind: i32 = (p >> 2) & 7;
      if (kind === 1) {
        moves[n++] = from | (from << 7) | (((p & 1) === 1 ? ROT_CW : ROT_CCW) << 14);
        continue;
      }
      const nb: i32 = from * 2;
      const base: i32 = from | (STEP << 14);
      n = pushTargets(n, 0, neighbours[nb] & f0, base);
      n = pushTargets(n, 1, neighbours[nb + 1] & f1, base);
      if (kind === 3 || kind === 4) {
        moves[n++] = from | (from << 7) | (ROT_CW << 14);
        moves[n++] = from | (from << 7) | (ROT_CCW << 14);
      } else if (kind === 5) {
        for (let v: i32 = 0; v < 2; v++) {
          let y: u64 = neighbours[nb + v] & occ[4 + v] & ~reserved[cb + v];
          while (y !== 0) {
            const to: i32 = (v << 6) + <i32>ctz<u64>(y);
            y &= y - 1;
            const q: i32 = board[to];
            const qk: i32 = (q >> 2) & 7;
            if ((qk === 3 || qk === 4) && (reserved[(q >> 5) * 2 + (from >= 64 ? 1 : 0)] & ((<u64>1) << <u64>(from & 63))) === 0) {
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

@inline function turned(p: i32, type: i32): i32 {
  const kind: i32 = (p >> 2) & 7;
  const o: i32 = p & 3;
  const no: i32 = kind === 5 ? (o + 1) & 1 : type === ROT_CW ? (o + 1) & 3 : (o + 3) & 3;
  return (p & ~3) | no;
}

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
    put(from, turned(take(from), type === ROT_CW ? ROT_CCW : ROT_CW));
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

export function perft(depth: i32): f64 {
  return depth <= 0 ? 1 : search(depth, 0);
}
