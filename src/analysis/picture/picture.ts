/**
 * Pictures of positions and lines, from the rules core's data: a position with its beams, the
 * danger map, arrows and marked squares, as SVG or PNG; a game or a line as an animation (GIF or
 * APNG), one frame a move with that move's shot drawn and its victim crossed out. `thoth picture`
 * and the page's export buttons both make theirs here (no DOM, no Node).
 */
import { type BeamStep, type Position, formatMove, threatMap, tracePath, traceShot } from '../../core/index';
import type { NoteArrow, SquareMark } from '../../core/record';
import { type Picture, boardPicture } from './board-picture';
import { encodeGif } from './gif';
import { encodeApng, encodePng, type Zlib } from './png';
import { rasterize } from './raster';
import { pictureSvg } from './svg';

/** Which beams a still picture draws: none, the side to move's, or both sides'. */
export type BeamChoice = 'none' | 'mover' | 'both';

interface PositionPictureOptions {
  squarePx?: number;
  flip?: boolean;
  beams?: BeamChoice;
  /** The danger map of the side to move (the opponent's beam after any one of its moves). */
  danger?: boolean;
  arrows?: readonly NoteArrow[];
  squareMarks?: readonly SquareMark[];
  /** The move that led here, tinted (default: the position's last move, when it has one). */
  lastMove?: number;
}

/** The beam `color` would fire now on `pos`. */
function beamNow(pos: Position, color: number): BeamStep[] {
  const ed = pos.edition;
  const sq = ed.laserSquare[color];
  return tracePath(pos.board, sq, ed.sphinx ? pos.board[sq] & 3 : ed.laserDir[color], !ed.sphinx).steps;
}

/** A still picture of a position. */
export function positionPicture(pos: Position, opts: PositionPictureOptions = {}): Picture {
  const choice = opts.beams ?? 'none';
  const beams =
    choice === 'none' ? [] : choice === 'mover' ? [beamNow(pos, pos.side)] : [beamNow(pos, 0), beamNow(pos, 1)];
  return boardPicture(pos.board, pos.edition, {
    squarePx: opts.squarePx,
    flip: opts.flip,
    beams,
    danger: opts.danger && pos.winner < 0 ? threatMap(pos) : undefined,
    arrows: opts.arrows,
    squareMarks: opts.squareMarks,
    lastMove: opts.lastMove ?? (pos.ply > 0 ? pos.moveAt(pos.ply - 1) : undefined),
  });
}

/** One frame of an animation and how long it shows. */
interface Frame {
  picture: Picture;
  delayMs: number;
}

interface LineOptions {
  squarePx?: number;
  flip?: boolean;
  /** How long each move shows, in ms (default 1000); the last frame three times as long. */
  delayMs?: number;
  /** The notes of each move (its arrows and marked squares), by move index. */
  notes?: readonly { arrows?: readonly NoteArrow[]; squareMarks?: readonly SquareMark[] }[];
}

/**
 * The frames of a line played from `start` (not changed): the start, then each move with its
 * shot on the board as the move leaves it (the victim crossed out, still in place) and its
 * caption (`12. e4d5`, `12... a8-`).
 */
export function lineFrames(start: Position, moves: readonly number[], opts: LineOptions = {}): Frame[] {
  const delay = opts.delayMs ?? 1000;
  const pos = start.clone();
  const base = { squarePx: opts.squarePx, flip: opts.flip };
  const frames: Frame[] = [{ picture: boardPicture(pos.board, pos.edition, { ...base, caption: '' }), delayMs: delay }];
  moves.forEach((m, k) => {
    const label = `${pos.moveNumber}${pos.side === 0 ? '.' : '...'} ${formatMove(m)}`;
    const shot = traceShot(pos, m);
    pos.make(m);
    const board = Uint8Array.from(pos.board);
    const killed = pos.killedAt(pos.ply - 1);
    if (killed >= 0) board[killed] = pos.killedPieceAt(pos.ply - 1);
    const note = opts.notes?.[k];
    frames.push({
      picture: boardPicture(board, pos.edition, {
        ...base,
        beams: [shot.steps],
        killed,
        lastMove: m,
        arrows: note?.arrows,
        squareMarks: note?.squareMarks,
        caption: label,
      }),
      delayMs: delay,
    });
  });
  frames[frames.length - 1].delayMs = delay * 3;
  return frames;
}

export type StillFormat = 'svg' | 'png';
export type AnimationFormat = 'gif' | 'apng';

/** A still picture as a file's bytes (SVG as UTF-8 text; a PNG compressed by `zlib`). */
export function stillFile(p: Picture, format: StillFormat, zlib: Zlib, title?: string): Uint8Array {
  if (format === 'svg') return new TextEncoder().encode(pictureSvg(p, title));
  return encodePng(rasterize(p.shapes, p.width, p.height, p.background), zlib);
}

/** An animation as a file's bytes (an APNG compressed by `zlib`). */
export function animationFile(frames: readonly Frame[], format: AnimationFormat, zlib: Zlib): Uint8Array {
  const images = frames.map((f) =>
    rasterize(f.picture.shapes, f.picture.width, f.picture.height, f.picture.background),
  );
  const delays = frames.map((f) => f.delayMs);
  return format === 'gif' ? encodeGif(images, delays) : encodeApng(images, delays, zlib);
}
