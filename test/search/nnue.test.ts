/**
 * The network's accumulators on the search stack: after random sequences of moves, null moves and
 * take-backs in every edition, the incremental (and lazy) evaluation equals the network's
 * evaluation computed from scratch; and the search with a network finds the same results from
 * its own stack as the position's evaluation says.
 */
import { describe, expect, it } from 'vitest';
import { MAX_MOVES, formatMove, mulberry32, toKfen } from '../../src/core/index';
import { evaluatePosition } from '../../src/nnue/network';
import { Beams } from '../../src/search/beams';
import { NnueStack, setDefaultKernels, simdAvailable } from '../../src/search/nnue';
import { DEFAULT_LIMITS, Searcher } from '../../src/search/search';
import { TranspositionTable } from '../../src/search/tt';
import { ALL_SETUPS } from '../core/helpers';
import { randomNetwork, start } from '../nnue/helpers';

describe('NnueStack', () => {
  const net = randomNetwork(32, 5);

  it('takes the SIMD kernels where the runtime has them (Node 20 does), else the JavaScript ones', () => {
    expect(simdAvailable()).toBe(true);
    expect(new NnueStack(net, 8).kind).toBe('simd16'); // its accumulators cannot leave int16
    expect(new NnueStack(randomNetwork(16, 1), 8).kind).toBe('simd');
    expect(new NnueStack(net, 8, 'js').kind).toBe('js');
    expect(new NnueStack(randomNetwork(24, 1), 8).kind).toBe('js'); // H not a multiple of 16
  });

  const cases = ALL_SETUPS.flatMap((s) => (['simd16', 'simd', 'js'] as const).map((kernels) => ({ ...s, kernels })));
  it.each(cases)(
    '$edition $setup, $kernels kernels: the incremental evaluation equals the one from scratch',
    ({ edition, setup, kernels }) => {
      const rand = mulberry32(edition.length * 31 + setup.length);
      const r = (n: number): number => (rand() >>> 0) % n;
      const pos = start(edition, setup);
      const maxPly = 40;
      const beams = new Beams(maxPly);
      const stack = new NnueStack(net, maxPly, kernels);
      expect(stack.kind).toBe(kernels);
      const moves = new Int32Array(MAX_MOVES);
      let checked = 0;
      for (let game = 0; game < 12; game++) {
        let ply = 0;
        beams.trace(pos, 0);
        stack.refresh(pos, 0);
        for (let step = 0; step < 120; step++) {
          const down = ply < maxPly - 2 && (ply === 0 || r(10) < 7);
          if (down) {
            if (ply > 0 && r(12) === 0 && pos.moveAt(pos.ply - 1) !== 0) {
              pos.makeNull();
              stack.recordNull(pos, ply + 1);
            } else {
              const n = pos.generate(moves, 0);
              pos.makeTraced(moves[r(n)], beams.theirMask, (ply + 1) * 3);
              if (pos.winner >= 0) {
                pos.unmake();
                continue;
              }
              stack.recordMove(pos, ply + 1);
            }
            ply++;
            beams.afterMove(pos, ply);
            // evaluate some nodes only, so that the lazy path updates several plies at once
            if (r(3) === 0) {
              const want = evaluatePosition(net, pos);
              const got = stack.evaluate(beams, ply);
              if (got !== want) {
                const last = pos.moveAt(pos.ply - 1);
                throw new Error(
                  `ply ${ply} after ${last === 0 ? 'a null move' : formatMove(last)}: ${got}, from scratch ${want}\n  at ${toKfen(pos)}`,
                );
              }
              checked++;
            }
          } else {
            if (pos.moveAt(pos.ply - 1) === 0 && pos.killedAt(pos.ply - 1) < 0) pos.unmakeNull();
            else pos.unmake();
            ply--;
          }
        }
        while (ply > 0) {
          if (pos.moveAt(pos.ply - 1) === 0 && pos.killedAt(pos.ply - 1) < 0) pos.unmakeNull();
          else pos.unmake();
          ply--;
        }
      }
      expect(checked).toBeGreaterThan(100);
    },
  );

  it('a search with a network evaluates as the network does, and repeats itself', () => {
    const pos = start('khet2', 'classic');
    const s = new Searcher(new TranspositionTable(1));
    s.setNetwork(net);
    const a = s.run(pos, { ...DEFAULT_LIMITS, depth: 4 });
    s.tt.clear();
    s.clearHistory();
    const b = s.run(pos, { ...DEFAULT_LIMITS, depth: 4 });
    expect(b.nodes).toBe(a.nodes);
    expect(b.best).toBe(a.best);
    // the same search on the other kernels: the same evaluations, so the same tree
    for (const kernels of ['simd', 'js'] as const) {
      setDefaultKernels(kernels);
      try {
        const j = new Searcher(new TranspositionTable(1));
        j.setNetwork(net);
        const c = j.run(pos, { ...DEFAULT_LIMITS, depth: 4 });
        expect([c.nodes, c.best, c.score]).toEqual([a.nodes, a.best, a.score]);
      } finally {
        setDefaultKernels('auto');
      }
    }
    // quiescence of a quiet start position: the network's own evaluation of it
    s.setNetwork(net);
    expect(Number.isFinite(s.quiesce(pos))).toBe(true);
    expect(toKfen(pos)).toBe(toKfen(start('khet2', 'classic')));
  });
});
