/**
 * The material count beside each player, as lichess shows it: the side with more pieces gets
 * `+N` beside its name. Every piece a laser can remove counts one (an obelisk stack two); the
 * Sphinx and the Pharaoh, never removed in play, do not count. Counted on the board, so a loaded
 * position with unequal forces shows its lead from the start.
 */
import { PHARAOH, SPHINX, STACK, colorOf, kindOf, type Position } from '../../../core/index';

/** The pieces of each colour that count as material. */
export function materialCount(pos: Position): [number, number] {
  const n: [number, number] = [0, 0];
  for (let sq = 0; sq < pos.board.length; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    const k = kindOf(p);
    if (k === SPHINX || k === PHARAOH) continue;
    n[colorOf(p)] += k === STACK ? 2 : 1;
  }
  return n;
}

/** `+N` for the side `color` when it is ahead, '' otherwise. */
export function materialLead(pos: Position, color: number): string {
  const [a, b] = materialCount(pos);
  const lead = color === 0 ? a - b : b - a;
  return lead > 0 ? `+${lead}` : '';
}

/** The lead as HTML, after the removed pieces in a player's bar (no inline style: `thoth gui`'s CSP forbids it). */
export function materialLeadHtml(pos: Position, color: number): string {
  const t = materialLead(pos, color);
  return t
    ? `<span class="material" title="${t.slice(1)} piece${t === '+1' ? '' : 's'} more on the board">${t}</span>`
    : '';
}
