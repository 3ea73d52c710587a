/**
 * The search's helpers in Position: shotAfter (a move's shot without making it), beamMask (the
 * squares a beam crosses), generateTouching (the moves that can change a shot), and the incrementally kept piece counts and Pharaoh squares.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_MOVES,
  PHARAOH,
  SETUPS,
  kindOf,
  mulberry32,
  parseKfen,
  tracePath,
  type EditionId,
  type Position,
} from '../../src/core/index';

function recount(pos: Position): { counts: number[]; pharaohs: number[] } {
  const counts = new Array<number>(16).fill(0);
  const pharaohs = [-1, -1];
  for (let sq = 0; sq < 80; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    counts[(p >> 5) * 8 + kindOf(p)]++;
    if (kindOf(p) === PHARAOH) pharaohs[p >> 5] = sq;
  }
  return { counts, pharaohs };
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function inMask(mask: Int32Array, sq: number): boolean {
  return (mask[sq >> 5] & (1 << (sq & 31))) !== 0;
}

const CASES: [EditionId, string][] = [];
for (const ed of Object.keys(SETUPS) as EditionId[]) for (const name of Object.keys(SETUPS[ed])) CASES.push([ed, name]);

describe.each(CASES)('%s %s: incremental helpers over random games', (edition, setup) => {
  it('shotAfter equals make; counts, Pharaoh squares and beam masks stay exact', () => {
    const rand = mulberry32(edition.length * 131 + setup.length);
    const buf = new Int32Array(MAX_MOVES);
    const mask = new Int32Array(3);
    let checked = 0;
    const failures: string[] = [];
    let kills = 0;
    for (let game = 0; game < 4; game++) {
      const r = parseKfen(SETUPS[edition][setup as 'classic']!, edition);
      if (!r.ok) throw new Error(r.error.message);
      const pos = r.value;
      for (let ply = 0; ply < 80 && pos.winner < 0; ply++) {
        const n = pos.generate(buf, 0);
        const boardBefore = pos.board.slice();
        const bbBefore = pos.bb.slice();
        for (let i = 0; i < n; i++) {
          const m = buf[i];
          const t = pos.shotAfter(m);
          const piece = pos.probePiece;
          if (!same(pos.board, boardBefore) || !same(pos.bb, bbBefore))
            failures.push(`shotAfter changed the position (move ${m})`);
          const killed = pos.make(m);
          if (t !== killed) failures.push(`shotAfter ${t} but make ${killed} (move ${m})`);
          if (piece !== (killed >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0))
            failures.push(`probePiece wrong (move ${m})`);
          if (killed >= 0) kills++;
          const rc = recount(pos);
          if (!same(pos.counts, rc.counts)) failures.push(`counts wrong after move ${m}`);
          if (!same(pos.pharaohSq, rc.pharaohs)) failures.push(`pharaohSq wrong after move ${m}`);
          pos.unmake();
          checked++;
        }
        // generateTouching = the moves of generate() with from or to on the mask, in generate's
        // order (one generator: the search's move order must not depend on which one it asked);
        // with every square on the mask, exactly generate()
        {
          pos.beamMask(pos.side, mask, 0);
          const touching = new Int32Array(MAX_MOVES);
          const k = pos.generateTouching(touching, 0, mask, 0);
          const want: number[] = [];
          for (let i = 0; i < n; i++) {
            const m = buf[i];
            if (inMask(mask, m & 127) || inMask(mask, (m >>> 7) & 127)) want.push(m);
          }
          if (!same(Array.from(touching.subarray(0, k)), want)) failures.push(`generateTouching differs at ply ${ply}`);
          const all = pos.generateTouching(touching, 0, Int32Array.of(0, -1, -1, 0xffff), 1);
          if (!same(Array.from(touching.subarray(0, all)), Array.from(buf.subarray(0, n)))) {
            failures.push(`generateTouching with every square differs from generate at ply ${ply}`);
          }
        }
        // beam masks: the kill square equals the laser's, and the path squares are in the mask
        for (const color of [0, 1]) {
          const kill = pos.beamMask(color, mask, 0);
          expect(kill).toBe(pos.laserTarget(color));
          const sq = pos.edition.laserSquare[color];
          const dir = pos.edition.sphinx ? pos.board[sq] & 3 : pos.edition.laserDir[color];
          const path = tracePath(pos.board, sq, dir, !pos.edition.sphinx);
          for (const s of path.steps) expect(inMask(mask, s.square)).toBe(true);
          let popcount = 0;
          for (let q = 0; q < 80; q++) if (inMask(mask, q)) popcount++;
          expect(popcount).toBe(new Set([sq, ...path.steps.map((s) => s.square)]).size);
        }
        pos.make(buf[(rand() >>> 0) % n]);
        const rc = recount(pos);
        expect(Array.from(pos.counts)).toEqual(rc.counts);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
    expect(kills).toBeGreaterThan(0);
  });
});
