import { describe, expect, it } from 'vitest';
import { exploreMoves, type ExplorerRow } from '../../src/analysis/explorer';
import { gameKey, packMoves, packedMove, positionKey } from '../../src/analysis/game-keys';

const row = (move: string, game: number, result: string, plies = 40, acc?: [number, number]): ExplorerRow => ({
  move,
  game,
  result,
  plies,
  accuracyWhite: acc?.[0] ?? null,
  accuracyBlack: acc?.[1] ?? null,
});

describe('the explorer', () => {
  it('counts games, results from the mover’s side and the score per move, most played first', () => {
    const rows = [
      row('a', 1, '1-0'),
      row('a', 2, '0-1'),
      row('a', 3, '1/2-1/2'),
      row('a', 4, '1-0'),
      row('b', 5, '0-1'),
    ];
    const white = exploreMoves(rows, 0);
    expect(white.map((m) => [m.move, m.games, m.wins, m.draws, m.losses])).toEqual([
      ['a', 4, 2, 1, 1],
      ['b', 1, 0, 0, 1],
    ]);
    expect(white[0].score).toBeCloseTo(2.5 / 4);
    const black = exploreMoves(rows, 1);
    expect(black[1]).toMatchObject({ move: 'b', wins: 1, losses: 0, score: 1 });
  });

  it('counts a game that passed the position twice with the same move once', () => {
    const m = exploreMoves([row('a', 1, '1-0'), row('a', 1, '1-0'), row('b', 1, '1-0')], 0);
    expect(m.map((x) => x.games)).toEqual([1, 1]);
  });

  it('picks the best game: the best result for the mover, then accuracy, then the shortest', () => {
    const rows = [
      row('a', 1, '0-1', 20),
      row('a', 2, '1-0', 90, [70, 60]),
      row('a', 3, '1-0', 60, [80, 50]),
      row('a', 4, '1-0', 30),
      row('a', 5, '1/2-1/2', 10, [99, 99]),
    ];
    expect(exploreMoves(rows, 0)[0].best?.game).toBe(3);
    expect(exploreMoves(rows, 1)[0].best?.game).toBe(1);
    const noReview = [row('b', 7, '1-0', 50), row('b', 8, '1-0', 35)];
    expect(exploreMoves(noReview, 0)[0].best?.game).toBe(8);
  });

  it('leaves the score out when no game finished', () => {
    expect(exploreMoves([row('a', 1, '*')], 0)[0].score).toBeNaN();
  });
});

describe('game and position keys', () => {
  it('a game’s key depends on its edition, start and moves, not on how the KFEN counts moves', () => {
    const k = gameKey('khet2', 'x 10/10 s 0 1', ['j4i4', 'f8f7']);
    expect(gameKey('khet2', 'x 10/10 s 3 7', ['j4i4', 'f8f7'])).toBe(k);
    expect(gameKey('khet1', 'x 10/10 s 0 1', ['j4i4', 'f8f7'])).not.toBe(k);
    expect(gameKey('khet2', 'x 10/10 s 0 1', ['f8f7', 'j4i4'])).not.toBe(k);
    expect(gameKey('khet2', 'x 10/10 s 0 1', ['j4i4'])).not.toBe(k);
    expect(k).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a position’s key is a safe integer, salted by the edition', () => {
    const k = positionKey('khet2', -1, -1);
    expect(Number.isSafeInteger(k)).toBe(true);
    expect(positionKey('khet1', -1, -1)).not.toBe(k);
    expect(positionKey('khet2', 5, 7)).toBe(7 * 2 ** 32 + 5);
  });

  it('packs moves in three bytes each', () => {
    const moves = [0, 1, 0x1ffff, 123456];
    const b = packMoves(moves);
    expect(b.length).toBe(12);
    expect(moves.map((_, i) => packedMove(b, i))).toEqual(moves);
  });
});
