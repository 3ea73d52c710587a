/** Practice from here and Watch Thoth play itself, their pure parts (state/practice.ts, state/watch.ts), without a browser. */
import { describe, expect, it } from 'vitest';
import { parseMove, type Position } from '../../src/core/index';
import * as R from '../../src/gui/page/state/gamereview';
import * as P from '../../src/gui/page/state/practice';
import { exportGame, exportInput } from '../../src/gui/page/state/record-io';
import * as S from '../../src/gui/page/state/state';
import { addMoves, mainline, newTree, nodeAt } from '../../src/gui/page/state/tree';
import * as W from '../../src/gui/page/state/watch';
import type { Score } from '../../src/core/score';

const move = (pos: Position, text: string): number => {
  const m = parseMove(pos, text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

/** Plays move texts at the end of the main line. */
function play(s: S.PageState, texts: string[], now = 0): S.PageState {
  for (const t of texts) s = S.playMove(s, move(S.endPosition(s), t), now);
  return s;
}

/** An analysis board on the Classic setup with `moves` played, showing the position after `at` of them. */
function analysis(moves: string[], at = moves.length): S.PageState {
  const s0 = S.setMode({ ...S.initialState(S.DEFAULT_SETTINGS, () => 0), engineAvailable: true }, 'analysis', 0);
  const t = addMoves(s0.tree, [], moves);
  if (!t.ok) throw new Error(t.error.message);
  return { ...s0, tree: t.value.tree, path: new Array<number>(at).fill(0) };
}

const texts = (s: S.PageState): string[] => mainline(s.tree).map((n) => n.ply.text);
const cp = (value: number): Score => ({ kind: 'cp', value });

/** Silver's f4e3 after c1d2 a5b4 opens the way to its Pharaoh: Red's b4a3 hits it. */
const BLUNDER_LINE = ['c1d2', 'a5b4'];

describe('practice from here', () => {
  it('starts a game against Thoth from the shown position, its history kept, the person the side chosen', () => {
    const s = analysis(['c1d2', 'a5b4', 'f4e3'], 2);
    const r = P.startPractice(s, { side: 0, level: 5, tc: '' }, 0);
    expect(r).not.toBeNull();
    const { state, practice } = r!;
    expect(state.mode).toBe('engine');
    expect(texts(state)).toEqual(BLUNDER_LINE);
    expect(state.humanSide).toBe(0);
    expect(state.settings.level).toBe(5);
    expect(state.clock).toBeNull();
    expect(practice).toEqual({ from: 2, side: 0, origin: [0, 0], moves: [] });
    // Red chosen: flipped, and Thoth (Silver, to move) moves first
    const red = P.startPractice(s, { side: 1, level: 3, tc: '60+1' }, 0)!;
    expect(red.state.humanSide).toBe(1);
    expect(red.state.flipped).toBe(true);
    expect(red.state.clock).not.toBeNull();
  });

  it('is refused where the game is over', () => {
    const s = analysis([...BLUNDER_LINE, 'f4e3', 'b4a3']);
    expect(P.startPractice(s, { side: 0, level: 3, tc: '' }, 0)).toBeNull();
  });

  it("asks for the review's searches of each of the person's moves, in order, and judges them with the review's judge", () => {
    const s = analysis(BLUNDER_LINE);
    const { state, practice } = P.startPractice(s, { side: 0, level: 3, tc: '' }, 0)!;
    let g = play(state, ['d2c1']);
    let p = P.practiceMoves(practice, g);
    expect(p.moves.map((m) => [m.index, m.move, m.side, m.hit])).toEqual([[2, 'd2c1', 0, false]]);
    expect(P.nextPracticeStep(p)).toEqual({ index: 2 });
    // Thoth chose the move played: one search does
    p = P.practiceBest(p, 2, cp(20), 'd2c1');
    expect(P.nextPracticeStep(p)).toBeNull();
    // Thoth's move is not the person's: not judged
    g = play(g, ['h8h7']);
    expect(P.practiceMoves(p, g)).toBe(p);
    g = play(g, ['f4e3']);
    p = P.practiceMoves(p, g);
    expect(P.nextPracticeStep(p)).toEqual({ index: 4 });
    p = P.practiceBest(p, 4, cp(30), 'c1d2');
    // Thoth chose another move: the move played alone next (`searchmoves`)
    expect(P.nextPracticeStep(p)).toEqual({ index: 4, only: 'f4e3' });
    p = P.practicePlayed(p, 4, { kind: 'mate', value: -1 });
    expect(P.nextPracticeStep(p)).toBeNull();
    const judged = P.practiceReview(p)!;
    expect(judged.review.plies.map((x) => x.mark)).toEqual(['', '??']);
    expect(P.practiceVerdict(judged.moves[1], judged.review.plies[1])).toBe('Blunder: f4e3??. Best was c1d2.');
    expect(P.practiceVerdict(judged.moves[0], judged.review.plies[0])).toBe('Best move: d2c1.');
    expect(P.practiceSummary(p)?.text).toMatch(
      /^Your accuracy \d+% over 2 moves: 0 inaccuracies, 0 mistakes, 1 blunder\.$/,
    );
  });

  it('gives each move the mark a review of the same game gives it, from the same scores', () => {
    // the same searches' scores to both: a practice from the start, and the page's review of that game
    const line = ['c1d2', 'a5b4', 'd2c1', 'b4a5', 'f4e3', 'a5b4'];
    const best = ['c1d2', 'a5b4', 'e1e2', 'b4a5', 'c1d2', 'a5b4', 'c1d2'];
    const scores: Score[] = [cp(10), cp(-10), cp(40), cp(-40), cp(60), { kind: 'mate', value: 1 }, cp(0)];
    const played: Score[] = [
      cp(10),
      cp(-10),
      cp(-130),
      cp(-40),
      { kind: 'mate', value: -1 },
      { kind: 'mate', value: 1 },
    ];
    // the review: every position, the moves Thoth did not choose alone
    let rv = R.startReview(analysis(line));
    const key = rv.review!.key;
    for (let i = 0; i < line.length; i++) {
      rv = R.reviewScore(rv, key, i, scores[i], best[i]);
      if (best[i] !== line[i]) rv = R.reviewPlayedScore(rv, key, i, played[i]);
    }
    rv = R.reviewScore(rv, key, line.length, scores[line.length], best[line.length]);
    const marks = R.reviewMarks(rv);
    // the practice: Silver's moves of the same game
    const { state, practice } = P.startPractice(analysis([], 0), { side: 0, level: 3, tc: '' }, 0)!;
    let p = P.practiceMoves(practice, play(state, line));
    for (let step = P.nextPracticeStep(p); step; step = P.nextPracticeStep(p))
      p =
        step.only === undefined
          ? P.practiceBest(p, step.index, scores[step.index], best[step.index])
          : P.practicePlayed(p, step.index, played[step.index]);
    const judged = P.practiceReview(p)!;
    expect(judged.moves.map((m) => m.index)).toEqual([0, 2, 4]);
    const practiceMarks = judged.moves.map((m, k) => [m.index, judged.review.plies[k].mark]);
    expect(practiceMarks).toEqual([0, 2, 4].map((i) => [i, marks.get(i) ?? '']));
    expect(practiceMarks.map(([, m]) => m)).toEqual(['', '?', '??']);
  });

  it('needs no search of its own for a move that hits the Pharaoh, and never marks it', () => {
    // Red's b4a3 hits Silver's Pharaoh after f4e3: Red practises
    const s = analysis([...BLUNDER_LINE, 'f4e3']);
    const { state, practice } = P.startPractice(s, { side: 1, level: 3, tc: '' }, 0)!;
    let p = P.practiceMoves(practice, play(state, ['b4a3']));
    expect(p.moves[0].hit).toBe(true);
    p = P.practiceBest(p, 3, { kind: 'mate', value: 1 }, 'a4a3');
    expect(P.nextPracticeStep(p)).toBeNull();
    expect(P.practiceReview(p)!.review.plies[0].mark).toBe('');
  });

  it('forgets a move taken back', () => {
    const { state, practice } = P.startPractice(analysis(BLUNDER_LINE), { side: 0, level: 3, tc: '' }, 0)!;
    const g = play(state, ['f4e3', 'h8h7']);
    let p = P.practiceMoves(practice, g);
    p = P.practiceBest(p, 2, cp(0), 'c1d2');
    expect(p.moves).toHaveLength(1);
    const back = S.takeBack(g, 0);
    expect(texts(back)).toEqual(BLUNDER_LINE);
    expect(P.practiceMoves(p, back).moves).toEqual([]);
  });

  it('writes the marks into the tree as NAGs with the best move, kept in the record and back in the analysis board', () => {
    const s = analysis([...BLUNDER_LINE, 'f4e3', 'b4a3'], 2);
    const { state, practice } = P.startPractice(s, { side: 0, level: 3, tc: '' }, 0)!;
    const g = play(state, ['f4e3', 'b4a3']);
    let p = P.practiceMoves(practice, g);
    p = P.practicePlayed(P.practiceBest(p, 2, cp(0), 'd2c1'), 2, { kind: 'mate', value: -1 });
    const marked = P.markPracticeTree(g, p);
    const n = nodeAt(marked.tree, [0, 0, 0]);
    expect(n?.nags).toEqual([4]);
    expect(n?.comment).toBe('Best was d2c1.');
    // once
    expect(P.markPracticeTree(marked, p)).toBe(marked);
    expect(exportGame(exportInput(marked, 'Thoth'))).toMatch(/f4e3 \$4 \{Best was d2c1\.\}/);
    expect(P.practiceDone(marked, p)).toBe(true);
    // back: the analysis board's tree, the practice line merged into its own line (which had the same moves)
    const back = P.practiceBackToAnalysis(s, marked, p);
    expect(back.mode).toBe('analysis');
    expect(back.path).toEqual([0, 0, 0, 0]);
    expect(back.tree.children).toHaveLength(1);
    expect(nodeAt(back.tree, [0, 0, 0])?.nags).toEqual([4]);
    // a practice line that differs becomes a variation
    const other = P.practiceBackToAnalysis(s, play(state, ['d2c1']), p);
    expect(other.path).toEqual([0, 0, 1]);
    expect(texts(other)).toEqual([...BLUNDER_LINE, 'f4e3', 'b4a3']);
  });

  it("stops Thoth's clock while a move is judged, and starts it again after", () => {
    const { state } = P.startPractice(analysis(BLUNDER_LINE), { side: 0, level: 3, tc: '60+0' }, 0)!;
    const g = play(state, ['f4e3'], 1000);
    expect(g.clock?.running).toBe(1);
    const held = P.holdClockForJudging(g, true, 2000);
    expect(held.clock?.running).toBe(-1);
    expect(P.holdClockForJudging(held, true, 3000)).toBe(held);
    const going = P.holdClockForJudging(held, false, 9000);
    expect(going.clock?.running).toBe(1);
    // Red's time: untouched by the seven seconds judging took
    expect(going.clock?.remaining[1]).toBe(held.clock?.remaining[1]);
  });
});

describe('watch Thoth play itself', () => {
  it('adds each move at the end of the watched line, the board following it when it showed that end', () => {
    const s = analysis([]);
    let w = W.startWatch(s, 500)!;
    expect(W.watchGo(w)).toBe('go movetime 500');
    let r = W.watchPlayed(s, w, 'c1d2', { depth: 9 });
    expect(texts(r.state)).toEqual(['c1d2']);
    expect(r.state.path).toEqual([0]);
    expect(nodeAt(r.state.tree, [0])?.engine).toEqual({ depth: 9 });
    w = r.watch!;
    expect(w).toMatchObject({ at: [0], from: [], running: true, played: 1 });
    // the person looks back at the start: the line grows, the board stays
    r = W.watchPlayed(S.goTo(r.state, []), w, 'a5b4', {});
    expect(r.state.path).toEqual([]);
    expect(texts(r.state)).toEqual(['c1d2', 'a5b4']);
    expect(W.pauseWatch(r.watch!).running).toBe(false);
    expect(W.resumeWatch(W.pauseWatch(r.watch!)).running).toBe(true);
    expect(W.setWatchSpeed(r.watch!, 200).moveMs).toBe(200);
  });

  it('makes a variation where the position already had a next move', () => {
    const s = analysis(['c1d2', 'a5b4'], 1);
    const r = W.watchPlayed(s, W.startWatch(s, 200)!, 'h8h7', {});
    expect(r.state.path).toEqual([0, 1]);
    expect(texts(r.state)).toEqual(['c1d2', 'a5b4']);
  });

  it('ends at the end of the game, and refuses an illegal move with a word, the tree as it was', () => {
    const s = analysis([...BLUNDER_LINE, 'f4e3']);
    const r = W.watchPlayed(s, W.startWatch(s, 200)!, 'b4a3', {});
    expect(r.watch?.running).toBe(false);
    expect(W.watchOver(r.state, r.watch!)).toBe(true);
    expect(W.startWatch(r.state, 200)).toBeNull();
    const bad = W.watchPlayed(s, W.startWatch(s, 200)!, 'j9j9', {});
    expect(bad.watch).toBeNull();
    expect(bad.state.tree).toBe(s.tree);
    expect(bad.state.message).toBe('Thoth played j9j9, not a legal move here: watching stopped.');
  });
});

it('the practice test positions are what they say', () => {
  const t = newTree('khet2', analysis([]).tree.startKfen);
  expect(t.ok && addMoves(t.value, [], [...BLUNDER_LINE, 'f4e3', 'b4a3']).ok).toBe(true);
});
