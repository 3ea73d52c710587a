/**
 * A person's drawings on the shown position, as lichess makes them: a right-drag from one square
 * to another toggles an arrow, a right-click on a square toggles a circle, in green (Shift red, Alt
 * blue, both yellow). They are kept in the comment of the move that led to the position, as the
 * record writes them (`[%cal …]`, `[%csl …]`: core/record.ts drawingsText), so an export keeps
 * them and an import brings them back; the board draws them (view/board.ts).
 *
 * Without a right button (a touch screen, the keyboard alone), drawing mode does the same with
 * picks: the Draw button or the A key turns it on; a square picked (a click, a tap, or Enter on
 * the board's cursor), then another, toggle an arrow between them, the same square twice a circle;
 * G R B Y pick the colour. It is on where notes are (`notesOpen`): in Analysis, and on a game
 * that is over.
 */
import { commentDrawings, drawingsText, squareName, type ShapeColor } from '../../../core/index';
import { isOver } from './state-queries';
import type { PageState } from './state-types';
import { nodeAt, updateNode } from './tree';

/**
 * May the person write notes (a comment, marks, drawings by picks) on the shown move? In
 * Analysis and on a game that is over; not while a game is played (against Thoth or between two
 * people), where a click is a move and the record is what was played; not in the board editor or
 * a preview of an engine line; and only on a move (the start has none to keep them).
 */
export function notesOpen(s: PageState): boolean {
  if (s.editor || s.preview || s.path.length === 0) return false;
  return s.mode === 'analysis' || isOver(s);
}

/** Drawing by picks is on (and notes are open on the shown move). */
export const drawingOn = (s: PageState): boolean => !!s.drawMode && notesOpen(s);

const DRAW_HELP = 'Drawing: pick a square, then another for an arrow (the same one again for a circle)';

/** Drawing by picks on or off (the Draw button, the A key); off it drops a first square picked. */
export function toggleDrawMode(s: PageState): PageState {
  if (s.drawMode) return { ...s, drawMode: null, message: '' };
  if (!notesOpen(s))
    return {
      ...s,
      message:
        s.path.length === 0
          ? 'Drawings are kept with a move: step to one first.'
          : 'Notes are for Analysis or a finished game.',
    };
  return { ...s, drawMode: { color: 'G', from: -1 }, selected: -1, aim: null, armed: null, message: `${DRAW_HELP}.` };
}

/** The colour of the next drawings by picks. */
export function setDrawColor(s: PageState, color: ShapeColor): PageState {
  return s.drawMode && s.drawMode.color !== color ? { ...s, drawMode: { ...s.drawMode, color } } : s;
}

/** A square picked while drawing: the first remembered, the second toggles the arrow (or circle). */
export function drawPick(s: PageState, sq: number): PageState {
  const d = s.drawMode;
  if (!d || !drawingOn(s) || sq < 0) return s;
  if (d.from < 0) return { ...s, drawMode: { ...d, from: sq }, message: `${DRAW_HELP}: from ${squareName(sq)} to…` };
  return { ...toggleDrawing(s, d.from, sq, d.color), drawMode: { ...d, from: -1 } };
}

/** Escape while drawing: a first square picked is dropped, else drawing ends. */
export function drawEscape(s: PageState): PageState {
  const d = s.drawMode;
  if (!d) return s;
  return d.from >= 0
    ? { ...s, drawMode: { ...d, from: -1 }, message: `${DRAW_HELP}.` }
    : { ...s, drawMode: null, message: '' };
}

/** A comment's words: its drawing commands are drawn on the board, not shown as text. */
export function commentWords(comment: string | undefined): string {
  return (comment ?? '')
    .replace(/\[%(?:cal|csl)\s[^\]]*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The colour of a drawing by the keys held, as on lichess. */
export function drawingColor(shift: boolean, alt: boolean): ShapeColor {
  return shift && alt ? 'Y' : shift ? 'R' : alt ? 'B' : 'G';
}

/**
 * Toggles an arrow (`from` ≠ `to`) or a circle (`from` = `to`) on the shown position: the same
 * drawing in the same colour goes, in another colour it is recoloured, else it is added.
 */
export function toggleDrawing(s: PageState, from: number, to: number, color: ShapeColor): PageState {
  if (s.editor || s.preview || from < 0 || to < 0) return s;
  const node = nodeAt(s.tree, s.path);
  if (!node) return { ...s, message: 'Drawings are kept with a move: step to one (or play one) first.' };
  const d = commentDrawings(node.comment ?? '');
  let arrows = d.arrows;
  let squareMarks = d.squareMarks;
  const f = squareName(from);
  const t = squareName(to);
  if (from === to) {
    const had = squareMarks.find((m) => m.square === f);
    squareMarks = squareMarks.filter((m) => m.square !== f);
    if (had?.color !== color) squareMarks = [...squareMarks, { color, square: f }];
  } else {
    const had = arrows.find((a) => a.from === f && a.to === t);
    arrows = arrows.filter((a) => a.from !== f || a.to !== t);
    if (had?.color !== color) arrows = [...arrows, { color, from: f, to: t }];
  }
  const comment = [commentWords(node.comment), drawingsText({ arrows, squareMarks })].filter((x) => x !== '').join(' ');
  return { ...s, tree: updateNode(s.tree, s.path, (n) => ({ ...n, comment: comment || undefined })), message: '' };
}
