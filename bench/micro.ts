/**
 * Micro-benchmark cases for `npm run bench` (bench/run.mjs bundles this file with esbuild and
 * runs the cases with benchmark.js). Only the rules core is imported, so the bundle has no
 * package imports and can be written anywhere (run.mjs puts it in the OS temp directory).
 *
 * Every case feeds what it computes into `sink`, a module-level variable that is read at the
 * end, so V8 cannot treat the work as dead code.
 */
import {
  MAX_MOVES,
  SETUPS,
  parseKfen,
  parseMove,
  perft,
  squareName,
  threatMap,
  toKfen,
  tracePath,
  type Position,
} from '../src/core/index';

/** The positions: the Khet 2.0 Classic start and two middle games reached by fixed move lists. */
export const POSITIONS: ReadonlyArray<{ name: string; moves: string }> = [
  { name: 'classic', moves: '' },
  {
    // 20 plies, one piece removed: a crowded middle game with many moves.
    name: 'mid20',
    moves: 'j5+ e8+ f1- h5g5 e4d3 g3f2 j4- g8+ e1e2 f5e4 d1+ f2e3 d1c2 e8f7 d3c2 e5+ f1f2 h4+ d3c3 e5d4',
  },
  {
    // 36 plies, three pieces removed: longer beams through an opened-up board.
    name: 'mid36',
    moves:
      'd1d2 f5e6 f1g1 c7- e4d5 c7c6 d2c2 c6c7 c2b1 h8h7 c5b5 c7c6 f4e4 h5h6 e1d2 h4h5 d2c2 h5i6 j1- e6f6 ' +
      'j1+ e8d8 h2+ g3- d5c6 h6- c2b3 a5- b3b4 g8- d6e7 a8- c1d2 f8f7 c6d6 h7g7',
  },
];

export type Group = 'laser' | 'generate' | 'make/unmake' | 'countMoves' | 'threats';
export const GROUPS: readonly Group[] = ['laser', 'generate', 'make/unmake', 'countMoves', 'threats'];

export interface PositionInfo {
  name: string;
  plies: number;
  kfen: string;
  legalMoves: number;
  /** Each side's beam now: pieces it strikes and how it ends (the work laserTarget does). */
  beams: [string, string];
}

export interface MicroCase {
  group: Group;
  position: string;
  /** What one operation is, for the report. */
  op: string;
  /** Moves handled per operation (legal moves for generate and make/unmake, else 0). */
  movesPerOp: number;
  fn: () => void;
}

let sink = 0;

/** The accumulated result of every case; run.mjs prints it so the work stays observable. */
export function readSink(): number {
  return sink;
}

function reach(moves: string): Position {
  const r = parseKfen(SETUPS.khet2.classic!, 'khet2');
  if (!r.ok) throw new Error(`bench: the Classic KFEN does not parse: ${r.error.message}`);
  const pos = r.value;
  for (const text of moves.split(' ').filter((t) => t !== '')) {
    const m = parseMove(pos, text);
    if (!m.ok) throw new Error(`bench: move ${text} of the fixed sequence is rejected: ${m.error.message}`);
    pos.make(m.value);
    if (pos.winner >= 0) throw new Error(`bench: the fixed sequence ends the game at ${text}`);
  }
  return pos;
}

/** A beam in words, e.g. `4 pieces, off board` (traced square by square: not the hot path). */
function beam(pos: Position, color: number): string {
  const ed = pos.edition;
  const sq = ed.laserSquare[color];
  const path = ed.sphinx
    ? tracePath(pos.board, sq, pos.board[sq] & 3, false)
    : tracePath(pos.board, sq, ed.laserDir[color], true);
  const struck = path.steps.filter((st) => st.piece !== 0 && st.square !== (ed.sphinx ? sq : -1)).length;
  const end = path.killed >= 0 ? `kills ${squareName(path.killed)}` : path.offBoard ? 'off board' : 'blocked';
  if ((path.killed >= 0 ? path.killed : -1) !== pos.laserTarget(color)) {
    throw new Error(`bench: laserTarget(${color}) disagrees with tracePath`);
  }
  return `${struck} piece${struck === 1 ? '' : 's'}, ${end}`;
}

/** Checks the engine against the rulebook before timing it: perft(3) of Classic is 451,859. */
export function selfCheck(): void {
  const pos = reach('');
  const n = perft(pos, 3);
  if (n !== 451_859) throw new Error(`bench: perft(3) of Classic is ${n}, expected 451859`);
}

export function buildCases(): { positions: PositionInfo[]; cases: MicroCase[]; verify: () => void } {
  const positions: PositionInfo[] = [];
  const cases: MicroCase[] = [];
  const checks: Array<() => void> = [];
  for (const { name, moves } of POSITIONS) {
    const pos = reach(moves);
    const buf = new Int32Array(MAX_MOVES);
    const n = pos.generate(buf, 0);
    if (n !== pos.countMoves())
      throw new Error(`bench: ${name}: generate gives ${n} moves, countMoves ${pos.countMoves()}`);
    const legal = buf.slice(0, n);
    const plies = pos.ply;
    const keyLo = pos.keyLo;
    const keyHi = pos.keyHi;
    const kfen = toKfen(pos);
    positions.push({ name, plies, kfen, legalMoves: n, beams: [beam(pos, 0), beam(pos, 1)] });
    // After the benchmarks every position must be exactly as it was (make/unmake restores it).
    checks.push(() => {
      if (pos.ply !== plies || pos.keyLo !== keyLo || pos.keyHi !== keyHi || toKfen(pos) !== kfen) {
        throw new Error(`bench: ${name} changed during the benchmarks (make/unmake did not restore it)`);
      }
    });

    cases.push({
      group: 'laser',
      position: name,
      op: 'laserTarget(0) + laserTarget(1)',
      movesPerOp: 0,
      fn: () => {
        sink = (sink + pos.laserTarget(0) + pos.laserTarget(1)) | 0;
      },
    });
    const out = new Int32Array(MAX_MOVES);
    cases.push({
      group: 'generate',
      position: name,
      op: `generate (${n} moves) into a preallocated Int32Array`,
      movesPerOp: n,
      fn: () => {
        const k = pos.generate(out, 0);
        sink = (sink + k + out[k - 1]) | 0;
      },
    });
    cases.push({
      group: 'make/unmake',
      position: name,
      op: `make + unmake of each of the ${n} legal moves`,
      movesPerOp: n,
      fn: () => {
        let s = sink;
        for (let i = 0; i < legal.length; i++) {
          s = (s + pos.make(legal[i])) | 0;
          pos.unmake();
        }
        sink = s;
      },
    });
    cases.push({
      group: 'countMoves',
      position: name,
      op: 'countMoves',
      movesPerOp: 0,
      fn: () => {
        sink = (sink + pos.countMoves()) | 0;
      },
    });
    cases.push({
      group: 'threats',
      position: name,
      op: 'threatMap of both beams (the danger map the GUI redraws after each move)',
      movesPerOp: 0,
      fn: () => {
        sink = (sink + threatMap(pos, 0).shots.length + threatMap(pos, 1).shots.length) | 0;
      },
    });
  }
  return {
    positions,
    cases,
    verify: () => {
      for (const c of checks) c();
    },
  };
}
