/**
 * The review of a game in the page, by the method `thoth analyse --game` follows
 * (src/analysis/review-method.ts): Thoth searches every position of the main line to a fixed
 * depth, and the move played alone where it chose another; the review logic (src/analysis/
 * review.ts: win chance, ?!/?/??, accuracy) judges the moves. Also the win chances the eval bar
 * and the graph show. Pure transitions and derived data.
 */
import { gameStatus } from '../../../core/index';
import { reviewGame, winChance, type GameReview, type PlyEval } from '../../../analysis/review';
import { needsPlayedSearch, plyEval, repetitionAfter, type MoveSearches } from '../../../analysis/review-method';
import { proveForcedHits } from '../../../analysis/review-proof';
import type { Score } from './evaluation';
import { endPath, isOver, type PageState, type ReviewState } from './state';
import { mainline, mainlinePath, pathKey, positionAt } from './tree';

export const mainlineKey = (s: PageState): string =>
  `${s.tree.startKfen}|${mainline(s.tree)
    .map((n) => n.ply.text)
    .join(' ')}`;

const prefix = mainlinePath;

/** Starts a review of the main line; the final position of a finished game needs no engine. */
export function startReview(s: PageState): PageState {
  const len = endPath(s).length;
  const scores: (Score | undefined)[] = new Array(len + 1).fill(undefined);
  const last = positionAt(s.tree, prefix(len));
  const st = gameStatus(last);
  if (st.result === 'win') scores[len] = { kind: 'mate', value: st.winner === last.side ? 1 : 0 };
  else if (st.result === 'draw') scores[len] = { kind: 'cp', value: 0 };
  return { ...s, review: { key: mainlineKey(s), scores } };
}

/** The review of the current main line, or null (none, or the line changed since). */
export function currentReview(s: PageState): ReviewState | null {
  return s.review && s.review.key === mainlineKey(s) ? s.review : null;
}

/** A search the review needs: position `index`, or its move played alone (`only`). */
export interface ReviewStep {
  index: number;
  only?: string;
}

/** The move into position `i + 1` hit the opponent's Pharaoh (that position is scored `mate 0`). */
function hitInto(r: ReviewState, i: number): boolean {
  const next = r.scores[i + 1];
  return next !== undefined && next.kind === 'mate' && next.value === 0;
}

/** Whether move `i` (played as `text`) needs its own search, once its position is scored. */
function wantsPlayed(r: ReviewState, i: number, text: string): boolean {
  const best = r.best?.[i];
  return best !== undefined && needsPlayedSearch(best, text, hitInto(r, i));
}

/** The next search the review needs, in the order of the line, or null when it is complete (or stale). */
export function nextReviewStep(s: PageState): ReviewStep | null {
  const r = currentReview(s);
  if (!r) return null;
  const moves = mainline(s.tree).map((n) => n.ply.text);
  for (let i = 0; i < r.scores.length; i++) {
    if (r.scores[i] === undefined) return { index: i };
    if (i < moves.length && wantsPlayed(r, i, moves[i]) && r.played?.[i] === undefined)
      return { index: i, only: moves[i] };
  }
  return null;
}

/** The position of the next search the review needs, or -1 when it is complete (or stale). */
export function nextReviewIndex(s: PageState): number {
  return nextReviewStep(s)?.index ?? -1;
}

/** The score of move `index` searched alone (the mover's view). */
export function reviewPlayedScore(s: PageState, key: string, index: number, score: Score): PageState {
  const r = s.review;
  if (!r || r.key !== key || index < 0 || index >= r.scores.length - 1) return s;
  const played = (r.played ?? []).slice();
  played[index] = score;
  return { ...s, review: { ...r, played } };
}

export function reviewScore(s: PageState, key: string, index: number, score: Score, best?: string): PageState {
  const r = s.review;
  if (!r || r.key !== key || index < 0 || index >= r.scores.length) return s;
  const scores = r.scores.slice();
  scores[index] = score;
  const bests = (r.best ?? []).slice();
  bests[index] = best;
  return { ...s, review: { ...r, scores, best: bests } };
}

const MARK_WORDS: Record<string, string> = { '??': 'Blunder', '?': 'Mistake', '?!': 'Inaccuracy' };

/** A marked move in words, as lichess says it: `Blunder: c4b3??, <reason>. Best was c4c5.` */
export const markedMoveText = (mark: string, played: string, reason: string, best: string): string =>
  `${MARK_WORDS[mark]}: ${played}${mark}${reason ? `, ${reason}` : ''}. Best was ${best}.`;

/**
 * On a reviewed main-line move marked ??, ? or ?!: what the mover should have played, as lichess
 * says it ("Blunder. Best was c4c5."), with the index of the position it was to be played in.
 */
export function reviewAdvice(s: PageState): { index: number; best: string; text: string } | null {
  const r = currentReview(s);
  const i = s.path.length - 1;
  if (!r || i < 0 || s.path.some((k) => k !== 0)) return null;
  const mark = reviewMarks(s).get(i);
  const best = r.best?.[i];
  const played = mainline(s.tree)[i]?.ply.text;
  if (!mark || !best || !played || best === played) return null;
  const reason = judgedSoFar(s)?.plies[i]?.reason;
  return {
    index: i,
    best,
    text: markedMoveText(mark, played, reason ?? '', best),
  };
}

/**
 * The scores of the moves searched so far, from the first: a move needs its position's score, its
 * own when it needs one, and the next position's (which says whether it hit the Pharaoh).
 */
