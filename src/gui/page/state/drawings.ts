/**
 * A person's drawings on the shown position, as lichess makes them: a right-drag from one square
 * to another toggles an arrow, a right-click on a square toggles a circle, in green (Shift red, Alt
 * blue, both yellow). They are kept in the comment of the move that led to the position, as the
 * record writes them (`[%cal …]`, `[%csl …]`: core/record.ts drawingsText), so an export keeps
 * them and an import brings them back; the board draws them (view/board.ts).
 */
import { commentDrawings, drawingsText, squareName, type ShapeColor } from '../../../core/index';
import type { PageState } from './state-types';
import { nodeAt, updateNode } from './tree';

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
