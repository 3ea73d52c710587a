/**
 * The staged move picker yields every legal move exactly once, whatever the table's move and the
 * killers are (legal, illegal, shots, quiet), in both modes (staged, and all at once when our beam
 * already takes a piece); the shots that take something come before the quiet moves, and the
 * outcome it reports for each move is what the move's shot really does.
 */
import { describe, expect, it } from 'vitest';
import { formatMove, makeMove, mulberry32, toKfen } from '../../src/core/index';
import { Beams } from '../../src/search/beams';
import { History } from '../../src/search/history';
import { MovePicker, OUT_CAPTURE, OUT_NONE, OUT_OWN, OUT_WIN, shotOutcome } from '../../src/search/movepick';
import { ALL_SETUPS, collectPositions, moves } from './helpers';

const PLY = 3;

function drain(picker: MovePicker, ply: number, stopAfter = Infinity): Array<{ m: number; out: number }> {
  const got: Array<{ m: number; out: number }> = [];
  for (let m = picker.next(ply); m !== 0; m = picker.next(ply)) {
    got.push({ m, out: picker.lastOutcome[ply] });
    if (got.length >= stopAfter) {
      picker.skipQuiets(ply);
      stopAfter = Infinity;
    }
  }
  return got;
}

describe('MovePicker', () => {
  for (const { edition, setup } of ALL_SETUPS) {
    it(`${edition} ${setup}: every legal move once, shots first, true outcomes`, () => {
      const bits = mulberry32(7 + setup.length);
      const rand = (): number => (bits() >>> 0) / 4294967296;
      const positions = collectPositions(edition, setup, 11, 25, () => true);
      const beams = new Beams(8);
      const history = new History(8);
      const picker = new MovePicker(8);
      let staged = 0;
      let allAtOnce = 0;
      for (const pos of positions) {
        const legal = moves(pos);
        beams.trace(pos, PLY);
        const ourKill = beams.ourKill[PLY];
        const mask = beams.ourMask;
        const touching = (m: number): boolean =>
          [m & 127, (m >>> 7) & 127].some((s) => (mask[PLY * 3 + (s >> 5)] & (1 << (s & 31))) !== 0);
        const shots = legal.filter(touching);
        const quiet = legal.filter((m) => !touching(m));
        // killers and table move drawn from: a shot, a quiet move, an illegal move, none
        const pickAny = (): number => {
          const r = rand();
          if (r < 0.3 && shots.length > 0) return shots[Math.floor(rand() * shots.length)];
          if (r < 0.6 && quiet.length > 0) return quiet[Math.floor(rand() * quiet.length)];
          if (r < 0.85) return makeMove(Math.floor(rand() * 80), Math.floor(rand() * 80), Math.floor(rand() * 6));
          return 0;
        };
        for (let trial = 0; trial < 4; trial++) {
          if (ourKill >= 0) allAtOnce++;
          else staged++;
          for (const m of legal) history.update(pos.side, m, Math.floor(rand() * 4000) - 2000);
          history.killers[PLY * 2] = pickAny();
          history.killers[PLY * 2 + 1] = pickAny();
          const tt = pickAny();
          picker.init(pos, history, mask, PLY, tt, ourKill);
          const got = drain(picker, PLY);
          const where = `${toKfen(pos)} tt ${formatMove(tt)} killers ${formatMove(history.killers[PLY * 2])} ${formatMove(history.killers[PLY * 2 + 1])}`;
          expect(
            got.map((g) => g.m).sort((a, b) => a - b),
            where,
          ).toEqual([...legal].sort((a, b) => a - b));
          // the reported outcome is the shot's (the first move's is not reported)
          for (let i = 1; i < got.length; i++) {
            pos.shotAfter(got[i].m);
            expect(got[i].out, `${where} ${formatMove(got[i].m)}`).toBe(shotOutcome(pos.probePiece, pos.side));
          }
          // after the first move, no quiet move before a shot that takes something
          const firstQuiet = got.findIndex((g, i) => i > 0 && g.out !== OUT_CAPTURE && g.out !== OUT_WIN);
          if (firstQuiet > 0 && ourKill < 0) {
            expect(
              got.slice(firstQuiet).some((g) => g.out === OUT_CAPTURE || g.out === OUT_WIN),
              where,
            ).toBe(false);
          }
          // skipQuiets after a quiet move: nothing but shots that take something may follow
          const cut = got.findIndex((g, i) => i > 0 && g.out === OUT_NONE);
          if (cut > 0) {
            picker.init(pos, history, mask, PLY, tt, ourKill);
            const some = drain(picker, PLY, cut + 1);
            expect(
              some.slice(cut + 1).every((g) => g.out === OUT_CAPTURE || g.out === OUT_WIN),
              where,
            ).toBe(true);
          }
        }
      }
      expect(staged).toBeGreaterThan(0);
      void allAtOnce;
    });
  }

  it('the quiet stage comes best first, whatever mix of history scores above, at and below 0', () => {
    const bits = mulberry32(46);
    const rand = (): number => (bits() >>> 0) / 4294967296;
    const beams = new Beams(8);
    const picker = new MovePicker(8);
    let checked = 0;
    for (const pos of collectPositions('khet2', 'classic', 11, 25, () => true)) {
      beams.trace(pos, PLY);
      if (beams.ourKill[PLY] >= 0) continue;
      const history = new History(8);
      // a third of the moves keep 0 (no history), the rest above or below it
      for (const m of moves(pos)) if (rand() < 0.67) history.update(pos.side, m, Math.floor(rand() * 4000) - 2000);
      picker.init(pos, history, beams.ourMask, PLY, 0, -1);
      const got = drain(picker, PLY).filter((g) => g.out !== OUT_CAPTURE && g.out !== OUT_WIN);
      const key = (g: { m: number; out: number }): number =>
        g.out === OUT_NONE
          ? history.score(pos.side, g.m)
          : g.out === OUT_OWN
            ? -(1 << 24) + history.score(pos.side, g.m)
            : -(1 << 29);
      for (let i = 1; i < got.length; i++)
        expect(key(got[i]), `${toKfen(pos)} move ${i}`).toBeLessThanOrEqual(key(got[i - 1]));
      checked += got.length;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('both modes occur in the sample (our beam takes a piece already, or not)', () => {
    let withShot = 0;
    const beams = new Beams(8);
    for (const { edition, setup } of ALL_SETUPS) {
      for (const pos of collectPositions(edition, setup, 11, 25, () => true)) {
        beams.trace(pos, PLY);
        if (beams.ourKill[PLY] >= 0) withShot++;
      }
    }
    expect(withShot).toBeGreaterThan(0);
  });
});
