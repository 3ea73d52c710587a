/** Skill levels: the Elo table, and the weak move choice (plausible, never absurd). */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/zobrist';
import type { RootLine } from '../../src/search/search';
import { MATE } from '../../src/core/score';
import {
  LEVEL_ELO,
  MAX_ELO,
  MAX_SKILL,
  MIN_ELO,
  pickRandomMove,
  pickWeakMove,
  skillFromElo,
  skillMaxLoss,
} from '../../src/search/skill';
import { stretched } from '../slowness';

const line = (move: number, score: number, depth = 5): RootLine => ({
  move,
  score,
  last: score,
  bound: 0,
  depth,
  pv: [move],
});

/** A seeded generator of numbers in [0, 1), from the core's mulberry32. */
function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() >>> 0) / 4294967296;
}

describe('skillFromElo', () => {
  it('maps the ends of the range to level 0 and full strength, and clamps outside it', () => {
    expect(skillFromElo(MIN_ELO)).toBe(0);
    expect(skillFromElo(MIN_ELO - 500)).toBe(0);
    expect(skillFromElo(MAX_ELO)).toBe(MAX_SKILL);
    expect(skillFromElo(MAX_ELO + 500)).toBe(MAX_SKILL);
  });

  it('gives back each measured level for its Elo', () => {
    for (const [level, elo] of LEVEL_ELO) expect(skillFromElo(elo)).toBe(level);
  });

  it('never lowers the level when the Elo rises', () => {
    let last = -1;
    for (let e = MIN_ELO; e <= MAX_ELO; e += 10) {
      const l = skillFromElo(e);
      expect(l).toBeGreaterThanOrEqual(last);
      last = l;
    }
  });

  it('the table rises with the level', () => {
    for (let i = 1; i < LEVEL_ELO.length; i++) {
      expect(LEVEL_ELO[i][0]).toBeGreaterThan(LEVEL_ELO[i - 1][0]);
      expect(LEVEL_ELO[i][1]).toBeGreaterThan(LEVEL_ELO[i - 1][1]);
    }
  });
});

describe('pickWeakMove', () => {
  const lines = [line(1, 50), line(2, 40), line(3, 10), line(4, -120), line(5, -(MATE - 3))];

  it('full strength plays the best line', () => {
    expect(pickWeakMove(lines, MAX_SKILL, rng(1)).move).toBe(1);
  });

  it('never walks into a lost game nor loses more than the level allows', () => {
    for (let level = 0; level < MAX_SKILL; level++) {
      const r = rng(level + 7);
      for (let k = 0; k < 200; k++) {
        const pick = pickWeakMove(lines, level, r);
        expect(pick.move).not.toBe(5);
        expect(50 - pick.score).toBeLessThanOrEqual(skillMaxLoss(level));
      }
    }
  });

  it('never misses a forced win', () => {
    const winning = [line(9, MATE - 3), line(1, 300), line(2, 280)];
    for (let level = 0; level <= MAX_SKILL; level++) expect(pickWeakMove(winning, level, rng(level)).move).toBe(9);
  });

  it('weak levels sometimes play a second-best move, strong levels rarely', () => {
    const close = [line(1, 30), line(2, 20), line(3, 15)];
    const share = (level: number): number => {
      const r = rng(99);
      let other = 0;
      for (let k = 0; k < 400; k++) if (pickWeakMove(close, level, r).move !== 1) other++;
      return other / 400;
    };
    expect(share(0)).toBeGreaterThan(0.2);
    expect(share(19)).toBeLessThan(share(0));
  });
});

describe('pickRandomMove', () => {
  it('picks only among the lines within the margin, and all of them over many draws', () => {
    const lines = [line(1, 20), line(2, 15), line(3, 12), line(4, -40)];
    const seen = new Set<number>();
    const r = rng(5);
    for (let k = 0; k < 300; k++) seen.add(pickRandomMove(lines, 10, r).move);
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });
});

describe('a weak level never shoots its own piece when it need not', () => {
  it("withoutSelfShots drops lines whose shot removes the mover's piece, keeps all when every line does", async () => {
    const { parseKfen, setupKfen, parseMove } = await import('../../src/core/index');
    const { withoutSelfShots, shootsOwnPiece } = await import('../../src/search/skill');
    // Khet 2.0 Dynasty: j3i4 and h4g5 shoot Silver's own piece, g5+ and j4- do not
    const pos = parseKfen(setupKfen('khet2', 'dynasty')!, 'khet2');
    if (!pos.ok) throw new Error(pos.error.message);
    const p = pos.value;
    const mv = (t: string): number => {
      const m = parseMove(p, t);
      if (!m.ok) throw new Error(m.error.message);
      return m.value;
    };
    expect(shootsOwnPiece(p, mv('j3i4'))).toBe(true);
    expect(shootsOwnPiece(p, mv('g5+'))).toBe(false);
    const lines = [line(mv('j3i4'), 33), line(mv('h4g5'), 31), line(mv('g5+'), 24), line(mv('j4-'), 22)];
    expect(withoutSelfShots(lines, p).map((l) => l.move)).toEqual([mv('g5+'), mv('j4-')]);
    expect(withoutSelfShots(lines.slice(0, 2), p)).toEqual(lines.slice(0, 2));
    expect(p.ply).toBe(0);
  });

  it(
    'the engine at Skill Level 0 (Level 1) never opens Dynasty with a shot at its own piece',
    async () => {
      const { Engine, assertBuilt } = await import('../protocol/spawn-engine');
      const { colorOf, parseKfen, setupKfen, parseMove } = await import('../../src/core/index');
      assertBuilt();
      const e = new Engine();
      try {
        e.send('uki');
        await e.waitFor(/^ukiok/);
        e.send('setoption name Skill Level value 0');
        e.send('position setup dynasty');
        const pos = parseKfen(setupKfen('khet2', 'dynasty')!, 'khet2');
        if (!pos.ok) throw new Error(pos.error.message);
        const own: string[] = [];
        // with the shipped network, depth 1 rates j3i4 (a shot at Silver's own piece) first
        for (let i = 0; i < 24; i++) {
          e.send('go depth 1');
          const got = await e.waitFor(/^bestmove /);
          const text = got.text.split(' ')[1];
          const m = parseMove(pos.value, text);
          if (!m.ok) throw new Error(m.error.message);
          const p = pos.value;
          const killed = p.make(m.value);
          if (killed >= 0 && colorOf(p.killedPieceAt(p.ply - 1)) === (p.side ^ 1)) own.push(text);
          p.unmake();
        }
        expect(own).toEqual([]);
      } finally {
        e.send('quit');
        await e.exited;
      }
    },
    stretched(60_000),
  );
});
