/**
 * What the board is given for the page's state (its model, board-model.ts): the shown position, or
 * a previewed line's; the picks, targets and rotations; the premove; the analysis' or the review's
 * arrows; the last move's beam and motion. Pure: the controller hands the result to the board.
 */
import { drawingOn } from '../state/drawings';
import {
  commentDrawings,
  hasOrientation,
  kindOf,
  moveFrom,
  moveTo,
  moveType,
  parseMove,
  parseSquare,
  ROT_CCW,
  ROT_CW,
  SWAP,
  type Position,
} from '../../../core/index';
import { threatWords } from '../../../analysis/threat-words';
import type { Arrow, BoardModel, TargetKind } from './board-model';
import { laserPath, playPly, type PlyInfo } from '../state/move-effect';
import { editorPosition, editorProblems, type EditorState } from '../state/editor';
import * as R from '../state/gamereview';
import { rotationsOf, targetsOf } from '../state/selection';
import * as S from '../state/state';
import type { PageState } from '../state/state';
import { nodeAt, pathKey, positionAt } from '../state/tree';

/** The previewed line played from the shown position up to its step. */
function previewMoves(s: PageState): { pos: Position; last: PlyInfo | null; played: string[] } {
  const pos = S.viewPosition(s);
  let last: PlyInfo | null = null;
  const played: string[] = [];
  if (!s.preview) return { pos, last, played };
  for (let i = 0; i < s.preview.k && i < s.preview.pv.length; i++) {
    if (pos.winner >= 0) break;
    const m = parseMove(pos, s.preview.pv[i]);
    if (!m.ok) break;
    last = playPly(pos, m.value);
    played.push(s.preview.pv[i]);
  }
  return { pos, last, played };
}

/** A move's squares, a rotation's turn marked (its square is then both ends). */
function moveSquares(m: number): { from: number; to: number; rot?: '+' | '-' } {
  const t = moveType(m);
  if (t === ROT_CW || t === ROT_CCW) return { from: moveFrom(m), to: moveFrom(m), rot: t === ROT_CW ? '+' : '-' };
  return { from: moveFrom(m), to: moveTo(m) };
}

/** The arrow of the move `text` in `pos` (a rotation's: its square, and which way it turns), or null. */
export function moveArrow(text: string, pos: Position, style: Arrow['style'], label?: string): Arrow | null {
  const m = parseMove(pos, text);
  if (!m.ok) return null;
  const t = moveType(m.value);
  if (t === ROT_CW || t === ROT_CCW)
    return { from: moveFrom(m.value), to: moveFrom(m.value), rot: t === ROT_CW ? '+' : '-', style, label };
  return { from: moveFrom(m.value), to: moveTo(m.value), style, label };
}

/** Analysis: a reviewed mistake's better move, else the lines' first moves (the best drawn on top). */
function arrowsFor(s: PageState, pos: Position): Arrow[] {
  const arrows: Arrow[] = [];
  const advice = s.mode === 'analysis' && !s.preview ? R.reviewAdvice(s) : null;
  if (advice) {
    // a reviewed mistake: the move that was better, drawn from the position it was to be played in
    const a = moveArrow(advice.best, positionAt(s.tree, new Array<number>(advice.index).fill(0)), 'best', 'best');
    if (a) arrows.push(a);
  } else if (s.mode === 'analysis' && !s.preview) {
    const lines = S.shownLines(s);
    lines.forEach((l, i) => {
      const a = moveArrow(l.pv[0], pos, i === 0 ? 'best' : 'alt', lines.length > 1 ? String(i + 1) : undefined);
      if (a) arrows.push(a);
    });
    arrows.reverse(); // the best on top
  }
  return arrows;
}

/** The selected piece's targets and rotations in the position the person picks in. */
function picks(s: PageState, pick: Position | null): Pick<BoardModel, 'targets' | 'rotations'> {
  const targets = new Map<number, TargetKind>();
  let rotations = { cw: false, ccw: false };
  if (s.selected >= 0 && pick) {
    for (const [sq, t] of targetsOf(pick, s.selected, s.stackTop)) targets.set(sq, t.kind);
    const r = rotationsOf(pick, s.selected);
    rotations = { cw: r.cw >= 0, ccw: r.ccw >= 0 };
  }
  return { targets, rotations };
}

