/** The state of a game: over or not, who won and why. */
import { plural } from './plural';
import type { Position } from './position';

export type GameResult = 'ongoing' | 'win' | 'draw';
export type GameReason = 'pharaoh' | 'repetition' | 'no-removal' | 'no-moves';

export interface GameStatus {
  result: GameResult;
  /** The winning colour (0 first player, 1 second) for a win, else -1. */
  winner: number;
  reason?: GameReason;
  /** A sentence for people. */
  text: string;
}

export interface DrawRules {
  /** Plies without a removal that draw the game; 0 = off. */
  noRemovalLimit: number;
}

/**
 * The no-removal limit: plies without a removal after which the referee draws (docs/rules.md §4).
 * Every default of it (the runner, the GUI, the engine's NoRemovalDraw, datagen, analysis) is this.
 */
export const NO_REMOVAL_PLIES = 100;

export const DEFAULT_DRAW_RULES: DrawRules = { noRemovalLimit: NO_REMOVAL_PLIES };

export function gameStatus(pos: Position, rules: DrawRules = DEFAULT_DRAW_RULES): GameStatus {
  const names = pos.edition.colorNames;
  if (pos.winner >= 0) {
    const loser = pos.winner ^ 1;
    return {
      result: 'win',
      winner: pos.winner,
      reason: 'pharaoh',
      text: `${names[pos.winner]} wins: the ${names[loser]} Pharaoh was hit`,
    };
  }
  if (pos.repetitions() >= 2) {
    return { result: 'draw', winner: -1, reason: 'repetition', text: 'Draw by threefold repetition' };
  }
  if (rules.noRemovalLimit > 0 && pos.pliesSinceRemoval >= rules.noRemovalLimit) {
    return {
      result: 'draw',
      winner: -1,
      reason: 'no-removal',
      text: `Draw: no piece removed in ${plural(rules.noRemovalLimit, 'ply', 'plies')}`,
    };
  }
  if (pos.countMoves() === 0) {
    // Cannot happen with a Sphinx; possible only in a bare composed position.
    return { result: 'draw', winner: -1, reason: 'no-moves', text: `Draw: ${names[pos.side]} has no move` };
  }
  return { result: 'ongoing', winner: -1, text: `${names[pos.side]} to move` };
}
