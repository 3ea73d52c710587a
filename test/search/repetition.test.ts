/**
 * Repetitions as the search scores them (docs/rules.md §4; Stockfish's rule): a position met
 * before inside the search is a draw at once, one met before the root only at its third
 * occurrence. Before, any repeated position was a draw, so a move into a position seen once in
 * the game scored 0 where every other move kept a winning score.
 */
import { describe, expect, it } from 'vitest';
import { parseMove, type Position } from '../../src/core/index';
import { reviewGame } from '../../src/analysis/review';
import { scoreOf } from '../../src/core/score';
import { SHUFFLE_KFEN, SHUFFLE_MOVES } from '../analysis/shuffle-record';
import { load, search } from './helpers';

/** The shuffle's start with its first `n` moves made (the history the search sees). */
function after(n: number): Position {
  const pos = load(SHUFFLE_KFEN);
  for (const t of SHUFFLE_MOVES.slice(0, n)) {
    const m = parseMove(pos, t);
    if (!m.ok) throw new Error(m.error.message);
    pos.make(m.value);
  }
  return pos;
}

const move = (pos: Position, text: string): number => {
  const m = parseMove(pos, text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

describe('repetitions in the search', () => {
  it("a move into a position seen once before in the game is scored as any other: j3j4's second occurrence", () => {
    const pos = after(4);
    expect(pos.repetitions()).toBe(0);
    const best = search(pos, { depth: 8 });
    const j3j4 = search(pos, { depth: 8, searchMoves: [move(pos, 'j3j4')] });
    expect(j3j4.best).toBe(move(pos, 'j3j4'));
    // winning, and close to the best move: the review does not even call it an inaccuracy
    expect(best.score).toBeGreaterThan(300);
    expect(j3j4.score).toBeGreaterThan(300);
    const [ply] = reviewGame([{ side: 0, before: scoreOf(best.score), after: scoreOf(j3j4.score) }]).plies;
    expect(ply.judgement).toBeNull();
  });

  it("its third occurrence is the referee's draw: 0, whatever the position is worth", () => {
    const pos = after(8);
    const best = search(pos, { depth: 8 });
    const j3j4 = search(pos, { depth: 8, searchMoves: [move(pos, 'j3j4')] });
    expect(best.score).toBeGreaterThan(300);
    expect(j3j4.score).toBe(0);
  });
});
