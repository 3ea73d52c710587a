/**
 * The board's 180° symmetry (docs/rules.md §6): every square turned about the centre, colours
 * swapped, every piece turned 180°. Pure helpers, not for the hot path.
 */
import { makeMove, moveFrom, moveTo, moveType } from './move';
import { colorOf, hasOrientation, kindOf, makePiece, oriOf } from './pieces';
import { Position } from './position';
import { SQUARES, mirrorSquare } from './squares';

/** A piece code turned 180° and given to the other colour (0 stays 0). */
export function mirrorPiece(p: number): number {
  if (p === 0) return 0;
  const kind = kindOf(p);
  return makePiece(colorOf(p) ^ 1, kind, hasOrientation(kind) ? (oriOf(p) + 2) & 3 : 0);
}

/** The board turned 180°, colours swapped, every piece turned 180°. */
export function mirrorBoard(board: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(SQUARES);
  for (let sq = 0; sq < SQUARES; sq++) out[mirrorSquare(sq)] = mirrorPiece(board[sq]);
  return out;
}

/** The move that does in the mirrored position what `m` does in the original. */
export function mirrorMove(m: number): number {
  return makeMove(mirrorSquare(moveFrom(m)), mirrorSquare(moveTo(m)), moveType(m));
}

/**
 * A new position (same edition and rules, no history) with the board mirrored and the other
 * side to move; the counters are kept.
 */
export function mirrorPosition(pos: Position): Position {
  const p = new Position(pos.edition, pos.rules);
  p.setup(mirrorBoard(pos.board), pos.side ^ 1, pos.pliesSinceRemoval, pos.moveNumber);
  return p;
}
