/** Puzzle mode's pure part (src/gui/page/state/puzzle.ts): judging moves, the rating, the choice of puzzles. */
import { describe, expect, it } from 'vitest';
import { legalMoves, parseMove } from '../../src/core/index';
import { THEMES, type Puzzle } from '../../src/puzzles/format';
import {
  afterRight,
  emptyStore,
  glicko2,
  judgePuzzleMove,
  nextPuzzle,
  puzzlePosition,
  readStore,
  recordResult,
  refutation,
  replyDue,
  startRun,
  streakPuzzle,
  taskText,
  themeName,
  threatsOf,
  withTheme,
} from '../../src/gui/page/state/puzzle';

// Shipped puzzles (puzzles/puzzles.json): a hit in 1 and a hit in 2.
const hit1: Puzzle = {
  id: '070cf6f094',
  variant: 'khet2',
  kfen: 'xv1pv1s>kavp>2/3S>1av4/5S^1p>Pv1/1p>P^7/9Pv/10/p^9/2P<Ks^A^3X^ s 4 22',
  moves: ['c1b1', 'e1d2'],
  themes: ['hitIn1'],
  rating: 1140,
  source: 'selfplay:1:0:classic:35',
};
const hit2: Puzzle = {
  id: '25d7981454',
  variant: 'khet2',
  kfen: 'xv2pvkavp>3/4pv1S^3/p^9/p>4P^2S^1/2P<7/3P<4P^Pv/6s>P^K1/2p^3s^2X^ r 4 32',
  moves: ['g8f7', 'g7f7', 'c1d1', 'f5e5'],
  themes: ['hitIn2', 'swap', 'capture'],
  rating: 1000,
  source: 'selfplay:1:2:dynasty:56',
};

