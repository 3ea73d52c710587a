/**
 * The search finds forced wins in 2 and 3 moves within a node budget. The positions are in
 * fixtures/forced-wins.json, built by gen-forced-wins.ts from random games of all three editions
 * and proved by the exhaustive solver (solver.ts); a sample is proved again here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EDITION_IDS, formatMove, toKfen } from '../../src/core/index';
import { DEFAULT_FEATURES, type SearchFeatures } from '../../src/search/search';
import { MATE, MATE_BOUND } from '../../src/core/score';
import { load, search, winningMoves } from './helpers';
import { MateSolver, type ForcedWin } from './solver';

const FIXTURE = new URL('./fixtures/forced-wins.json', import.meta.url);
const WINS = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ForcedWin[];
const NODE_BUDGET = 2_000_000;

/** The engine's score for a hit on our n-th move (the hit is at ply 2n − 1). */
const mateScore = (n: number): number => MATE - (2 * n - 1);

const cases = WINS.map((w, i) => ({ ...w, name: `#${i + 1} ${w.edition} mate ${w.mate}` }));

describe('the forced-win suite', () => {
  it('has at least 40 positions, wins in 2 and in 3, from every edition', () => {
    expect(WINS.length).toBeGreaterThanOrEqual(40);
    for (const ed of EDITION_IDS) {
      for (const n of [2, 3]) {
        expect(WINS.filter((w) => w.edition === ed && w.mate === n).length, `${ed} mate ${n}`).toBeGreaterThanOrEqual(
          3,
        );
      }
    }
    expect(new Set(WINS.map((w) => `${w.edition} ${w.kfen}`)).size).toBe(WINS.length);
  });

  it('every entry is well formed: a valid KFEN (written back the same), no hit in 1, a fresh no-removal count', () => {
    for (const w of WINS) {
      const pos = load(w.kfen, w.edition);
      expect(toKfen(pos)).toBe(w.kfen);
      expect(pos.pliesSinceRemoval).toBe(0);
      expect(winningMoves(pos).map(formatMove), w.kfen).toEqual([]);
      expect([2, 3]).toContain(w.mate);
      expect(w.winning.length).toBeGreaterThan(0);
    }
  });

  // the solver proves a sample again: every 6th entry, and the first of each edition and length
  const sample = cases.filter(
    (c, i) => i % 6 === 0 || cases.findIndex((d) => d.edition === c.edition && d.mate === c.mate) === i,
  );
  it.each(sample)('$name: the solver proves it again (no faster win; the same winning first moves)', (c) => {
    const solver = new MateSolver(load(c.kfen, c.edition));
    expect(solver.mateLength(3)).toBe(c.mate);
    expect(solver.winningMoveNames(c.mate)).toEqual(c.winning);
  });
});

describe('the search finds the forced wins', () => {
  it.each(cases)('$name: go mate N within the node budget', (c) => {
    const pos = load(c.kfen, c.edition);
    const r = search(pos, { mate: c.mate, nodes: NODE_BUDGET });
    const where = `${c.edition} ${c.kfen}: best ${formatMove(r.best)} score ${r.score} depth ${r.depth} nodes ${r.nodes}`;
    expect(r.score, where).toBe(mateScore(c.mate));
    expect(c.winning, where).toContain(formatMove(r.best));
    expect(r.nodes, where).toBeLessThanOrEqual(NODE_BUDGET + 5000);
    // the principal variation starts with the move played
    expect(r.lines[0].move).toBe(r.best);
  });

  // Full width but for LMR and LMP, depth 2N+1 sees a win in N. Null-move pruning (on by
  // default) can hide a win from that depth: the defender's pass is searched shallower.
  it.each(cases)('$name: plain iterative deepening (depth 2N+1, no null move) sees the win', (c) => {
    const pos = load(c.kfen, c.edition);
    const r = search(pos, { depth: 2 * c.mate + 1, nodes: NODE_BUDGET }, 16, { nullMove: false });
    const where = `${c.edition} ${c.kfen}: best ${formatMove(r.best)} score ${r.score} depth ${r.depth} nodes ${r.nodes}`;
    expect(r.score, where).toBeGreaterThanOrEqual(MATE_BOUND);
    // never a faster win than the proved one
    expect(r.score, where).toBeLessThanOrEqual(mateScore(c.mate));
    expect(c.winning, where).toContain(formatMove(r.best));
  });

  it.each(cases)('$name: the defaults (null move on) see the win by depth 2N+3', (c) => {
    const pos = load(c.kfen, c.edition);
    const r = search(pos, { depth: 2 * c.mate + 3, nodes: NODE_BUDGET });
    const where = `${c.edition} ${c.kfen}: best ${formatMove(r.best)} score ${r.score} depth ${r.depth} nodes ${r.nodes}`;
    expect(r.score, where).toBeGreaterThanOrEqual(MATE_BOUND);
    // never a faster win than the proved one
    expect(r.score, where).toBeLessThanOrEqual(mateScore(c.mate));
    expect(c.winning, where).toContain(formatMove(r.best));
  });
});

// Every pruning and reduction switch on at once: none of them may hide a forced win or claim a
// faster one than the proof. While the defaults are every switch on, this is the search of "go mate
// N within the node budget" above, which then checks it (the same search twice would prove nothing
// more); the moment a default goes off, this runs again with all of them on.
const ALL_ON: SearchFeatures = {
  lmr: true,
  aspiration: true,
  nullMove: true,
  lmp: true,
  historyMalus: true,
};
const ALL_ON_IS_DEFAULT = (Object.keys(ALL_ON) as Array<keyof SearchFeatures>).every(
  (k) => DEFAULT_FEATURES[k] === ALL_ON[k],
);

describe('the forced wins with every search switch on', () => {
  it('every switch the search has is in ALL_ON', () => {
    expect(Object.keys(ALL_ON).sort()).toEqual(Object.keys(DEFAULT_FEATURES).sort());
  });

  it.each(ALL_ON_IS_DEFAULT ? [] : cases)('$name: go mate N within the node budget', (c) => {
    const pos = load(c.kfen, c.edition);
    const r = search(pos, { mate: c.mate, nodes: NODE_BUDGET }, 16, ALL_ON);
    const where = `${c.edition} ${c.kfen}: best ${formatMove(r.best)} score ${r.score} depth ${r.depth} nodes ${r.nodes}`;
    expect(r.score, where).toBe(mateScore(c.mate));
    expect(c.winning, where).toContain(formatMove(r.best));
  });
});
