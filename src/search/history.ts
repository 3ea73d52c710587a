/**
 * What the search learns about quiet moves as it goes: the history (butterfly) table and the
 * killers. Indexed by a move's from square and its target (a square, or one of the two
 * turns), so the tables are small: 80 × 82 entries per side.
 */
import { ROT_CCW, ROT_CW } from '../core/index';

/** Targets per from square: 80 squares, then clockwise and counter-clockwise turns. */
const TARGETS = 82;
const HISTORY_SIZE = 80 * TARGETS;
/** Bound of history scores under the gravity update. */
const HISTORY_MAX = 1 << 14;

/** The history slot of a move (a step, a swap or an unstack to the same square share it). */
function historyIndex(m: number): number {
  const type = m >>> 14;
  const target = type === ROT_CW ? 80 : type === ROT_CCW ? 81 : (m >>> 7) & 127;
  return (m & 127) * TARGETS + target;
}

export class History {
  /** history[side * HISTORY_SIZE + historyIndex(m)] */
  readonly quiet = new Int32Array(2 * HISTORY_SIZE);
  /** Two killers per ply. */
  readonly killers: Int32Array;

  constructor(maxPly: number) {
    this.killers = new Int32Array(maxPly * 2 + 2);
  }

  clear(): void {
    this.quiet.fill(0);
    this.killers.fill(0);
  }

  /** At the start of a search: killers forgotten, history aged. */
  newSearch(): void {
    this.killers.fill(0);
    const h = this.quiet;
    for (let i = 0; i < h.length; i++) h[i] >>= 2;
  }

  score(side: number, m: number): number {
    return this.quiet[side * HISTORY_SIZE + historyIndex(m)];
  }

  /** Gravity: scores stay within ±HISTORY_MAX, and a bonus moves them less the nearer they are. */
  update(side: number, m: number, bonus: number): void {
    const i = side * HISTORY_SIZE + historyIndex(m);
    const v = this.quiet[i];
    this.quiet[i] = v + bonus - (((v * Math.abs(bonus)) / HISTORY_MAX) | 0);
  }

  /** The plain update (no malus): depth² added, all halved when one grows past 2^20. */
  add(side: number, m: number, depth: number): void {
    const i = side * HISTORY_SIZE + historyIndex(m);
    this.quiet[i] += depth * depth;
    if (this.quiet[i] > 1 << 20) for (let k = 0; k < this.quiet.length; k++) this.quiet[k] >>= 1;
  }

  addKiller(ply: number, m: number): void {
    const k = ply * 2;
    if (this.killers[k] !== m) {
      this.killers[k + 1] = this.killers[k];
      this.killers[k] = m;
    }
  }
}
