/**
 * What the page's state says without changing it: the shown position and the game's end, the
 * game's result (a Pharaoh hit, a draw rule, or an ending decided off the board), who may move
 * now, and the draw a rule lets the side to move claim.
 */
import { EDITIONS, formatMove, gameStatus, legalMoves, type GameStatus, type Position } from '../../../core/index';
import type { Score } from './evaluation';
import type { Ending, PageState } from './state-types';
import { mainlineEnd, positionAt, samePath, type Path } from './tree';

export const endPath = (s: PageState): Path => mainlineEnd(s.tree);
export const gameLength = (s: PageState): number => endPath(s).length;
export const atEnd = (s: PageState): boolean => samePath(s.path, endPath(s));
export const viewPosition = (s: PageState): Position => positionAt(s.tree, s.path);
export const endPosition = (s: PageState): Position => positionAt(s.tree, endPath(s));
export const positionAtPath = (s: PageState, path: Path): Position => positionAt(s.tree, path);
export const gameStatusOf = (pos: Position): GameStatus['result'] => gameStatus(pos).result;
export const colorNames = (s: PageState): readonly [string, string] => EDITIONS[s.tree.edition].colorNames;

/** The game's result: an ending decided off the board, or the board's own (Pharaoh hit, draw rules). */
export function gameResult(s: PageState): Ending | null {
  if (s.ending) return s.ending;
  const st = gameStatus(endPosition(s));
  if (st.result === 'ongoing') return null;
  if (st.result === 'draw') return { result: '1/2-1/2', text: st.text, termination: 'normal' };
  return { result: st.winner === 0 ? '1-0' : '0-1', text: st.text, termination: 'normal' };
}

export const isOver = (s: PageState): boolean => gameResult(s) !== null;

/** Is this a game being played (moves made, not over, not analysis)? Abandoning it needs a confirmation. */
export const gameInProgress = (s: PageState): boolean => s.mode !== 'analysis' && gameLength(s) > 0 && !isOver(s);

/** Thoth's side against the person, or -1 when Thoth does not play. */
export const thothSide = (s: PageState): number => (s.mode === 'engine' ? s.humanSide ^ 1 : -1);

/** May a person move pieces in the shown position now? */
export function humanMayMove(s: PageState): boolean {
  if (s.preview) return false;
  const pos = viewPosition(s);
  if (pos.winner >= 0 || gameStatus(pos).result !== 'ongoing') return false;
  if (s.mode === 'analysis') return true;
  if (!atEnd(s) || isOver(s)) return false;
  if (s.mode === 'engine') return pos.side === s.humanSide && s.engineAvailable && !s.pendingReply;
  return true;
}

/** The draw the side to move may claim at the end of the game: a move reaching a draw by rule. */
export function drawClaim(pos: Position): { move: string; text: string } | null {
  if (gameStatus(pos).result !== 'ongoing') return null;
  for (const m of legalMoves(pos)) {
    const q = pos.clone();
    q.make(m);
    const st = gameStatus(q);
    if (st.result === 'draw' && (st.reason === 'repetition' || st.reason === 'no-removal')) {
      const why =
        st.reason === 'repetition'
          ? 'the position would occur a third time'
          : 'no piece would have been removed for the limit';
      return { move: formatMove(m), text: why };
    }
  }
  return null;
}

/** Thoth takes a draw when its own evaluation says it is not better (score from its view). */
export function thothAcceptsDraw(score: Score | undefined): boolean {
  if (!score) return false;
  return score.kind === 'mate' ? score.value < 0 : score.value <= 0;
}
