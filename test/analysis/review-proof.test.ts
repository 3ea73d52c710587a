/**
 * A review proves the forced hits its fixed-depth searches do not see (src/analysis/review-proof.ts):
 * a move that lets the opponent hit by force deeper than the depth is judged as the loss it is,
 * a position already lost before a move does not blame that move, and the winner's moves that keep
 * the proven win are not marked. In-process, with the engine's searcher, at depths shallow enough
 * to miss a hit in 3 (the shipped puzzle 1b01ff231b: its first move, Red's, allows it).
 */
import { describe, expect, it } from 'vitest';
import { annotateGame, loadGame, reviewAnnotation } from '../../src/analysis/annotate-game';
import { engineSearcher } from '../../src/engine/analysis-engine';
import { loadNetworkFile } from '../../src/node/network-file';

/** The puzzle's position (Red to move), Red's losing move f5f4 and Silver's forced hit in 3. */
const GAME = `[Event "proof"]
[Variant "khet2"]
[SetUp "1"]
[FEN "xv3avkav1p>1/p^9/1P<pv7/4S>s>3P</1p>8/5S^3Pv/2A^P<P<2P^2/3s^K1A^2X^ r 2 19"]
[Result "1-0"]

19... f5f4 20. f3e3 f4f3 21. e3f4 d1c1 22. j3j4 1-0
`;

function review(depth: number) {
  const net = loadNetworkFile('default');
  const searcher = engineSearcher(16, { network: net.ok ? net.value.net : null, source: 'default' });
  const a = annotateGame(searcher, loadGame(GAME), { depth, timeMs: 0, multiPV: 1, noRemovalLimit: 100 });
  const r = reviewAnnotation(a);
  return { a, marks: r.plies.map((p) => p.mark), after: r.plies.map((p) => p.winAfter) };
}

describe('a review proves forced hits where the score moves', () => {
  it('depth 4: the move that allows a hit in 3 is a blunder (it was judged a 4-point drop), the rest unmarked', () => {
    const { a, marks, after } = review(4);
    expect(a.plies[0].text).toBe('f5f4');
    expect(a.plies[0].playedScore).toBe(-(32000 - 6)); // mate −3 for Red
    expect(after[0]).toBe(0);
    expect(marks).toEqual(['??', '', '', '', '', '']);
    expect(a.proofs.questions).toBeGreaterThan(0);
    expect(a.proofs.changed).toBeGreaterThan(0);
  });

  it('depth 2: the loss is carried back to the move that made it; the lost side later is not blamed; the winning moves keep the proven win', () => {
    const { a, marks } = review(2);
    // Red's f5f4: −M3; Silver's f3e3, which the search scored +1.97, is proven to keep the win (+M3)
    expect(a.plies[0].playedScore).toBe(-(32000 - 6));
    expect([a.plies[1].bestScore, a.plies[1].playedScore]).toEqual([32000 - 5, 32000 - 5]);
    // Red's f4f3, in a position already lost whatever Red played: −M2 before and after
    expect([a.plies[2].bestScore, a.plies[2].playedScore]).toEqual([-(32000 - 4), -(32000 - 4)]);
    expect(marks).toEqual(['??', '', '', '', '', '']);
  });
});
