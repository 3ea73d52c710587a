/**
 * The page's levels are true to their names: Thoth's Levels 1–7 are skill levels of their own,
 * each at least 100 Elo above the one before in the measured table (src/search/skill.ts), Level 8
 * is full strength, and Level 1 never shoots one of its own pieces on move 1, whatever its random
 * choice.
 */
import { describe, expect, it } from 'vitest';
import {
  parseKfen,
  parseMove,
  setupKfen,
  SETUPS,
  type EditionId,
  type Position,
  type SetupName,
} from '../../src/core/index';
import { mulberry32 } from '../../src/core/zobrist';
import {
  hasThothLadder,
  levelOptions,
  levelsFor,
  THOTH_FULL_ELO,
  THOTH_LADDER,
} from '../../src/gui/page/engine/levels';
import { loadNetworkFile } from '../../src/node/network-file';
import { DEFAULT_LIMITS, Searcher } from '../../src/search/search';
import {
  LEVEL_ELO,
  MAX_ELO,
  movesWithoutSelfShots,
  MAX_SKILL,
  MIN_ELO,
  pickWeakMove,
  shootsOwnPiece,
  skillDepth,
  skillFromElo,
  withoutSelfShots,
} from '../../src/search/skill';
import { TranspositionTable } from '../../src/search/tt';
import { moves } from '../search/helpers';
import { stretched } from '../slowness';

const THOTH = 'Thoth 0.1.0';
const levels = levelsFor({ min: MIN_ELO, max: MAX_ELO }, THOTH);
const measured = new Map(LEVEL_ELO.map(([l, e]) => [l, e]));

/** A seeded generator of numbers in [0, 1). */
function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() >>> 0) / 4294967296;
}

describe("Thoth's levels on the page", () => {
  it("are picked for Thoth's own range, and spread evenly for another engine's", () => {
    expect(hasThothLadder(THOTH, { min: MIN_ELO, max: MAX_ELO })).toBe(true);
    expect(THOTH_FULL_ELO).toBe(MAX_ELO);
    expect(THOTH_LADDER[0]).toBe(MIN_ELO);
    expect(hasThothLadder('Stockfish 17', { min: MIN_ELO, max: MAX_ELO })).toBe(false);
    expect(hasThothLadder(THOTH, { min: 1000, max: MAX_ELO })).toBe(false);
    expect(levels.map((l) => l.label)).toEqual([
      ...THOTH_LADDER.map((e, i) => `Level ${i + 1} · Elo ${e}`),
      `Level 8 · full strength (Elo ${MAX_ELO})`,
    ]);
    expect(levelsFor({ min: 956, max: 2400 }, 'Other')[1].elo).toBe(1160);
  });

  it('map Levels 1–7 to distinct measured skills, each ≥ 100 Elo above the one before; Level 8 is full strength', () => {
    const skills = levels.slice(0, 7).map((l) => skillFromElo(l.elo as number));
    expect(skills).toEqual([0, 1, 2, 4, 6, 8, 16]);
    const elo: number[] = [];
    for (const [i, s] of skills.entries()) {
      // a level of the table itself, not one interpolated between two measured ones
      expect(measured.get(s), `Level ${i + 1}: skill ${s} is not measured`).toBe(levels[i].elo);
      elo.push(measured.get(s) as number);
    }
    elo.push(MAX_ELO);
    for (let i = 1; i < elo.length; i++)
      expect(elo[i] - elo[i - 1], `Level ${i + 1} over Level ${i}`).toBeGreaterThanOrEqual(100);
    const top = levels[7];
    expect(top.elo).toBeUndefined();
    expect(levelOptions(top, true)).toEqual({ MultiPV: '1', UCI_LimitStrength: 'false' });
    expect(levelOptions(levels[0], true)).toEqual({
      MultiPV: '1',
      UCI_LimitStrength: 'true',
      UCI_Elo: String(MIN_ELO),
    });
  });

  it('an odd skill searches one ply deeper on the moves it draws so, an even one never does', () => {
    expect([skillDepth(0), skillDepth(0, true), skillDepth(1), skillDepth(1, true), skillDepth(2, true)]).toEqual([
      1, 1, 1, 2, 2,
    ]);
    expect(skillDepth(15, true)).toBe(9);
    expect(skillDepth(MAX_SKILL, true)).toBe(Infinity);
  });
});

