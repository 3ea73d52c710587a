/**
 * Move text (docs/rules.md §5.1), against a position: `e4d5` (step or swap), `e4+` / `e4-`
 * (rotation; `R` / `L` accepted), `j1-` (Sphinx), `d1e2u` (the top obelisk of a stack).
 */
import { MAX_MOVES, ROT_CCW, ROT_CW, UNSTACK, makeMove, moveFrom, moveTo, moveType } from './move';
import { PHARAOH, SCARAB, colorOf, kindOf, KIND_NAMES } from './pieces';
import type { Position } from './position';
import { err, ok, type Result } from './result';
import { parseSquare, squareName } from './squares';

export interface MoveError {
  kind: 'malformed' | 'illegal';
  message: string;
}

export function formatMove(m: number): string {
  const from = moveFrom(m);
  switch (moveType(m)) {
    case ROT_CW:
      return squareName(from) + '+';
    case ROT_CCW:
      return squareName(from) + '-';
    case UNSTACK:
      return squareName(from) + squareName(moveTo(m)) + 'u';
    default:
      return squareName(from) + squareName(moveTo(m));
  }
}

const MOVE_RE = /^([a-j][1-8])(?:([a-j][1-8])(u?)|([+\-RL]))$/;

/** True for text shaped like a move (`e4d5`, `d1e2u`, `e4+`, `e4-`, `e4R`, `e4L`), not checked against a position. */
export function isMoveText(text: string): boolean {
  return MOVE_RE.test(text);
}

/** The legal moves of a position as a fresh array (not for the hot path). */
export function legalMoves(pos: Position): number[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = pos.generate(buf, 0);
  return Array.from(buf.subarray(0, n));
}

/** Parses move text against a position: the legal move it names, or why it names none. */
const PARSE_MOVES = new Int32Array(MAX_MOVES);

export function parseMove(pos: Position, text: string): Result<number, MoveError> {
  const t = typeof text === 'string' ? text.trim() : '';
  const m = MOVE_RE.exec(t);
  if (!m) {
    return err({ kind: 'malformed', message: `'${t}' is not a move (expected e.g. e4d5, e4+, e4-, d1e2u)` });
  }
  const from = parseSquare(m[1]);
  const p = pos.board[from];
  // The legal moves in a buffer reused from call to call (no list made: importing a database
  // parses millions of moves); nothing here calls back into parseMove.
  const n = pos.generate(PARSE_MOVES, 0);
  if (p === 0) return err({ kind: 'illegal', message: `${t}: no piece on ${m[1]}` });
  if (colorOf(p) !== pos.side) {
    return err({ kind: 'illegal', message: `${t}: the piece on ${m[1]} is not ${pos.edition.colorNames[pos.side]}'s` });
  }
  if (pos.winner >= 0) return err({ kind: 'illegal', message: `${t}: the game is over` });
  let want: number;
  if (m[4] !== undefined) {
    let type = m[4] === '+' || m[4] === 'R' ? ROT_CW : ROT_CCW;
    const kind = kindOf(p);
    // one rotation only (+ and - are the same move), unless the dialect counts both (twoScarabRotations)
    if ((kind === SCARAB || kind === PHARAOH) && pos.scarabTurns === 1) type = ROT_CW;
    want = makeMove(from, from, type);
  } else {
    const to = parseSquare(m[2]);
    want = -1;
    for (let i = 0; i < n; i++) {
      const lm = PARSE_MOVES[i];
      if (moveFrom(lm) === from && moveTo(lm) === to && moveType(lm) !== ROT_CW && moveType(lm) !== ROT_CCW) {
        if ((m[3] === 'u') === (moveType(lm) === UNSTACK)) want = lm;
      }
    }
    if (want < 0)
      return err({
        kind: 'illegal',
        message: `${t}: illegal ${m[3] === 'u' ? 'unstacking ' : ''}move for the ${KIND_NAMES[kindOf(p)]} on ${m[1]}`,
      });
  }
  if (!PARSE_MOVES.subarray(0, n).includes(want)) {
    return err({ kind: 'illegal', message: `${t}: the ${KIND_NAMES[kindOf(p)]} on ${m[1]} cannot make that rotation` });
  }
  return ok(want);
}
