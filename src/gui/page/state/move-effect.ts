/**
 * What a move does, as the page draws it: the mover's laser beam after the move and the piece it
 * removed. Computed once per move with the rules core and kept with the move.
 */
import { formatMove, tracePath, type BeamPath, type Position } from '../../../core/index';

/** Where a side's laser starts: a Sphinx on the board, or a laser fixed in the board's edge. */
export interface LaserSource {
  square: number;
  dir: number;
  /** A fixed laser strikes the first square itself; a Sphinx's beam starts on the next one. */
  strikeFirst: boolean;
}

export interface PlyInfo {
  move: number;
  text: string;
  /** Colour that made the move. */
  side: number;
  /** The beam of the mover's laser after the move. */
  beam: BeamPath;
  laser: LaserSource;
  /** Square and piece the laser removed (the whole code before removal), or -1 / 0. */
  killedSq: number;
  killedPiece: number;
}

/** The laser of `side` on `board` (a Sphinx's facing is read from the board). */
function laserSource(pos: Position, side: number, board: Uint8Array = pos.board): LaserSource {
  const ed = pos.edition;
  const square = ed.laserSquare[side];
  return ed.sphinx
    ? { square, dir: board[square] & 3, strikeFirst: false }
    : { square, dir: ed.laserDir[side], strikeFirst: true };
}

/** Where the laser of `side` would go if it fired now. */
export function laserPath(pos: Position, side: number): { beam: BeamPath; laser: LaserSource } {
  const laser = laserSource(pos, side);
  return { beam: tracePath(pos.board, laser.square, laser.dir, laser.strikeFirst), laser };
}

/** What a legal move does in `pos` (the position is left after the move). */
export function playPly(pos: Position, move: number): PlyInfo {
  const side = pos.side;
  const text = formatMove(move);
  const killedSq = pos.make(move);
  const killedPiece = killedSq >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
  // The beam ran over the board before the removal: put the removed piece back to trace it.
  const board = Uint8Array.from(pos.board);
  if (killedSq >= 0) board[killedSq] = killedPiece;
  const laser = laserSource(pos, side, board);
  const beam = tracePath(board, laser.square, laser.dir, laser.strikeFirst);
  return { move, text, side, beam, laser, killedSq, killedPiece };
}