const mv = (p: Puzzle, k: number, text: string): number => {
  const m = parseMove(puzzlePosition(p, k), text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

describe('what a puzzle says', () => {
  it('names its themes in words', () => {
    expect(['hitIn1', 'hitIn3', 'anubisBlock', 'sphinxTurn', 'quietMove', 'defence', 'unstack'].map(themeName)).toEqual(
      ['Hit in 1', 'Hit in 3', 'Anubis block', 'Sphinx turn', 'Quiet move', 'Defence', 'Unstacking'],
    );
    for (const t of THEMES) expect(themeName(t)).toMatch(/^[A-Z][a-z]*( [a-z0-9]+)*$/i);
  });

  it('names the hit a defence parries: the moves that would hit were the attacker to move again', () => {
    const defence: Puzzle = {
      id: '1327f5f524',
      variant: 'khet2',
      kfen: 'xv2pv1avp>3/4pvk4/p^4S>p>3/p>4P>2S^1/2P<7/3P<4P^Pv/5s>1P^K1/2p^3s^2X^ s 0 30',
      moves: ['f5-', 'f7e8'],
      themes: ['defence'],
      rating: 1280,
      source: 'selfplay:1:2:dynasty:51',
    };
    expect(threatsOf(defence)).toEqual(['f6e5', 'f6e6', 'f6g6', 'f6g7']);
    expect(taskText(defence, ['Silver', 'Red'])).toBe(
      'Red to move: Silver threatens to hit your Pharaoh (f6e5, f6e6, f6g6 or f6g7: the red arrows). Only one move saves it: find it.',
    );
    // after the defence, none of them hits any more
    const after = puzzlePosition(defence, 2);
    after.makeNull();
    for (const t of threatsOf(defence)) {
      const m = parseMove(after, t);
      if (!m.ok) continue;
      after.make(m.value);
      expect(after.winner).toBe(-1);
      after.unmake();
    }
    expect(threatsOf(hit2)).toEqual([]);
  });
});

describe('a puzzle run', () => {
  it('takes the solution, any hit at the last move, and nothing else', () => {
    const run = startRun(hit2);
    expect(taskText(hit2, ['Silver', 'Red'])).toBe('Silver to move: hit the Pharaoh in 2 moves.');
    expect(taskText({ ...hit1, themes: ['material'] }, ['Silver', 'Red'])).toBe('Red to move: win material.');
    expect(taskText({ ...hit1, themes: ['defence'] }, ['Silver', 'Red'])).toBe(
      'Red to move: only one move saves the Pharaoh. Find it.',
    );
    expect(judgePuzzleMove(run, mv(hit2, 1, 'g7f7'))).toBe('right');
    const pos = puzzlePosition(hit2, 1);
    const others = legalMoves(pos).filter((m) => m !== mv(hit2, 1, 'g7f7'));
    expect(others.every((m) => judgePuzzleMove(run, m) === 'wrong')).toBe(true);
    const next = afterRight(run);
    expect(next).toMatchObject({ done: 2, status: 'play' });
    expect(replyDue(next)).toBe('c1d1');
    const last = { ...next, done: 3 };
    // every move that hits is accepted at the last move, and only those
    const before = puzzlePosition(hit2, 3);
    for (const m of legalMoves(before)) {
      const q = puzzlePosition(hit2, 3);
      q.make(m);
      expect(judgePuzzleMove(last, m)).toBe(q.winner === before.side ? 'right' : 'wrong');
    }
    expect(afterRight(last).status).toBe('solved');
    expect(replyDue(afterRight(last))).toBeNull();
  });

  it('answers a wrong move with its refutation', () => {
    const run = startRun(hit1);
    const pos = puzzlePosition(hit1, 1);
    // a wrong move that lets Red hit: Red's answer is that hit
    let found = false;
    for (const m of legalMoves(pos)) {
      const q = puzzlePosition(hit1, 1);
      q.make(m);
      if (q.winner >= 0) continue;
      const a = refutation(run, q);
      if (a === null) continue;
      const r = parseMove(q, a);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      q.make(r.value);
      expect(q.winner).toBe(pos.side ^ 1);
      found = true;
      break;
    }
    expect(found).toBe(true);
  });
});

describe('the rating', () => {
  it('moves up on a solve and down on a failure, more against a stronger puzzle, and the deviation shrinks', () => {
    const p = { rating: 1500, rd: 200, vol: 0.06 };
    const win = glicko2(p, 1500, 1);
    const loss = glicko2(p, 1500, 0);
    expect(win.rating).toBeGreaterThan(1500);
    expect(loss.rating).toBeLessThan(1500);
    expect(win.rating - 1500).toBeCloseTo(1500 - loss.rating, 6);
    expect(glicko2(p, 1800, 1).rating).toBeGreaterThan(win.rating);
    expect(win.rd).toBeLessThan(200);
    expect(win.vol).toBeCloseTo(0.06, 3);
    // Glickman's example, one game of three: 1500/200 beats a 1400 player (here the puzzle's RD is 80, not 30)
    expect(glicko2(p, 1400, 1).rating).toBeGreaterThan(1500);
  });

  it('keeps a store that survives bad data', () => {
    expect(readStore(null)).toEqual(emptyStore());
    expect(readStore({ rating: { rating: 'x' }, recent: [1, 'a'], solved: -1 })).toEqual({
      ...emptyStore(),
      recent: ['a'],
    });
    const s = recordResult(emptyStore(), hit1, true);
    expect(s.solved).toBe(1);
    expect(s.recent).toEqual([hit1.id]);
    expect(readStore(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it('chooses unplayed puzzles near the rating, by theme; a streak rises', () => {
    const pool = [hit1, hit2, { ...hit2, id: 'aaaaaaaaaa', rating: 2000 }];
    expect(withTheme(pool, 'swap').map((p) => p.id)).toEqual(['25d7981454', 'aaaaaaaaaa']);
    const store = { ...emptyStore(), rating: { rating: 1100, rd: 100, vol: 0.06 } };
    expect(nextPuzzle(pool, store, () => 0, 1)?.id).toBe(hit1.id);
    expect(nextPuzzle(pool, { ...store, recent: [hit1.id] }, () => 0, 1)?.id).toBe(hit2.id);
    expect(streakPuzzle(pool, 0, new Set())?.id).toBe(hit2.id);
    expect(streakPuzzle(pool, 1, new Set([hit2.id]))?.id).toBe(hit1.id);
    expect(streakPuzzle(pool, 30, new Set([hit2.id, hit1.id]))?.id).toBe('aaaaaaaaaa');
  });
});
