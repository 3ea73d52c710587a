/**
 * "Learn from your mistakes" (docs/gui.md), its pure part: after a review, the person's own
 * mistakes and blunders (the review's `?` and `??` on the learner's moves) as tasks, and the
 * judgement of a move tried instead, by the review's own rule (src/analysis/review.ts): a try is
 * good when the review would not mark it, that is when it drops the mover's win chance from the
 * reviewed position's score by less than the inaccuracy threshold (or it hits the Pharaoh). No
 * DOM: ../modes/learnmode.ts draws it and hooks it into the page.
 */
import { gameStatus, type Position } from '../../../core/index';
import { reviewGame } from '../../../analysis/review';
import type { Score } from './evaluation';
import { gameReview, currentReview } from './gamereview';
import type { PageState } from './state';
import { mainline, positionAt } from './tree';

export interface Mistake {
  /** The move's index in the main line (0 = the first move). */
  index: number;
  /** The main line's moves before it: the position to find a better move in. */
  moves: string[];
  played: string;
  mark: '?' | '??';
  /** The review's best move there. */
  best: string;
  /** The review's score of the position, from the mover's point of view. */
  before: Score;
  side: 0 | 1;
  /** Its move number as the move list writes it: `12.` (first player) or `12…`. */
  label: string;
}

/**
 * The side whose mistakes are offered: the person's against Thoth (the game names one side
 * "Human": the players of a game played here, else an imported record's White and Black tags),
 * else the side at the bottom of the board.
 */
export function learnerSide(s: PageState): 0 | 1 {
  const tag = (k: string): string | undefined => s.tags.find(([t]) => t === k)?.[1];
  const p = s.players ?? [tag('White'), tag('Black')];
  if ((p[0] === 'Human') !== (p[1] === 'Human')) return p[0] === 'Human' ? 0 : 1;
  return s.flipped ? 1 : 0;
}

/** The learner's mistakes and blunders of a completely reviewed main line, in game order. */
export function mistakesToLearn(s: PageState): Mistake[] {
  const g = gameReview(s);
  const r = currentReview(s);
  if (!g || !r) return [];
  const side = learnerSide(s);
  const line = mainline(s.tree).map((n) => n.ply.text);
  const out: Mistake[] = [];
  for (const p of g.plies) {
    if (p.side !== side || (p.mark !== '?' && p.mark !== '??')) continue;
    const best = r.best?.[p.ply];
    const before = r.scores[p.ply];
    if (!best || !before || best === line[p.ply]) continue;
    const pos = positionAt(s.tree, new Array<number>(p.ply).fill(0));
    out.push({
      index: p.ply,
      moves: line.slice(0, p.ply),
      played: line[p.ply],
      mark: p.mark,
      best,
      before,
      side,
      label: `${pos.moveNumber}${pos.side === 0 ? '.' : '…'}`,
    });
  }
  return out;
}

/**
 * The score, from the mover's point of view, of a try that ends the game (a hit on the opponent's
 * Pharaoh: a win; on the mover's own: a loss; a draw), or null while it goes on (then Thoth scores
 * it). `after` is the position after the try.
 */
export function endedTry(m: Mistake, after: Position): Score | null {
  const st = gameStatus(after);
  if (st.result === 'win') return { kind: 'mate', value: st.winner === m.side ? 1 : -1 };
  if (st.result === 'draw') return { kind: 'cp', value: 0 };
  return null;
}

/**
 * Is a move tried instead of the mistake good enough? `score` is the try's score from the mover's
 * point of view, as the review scores a move (the position before it searched for that move alone).
 */
export function goodTry(m: Mistake, score: Score): boolean {
  const [ply] = reviewGame([{ side: m.side, before: m.before, after: score }]).plies;
  return ply.judgement === null;
}
