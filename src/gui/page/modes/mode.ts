/**
 * A mode that takes the page's board for a while — Learn from your mistakes (learnmode.ts), puzzles
 * (puzzlemode.ts) — as the controller sees it: it holds its modes in a list and calls each the same
 * way, with no case for any one of them. A mode plays on the page's own board through the
 * controller's update, keeps the game it took the board from, may ask Thoth for a search, and draws
 * its own card.
 */
import type { ModeSearch } from '../engine/searches';
import type { SavedGame } from '../state/persist';
import type { PageState } from '../state/state-types';

/** What a mode needs of the controller. */
export interface ModeHost {
  state(): PageState;
  update(f: (s: PageState) => PageState): void;
}

export interface PageMode {
  /** Called after every transition: the mode judges what the person did, or lets go of the board. */
  observe(before: PageState, after: PageState): void;
  /** The game the mode took the board from, while it holds the board (what storage keeps meanwhile), or null. */
  keptGame(): SavedGame | null;
  /** The search the mode wants of Thoth now (it comes before the page's own), or null. */
  search(): ModeSearch | null;
  /** Draws the mode's part of the page; called after the page's panels are drawn. */
  render(): void;
}