function moveEvals(s: PageState, r: ReviewState): PlyEval[] {
  const nodes = mainline(s.tree);
  const moves = nodes.map((n) => n.ply.text);
  const pos = positionAt(s.tree, []);
  const first = pos.side;
  const out: MoveSearches[] = [];
  for (let i = 0; i < moves.length; i++) {
    const best = r.scores[i];
    if (best === undefined || r.scores[i + 1] === undefined) break;
    const played = wantsPlayed(r, i, moves[i]) ? r.played?.[i] : best;
    if (played === undefined) break;
    pos.make(nodes[i].ply.move);
    const side = ((first + i) & 1) as 0 | 1;
    out.push({ side, best, played, hit: hitInto(r, i), repetition: repetitionAfter(pos) });
  }
  // a complete review: the forced hits the solver proves where the score moves, as thoth analyse
  // --game does (src/analysis/review-proof.ts), once per review
  if (out.length === moves.length && nextReviewStep(s) === null) {
    let proven = PROVEN.get(r);
    if (proven === undefined) {
      proven = proveForcedHits(
        out.map((_, i) => positionAt(s.tree, prefix(i))).concat(positionAt(s.tree, prefix(out.length))),
        out,
      ).map(plyEval);
      PROVEN.set(r, proven);
    }
    return proven;
  }
  return out.map(plyEval);
}

/** The proven evals of each complete review (its state is replaced, never changed, when it changes). */
const PROVEN = new WeakMap<ReviewState, PlyEval[]>();

/** The judged moves and each side's accuracy, once the review is complete. */
export function gameReview(s: PageState): GameReview | null {
  const r = currentReview(s);
  if (!r || r.scores.length < 2 || nextReviewStep(s) !== null) return null;
  return reviewGame(moveEvals(s, r));
}

/** The moves judged so far (from the start). */
function judgedSoFar(s: PageState): GameReview | null {
  const r = currentReview(s);
  if (!r) return null;
  const evals = moveEvals(s, r);
  return evals.length > 0 ? reviewGame(evals) : null;
}

/** The moves of the line a review key names. */
function keyMoves(key: string): string[] {
  return key
    .slice(key.indexOf('|') + 1)
    .split(' ')
    .filter(Boolean);
}

/**
 * The main line changed (Make main line, Delete from here): the review keeps the scores of the
 * positions both lines share, and goes on to score the rest. `old` is the review before the change.
 */
export function keepSharedReview(s: PageState, old: ReviewState | null): PageState {
  if (!old || s.review !== old || currentReview(s)) return s;
  const start = old.key.slice(0, old.key.indexOf('|'));
  if (start !== s.tree.startKfen) return s;
  const was = keyMoves(old.key);
  const now = mainline(s.tree).map((n) => n.ply.text);
  let k = 0;
  while (k < was.length && k < now.length && was[k] === now[k]) k++;
  const fresh = startReview(s);
  const scores = fresh.review!.scores.slice();
  const best: (string | undefined)[] = [];
  for (let i = 0; i <= k && i < scores.length; i++)
    if (old.scores[i] !== undefined && (i < k || scores[i] === undefined)) {
      scores[i] = old.scores[i];
      best[i] = old.best?.[i];
    }
  // The moves both lines share keep their own scores; the first move that differs is a new move.
  const played = (old.played ?? []).slice(0, k);
  return { ...fresh, review: { ...fresh.review!, scores, best, played } };
}

/** The first player's win chance of a score given from the side to move's view. */
export function firstPlayerWin(score: Score, sideToMove: number): number {
  const w = winChance(score);
  return sideToMove === 0 ? w : 1 - w;
}

/** The first player's win chance at each main-line position, where known (review, else analysis). */
export function mainlineWins(s: PageState): (number | null)[] {
  const len = endPath(s).length;
  const r = currentReview(s);
  const out: (number | null)[] = [];
  for (let i = 0; i <= len; i++) {
    const sc = r?.scores[i];
    if (sc) {
      out.push(firstPlayerWin(sc, positionAt(s.tree, prefix(i)).side));
      continue;
    }
    const e = s.evals[pathKey(prefix(i))];
    out.push(e ? winChance(e) : null);
  }
  return out;
}

/** The first player's win chance in the shown position, for the eval bar (null: not known). */
export function shownWin(s: PageState): number | null {
  const e = s.evals[pathKey(s.path)];
  if (e) return winChance(e);
  const r = currentReview(s);
  const onMain = s.path.every((i) => i === 0);
  const sc = r && onMain ? r.scores[s.path.length] : undefined;
  if (sc) return firstPlayerWin(sc, positionAt(s.tree, s.path).side);
  if (isOver(s) && s.path.length === endPath(s).length && onMain) {
    const st = gameStatus(positionAt(s.tree, s.path));
    return st.result === 'win' ? (st.winner === 0 ? 1 : 0) : 0.5;
  }
  return null;
}

/** The NAGs of reviewed moves ($6 ?!, $2 ?, $4 ??), by main-line move index. */
export function reviewNags(s: PageState): Map<number, number> {
  const g = judgedSoFar(s);
  const m = new Map<number, number>();
  if (g) for (const p of g.plies) if (p.nag) m.set(p.ply, p.nag);
  return m;
}

/** The marks of reviewed moves, by main-line move index (0 = the first move). */
export function reviewMarks(s: PageState): Map<number, string> {
  const g = judgedSoFar(s);
  const m = new Map<number, string>();
  if (g) for (const p of g.plies) if (p.mark) m.set(p.ply, p.mark);
  return m;
}
