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
import type { BoardModel } from '../view/board-model';

/** What a mode needs of the controller. */
export interface ModeHost {
  state(): PageState;
  update(f: (s: PageState) => PageState): void;
}

/**
 * A mode's own updates of the board, told apart from the person's: `mine` is true while one runs,
 * so that the mode's `observe` lets it pass.
 */
export class OwnUpdates {
  mine = false;
  constructor(private readonly host: ModeHost) {}

  run(f: (s: PageState) => PageState): void {
    this.mine = true;
    try {
      this.host.update(f);
    } finally {
      this.mine = false;
    }
  }
}

export interface PageMode {
  /** Called after every transition: the mode judges what the person did, or lets go of the board. */
  observe(before: PageState, after: PageState): void;
  /** The game the mode took the board from, while it holds the board (what storage keeps meanwhile), or null. */
  keptGame(): SavedGame | null;
  /**
   * The game whose record *Copy PGN*, *Export game*, *Download* and *Copy link* give while the
   * mode holds the board, when it is not the board's (Learn: the reviewed game, not its task), or null.
   */
  recordState?(): PageState | null;
  /** The search the mode wants of Thoth now (it comes before the page's own), or null. */
  search(): ModeSearch | null;
  /** Draws the mode's part of the page; called after the page's panels are drawn. */
  render(): void;
  /** What the mode adds to the board's model (a defence puzzle's threat), or the model as it is. */
  decorate?(model: BoardModel): BoardModel;
}
