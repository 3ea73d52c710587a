/**
 * Perft's shortcuts against making every move: countMovesOf (a count for either colour) and
 * repliesAfterQuiet (the opponent's count after a move whose shot removes nothing, without making
 * it) on positions of seeded random games, and perft against perftStats (which makes every move
 * of every ply) at depths 2 and 3.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_MOVES,
  type Position,
  SETUPS,
  perft,
  perftStats,
  mulberry32,
  type EditionId,
  type RuleOptions,
  type SetupName,
} from '../../src/core/index';
import { load, randInt } from './helpers';

interface Config {
  edition: EditionId;
  setup: SetupName;
  pharaohRotation: boolean;
  seed: number;
  /** A rules dialect's other switches (docs/rules.md §3.1). */
  dialect?: Omit<RuleOptions, 'pharaohRotation'>;
}

const CONFIGS: Config[] = [
  { edition: 'khet2', setup: 'classic', pharaohRotation: false, seed: 11 },
  { edition: 'khet2', setup: 'imhotep', pharaohRotation: false, seed: 12 },
  { edition: 'khet2', setup: 'dynasty', pharaohRotation: false, seed: 13 },
  { edition: 'khet2', setup: 'classic', pharaohRotation: true, seed: 14 },
  { edition: 'khet1', setup: 'imhotep', pharaohRotation: false, seed: 15 },
  { edition: 'deflexion', setup: 'classic', pharaohRotation: false, seed: 16 },
  { edition: 'khet2', setup: 'classic', pharaohRotation: true, seed: 17, dialect: { twoScarabRotations: true } },
  { edition: 'khet2', setup: 'dynasty', pharaohRotation: false, seed: 18, dialect: { swapOntoReserved: true } },
  {
    edition: 'khet2',
    setup: 'imhotep',
    pharaohRotation: false,
    seed: 19,
    dialect: { twoScarabRotations: true, swapOntoReserved: true, swapSphinx: true },
  },
];

const GAMES = 12;
const MAX_PLIES = 90;

/** Positions of random games (those where the game is still on), every third ply. */
function positions(cfg: Config): Position[] {
  const rand = mulberry32(cfg.seed);
  const out: Position[] = [];
  const buf = new Int32Array(MAX_MOVES);
  for (let g = 0; g < GAMES; g++) {
    const pos = load(SETUPS[cfg.edition][cfg.setup]!, cfg.edition, {
      pharaohRotation: cfg.pharaohRotation,
      ...cfg.dialect,
    });
    for (let ply = 0; ply < MAX_PLIES && pos.winner < 0; ply++) {
      if (ply % 3 === 0) out.push(pos.clone());
      const n = pos.generate(buf, 0);
      // prefer moves whose shot removes a piece now and then, so that boards thin out
      let m = buf[randInt(rand, n)];
      if (ply % 4 === 0) {
        for (let i = 0; i < n; i++) {
          if (pos.shotAfter(buf[i]) >= 0 && ((pos.probePiece >> 2) & 7) !== 4) {
            m = buf[i];
            break;
          }
        }
      }
      pos.make(m);
    }
  }
  return out;
}

describe.each(CONFIGS)('perft shortcuts, $edition $setup (Pharaoh rotation $pharaohRotation, $dialect)', (cfg) => {
  const list = positions(cfg);

  it('countMovesOf the side not to move equals the count after a pass', () => {
    expect(list.length).toBeGreaterThan(50);
    for (const pos of list) {
      const other = pos.countMovesOf(pos.side ^ 1);
      pos.makeNull();
      expect(pos.countMoves()).toBe(other);
      pos.unmakeNull();
      expect(pos.countMovesOf(pos.side)).toBe(pos.countMoves());
    }
  });

  it('repliesAfterQuiet equals the count after making each quiet move', () => {
    const buf = new Int32Array(MAX_MOVES);
    let checked = 0;
    let swaps = 0;
    for (const pos of list) {
      if (!pos.repliesByDelta()) continue;
      const replies = pos.countMovesOf(pos.side ^ 1);
      const n = pos.generate(buf, 0);
      for (let i = 0; i < n; i++) {
        const m = buf[i];
        if (pos.shotAfter(m) >= 0) continue;
        const got = pos.repliesAfterQuiet(m, replies);
        pos.make(m);
        const want = pos.countMoves();
        pos.unmake();
        if (got !== want)
          throw new Error(`repliesAfterQuiet ${got} != ${want} after move ${m} in a position of ${cfg.edition}`);
        checked++;
        if (m >>> 14 === 2) swaps++;
      }
    }
    if (cfg.edition === 'khet2') {
      expect(checked).toBeGreaterThan(2_000);
      expect(swaps).toBeGreaterThan(20);
    } else {
      // Obelisks on the board: the shortcut is not used
      expect(checked).toBe(0);
    }
  });

  it('perft equals a perft that makes every move (depth 2 on every position, 3 on every 20th)', () => {
    list.forEach((pos, i) => {
      expect(perft(pos, 2)).toBe(perftStats(pos, 2).nodes);
      if (i % 20 === 0) expect(perft(pos, 3)).toBe(perftStats(pos, 3).nodes);
    });
  });
});
