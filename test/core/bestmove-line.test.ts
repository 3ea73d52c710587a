import { describe, expect, it } from 'vitest';
import { parseBestmove } from '../../src/core/bestmove-line';

describe('the bestmove line, as a client reads it', () => {
  it('gives the move and the ponder move', () => {
    expect(parseBestmove('bestmove e1e2 ponder a4a3')).toEqual({ move: 'e1e2', ponder: 'a4a3' });
    expect(parseBestmove('bestmove j5j6')).toEqual({ move: 'j5j6', ponder: undefined });
    expect(parseBestmove('  bestmove\tj5j6   ponder  a4a3 ')).toEqual({ move: 'j5j6', ponder: 'a4a3' });
  });

  it("a bestmove that names no move reads as '' (the referee's illegal move)", () => {
    expect(parseBestmove('bestmove')).toEqual({ move: '', ponder: undefined });
    expect(parseBestmove('bestmove (none)')?.move).toBe('(none)');
  });

  it('any other line is not one', () => {
    expect(parseBestmove('info depth 3 pv e1e2')).toBeUndefined();
    expect(parseBestmove('bestmoves e1e2')).toBeUndefined();
    expect(parseBestmove('')).toBeUndefined();
  });
});
