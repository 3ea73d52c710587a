/**
 * The engine's lines in the page's state: the analysis lines of the shown position (the first one's
 * score is its evaluation), Thoth's thinking during play, a line previewed on the board, and the
 * evaluations of positions.
 */
import { evalOf, type Eval } from './evaluation';
import type { InfoLine } from '../../../core/info';
import { viewPosition } from './state-queries';
import type { PageState } from './state-types';
import { pathKey, type Path } from './tree';

/** The key of the shown position. */
export const shownPositionKey = (s: PageState): string => `${s.tree.startKfen}|${pathKey(s.path)}`;

/** The moves the analysis of the shown position is restricted to (`searchmoves`), or none. */
export const onlyMoves = (s: PageState): readonly string[] =>
  s.only && s.only.at === shownPositionKey(s) ? s.only.moves : [];

/** The key of the lines shown: the position, and the moves the analysis is restricted to. */
export function linesKey(s: PageState): string {
  const only = onlyMoves(s);
  return only.length > 0 ? `${shownPositionKey(s)}|only ${only.join(' ')}` : shownPositionKey(s);
}

/** An analysis line for the position `forKey`; the first line's score is also the position's evaluation. */
export function analysisLine(s: PageState, forKey: string, info: InfoLine): PageState {
  if (forKey !== linesKey(s) || info.multipv > s.settings.multipv) return s;
  const lines = s.linesFor === forKey ? s.lines.slice() : [];
  lines[info.multipv - 1] = info;
  let evals = s.evals;
  // the first line of an analysis restricted to some moves is not the position's evaluation
  if (info.multipv === 1 && info.bound !== 'lower' && info.bound !== 'upper' && onlyMoves(s).length === 0) {
    evals = { ...evals, [pathKey(s.path)]: evalOf(info.score, viewPosition(s).side, info.depth) };
  }
  return { ...s, lines, linesFor: forKey, evals };
}

/** The lines to show: those of the shown position, as many as asked for. */
export function shownLines(s: PageState): InfoLine[] {
  return s.linesFor === linesKey(s) ? s.lines.slice(0, s.settings.multipv).filter(Boolean) : [];
}

/** Thoth's latest line while it thinks about its move (kept for the draw answer and the record). */
export function thinkingLine(s: PageState, info: InfoLine): PageState {
  return info.multipv === 1 ? { ...s, thinking: info } : s;
}

export function setAnalysing(s: PageState, on: boolean): PageState {
  return { ...s, analysing: on };
}

/** Starts showing an analysis line on the board: a copy, so that it holds still while the engine goes on. */
export function startPreview(s: PageState, index: number): PageState {
  const l = shownLines(s)[index];
  if (!l) return s;
  return { ...s, preview: { index, pv: l.pv.slice(), score: l.score, k: 1 }, selected: -1 };
}

export function stepPreview(s: PageState, d: number): PageState {
  if (!s.preview) return s;
  return { ...s, preview: { ...s.preview, k: Math.max(1, Math.min(s.preview.pv.length, s.preview.k + d)) } };
}

export const exitPreview = (s: PageState): PageState => (s.preview ? { ...s, preview: null } : s);

/** An evaluation of the position at `path` from elsewhere (a review, Thoth's own search). */
export function recordEval(s: PageState, path: Path, e: Eval): PageState {
  const k = pathKey(path);
  const old = s.evals[k];
  if (old && old.depth > e.depth) return s;
  return { ...s, evals: { ...s.evals, [k]: e } };
}
