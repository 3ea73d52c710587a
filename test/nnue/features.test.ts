import { describe, expect, it } from 'vitest';
import {
  MAX_MOVES,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SQUARES,
  STACK,
  kindOf,
  mirrorPosition,
  tracePath,
  type Position,
} from '../../src/core/index';
import {
  BEAM_SQUARE_BASE,
  BEAM_TARGET_BASE,
  EDITION_BASE,
  EXCLUSIVE_GROUP,
  FLIP,
  MAX_ACTIVE,
  NUM_FEATURES,
  activeFeatures,
  pieceDelta,
  pieceFeature,
} from '../../src/nnue/features';
import { ALL_SETUPS, load, sq } from '../core/helpers';
import { randomPositions, start } from './helpers';

const buf = new Int32Array(MAX_ACTIVE);

function features(pos: Position, perspective: number): number[] {
  const n = activeFeatures(pos, perspective, buf);
  return Array.from(buf.subarray(0, n)).sort((a, b) => a - b);
}

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

describe('NNUE features', () => {
  it('has the sizes of the spec', () => {
    expect([BEAM_SQUARE_BASE, BEAM_TARGET_BASE, EDITION_BASE, NUM_FEATURES]).toEqual([2720, 2880, 2948, 2951]);
  });

  it('gives both perspectives of every start position the same features (the setups are point-symmetric)', () => {
    for (const { edition, setup } of ALL_SETUPS) {
      const pos = start(edition, setup);
      expect(features(pos, 1), `${edition} ${setup}`).toEqual(features(pos, 0));
    }
  });

  it('spells out the Khet 2.0 Sphinxes and beams as the spec says', () => {
    const pos = start('khet2', 'classic');
    // Silver's Sphinx on j1 facing N: own, state 0, square 9; Red sees it as the enemy's, turned.
    expect(pieceFeature(pos.board[sq('j1')], sq('j1'), 0)).toBe(9);
    expect(pieceFeature(pos.board[sq('j1')], sq('j1'), 1)).toBe((17 + 2) * 80 + 70);
    expect(pieceFeature(pos.board[sq('a8')], sq('a8'), 1)).toBe(9);
    const f = features(pos, 0);
    expect(f).toContain(EDITION_BASE + 0);
    expect(f).toContain(BEAM_SQUARE_BASE + sq('j1'));
    expect(f).toContain(BEAM_SQUARE_BASE + 80 + sq('a8'));
  });

  it('agrees with the path tracer on beam squares and targets, in every edition', () => {
    for (const pos of randomPositions(12, 5)) {
      for (let persp = 0; persp < 2; persp++) {
        const want: number[] = [];
        for (let s = 0; s < SQUARES; s++) if (pos.board[s] !== 0) want.push(pieceFeature(pos.board[s], s, persp));
        for (let color = 0; color < 2; color++) {
          const laser = pos.edition.laserSquare[color];
          const dir = pos.edition.sphinx ? pos.board[laser] & 3 : pos.edition.laserDir[color];
          const path = tracePath(pos.board, laser, dir, !pos.edition.sphinx);
          const squares = new Set(path.steps.map((st) => st.square));
          for (const s of squares) want.push(2720 + (color ^ persp) * 80 + (persp === 1 ? 79 - s : s));
          if (path.killed >= 0) {
            const v = pos.board[path.killed];
            // the victim's state, turned for perspective 1, read off its own piece feature
            const state = Math.floor(pieceFeature(v, path.killed, persp) / 80) % 17;
            want.push(2880 + (color ^ persp) * 34 + ((v >> 5) ^ persp) * 17 + state);
          }
        }
        want.push(2948 + ['khet2', 'khet1', 'deflexion'].indexOf(pos.edition.id));
        expect(features(pos, persp)).toEqual(sorted(want));
      }
    }
  });

  it('gives a position and its mirror (colours swapped) swapped perspectives; FLIP maps one onto the other', () => {
    for (const pos of randomPositions(10, 7)) {
      const m = mirrorPosition(pos);
      expect(features(m, 1)).toEqual(features(pos, 0));
      expect(features(m, 0)).toEqual(features(pos, 1));
      expect(sorted(features(pos, 0).map((f) => FLIP[f]))).toEqual(features(pos, 1));
    }
  });

  it('keeps indices in range and distinct, with each group where it belongs', () => {
    let stacks = 0;
    let targets = 0;
    for (const pos of randomPositions(15, 11)) {
      for (let persp = 0; persp < 2; persp++) {
        const f = features(pos, persp);
        expect(new Set(f).size).toBe(f.length);
        expect(f.length).toBeLessThanOrEqual(MAX_ACTIVE);
        expect(f[0]).toBeGreaterThanOrEqual(0);
        expect(f[f.length - 1]).toBeLessThan(NUM_FEATURES);
        const pieces = f.filter((x) => x < BEAM_SQUARE_BASE);
        expect(pieces.length).toBe(Array.from(pos.board).filter((p) => p !== 0).length);
        expect(f.filter((x) => x >= EDITION_BASE)).toHaveLength(1);
        targets += f.filter((x) => x >= BEAM_TARGET_BASE && x < EDITION_BASE).length;
        // at most one feature of each exclusive group (the int16 kernels' bound rests on it)
        expect(new Set(f.map((x) => EXCLUSIVE_GROUP[x])).size).toBe(f.length);
      }
      if (Array.from(pos.board).some((p) => kindOf(p) === STACK)) stacks++;
    }
    expect(stacks).toBeGreaterThan(0);
    expect(targets).toBeGreaterThan(0);
    // every piece state of every colour maps into its own block
    const seen = new Set<number>();
    for (let code = 0; code < 64; code++) {
      const kind = kindOf(code);
      if (kind === 0 || ((kind === PHARAOH || kind >= 6) && (code & 3) !== 0) || (kind === SCARAB && (code & 3) > 1))
        continue;
      seen.add(Math.floor(pieceFeature(code, 0, 0) / 80));
    }
    expect(seen.size).toBe(34);
    // the groups: MAX_ACTIVE of them, a square's 34 piece states in one, the two beams' targets apart
    expect(new Set(EXCLUSIVE_GROUP).size).toBe(MAX_ACTIVE);
    expect(Math.max(...EXCLUSIVE_GROUP)).toBe(MAX_ACTIVE - 1);
    const group = (f: number): number => EXCLUSIVE_GROUP[f];
    expect(group(pieceFeature(PHARAOH << 2, 5, 0))).toBe(group(pieceFeature((1 << 5) | (PYRAMID << 2) | 3, 5, 0))); // two pieces on one square
    expect(group(pieceFeature(PHARAOH << 2, 5, 0))).not.toBe(group(pieceFeature(PHARAOH << 2, 6, 0)));
    expect(group(BEAM_TARGET_BASE)).toBe(group(BEAM_TARGET_BASE + 33));
    expect(group(BEAM_TARGET_BASE + 34)).not.toBe(group(BEAM_TARGET_BASE + 33));
  });

  it('gives the piece changes of a move: the features before, minus what left, plus what came, are the features after', () => {
    const moves = new Int32Array(MAX_MOVES);
    const delta = new Int32Array(2);
    for (const pos of randomPositions(4, 13)) {
      const n = pos.generate(moves, 0);
      for (let i = 0; i < n; i += 3) {
        const before = Array.from(pos.board);
        pos.make(moves[i]);
        for (let persp = 0; persp < 2; persp++) {
          const set = new Set(features(pos.clone(), persp).filter((x) => x < BEAM_SQUARE_BASE));
          const inc = new Set<number>();
          for (let s = 0; s < SQUARES; s++) if (before[s] !== 0) inc.add(pieceFeature(before[s], s, persp));
          for (let s = 0; s < SQUARES; s++) {
            if (before[s] === pos.board[s]) continue;
            if (before[s] !== 0) {
              pieceDelta(before[s], s, delta, 0);
              inc.delete(delta[persp]);
            }
            if (pos.board[s] !== 0) {
              pieceDelta(pos.board[s], s, delta, 0);
              inc.add(delta[persp]);
            }
          }
          expect(sorted([...inc])).toEqual(sorted([...set]));
        }
        pos.unmake();
      }
    }
  });

  it('counts a Khet 1.0 stack as one piece of its own state', () => {
    const pos = load('4tktp>2/2pv7/3P<6/p^1Pv1d^d>1p>1P</p>1P<1D>D^1p^1Pv/6p>3/7P^2/2P<TKT4 s 0 1', 'khet1');
    const f = features(pos, 0);
    expect(f).toContain((0 * 17 + 16) * 80 + sq('d1'));
    expect(f).toContain((1 * 17 + 16) * 80 + sq('e8'));
  });
});
