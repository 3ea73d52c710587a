/**
 * *Practice from here* (docs/gui.md, "Practice and watch"), its pure part: from a position of the
 * analysis board the person plays on against Thoth, and each of their moves is judged as the
 * review judges a move — the same searches (src/analysis/review-method.ts: the position before the
 * move to the review's depth, then the move alone with `searchmoves` where Thoth chose another) and
 * the same judge (src/analysis/review.ts's reviewGame over review-method.ts's plyEval): the mark
 * (?!, ?, ??), "Best was …", and at the end the person's accuracy and counts. The marks go into the
 * move tree as NAGs with the best move as a comment, so the record keeps them, as a review's. No
 * DOM, no engine: ../modes/practicemode.ts runs the searches and draws the card.
 */
import {
  reviewGame,
  REPETITION_WORDS,
  type GameReview,
  type PlyReview,
  type Repetition,
} from '../../../analysis/review';
import { needsPlayedSearch, plyEval, repetitionAfter } from '../../../analysis/review-method';
import { startClock, stopClock } from './clock';
import type { Score } from './evaluation';
import { newGame, setMode, setSettings } from './game-start';
import { endPath, endPosition, isOver } from './state-queries';
import type { PageState, Settings } from './state-types';
import { markedMoveText } from './gamereview';
import {
  addMove,
  addMoves,
  mainline,
  mainlinePath,
  newTree,
  nodeAt,
  positionAt,
  updateNode,
  type GameTree,
  type Path,
} from './tree';

/** One of the person's moves and what the review's searches found for it (scores: the mover's view). */
export interface PracticeMove {
  /** Its index in the practice game's main line (0 = the game's first move). */
  index: number;
  move: string;
  side: 0 | 1;
  /** It hit the opponent's Pharaoh (never marked, needs no search of its own). */
  hit: boolean;
  repetition?: Repetition;
  /** The position's score and Thoth's choice there, once searched. */
  best?: Score;
  bestMove?: string;
  /** The move's own score, once searched (`best` when Thoth chose it too). */
  played?: Score;
}

export interface Practice {
  /** The main-line length where practice began (the moves before it are the analysed line's). */
  from: number;
  /** The person's side. */
  side: 0 | 1;
  /** The analysis board's path where practice began (the line goes back into its tree there). */
  origin: Path;
  moves: readonly PracticeMove[];
}

/** What *Practice from here* asks: Thoth's level, the clock (`''`: none), the person's colour. */
export type PracticeChoice = Pick<Settings, 'level' | 'tc'> & { side: 0 | 1 };

/**
 * *Practice from here*: a game against Thoth from the shown position of the analysis board, its
 * main line the moves that led there (so that repetitions count as they would), with the level,
 * clock and colour chosen. Null when the shown position is over.
 */
export function startPractice(
  s: PageState,
  choice: PracticeChoice,
  now: number,
): { state: PageState; practice: Practice } | null {
  const moves: string[] = [];
  for (let k = 1; k <= s.path.length; k++) {
    const n = nodeAt(s.tree, s.path.slice(0, k));
    if (!n) return null;
    moves.push(n.ply.text);
  }
  const t = newTree(s.tree.edition, s.tree.startKfen);
  if (!t.ok) return null;
  const line = addMoves(t.value, [], moves);
  if (!line.ok) return null;
  const base = setSettings(setMode({ ...s, editor: null }, 'engine', now), { level: choice.level, tc: choice.tc });
  const started = newGame(base, line.value.tree, { now });
  const state: PageState = { ...started, humanSide: choice.side, flipped: choice.side === 1 };
  if (isOver(state)) return null;
  return { state, practice: { from: moves.length, side: choice.side, origin: s.path, moves: [] } };
}

/**
 * The practice after a transition of its game: the person's moves of the main line from where it
 * began, each kept with what was found for it (a move taken back is forgotten, a new one added).
 */
export function practiceMoves(p: Practice, s: PageState): Practice {
  const line = mainline(s.tree);
  const out: PracticeMove[] = [];
  const pos = positionAt(s.tree, mainlinePath(p.from));
  for (let i = p.from; i < line.length; i++) {
    const mover = pos.side as 0 | 1;
    pos.make(line[i].ply.move);
    if (mover !== p.side) continue;
    const text = line[i].ply.text;
    const had = p.moves.find((m) => m.index === i && m.move === text);
    if (had) out.push(had);
    else {
      const repetition = repetitionAfter(pos);
      out.push({ index: i, move: text, side: mover, hit: pos.winner === mover, ...(repetition ? { repetition } : {}) });
    }
  }
  const same = out.length === p.moves.length && out.every((m, k) => m === p.moves[k]);
  return same ? p : { ...p, moves: out };
}

/** A search the judgement needs: the position before move `index`, or that move alone (`only`). */
export interface PracticeStep {
  index: number;
  only?: string;
}

/** The next search the practice needs, in the order of the moves, or null when all are judged. */
export function nextPracticeStep(p: Practice): PracticeStep | null {
  for (const m of p.moves) {
    if (m.best === undefined) return { index: m.index };
    if (m.played === undefined) return { index: m.index, only: m.move };
  }
  return null;
}

/** The position's score and Thoth's choice before move `index` (the played move's too when it is that choice, or a hit). */
export function practiceBest(p: Practice, index: number, score: Score, bestMove: string | undefined): Practice {
  return withMove(p, index, (m) => {
    const own = !needsPlayedSearch(bestMove ?? '', m.move, m.hit);
    return { ...m, best: score, bestMove, ...(own ? { played: score } : {}) };
  });
}

