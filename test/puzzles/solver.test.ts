/**
 * The solver against a naive search (every move made, no ordering, no table) on positions of
 * shipped puzzles and of a random game: the same answer to "a hit in at most n moves?" for n =
 * 1 and 2, and the same set of first moves that win.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Position, legalMoves, mulberry32, parseKfen, parseMove } from '../../src/core/index';
import { parsePuzzleFile } from '../../src/puzzles/format';
import { Solver } from '../../src/puzzles/solver';

/** Whether the side to move forces a hit within n moves, by brute force. */
function naiveWin(pos: Position, n: number): boolean {
  const us = pos.side;
  for (const m of legalMoves(pos)) {
    pos.make(m);
    let won = pos.winner === us;
    if (pos.winner < 0 && n > 1) {
      won = true;
      for (const r of legalMoves(pos)) {
        pos.make(r);
        const ok = pos.winner >= 0 ? pos.winner === us : naiveWin(pos, n - 1);
        pos.unmake();
        if (!ok) {
          won = false;
          break;
        }
      }
    }
    pos.unmake();
    if (won) return true;
  }
  return false;
}

function naiveWinningMoves(pos: Position, n: number): number[] {
  const us = pos.side;
  return legalMoves(pos).filter((m) => {
    pos.make(m);
    let won = pos.winner === us;
    if (pos.winner < 0 && n > 1) {
      won = legalMoves(pos).every((r) => {
        pos.make(r);
        const ok = pos.winner >= 0 ? pos.winner === us : naiveWin(pos, n - 1);
        pos.unmake();
        return ok;
      });
    }
    pos.unmake();
    return won;
  });
}

function afterFirst(p: { kfen: string; variant: 'khet2' | 'khet1' | 'deflexion'; moves: string[] }): Position {
  const r = parseKfen(p.kfen, p.variant);
  if (!r.ok) throw new Error(r.error.message);
  const m = parseMove(r.value, p.moves[0]);
  if (!m.ok) throw new Error(m.error.message);
  r.value.make(m.value);
  return r.value;
}

describe('solver', () => {
  it('agrees with a naive search on hit-in-1 and hit-in-2 positions and on a random game', () => {
    const file = parsePuzzleFile(readFileSync(new URL('../../puzzles/puzzles.json', import.meta.url), 'utf8'));
    if (!file.ok) throw new Error(file.error);
    const positions: Position[] = [];
    for (const theme of ['hitIn1', 'hitIn2', 'defence']) {
      for (const p of file.value.filter((q) => q.themes.includes(theme)).slice(0, 2)) positions.push(afterFirst(p));
    }
    // a random game's positions, every 6th ply
    const rng = mulberry32(7);
    const pos = new Position('khet2');
    const start = parseKfen(
      'xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1',
      'khet2',
    );
    if (!start.ok) throw new Error('setup');
    pos.copyFrom(start.value);
    for (let ply = 0; ply < 36 && pos.winner < 0; ply++) {
      if (ply % 6 === 5) positions.push(pos.clone());
      const ms = legalMoves(pos);
      pos.make(ms[(rng() >>> 0) % ms.length]);
    }
    expect(positions.length).toBeGreaterThanOrEqual(8);
    const solver = new Solver();
    let wins = 0;
    for (const p of positions) {
      for (const n of [1, 2]) {
        solver.clear();
        const want = naiveWin(p, n);
        expect(solver.winIn(p, n)).toBe(want);
        if (want) wins++;
      }
      solver.clear();
      expect(solver.winningMoves(p, 2)?.sort()).toEqual(naiveWinningMoves(p, 2).sort());
    }
    expect(wins).toBeGreaterThanOrEqual(3);
  });
});
