/**
 * A move typed in the move box under the board (wiring.ts wires the box), as lichess's keyboard
 * move box: in the protocol's notation (docs/rules.md §5.1: `c1d2` a step or swap, `h2+` / `h2-` a
 * rotation, with `R` / `L` read as `+` / `-`, `d1e2u` a stack's top obelisk) it is played on Enter
 * when it is legal, becomes the premove while Thoth thinks, and otherwise the hint says why not.
 */
import { formatMove, parseMove, type Position } from '../../../core/index';
import * as S from './state';

/** The text as the notation writes it: no spaces, lower case, `r` / `l` after a square read as `+` / `-`. */
function normaliseMoveText(text: string): string {
  const t = text.replace(/\s+/g, '').toLowerCase();
  return /^[a-j][1-8][rl]$/.test(t) ? t.slice(0, 2) + (t[2] === 'r' ? '+' : '-') : t;
}

/** Why no move can be typed now (the person may neither move nor premove). */
function whyNot(s: S.PageState): string {
  if (s.preview) return 'a line is being previewed (Esc returns to the game)';
  if (S.isOver(s)) return 'the game is over';
  if (!S.atEnd(s)) return 'you are looking at an earlier position (End returns to the game)';
  return 'it is not your move';
}

/** The page after the typed `text`: the move played (or premoved), or the hint saying why not. */
export function typedMove(s: S.PageState, text: string, now: number): { state: S.PageState; played: boolean } {
  const t = normaliseMoveText(text);
  if (t === '') return { state: s, played: false };
  const may = S.humanMayMove(s);
  const pos = may ? S.viewPosition(s) : S.premovePosition(s);
  if (!pos) return { state: S.setMessage(s, `Cannot play ${t} now: ${whyNot(s)}.`), played: false };
  const m = readTypedMove(pos, t);
  if (!m.ok) return { state: S.setMessage(s, `Cannot play ${t}: ${m.why}.`), played: false };
  return { state: may ? S.playMove(s, m.move, now) : S.setPremove(s, formatMove(m.move)), played: true };
}

/** A move typed as the move box reads one, in `pos`: the move, or why it is none (without the move's own text). */
export function readTypedMove(
  pos: Position,
  text: string,
): { ok: true; move: number; text: string } | { ok: false; text: string; why: string } {
  const t = normaliseMoveText(text);
  const m = parseMove(pos, t);
  if (m.ok) return { ok: true, move: m.value, text: t };
  const why = m.error.message.startsWith(`${t}: `) ? m.error.message.slice(t.length + 2) : m.error.message;
  return { ok: false, text: t, why };
}
