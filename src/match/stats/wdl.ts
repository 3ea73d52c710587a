/**
 * Independent games (the trinomial, or WDL, model; fastchess `elo_wdl.cpp`): game scores 0, ½, 1
 * with counts {losses, draws, wins} of the first player.
 */
import { scoreStats, type MatchStats } from './elo';

/** Game results of the first player: wins, losses and draws. */
export interface Trinomial {
  wins: number;
  losses: number;
  draws: number;
}

/** The scores of one game, in the order of {@link gameCounts}: a loss, a draw, a win. */
export const GAME_SCORES = [0, 0.5, 1] as const;

/** The counts of a {@link Trinomial} in the order of {@link GAME_SCORES}: [losses, draws, wins]. */
export function gameCounts(r: Trinomial): [number, number, number] {
  return [r.losses, r.draws, r.wins];
}

/**
 * Statistics of independent games (trinomial model): score, Elo ± 95%, nElo ± 95%, LOS, draw
 * ratio. With no games every field is NaN; with zero variance the errors are NaN or 0 and LOS is
 * 0, 50 or 100.
 */
export function trinomialStats(r: Trinomial): MatchStats {
  return scoreStats(GAME_SCORES, gameCounts(r), 1, r.draws);
}

/** Points of a result: `wins + drawScore·draws` (draws worth ½ by default). */
export function points(r: Trinomial, drawScore = 0.5): number {
  return r.wins + drawScore * r.draws;
}
