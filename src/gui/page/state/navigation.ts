/**
 * Moving through the game tree: to a path, a move back or forward, the start and the end; in
 * analysis, promoting a variation and deleting from the shown move.
 */
import { endPath } from './state-queries';
import type { PageState } from './state-types';
import { deleteNode, isMainline, lineEnd, pathExists, promote, samePath, type Path } from './tree';

export function goTo(s: PageState, path: Path): PageState {
  if (!pathExists(s.tree, path)) return s;
  if (samePath(path, s.path) && !s.preview) return s;
  return { ...s, path, preview: null, selected: -1, message: '' };
}

/** One move back or forward along the shown line (forward follows the main line of the branch). */
export function step(s: PageState, d: -1 | 1): PageState {
  if (d < 0) return s.path.length > 0 ? goTo(s, s.path.slice(0, -1)) : s;
  const end = lineEnd(s.tree, s.path);
  return end.length > s.path.length ? goTo(s, end.slice(0, s.path.length + 1)) : s;
}

export const goFirst = (s: PageState): PageState => goTo(s, []);
/** To the end of the game (play) or of the shown line (analysis). */
export const goLast = (s: PageState): PageState =>
  goTo(s, s.mode === 'analysis' ? lineEnd(s.tree, s.path) : endPath(s));

/** Analysis: the variation through the shown position becomes the main line. */
export function promoteLine(s: PageState): PageState {
  if (isMainline(s.path)) return s;
  const r = promote(s.tree, s.path);
  return { ...s, tree: r.tree, path: r.path, evals: {} };
}

/** Analysis: the shown move and what follows it go. */
export function deleteFromHere(s: PageState): PageState {
  if (s.path.length === 0) return s;
  return { ...s, tree: deleteNode(s.tree, s.path), path: s.path.slice(0, -1), evals: {} };
}
