/**
 * MultiPV lines as the search reports them while an iteration is under way or cut short: a line
 * whose move has not yet been searched again at the new depth (or failed low against the line
 * above) keeps the score it had, and is never reported as the placeholder of an unsearched move
 * (−INF, which the protocol would state as `score mate 250`).
 */
import { describe, expect, it } from 'vitest';
import { SETUPS } from '../../src/core/index';
import { MATE_BOUND, scoreOf } from '../../src/core/score';
import { DEFAULT_FEATURES, DEFAULT_LIMITS, Searcher } from '../../src/search/search';
import { TranspositionTable } from '../../src/search/tt';
import { load } from './helpers';

/** The mover's Pharaoh can be hit no later than this many moves ahead at these depths. */
const FAR = 20;

describe('MultiPV lines', () => {
  it('stopped at any node count, every line reported and returned has a real score', () => {
    const kfen = 'xv3avkavp>2/2pv7/3P<3p>2/p^1Pvs^1s>3P</p>1P^1S>S^1p^1Pv/6p>3/3K3P^2/2P<A^1A^3X^ s 0 1';
    for (const nodes of [3_000, 9_000, 20_000, 45_000, 80_000]) {
      const s = new Searcher(new TranspositionTable(16));
      s.features = { ...DEFAULT_FEATURES };
      const reported: number[] = [];
      s.onInfo = (i) => {
        if (i.score.kind === 'mate') reported.push(i.score.value);
      };
      const r = s.run(load(kfen), { ...DEFAULT_LIMITS, multiPV: 3, nodes });
      for (const m of reported) expect(Math.abs(m), `a mate in ${m} reported at ${nodes} nodes`).toBeLessThan(FAR);
      expect(r.lines).toHaveLength(3);
      for (const l of r.lines) {
        const sc = scoreOf(l.score);
        if (Math.abs(l.score) >= MATE_BOUND)
          expect(Math.abs(sc.value), `line ${l.pv} at ${nodes} nodes`).toBeLessThan(FAR);
      }
    }
  });

  it('a line not searched again yet keeps its last depth and score (Stockfish reports the same)', () => {
    const s = new Searcher(new TranspositionTable(16));
    const lines: { multipv: number; depth: number; score: string }[] = [];
    s.onInfo = (i) =>
      lines.push({ multipv: i.multipv ?? 1, depth: i.depth, score: `${i.score.kind} ${i.score.value}` });
    s.run(load(SETUPS.khet2.classic), { ...DEFAULT_LIMITS, multiPV: 3, depth: 5 });
    expect(lines.every((l) => l.score.startsWith('cp '))).toBe(true);
    expect(lines.filter((l) => l.depth === 5).map((l) => l.multipv)).toEqual([1, 2, 3]);
  });
});
