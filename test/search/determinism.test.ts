/** The search in-process: determinism, the position left untouched, limits, MultiPV, searchmoves. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETUPS, formatMove, keyHex, toKfen, type EditionId } from '../../src/core/index';
import { CTRL_STOP, DEFAULT_LIMITS, Searcher } from '../../src/search/search';
import { TranspositionTable } from '../../src/search/tt';
import { ALL_SETUPS, load, moves, outcome, search } from './helpers';
import type { ForcedWin } from './solver';

const WINS = JSON.parse(readFileSync(new URL('./fixtures/forced-wins.json', import.meta.url), 'utf8')) as ForcedWin[];

/** Every setup, plus a few middle games (the forced-win positions, one per edition). */
const POSITIONS: Array<{ name: string; edition: EditionId; kfen: string }> = [
  ...ALL_SETUPS.map(({ edition, setup }) => ({ name: `${edition} ${setup}`, edition, kfen: SETUPS[edition][setup]! })),
  ...(['khet2', 'khet1', 'deflexion'] as const).map((ed) => {
    const w = WINS.find((x) => x.edition === ed && x.mate === 3)!;
    return { name: `${ed} middle game`, edition: ed, kfen: w.kfen };
  }),
];

function summary(r: ReturnType<typeof search>): object {
  return {
    best: formatMove(r.best),
    ponder: r.ponder === 0 ? '' : formatMove(r.ponder),
    score: r.score,
    depth: r.depth,
    nodes: r.nodes,
    pv: r.lines[0].pv.map(formatMove),
  };
}

describe('search determinism', () => {
  it.each(POSITIONS)(
    '$name: the same depth gives the same move, score and node count, and leaves the position as it was',
    ({ edition, kfen }) => {
      const pos = load(kfen, edition);
      const before = { kfen: toKfen(pos), key: keyHex(pos.keyLo, pos.keyHi), ply: pos.ply };
      const a = search(pos, { depth: 4 });
      expect({ kfen: toKfen(pos), key: keyHex(pos.keyLo, pos.keyHi), ply: pos.ply }).toEqual(before);
      const b = search(load(kfen, edition), { depth: 4 });
      expect(summary(b)).toEqual(summary(a));
      expect(a.depth).toBe(4);
      expect(outcome(pos, a.best)).not.toBe(-1);
    },
  );

  it('one searcher, table and history cleared between runs, repeats itself', () => {
    const s = new Searcher(new TranspositionTable(16));
    const pos = load(SETUPS.khet2.classic!);
    const run = (): object => {
      s.tt.clear();
      s.clearHistory();
      return summary(s.run(pos, { ...DEFAULT_LIMITS, depth: 5 }));
    };
    const first = run();
    expect(run()).toEqual(first);
    // and matches a fresh searcher
    expect(summary(search(load(SETUPS.khet2.classic!), { depth: 5 }))).toEqual(first);
  });

  it('a node limit is deterministic too', () => {
    const pos = load(SETUPS.khet1.dynasty!, 'khet1');
    const a = search(pos, { nodes: 30_000 });
    const b = search(load(SETUPS.khet1.dynasty!, 'khet1'), { nodes: 30_000 });
    expect(summary(b)).toEqual(summary(a));
  });
});

describe('search limits and root options', () => {
  it('always returns a legal move: a tiny node limit, or the stop flag raised before the start', () => {
    for (const { edition, kfen } of POSITIONS) {
      const pos = load(kfen, edition);
      const legal = moves(pos);
      const r1 = search(pos, { nodes: 1 });
      expect(legal).toContain(r1.best);
      const s = new Searcher(new TranspositionTable(1));
      Atomics.store(s.control, CTRL_STOP, 1);
      const r2 = s.run(pos, { ...DEFAULT_LIMITS });
      expect(legal).toContain(r2.best);
      expect(r2.nodes).toBeLessThan(10_000);
    }
  });

  it('MultiPV 4: four lines with distinct first moves, best first', () => {
    const pos = load(SETUPS.khet2.imhotep!);
    const r = search(pos, { depth: 4, multiPV: 4 });
    expect(r.lines).toHaveLength(4);
    expect(new Set(r.lines.map((l) => l.move)).size).toBe(4);
    for (let i = 1; i < 4; i++) expect(r.lines[i - 1].score).toBeGreaterThanOrEqual(r.lines[i].score);
    expect(r.lines[0].move).toBe(r.best);
    for (const l of r.lines) expect(l.pv[0]).toBe(l.move);
  });

  it('searchMoves restricts the root', () => {
    const pos = load(SETUPS.deflexion.classic!, 'deflexion');
    const legal = moves(pos);
    const allowed = [legal[3], legal[17]];
    const r = search(pos, { depth: 4, searchMoves: allowed });
    expect(allowed).toContain(r.best);
    const one = search(pos, { depth: 3, searchMoves: [legal[5]] });
    expect(one.best).toBe(legal[5]);
  });
});