/** The score of move `index` searched alone. */
export function practicePlayed(p: Practice, index: number, score: Score): Practice {
  return withMove(p, index, (m) => (m.best === undefined ? m : { ...m, played: score }));
}

function withMove(p: Practice, index: number, f: (m: PracticeMove) => PracticeMove): Practice {
  const k = p.moves.findIndex((m) => m.index === index);
  if (k < 0) return p;
  const moves = p.moves.slice();
  moves[k] = f(moves[k]);
  return { ...p, moves };
}

/** The moves judged so far, from the first: those whose searches are all done, up to the first that is not. */
function judgedMoves(p: Practice): PracticeMove[] {
  const out: PracticeMove[] = [];
  for (const m of p.moves) {
    if (m.best === undefined || m.played === undefined) break;
    out.push(m);
  }
  return out;
}

/** The person's judged moves as the review judges them (null before the first), with each move's index in the game. */
export function practiceReview(p: Practice): { review: GameReview; moves: PracticeMove[] } | null {
  const moves = judgedMoves(p);
  if (moves.length === 0) return null;
  const review = reviewGame(
    moves.map((m) =>
      plyEval({
        side: m.side,
        best: m.best as Score,
        played: m.played as Score,
        hit: m.hit,
        ...(m.repetition ? { repetition: m.repetition } : {}),
      }),
    ),
  );
  return { review, moves };
}

/** The words on a judged move: `Blunder: f4e3??. Best was b2b3.`, or `Good move: c1d2.`. */
export function practiceVerdict(m: PracticeMove, ply: PlyReview): string {
  if (!ply.mark) return `${m.hit ? 'It wins' : m.bestMove === m.move ? 'Best move' : 'Good move'}: ${m.move}.`;
  const reason = ply.reason || (m.repetition ? REPETITION_WORDS[m.repetition] : '');
  return markedMoveText(ply.mark, m.move, reason, m.bestMove ?? '');
}

/** The comment a marked move carries in the record. */
export const bestComment = (bestMove: string): string => `Best was ${bestMove}.`;

/**
 * The practice game with its judged marks written into the tree: each marked move's NAG ($6 ?!,
 * $2 ?, $4 ??) and "Best was …" as its comment. Moves already marked are left as they are.
 */
export function markPracticeTree(s: PageState, p: Practice): PageState {
  const judged = practiceReview(p);
  if (!judged) return s;
  let tree = s.tree;
  judged.review.plies.forEach((ply, k) => {
    const m = judged.moves[k];
    if (!ply.mark || !m.bestMove) return;
    const path = mainlinePath(m.index + 1);
    const n = nodeAt(tree, path);
    if (!n || n.ply.text !== m.move || n.nags?.includes(ply.nag)) return;
    const comment = bestComment(m.bestMove);
    tree = updateNode(tree, path, (x) => ({
      ...x,
      nags: [ply.nag, ...(x.nags ?? [])],
      comment: x.comment ? `${x.comment} ${comment}` : comment,
    }));
  });
  return tree === s.tree ? s : { ...s, tree };
}

/** The person's summary: accuracy and the counts of marks (null before a move is judged). */
export function practiceSummary(p: Practice): { accuracy: number; moves: number; text: string } | null {
  const judged = practiceReview(p);
  if (!judged) return null;
  const side = judged.review.sides[p.side];
  const counts = [
    [side.inaccuracies, 'inaccuracy', 'inaccuracies'],
    [side.mistakes, 'mistake', 'mistakes'],
    [side.blunders, 'blunder', 'blunders'],
  ] as const;
  const marks = counts.map(([n, one, many]) => `${n} ${n === 1 ? one : many}`).join(', ');
  const acc = Math.round(side.accuracy);
  return {
    accuracy: acc,
    moves: side.moves,
    text: `Your accuracy ${acc}% over ${side.moves} move${side.moves === 1 ? '' : 's'}: ${marks}.`,
  };
}

/** Whether the practice game is over and every move of the person's is judged. */
export const practiceDone = (s: PageState, p: Practice): boolean => isOver(s) && nextPracticeStep(p) === null;

/**
 * While a move of the person's is being judged Thoth has not been asked for its reply: its clock
 * stands still (the judging is the page's time, neither player's), and runs again after.
 */
export function holdClockForJudging(s: PageState, judging: boolean, now: number): PageState {
  const c = s.clock;
  if (!c || s.mode !== 'engine' || isOver(s) || endPath(s).length === 0) return s;
  if (judging && c.running >= 0) return { ...s, clock: stopClock(c, now) };
  if (!judging && c.running < 0) return { ...s, clock: startClock(c, endPosition(s).side, now) };
  return s;
}

/**
 * The analysis board the practice began from, with the practice game's moves after the position
 * it began at added to its tree as a line (with their marks, comments, clocks and Thoth's notes),
 * the board showing the line's last position: *Back to the analysis*.
 */
export function practiceBackToAnalysis(kept: PageState, game: PageState, p: Practice): PageState {
  const line = mainline(game.tree).slice(p.from);
  let tree: GameTree = kept.tree;
  let path = p.origin;
  for (const n of line) {
    const extra: Parameters<typeof addMove>[3] = {};
    if (n.nags) extra.nags = n.nags;
    if (n.comment) extra.comment = n.comment;
    if (n.engine) extra.engine = n.engine;
    if (n.clocks) extra.clocks = n.clocks;
    ({ tree, path } = addMove(tree, path, n.ply.move, extra));
  }
  return { ...kept, tree, path, preview: null, message: '' };
}
