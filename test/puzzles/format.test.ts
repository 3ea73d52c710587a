/**
 * The puzzle file's schema (docs/puzzles.md): what checkPuzzle accepts and what it rejects,
 * and that a file written by formatPuzzleFile reads back the same.
 */
import { describe, expect, it } from 'vitest';
import { checkPuzzle, formatPuzzleFile, parsePuzzleFile, type Puzzle } from '../../src/puzzles/format';
import { initialRating, puzzleId } from '../../src/puzzles/miner';

// a hit in 1 of the shipped kind: the Silver Pharaoh steps, Red's Sphinx then hits it
const good: Puzzle = {
  id: '070cf6f094',
  variant: 'khet2',
  kfen: 'xv1pv1s>kavp>2/3S>1av4/5S^1p>Pv1/1p>P^7/9Pv/10/p^9/2P<Ks^A^3X^ s 4 22',
  moves: ['c1b1', 'e1d2'],
  themes: ['hitIn1'],
  rating: 1140,
  source: 'selfplay:1:0:classic:35',
};

describe('puzzle format', () => {
  it('accepts a puzzle and reads back what it writes', () => {
    expect(checkPuzzle(good)).toEqual({ ok: true, value: good });
    expect(parsePuzzleFile(formatPuzzleFile([good, { ...good, id: 'aaaaaaaaaa' }]))).toEqual({
      ok: true,
      value: [good, { ...good, id: 'aaaaaaaaaa' }],
    });
    expect(formatPuzzleFile([good]).split('\n')).toHaveLength(4);
    expect(puzzleId(good.variant, good.kfen, good.moves)).toBe(good.id);
  });

  it('rejects every kind of fault, naming it', () => {
    const bad: [unknown, RegExp][] = [
      [[good], /not an object/],
      [{ ...good, extra: 1 }, /unknown field 'extra'/],
      [{ ...good, id: undefined }, /id/],
      [{ ...good, id: 'XYZ' }, /id: not 10 hex digits/],
      [{ ...good, variant: 'chess' }, /variant/],
      [{ ...good, kfen: 'nonsense' }, /kfen: /],
      [{ ...good, moves: ['c1b1'] }, /moves: not a list/],
      [{ ...good, moves: ['c1b1', 'e1e9'] }, /moves\[1\]/],
      [{ ...good, moves: ['c1b1', 'a8a7'] }, /moves\[1\]: a8a7: illegal/],
      [{ ...good, moves: ['c1b1', 'e1d2', 'a8a7'] }, /moves\[2\]: the game is already over/],
      [{ ...good, themes: [] }, /themes/],
      [{ ...good, themes: ['brilliant'] }, /themes/],
      [{ ...good, rating: 1200.5 }, /rating/],
      [{ ...good, source: '' }, /source/],
    ];
    for (const [x, re] of bad) {
      const r = checkPuzzle(x);
      expect(r.ok, JSON.stringify(x)).toBe(false);
      if (!r.ok) expect(r.error).toMatch(re);
    }
    expect(parsePuzzleFile('{')).toMatchObject({ ok: false });
    expect(parsePuzzleFile('{}')).toEqual({ ok: false, error: 'not a JSON array' });
    expect(parsePuzzleFile(JSON.stringify([good, { ...good, rating: 'x' }]))).toEqual({
      ok: false,
      error: 'puzzle 2: rating: not a whole number from 0 to 4000',
    });
  });

  it('rates deeper and narrower lines higher, within bounds', () => {
    expect(initialRating('hit', 1, 0, false)).toBe(700);
    expect(initialRating('hit', 2, 0, false)).toBe(1000);
    expect(initialRating('hit', 2, 3, true)).toBe(1310);
    expect(initialRating('defence', 0, 1, false)).toBe(1120);
    expect(initialRating('material', 1, 3, false)).toBe(1060);
    expect(initialRating('hit', 5, 1000, true)).toBe(2600);
  });
});
