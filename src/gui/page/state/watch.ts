/**
 * *Watch Thoth play itself from here* (docs/gui.md, "Practice and watch"), its pure part: from a
 * position of the analysis board Thoth plays both sides at the chosen time a move, each move added
 * to the board's tree as a line (a new variation where the position already had a next move), so
 * that it can be stepped through afterwards. Pause holds it, Stop ends it: the board stays on the
 * position it shows, nothing taken back. No DOM, no engine: ../modes/watchmode.ts runs it.
 */
import { gameStatus, parseMove } from '../../../core/index';
import type { PageState } from './state-types';
import { addMove, positionAt, samePath, type EngineNote, type Path } from './tree';

/** The times a move Thoth may take while watched, in ms (the speed control's choices). */
export const WATCH_SPEEDS: readonly number[] = [200, 500, 1000, 2000, 5000];
export const DEFAULT_WATCH_MS = 1000;

export interface Watch {
  /** Where the watched line grows: the path of its last position. */
  at: Path;
  /** Where watching began. */
  from: Path;
  /** False while paused. */
  running: boolean;
  /** Thoth's time for each move, in ms. */
  moveMs: number;
  /** The moves played so far. */
  played: number;
}

/** Watching from the shown position, or null when the game is over there. */
export function startWatch(s: PageState, moveMs: number): Watch | null {
  if (gameStatus(positionAt(s.tree, s.path)).result !== 'ongoing') return null;
  return { at: s.path, from: s.path, running: true, moveMs, played: 0 };
}

/** Whether the watched line has reached the end of a game (nothing more to play). */
export const watchOver = (s: PageState, w: Watch): boolean => gameStatus(positionAt(s.tree, w.at)).result !== 'ongoing';

/** The protocol's `go` of a watched move. */
export const watchGo = (w: Watch): string => `go movetime ${w.moveMs}`;

export const pauseWatch = (w: Watch): Watch => ({ ...w, running: false });
export const resumeWatch = (w: Watch): Watch => ({ ...w, running: true });
export const setWatchSpeed = (w: Watch, moveMs: number): Watch => ({ ...w, moveMs });

/**
 * Thoth's move `text` at the end of the watched line: added to the tree there (with what Thoth said
 * of it), the board following it when it showed the line's end (else it stays where the person
 * looks). An illegal move stops the watch with a message, the tree as it was.
 */
export function watchPlayed(
  s: PageState,
  w: Watch,
  text: string,
  note: EngineNote,
): { state: PageState; watch: Watch | null } {
  const pos = positionAt(s.tree, w.at);
  const m = parseMove(pos, text);
  if (!m.ok)
    return { state: { ...s, message: `Thoth played ${text}, not a legal move here: watching stopped.` }, watch: null };
  const added = addMove(s.tree, w.at, m.value, { engine: note });
  const follow = samePath(s.path, w.at);
  const state: PageState = {
    ...s,
    tree: added.tree,
    path: follow ? added.path : s.path,
    preview: follow ? null : s.preview,
  };
  const watch: Watch = { ...w, at: added.path, played: w.played + 1 };
  return { state, watch: watchOver(state, watch) ? { ...watch, running: false } : watch };
}
