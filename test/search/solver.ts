/**
 * An independent, exhaustive mate prover for the search tests (not a test file itself).
 *
 * Full width on Position make/unmake, no heuristics that could miss anything: an AND/OR search
 * over "the side to move forces a Pharaoh hit within n of its own moves" (alpha-beta on
 * win/no-win values: stop at the first winning move, and at the first reply that escapes).
 * The only liberties taken are in move order (immediate hits first, the last refutation first),
 * which cannot change the answer.
 *
 * Rules used: a move whose shot hits the enemy Pharaoh wins at once; one that hits one's own
 * Pharaoh loses at once; a position with no legal move is not a win for the attacker. Draws by
 * repetition or by the no-removal rule cannot happen within 5 plies of a fresh position (its
 * counter below 95), and the positions built for the tests satisfy that.
 */
import { MAX_MOVES, formatMove, type EditionId, type Position } from '../../src/core/index';

/** An entry of fixtures/forced-wins.json (built by gen-forced-wins.ts). */
export interface ForcedWin {
  edition: EditionId;
  kfen: string;
  /** Moves of the side to move up to and including the hit (2 or 3). */
  mate: number;
  /** Every first move that forces the win in `mate` moves (sorted). */
  winning: string[];
  /** Where it came from: setup, game, ply. */
  source: string;
}

const MAX_N = 4;

export class MateSolver {
  private readonly buf = new Int32Array(MAX_MOVES * (2 * MAX_N + 2));
  /** The last reply that refuted an attack, per ply: tried first. */
  private readonly killer = new Int32Array(2 * MAX_N + 2);
  /** Moves made (a measure of the work). */
  makes = 0;

  constructor(readonly pos: Position) {}

  /** True when the side to move forces a hit on the enemy Pharaoh within `n` of its moves. */
  winsWithin(n: number): boolean {
    if (n > MAX_N) throw new RangeError(`mate depth ${n} > ${MAX_N}`);
    return this.attack(n, 0);
  }

  /** The shortest forced win, in moves, up to `maxN`; 0 when there is none within maxN. */
  mateLength(maxN: number): number {
    for (let n = 1; n <= maxN; n++) if (this.winsWithin(n)) return n;
    return 0;
  }

  /** The root moves that win within `n` (each: it hits, or every reply leaves a win within n − 1). */
  winningMoves(n: number): number[] {
    const pos = this.pos;
    const us = pos.side;
    const end = pos.generate(this.buf, 0);
    const moves = Array.from(this.buf.subarray(0, end));
    const out: number[] = [];
    for (const m of moves) {
      pos.make(m);
      this.makes++;
      let wins = false;
      if (pos.winner === us) wins = true;
      else if (pos.winner < 0 && n > 1) wins = this.defend(n - 1, 1);
      pos.unmake();
      if (wins) out.push(m);
    }
    return out;
  }

  winningMoveNames(n: number): string[] {
    return this.winningMoves(n).map(formatMove).sort();
  }

  /** Side to move attacks: some move wins within n. */
  private attack(n: number, ply: number): boolean {
    const pos = this.pos;
    const us = pos.side;
    const base = ply * MAX_MOVES;
    const end = pos.generate(this.buf, base);
    // immediate hits first
    for (let i = base; i < end; i++) {
      pos.make(this.buf[i]);
      this.makes++;
      const w = pos.winner;
      pos.unmake();
      if (w === us) return true;
    }
    if (n <= 1) return false;
    for (let i = base; i < end; i++) {
      pos.make(this.buf[i]);
      this.makes++;
      const ok = pos.winner < 0 && this.defend(n - 1, ply + 1);
      pos.unmake();
      if (ok) return true;
    }
    return false;
  }

  /** Side to move defends: every move loses within n (the attacker's moves). */
  private defend(n: number, ply: number): boolean {
    const pos = this.pos;
    const them = pos.side;
    const base = ply * MAX_MOVES;
    const end = pos.generate(this.buf, base);
    if (end === base) return false; // no move: a draw, not a win
    // a reply that hits the attacker's Pharaoh refutes at once
    for (let i = base; i < end; i++) {
      pos.make(this.buf[i]);
      this.makes++;
      const w = pos.winner;
      pos.unmake();
      if (w === them) return false;
    }
    // the last refutation at this ply first
    const k = this.killer[ply];
    if (k !== 0) {
      for (let i = base; i < end; i++) {
        if (this.buf[i] === k) {
          this.buf[i] = this.buf[base];
          this.buf[base] = k;
          break;
        }
      }
    }
    for (let i = base; i < end; i++) {
      const m = this.buf[i];
      pos.make(m);
      this.makes++;
      // a reply that hits its own Pharaoh loses: the attacker wins on it
      const escapes = pos.winner < 0 && !this.attack(n, ply + 1);
      pos.unmake();
      if (escapes) {
        this.killer[ply] = m;
        return false;
      }
    }
    return true;
  }
}
