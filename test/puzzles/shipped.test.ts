/**
 * The shipped puzzle set (puzzles/puzzles.json), verified: the file follows the schema (every
 * move legal from the KFEN); each hit puzzle ends with the Pharaoh hit, and by the solver no
 * other first move hits as fast and each solver move before the last is the only one that keeps
 * the hit as fast; defence and material puzzles pass the rules of src/puzzles/verify.ts (a
 * defence saves the game, a material move is the clear best at every step; docs/puzzles.md,
 * "Verification"); each material puzzle's last move removes an enemy piece and leaves the side at
 * least a piece better off than at the start. A sample is solved again by
 * a fresh engine search, deeper than the miner's, which must agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKfen, parseMove, type Position } from '../../src/core/index';
import { parsePuzzleFile, type Puzzle } from '../../src/puzzles/format';
import { materialBalance } from '../../src/puzzles/miner';
import { Solver } from '../../src/puzzles/solver';
import { DEFAULT_LIMITS, Searcher } from '../../src/search/search';
import { scoreOf } from '../../src/core/score';
import { TranspositionTable } from '../../src/search/tt';
import { PuzzleVerifier } from '../../src/puzzles/verify';
import { readNetwork, type Network } from '../../src/nnue/network';
import { stretched } from '../slowness';

/** The shipped network, as Thoth plays. */
function network(): Network {
  const r = readNetwork(new Uint8Array(readFileSync(new URL('../../nets/default.nnue', import.meta.url))));
  if (!r.ok) throw new Error('nets/default.nnue does not load');
  return r.value;
}

const text = readFileSync(new URL('../../puzzles/puzzles.json', import.meta.url), 'utf8');
const parsed = parsePuzzleFile(text);
const puzzles: Puzzle[] = parsed.ok ? parsed.value : [];

/** The position after the opponent's move, and the solution as move numbers. */
function setUp(p: Puzzle): { pos: Position; line: number[] } {
  const r = parseKfen(p.kfen, p.variant);
  if (!r.ok) throw new Error(r.error.message);
  const pos = r.value;
  const moves = p.moves.map((t) => {
    const m = parseMove(pos, t);
    if (!m.ok) throw new Error(`${p.id}: ${m.error.message}`);
    pos.make(m.value);
    return m.value;
  });
  for (let k = 1; k < moves.length; k++) pos.unmake();
  return { pos, line: moves.slice(1) };
}

const hitN = (p: Puzzle): number => Number(p.themes.find((t) => t.startsWith('hitIn'))?.slice(5) ?? 0);

