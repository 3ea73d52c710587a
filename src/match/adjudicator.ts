/**
 * Adjudication: ending a game early on the scores the engines report, as cutechess and fastchess
 * do (`-draw movenumber= movecount= score=`, `-resign movecount= score= twosided=`, `-maxplies`).
 * The referee (referee.ts) asks before each move whether the ply cap is reached and, after each
 * move, hands over the score the mover's engine reported; a verdict ends the game.
 *
 * Scores are the protocol's own (src/core/score.ts `Score`), from the mover's point of view. A
 * mate is worth more than any evaluation: a win counts as +∞ and a loss (also `mate 0`, the mover
 * is lost) as −∞, so a mate is never inside a draw window and always past a resign threshold.
 */
import { plural } from '../core/plural';
import type { Score } from '../core/score';

export interface DrawAdjudication {
  /** Full move number from which the window applies. */
  moveNumber: number;
  /** Consecutive moves (of each side) the scores must stay inside the window. */
  moveCount: number;
  /** Window half-width in centipawns. */
  score: number;
}

export interface ResignAdjudication {
  /** Consecutive own moves with a score at or below −score. */
  moveCount: number;
  score: number;
  /** Also require the opponent's score to be at least +score over the same moves. */
  twoSided: boolean;
}

export interface Adjudication {
  draw?: DrawAdjudication;
  resign?: ResignAdjudication;
  /** Plies after which the game is a draw (0 = no cap). */
  maxPlies: number;
}

/** A game ended by adjudication: drawn (`loser` −1) or lost by `loser` (0 = the first player). */
export interface Verdict {
  loser: -1 | 0 | 1;
  reason: string;
}

/** A reported score as a number to compare with centipawn thresholds: mates are ±∞. */
export function adjudicationValue(s: Score | undefined): number | undefined {
  if (s === undefined) return undefined;
  if (s.kind === 'cp') return s.value;
  return s.value > 0 ? Infinity : -Infinity;
}

/** The adjudication of one game: counts the moves whose scores meet the draw and resign rules. */
export class Adjudicator {
  private drawCount = 0;
  private readonly resignCount = [0, 0];
  private readonly winCount = [0, 0];

  /** `colorNames`: the sides' names in the reasons (Silver and Red; Gold and Silver in Deflexion). */
  constructor(
    private readonly adj: Adjudication,
    private readonly colorNames: readonly [string, string],
  ) {}

  /** Before a move, after `plies` plies: a draw once the ply cap is reached. */
  beforeMove(plies: number): Verdict | undefined {
    const cap = this.adj.maxPlies;
    if (cap > 0 && plies >= cap)
      return { loser: -1, reason: `Draw by adjudication: ${plural(cap, 'ply', 'plies')} played` };
    return undefined;
  }

  /**
   * After `side`'s move, with the score its engine reported for it (undefined: none), the full
   * move number now, and whether the move already decided the game (a Pharaoh hit: no verdict).
   */
  afterMove(side: number, score: Score | undefined, moveNumber: number, decided: boolean): Verdict | undefined {
    const v = adjudicationValue(score);
    const draw = this.adj.draw;
    if (draw) {
      if (v !== undefined && Math.abs(v) <= draw.score && moveNumber >= draw.moveNumber) this.drawCount++;
      else this.drawCount = 0;
      if (this.drawCount >= 2 * draw.moveCount && !decided) {
        return {
          loser: -1,
          reason: `Draw by adjudication: scores within ${draw.score} cp for ${plural(draw.moveCount, 'move')}`,
        };
      }
    }
    const resign = this.adj.resign;
    if (resign && !decided) {
      const s = resign.score;
      this.resignCount[side] = v !== undefined && v <= -s ? this.resignCount[side] + 1 : 0;
      this.winCount[side] = v !== undefined && v >= s ? this.winCount[side] + 1 : 0;
      const other = side ^ 1;
      const n = resign.moveCount;
      if (this.resignCount[side] >= n && (!resign.twoSided || this.winCount[other] >= n)) return this.resigns(side);
      if (this.winCount[side] >= n && resign.twoSided && this.resignCount[other] >= n) return this.resigns(other);
    }
    return undefined;
  }

  private resigns(side: number): Verdict {
    const r = this.adj.resign as ResignAdjudication;
    return {
      loser: side === 0 ? 0 : 1,
      reason: `${this.colorNames[side]} resigns by adjudication: score at or below -${r.score} cp for ${plural(r.moveCount, 'move')}`,
    };
  }
}
