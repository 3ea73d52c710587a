/**
 * *Analyse only the moves you pick* (docs/gui.md, "Analysis"): the analysis of the shown position
 * restricted to some of its moves, as the protocol's `go … searchmoves m1 m2 …` restricts a
 * search (protocol.md). The moves are typed as records write them or taken from the lines; each is
 * checked against the position, and the restriction belongs to that position (another position
 * shown is analysed whole, and the restriction is there again on coming back). Pure transitions.
 */
import { formatMove } from '../../../core/index';
import { onlyMoves, shownPositionKey } from './analysis-lines';
import { viewPosition } from './state-queries';
import type { PageState } from './state-types';
import { readTypedMove } from './typed-move';

/** The analysis of the shown position restricted to `moves` (none: the whole position), running. */
function withOnly(s: PageState, moves: readonly string[]): PageState {
  const only = moves.length > 0 ? { at: shownPositionKey(s), moves } : null;
  return { ...s, only, analysing: true, preview: null, message: '' };
}

/**
 * The moves typed (spaces or commas between them, as the move box reads a move: `c1d2, h2+ j1-`):
 * the analysis restricted to them, or, when one is not a legal move here, the state as it was with
 * a message that says which and why. Nothing typed: the whole position again.
 */
export function setOnlyMoves(s: PageState, text: string): PageState {
  const words = text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);
  const pos = viewPosition(s);
  const moves: string[] = [];
  for (const w of words) {
    const m = readTypedMove(pos, w);
    if (!m.ok) return { ...s, message: `Cannot analyse only ${m.text}: ${m.why}.` };
    const f = formatMove(m.move);
    if (!moves.includes(f)) moves.push(f);
  }
  return withOnly(s, moves);
}

/** A move added to the moves analysed, or taken out of them (the last taken out: the whole position). */
export function toggleOnlyMove(s: PageState, move: string): PageState {
  const m = readTypedMove(viewPosition(s), move);
  if (!m.ok) return { ...s, message: `Cannot analyse only ${m.text}: ${m.why}.` };
  const f = formatMove(m.move);
  const now = onlyMoves(s);
  return withOnly(s, now.includes(f) ? now.filter((x) => x !== f) : [...now, f]);
}

/** The whole position analysed again. */
export const clearOnlyMoves = (s: PageState): PageState => (onlyMoves(s).length > 0 ? withOnly(s, []) : s);

/** The protocol's `go` of the analysis: the whole position, or the moves picked (`searchmoves` comes last). */
export function analysisGo(s: PageState): string {
  const only = onlyMoves(s);
  return only.length > 0 ? `go infinite searchmoves ${only.join(' ')}` : 'go infinite';
}