describe('Level 1 on move 1', () => {
  it(
    'never shoots its own piece, over 300 random choices, from every setup as either player',
    () => {
      const net = loadNetworkFile('default');
      if (!net.ok) throw new Error(net.error);
      const skill = skillFromElo(levels[0].elo as number);
      const s = new Searcher(new TranspositionTable(1));
      s.setNetwork(net.value.net);
      let candidatesShot = 0;
      for (const edition of Object.keys(SETUPS) as EditionId[]) {
        for (const setup of Object.keys(SETUPS[edition]) as SetupName[]) {
          const start = parseKfen(setupKfen(edition, setup) as string, edition);
          if (!start.ok) throw new Error(start.error.message);
          // Level 1 moves first, or second after one of every seventh first move
          const firsts = moves(start.value).filter((_, i) => i % 7 === 0);
          const starts = [start.value, ...firsts.map((m) => positionAfter(start.value, m))];
          for (const pos of starts.filter((p) => p.winner < 0)) {
            s.tt.clear();
            const limits = { ...DEFAULT_LIMITS, depth: skillDepth(skill), multiPV: 4 };
            // unguarded, the shallow search rates shots at its own pieces among its best
            if (s.run(pos, limits).lines.some((l) => l.depth > 0 && shootsOwnPiece(pos, l.move))) candidatesShot++;
            // as the search thread does for a weak level (src/threads/search-worker.ts)
            s.tt.clear();
            const res = s.run(pos, { ...limits, searchMoves: movesWithoutSelfShots(pos, []) ?? [] });
            const lines = withoutSelfShots(res.lines, pos);
            const r = rng(edition.length * 1000 + pos.ply + res.lines[0].move);
            for (let k = 0; k < 300; k++) {
              const pick = pickWeakMove(lines, skill, r);
              const text = `${edition} ${setup} ply ${pos.ply}`;
              expect(shootsOwnPiece(pos, pick.move), `${text}: ${pick.move}`).toBe(false);
            }
          }
        }
      }
      expect(candidatesShot).toBeGreaterThan(0);
    },
    stretched(120_000),
  );
});

describe('Level 1 in the engine', () => {
  it(
    'never answers with a shot at its own piece where its four best lines at depth 1 are such shots',
    async () => {
      const { Engine, assertBuilt } = await import('../protocol/spawn-engine');
      assertBuilt();
      const e = new Engine();
      try {
        e.send('uci');
        await e.waitFor(/^uciok/);
        e.send('setoption name UCI_Variant value khet1');
        e.send('setoption name UCI_LimitStrength value true');
        e.send(`setoption name UCI_Elo value ${levels[0].elo}`);
        // Khet 1.0 Dynasty after e3f2u: a6b5, a6b6, a6b7 and c5d4 (all shots at Red's own pieces) rate first
        e.send('position setup dynasty moves e3f2u');
        const pos = parseKfen(setupKfen('khet1', 'dynasty') as string, 'khet1');
        if (!pos.ok) throw new Error(pos.error.message);
        const first = positionAfter(pos.value, 'e3f2u');
        const own: string[] = [];
        for (let i = 0; i < 16; i++) {
          e.send('go depth 1');
          const text = (await e.waitFor(/^bestmove /)).text.split(' ')[1];
          if (shootsOwnPiece(first, moveOf(first, text))) own.push(text);
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

/** The position after `move` (a move or its text) from `pos`. */
function positionAfter(pos: Position, move: number | string): Position {
  const p = pos.clone();
  p.make(typeof move === 'number' ? move : moveOf(p, move));
  return p;
}

function moveOf(pos: Position, text: string): number {
  const m = parseMove(pos, text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
}
