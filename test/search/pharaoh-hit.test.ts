/**
 * The search (in-process, one thread): it finds a Pharaoh hit in 1 every time, and it never
 * chooses a move that hits its own Pharaoh when another move exists.
 */
import { describe, expect, it } from 'vitest';
import { formatMove, mirrorPosition, type EditionId, type Position } from '../../src/core/index';
import { MATE } from '../../src/core/score';
import {
  ALL_SETUPS,
  collectPositions,
  describePos,
  load,
  moves,
  outcome,
  search,
  suicidalMoves,
  winningMoves,
} from './helpers';

/** Handmade: j5+ turns the Pyramid on j5 to send the beam west along rank 5 onto the Red Pharaoh. */
const HANDMADE_HITS: Array<{ edition: EditionId; kfen: string; only: string }> = [
  { edition: 'khet2', kfen: 'xv9/10/10/2k6P>/10/10/10/4K4X^ s 0 1', only: 'j5+' },
  { edition: 'khet1', kfen: '10/10/10/2k6P>/10/10/10/4K5 s 0 1', only: 'j5+' },
  { edition: 'deflexion', kfen: '10/10/10/2k6P>/10/10/10/4K5 g 0 1', only: 'j5+' },
];

/**
 * Handmade: the Silver beam winds round the Silver Pharaoh on e4 (Red Pyramids on f1/f2, f5, d5,
 * d2 bend it along f3-f4, e5, d4-d3), so five of its seven steps walk into its own beam.
 */
const HANDMADE_SUICIDES: Array<{ edition: EditionId; kfen: string }> = [
  { edition: 'khet2', kfen: 'xv6k2/10/10/3p>1pv4/4K5/10/3p^6/5p^3X< s 0 1' },
  { edition: 'khet1', kfen: '7k2/10/10/3p>1pv4/4K5/10/3p^1p^3Pv/10 s 0 1' },
  { edition: 'deflexion', kfen: '7k2/10/10/3p>1pv4/4K5/10/3p^1p^3Pv/10 g 0 1' },
];

function checkHit(pos: Position, limits: { depth?: number; nodes?: number }): void {
  const r = search(pos, limits);
  const where = `${describePos(pos)} ${JSON.stringify(limits)}`;
  expect(outcome(pos, r.best), `${where}: best ${formatMove(r.best)} does not hit`).toBe(1);
  expect(r.score, `${where}: score`).toBe(MATE - 1);
  expect(r.lines[0].move).toBe(r.best);
}

describe('a Pharaoh hit in 1', () => {
  it.each(HANDMADE_HITS)(
    '$edition handmade: $only, with score mate 1, for either colour',
    ({ edition, kfen, only }) => {
      const pos = load(kfen, edition);
      expect(winningMoves(pos).map(formatMove)).toEqual([only]);
      for (const p of [pos, mirrorPosition(pos)]) {
        for (const depth of [1, 2, 5]) checkHit(p, { depth });
        checkHit(p, { nodes: 20_000, depth: 20 });
      }
    },
  );

  // Positions from random play where the side to move has a hit (and most moves do not hit).
  const cases = ALL_SETUPS.flatMap(({ edition, setup }, i) =>
    collectPositions(edition, setup, 100 + i, 3, (pos) => {
      const w = winningMoves(pos).length;
      return w >= 1 && w * 4 <= moves(pos).length;
    }).map((pos, k) => ({ name: `${edition} ${setup} #${k + 1}`, pos })),
  );

  it('the random-play suite covers every setup', () => {
    expect(cases.length).toBeGreaterThanOrEqual(ALL_SETUPS.length * 2);
    for (const { edition, setup } of ALL_SETUPS)
      expect(cases.some((c) => c.name.startsWith(`${edition} ${setup}`))).toBe(true);
  });

  it.each(cases)('$name: found at depth 1, 3 and under a node budget', ({ pos }) => {
    for (const depth of [1, 3]) checkHit(pos, { depth });
    checkHit(pos, { nodes: 20_000, depth: 12 });
    checkHit(mirrorPosition(pos), { depth: 2 });
  });
});

