/**
 * Premoves: the move a person picks while Thoth thinks, in the position as it stands with them to
 * move (game-moves.ts plays it right after Thoth's move).
 */
import { parseKfen, toKfen, type Position } from '../../../core/index';
import { atEnd, endPosition, humanMayMove, isOver, viewPosition } from './state-queries';
import type { PageState } from './state-types';

/**
 * Premoves: while Thoth thinks about its move, the person may pick their next one in the position
 * as it stands (with them to move). Null when no premove can be made now.
 */
export function premovePosition(s: PageState): Position | null {
  if (s.mode !== 'engine' || s.preview || !atEnd(s) || isOver(s) || !s.engineAvailable || s.pendingReply) return null;
  const pos = endPosition(s);
  if (pos.side === s.humanSide) return null;
  const f = toKfen(pos).split(' ');
  f[1] = pos.edition.sideChars[s.humanSide];
  const r = parseKfen(f.join(' '), s.tree.edition);
  return r.ok ? r.value : null;
}

/** The position the person picks pieces in now: the shown one, or the premove position, or none. */
export function pickPosition(s: PageState): Position | null {
  return humanMayMove(s) ? viewPosition(s) : premovePosition(s);
}

/** Sets (or with null cancels) the premove. */
export function setPremove(s: PageState, text: string | null): PageState {
  return { ...s, premove: text, selected: -1, aim: null, armed: null, message: '' };
}