/** The premove waiting for Thoth's move, drawn on the board. */
function premoveSquares(s: PageState): BoardModel['premove'] {
  const pp = s.premove ? S.premovePosition(s) : null;
  const pm = pp && s.premove ? parseMove(pp, s.premove) : null;
  return pm?.ok ? moveSquares(pm.value) : null;
}

/** The drawings a move's comment keeps, with their squares as numbers; undefined where there are none. */
function notesOf(comment: string | undefined): BoardModel['notes'] {
  if (!comment || !comment.includes('[%')) return undefined;
  const d = commentDrawings(comment);
  return {
    arrows: d.arrows.map((a) => ({ from: parseSquare(a.from), to: parseSquare(a.to), color: a.color })),
    marks: d.squareMarks.map((m) => ({ sq: parseSquare(m.square), color: m.color })),
  };
}

/**
 * The board editor's board: the pieces as set up, the selected one with its turns, the squares at
 * fault; the danger map once the position is one to play from.
 */
function editorFrame(s: PageState, e: EditorState, cursorShown: boolean): BoardModel {
  const pos = editorPosition(e);
  const problems = editorProblems(e);
  const p = e.selected >= 0 ? e.board[e.selected] : 0;
  const turns = p !== 0 && hasOrientation(kindOf(p));
  const danger = s.settings.danger ?? 'off';
  return {
    danger:
      danger === 'off' || problems.length > 0 ? null : threatWords(pos, danger === 'for' ? pos.side : pos.side ^ 1),
    pos,
    flipped: s.flipped,
    lastMove: null,
    selected: e.selected,
    targets: new Map(),
    rotations: { cw: turns, ccw: turns },
    cursor: cursorShown ? s.cursor : -1,
    beam: null,
    lasers: [],
    aim: null,
    arrows: [],
    interactive: true,
    premove: null,
    editing: true,
    faults: [...new Set(problems.flatMap((x) => x.squares))],
    motion: null,
  };
}

/**
 * The board's model for the state. `game` counts games (a new game's beam animates again);
 * `cursorShown`: the person plays with the keyboard on the focused board.
 */
export function boardFrame(s: PageState, game: number, cursorShown: boolean): BoardModel {
  if (s.editor) return editorFrame(s, s.editor, cursorShown);
  const previewing = previewMoves(s);
  const pos = s.preview ? previewing.pos : S.viewPosition(s);
  const lastPly = s.preview ? previewing.last : (nodeAt(s.tree, s.path)?.ply ?? null);
  // The person picks in the shown position, or, while Thoth thinks, in the premove position.
  const pick = s.preview ? null : S.pickPosition(s);
  const interactive = pick !== null;
  const { targets, rotations } = picks(s, pick);
  const premove = premoveSquares(s);
  const arrows = arrowsFor(s, pos);
  const beamId = s.preview
    ? `pv${s.preview.index}:${previewing.played.join(',')}@${pathKey(s.path)}`
    : lastPly
      ? `g${game}:${pathKey(s.path)}:${lastPly.text}:${s.tree.startKfen}`
      : '';
  const last = lastPly ? moveSquares(lastPly.move) : null;
  const danger = s.settings.danger ?? 'off';
  return {
    notes: s.preview ? undefined : notesOf(nodeAt(s.tree, s.path)?.comment),
    drawFrom: drawingOn(s) ? s.drawMode?.from : undefined,
    danger: danger === 'off' ? null : threatWords(pos, danger === 'for' ? pos.side : pos.side ^ 1),
    pos,
    flipped: s.flipped,
    lastMove: last ? { from: last.from, to: last.to } : null,
    selected: interactive ? s.selected : -1,
    targets,
    rotations,
    cursor: cursorShown ? s.cursor : -1,
    beam: lastPly ? { ply: lastPly, id: beamId } : null,
    lasers: s.settings.showLasers ? [0, 1].map((side) => ({ side, ...laserPath(pos, side) })) : [],
    aim: (s.settings.shotPreview || (s.armed ?? null) !== null) && !s.preview ? S.aimedShot(s) : null,
    arrows,
    interactive,
    stackTop: s.stackTop,
    premove,
    motion: lastPly
      ? {
          id: beamId,
          from: moveFrom(lastPly.move),
          to: moveTo(lastPly.move),
          rot: moveType(lastPly.move) === ROT_CW ? '+' : moveType(lastPly.move) === ROT_CCW ? '-' : undefined,
          swap: moveType(lastPly.move) === SWAP,
        }
      : null,
  };
}