describe('never a hit on its own Pharaoh while another move exists', () => {
  function checkNoSuicide(pos: Position, limits: { depth?: number; nodes?: number }): void {
    const r = search(pos, limits);
    const where = `${describePos(pos)} ${JSON.stringify(limits)}`;
    expect(outcome(pos, r.best), `${where}: chose ${formatMove(r.best)}, which hits its own Pharaoh`).not.toBe(-1);
    expect(r.score, `${where}: a suicide's score`).toBeGreaterThan(-(MATE - 1));
  }

  it.each(HANDMADE_SUICIDES)('$edition handmade: five suicidal Pharaoh steps', ({ edition, kfen }) => {
    const pos = load(kfen, edition);
    const sui = suicidalMoves(pos).map(formatMove).sort();
    expect(sui).toEqual(['e4d3', 'e4d4', 'e4e5', 'e4f3', 'e4f4']);
    for (const p of [pos, mirrorPosition(pos)]) {
      for (const depth of [1, 2, 3, 4, 6]) checkNoSuicide(p, { depth });
      checkNoSuicide(p, { nodes: 20_000, depth: 30 });
      // restricted to suicides and one safe move, it takes the safe move
      const safe = moves(p).find((m) => outcome(p, m) === 0)!;
      const r = search(p, { depth: 3, searchMoves: [...suicidalMoves(p), safe] });
      expect(formatMove(r.best)).toBe(formatMove(safe));
    }
  });

  // Random-play positions where at least a third of the moves are suicidal.
  const cases = ALL_SETUPS.flatMap(({ edition, setup }, i) =>
    collectPositions(edition, setup, 200 + i, 3, (pos) => {
      const all = moves(pos).length;
      const sui = suicidalMoves(pos).length;
      return sui * 3 >= all && sui < all && winningMoves(pos).length === 0;
    }).map((pos, k) => ({ name: `${edition} ${setup} #${k + 1}`, pos })),
  );

  it('the random-play suite has positions with many suicidal moves in every edition', () => {
    for (const ed of ['khet2', 'khet1', 'deflexion'])
      expect(cases.filter((c) => c.name.startsWith(ed)).length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases)('$name: depths 1-4 and a node budget', ({ pos }) => {
    for (const depth of [1, 2, 3, 4]) checkNoSuicide(pos, { depth });
    checkNoSuicide(pos, { nodes: 20_000, depth: 30 });
  });

  it('even when every safe move loses next move, it does not hit its own Pharaoh', () => {
    // The ring position plus a Red beam (a8 → a4 → along rank 4) that hits the Pharaoh on e4,
    // and, bent at g4 and g3, along rank 3 onto e3, its only square outside its own beam. Lost
    // either way, but losing now (a suicide) is worse than losing next move.
    const pos = load('xv6k2/10/10/3p>1pv4/p^3K1pv3/6p<3/3p^6/5p^3X< s 0 1');
    expect(suicidalMoves(pos).map(formatMove).sort()).toEqual(['e4d3', 'e4d4', 'e4e5', 'e4f3', 'e4f4']);
    const safe = moves(pos).filter((m) => outcome(pos, m) === 0);
    expect(safe.map(formatMove).sort()).toEqual(['e4e3', 'j1+']);
    for (const m of safe) {
      pos.make(m);
      expect(winningMoves(pos).length, `after ${formatMove(m)}`).toBeGreaterThan(0);
      pos.unmake();
    }
    for (const p of [pos, mirrorPosition(pos)]) {
      for (const depth of [1, 2, 3, 5]) {
        const r = search(p, { depth });
        expect(outcome(p, r.best), `${describePos(p)} depth ${depth}: ${formatMove(r.best)}`).toBe(0);
        if (depth >= 2) expect(r.score, `${describePos(p)} depth ${depth}`).toBe(-(MATE - 2));
      }
    }
  });
});