describe('the shipped puzzles', () => {
  it('follow the schema, with at least 1,000 puzzles (600 of Khet 2.0), unique ids', () => {
    expect(parsed.ok ? '' : parsed.error).toBe('');
    expect(puzzles.length).toBeGreaterThanOrEqual(1000);
    expect(puzzles.filter((p) => p.variant === 'khet2').length).toBeGreaterThanOrEqual(600);
    expect(new Set(puzzles.map((p) => p.id)).size).toBe(puzzles.length);
    for (const e of ['khet1', 'deflexion']) expect(puzzles.some((p) => p.variant === e)).toBe(true);
  });

  it(
    'hit puzzles: the line ends with the Pharaoh hit; no other move is as fast at any point',
    () => {
      const solver = new Solver();
      let n = 0;
      for (const p of puzzles) {
        const moves = hitN(p);
        if (moves === 0) continue;
        n++;
        const { pos, line } = setUp(p);
        const side = pos.side;
        expect(line.length, p.id).toBe(2 * moves - 1);
        for (let k = 0; k < line.length; k++) {
          if (k % 2 === 0) {
            const left = moves - k / 2;
            solver.clear();
            const wins = left === 1 ? undefined : solver.winningMoves(pos, left);
            if (left === 1) {
              // the last move: it hits (any hitting move is accepted, so it need not be the only one)
              pos.make(line[k]);
              expect(pos.winner, p.id).toBe(side);
              break;
            }
            expect(wins, `${p.id} at ${k}`).toEqual([line[k]]);
          }
          pos.make(line[k]);
          expect(pos.winner, `${p.id} at ${k}`).toBe(-1);
        }
        if (moves === 1) {
          const { pos: again } = setUp(p);
          const hits = new Int32Array(256);
          expect(solver.hits(again, hits), p.id).toBe(1);
          expect(hits[0], p.id).toBe(line[0]);
        }
      }
      expect(n).toBeGreaterThan(0);
    },
    stretched(600_000),
  );

  it(
    'defence and material puzzles pass the rules, with the shipped network at depth 7',
    () => {
      // src/puzzles/verify.ts: a defence saves the game (no forced hit within 3 after it, the
      // defender not worse than −2.5 Pyramids); a material move is the best by a Pyramid at every
      // step, with no forced hit; every puzzle starts within 4 Pyramids of even material
      const v = new PuzzleVerifier(network());
      const failed: string[] = [];
      let n = 0;
      for (const p of puzzles) {
        if (p.themes.includes('defence') || p.themes.includes('material')) n++;
        const why = v.check(p);
        if (why !== null) failed.push(`${p.id}: ${why}`);
      }
      expect(failed).toEqual([]);
      expect(n).toBeGreaterThan(0);
    },
    stretched(600_000),
  );

  it(
    'the rules reject puzzles a player found wanting (2026-12-04)',
    () => {
      // defences that still lose to a forced hit or stay lost; material puzzles with a forced hit,
      // an equal alternative or a better move
      const rejected = parsePuzzleFile(readFileSync(new URL('./rejected.json', import.meta.url), 'utf8'));
      expect(rejected.ok ? '' : rejected.error).toBe('');
      const list = rejected.ok ? rejected.value : [];
      expect(list.map((p) => p.id).sort()).toEqual([
        '311819ab56',
        '39d1fe6646',
        '3afcac4b73',
        '5705d407e0',
        '9875d493e6',
        '9c2d10de25',
        'afbfe8505e',
        'eb9e76369c',
      ]);
      const v = new PuzzleVerifier(network());
      for (const p of list) {
        expect(v.check(p), p.id).not.toBeNull();
        expect(
          puzzles.some((q) => q.id === p.id),
          p.id,
        ).toBe(false);
      }
    },
    stretched(120_000),
  );

  it('material puzzles: the last move removes an enemy piece, and the side is a piece up', () => {
    let n = 0;
    for (const p of puzzles.filter((q) => q.themes.includes('material'))) {
      n++;
      const { pos, line } = setUp(p);
      const us = pos.side;
      expect(line.length % 2, p.id).toBe(1);
      const before = materialBalance(pos, us);
      let killed = -1;
      for (const m of line) killed = pos.make(m);
      expect(pos.winner, p.id).toBe(-1);
      expect(killed, p.id).toBeGreaterThanOrEqual(0);
      expect(pos.killedPieceAt(pos.ply - 1) >> 5, p.id).toBe(us ^ 1);
      expect(materialBalance(pos, us) - before, p.id).toBeGreaterThanOrEqual(90);
    }
    expect(n).toBeGreaterThan(0);
  });

  it(
    'a sample solved again by a deeper engine search agrees',
    () => {
      const searcher = new Searcher(new TranspositionTable(16));
      const sample = [
        ...puzzles.filter((p) => hitN(p) === 2).slice(0, 2),
        ...puzzles.filter((p) => hitN(p) === 3).slice(0, 2),
        ...puzzles.filter((p) => p.themes.includes('defence')).slice(0, 2),
        ...puzzles.filter((p) => p.themes.includes('material')).slice(0, 2),
      ];
      expect(sample.length).toBe(8);
      for (const p of sample) {
        const { pos, line } = setUp(p);
        const n = hitN(p);
        searcher.tt.clear();
        searcher.clearHistory();
        const material = p.themes.includes('material');
        const r = searcher.run(pos, { ...DEFAULT_LIMITS, depth: n > 0 ? 2 * n + 2 : 6, multiPV: 2 });
        if (material) {
          // the miner searched to depth 4: deeper, the same move is still the clear best
          expect(r.lines[0].move, p.id).toBe(line[0]);
          expect(r.lines[0].score - r.lines[1].score, p.id).toBeGreaterThan(50);
        } else if (n > 0) {
          expect(r.lines[0].move, p.id).toBe(line[0]);
          expect(scoreOf(r.lines[0].score), p.id).toEqual({ kind: 'mate', value: n });
          const second = scoreOf(r.lines[1].score);
          expect(second.kind === 'cp' || second.value > n, p.id).toBe(true);
        } else {
          // the defence: the engine's best move is the saving one, and every other loses at once
          expect(r.lines[0].move, p.id).toBe(line[0]);
          expect(scoreOf(r.lines[1].score), p.id).toEqual({ kind: 'mate', value: -1 });
        }
      }
    },
    stretched(300_000),
  );
});
