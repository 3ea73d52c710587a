/**
 * The review of a shuffle (test/analysis/shuffle-record.ts) as `thoth analyse --game` makes it,
 * in-process with the engine's own searcher: only the move that makes the third occurrence (the
 * draw) is marked, and it says why in words; the harmless repetitions before it are not marked.
 */
import { describe, expect, it } from 'vitest';
import { annotateGame, loadGame, reviewAnnotation } from '../../src/analysis/annotate-game';
import { annotatedRecord } from '../../src/analysis/annotated';
import { REVIEW_DEPTH, REVIEW_HASH_MB } from '../../src/analysis/review-method';
import { REPETITION_WORDS, reviewGame } from '../../src/analysis/review';
import { DEFAULT_EVAL_FILE } from '../../src/engine/host';
import { engineSearcher } from '../../src/engine/analysis-engine';
import { loadNetworkFile } from '../../src/node/network-file';
import { SHUFFLE_PGN } from './shuffle-record';

describe('a move that repeats, in the review', () => {
  it('the words go with the mark, and only with a mark', () => {
    const evals = [
      { side: 0, before: { kind: 'cp', value: 700 }, after: { kind: 'cp', value: 0 }, repetition: 'threefold' },
      { side: 1, before: { kind: 'cp', value: -700 }, after: { kind: 'cp', value: -700 }, repetition: 'repeats' },
      { side: 0, before: { kind: 'cp', value: 700 }, after: { kind: 'cp', value: 0 }, repetition: 'repeats' },
      { side: 1, before: { kind: 'cp', value: 0 }, after: { kind: 'cp', value: -700 } },
    ] as const;
    const r = reviewGame(evals.map((e) => ({ ...e })));
    expect(r.plies.map((p) => [p.mark, p.reason])).toEqual([
      ['??', 'draws by threefold repetition'],
      ['', ''],
      ['??', 'repeats the position'],
      ['??', ''],
    ]);
    expect(REPETITION_WORDS.threefold).toBe('draws by threefold repetition');
  });

  it('the shuffle: marked only where the draw is made, with the reason in words', () => {
    const net = loadNetworkFile(DEFAULT_EVAL_FILE);
    expect(net.ok).toBe(true);
    const searcher = engineSearcher(REVIEW_HASH_MB, { network: net.ok ? net.value.net : null, source: 'default' });
    const game = loadGame(SHUFFLE_PGN);
    const limits = { depth: REVIEW_DEPTH, timeMs: 0, multiPV: 1, noRemovalLimit: 100 };
    const a = annotateGame(searcher, game, limits);
    const review = reviewAnnotation(a);
    expect(a.plies.map((p) => p.repetition ?? '')).toEqual([
      '',
      '',
      '',
      '',
      'repeats',
      'repeats',
      'repeats',
      'repeats',
      'threefold',
    ]);
    // 49. j3j4 and 50. j4j3 repeat the position harmlessly: Silver stays winning
    expect(review.plies.map((p) => p.mark)).toEqual(['', '', '', '', '', '', '', '', '??']);
    expect(review.plies[8].reason).toBe('draws by threefold repetition');
    expect(a.plies[4].playedScore).toBeGreaterThan(300);
    expect(a.plies[8].playedScore).toBe(0);
    const rec = annotatedRecord(game, a, review, 'Thoth');
    expect(rec.moves[8].comment).toMatch(/^Blunder: draws by threefold repetition; \S+ was best/);
    expect(rec.moves.slice(0, 8).map((m) => m.comment)).toEqual(new Array(8).fill(undefined));
  });
});
