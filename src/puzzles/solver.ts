/**
 * The puzzle solver: proves or refutes a forced Pharaoh hit in at most n moves of the side to
 * move, by an exhaustive AND/OR search (every move of the attacker, every reply of the
 * defender; no pruning that could be wrong). A move whose own shot hits its own Pharaoh loses;
 * a defender's reply that hits the attacker's Pharaoh refutes. Draw rules (repetition,
 * no-removal) are not applied: the miner keeps positions far from the no-removal limit.
 *
 * Speed comes from move ordering only: hits first, then moves that threaten a hit; the
 * defender's replies that refuted before at the same depth (killers) first; and a table of
 * proven results by key and depth. A node budget bounds one question: past it the answer is
 * `undefined` (unknown) and the miner drops the position.
 */
import { MAX_MOVES, PHARAOH, colorOf, kindOf, legalMoves, type Position } from '../core/index';

/** Plies the solver can reach: 5 moves of the attacker and 4 replies. */
const MAX_SOLVE_DEPTH = 12;

/** Thrown inside the search when the node budget is spent. */
class OutOfNodes extends Error {}

export class Solver {
  /** Nodes (moves made) since the last `reset`. */
  nodes = 0;
  private limit = Infinity;
  private readonly moves = new Int32Array(MAX_SOLVE_DEPTH * MAX_MOVES);
  private readonly order = new Int32Array(MAX_SOLVE_DEPTH * MAX_MOVES);
  private readonly killers = new Int32Array(MAX_SOLVE_DEPTH * 2).fill(-1);
  /** Proven results: key → bit field (bit n: wins in n; bit 8 + n: does not win in n). */
  private readonly table = new Map<number, number>();

  /** Starts a new question with a budget of `limit` nodes (and forgets nothing it proved). */
  reset(limit = Infinity): void {
    this.nodes = 0;
    this.limit = limit;
  }

  /** Forgets the proven results (another game: keys would only collide in vain). */
  clear(): void {
    this.table.clear();
    this.killers.fill(-1);
  }

  /**
   * The moves of the side to move that hit the enemy Pharaoh at once (their own shot), written
   * to out[0..]; returns how many.
   */
  hits(pos: Position, out?: Int32Array): number {
    const base = MAX_SOLVE_DEPTH - 1;
    const mv = this.moves;
    const n = pos.generate(mv, base * MAX_MOVES) - base * MAX_MOVES;
    const us = pos.side;
    pos.prepareShots();
    let k = 0;
    for (let i = 0; i < n; i++) {
      const m = mv[base * MAX_MOVES + i];
      if (pos.shotAfterPrepared(m) >= 0 && kindOf(pos.probePiece) === PHARAOH && colorOf(pos.probePiece) !== us) {
        if (out) out[k] = m;
        k++;
      }
    }
    return k;
  }

  /** True when the side to move has a move that hits the enemy Pharaoh now. */
  private hasHit(pos: Position, depth: number): boolean {
    const off = depth * MAX_MOVES;
    const mv = this.moves;
    const n = pos.generate(mv, off) - off;
    const us = pos.side;
    pos.prepareShots();
    for (let i = 0; i < n; i++) {
      if (
        pos.shotAfterPrepared(mv[off + i]) >= 0 &&
        kindOf(pos.probePiece) === PHARAOH &&
        colorOf(pos.probePiece) !== us
      )
        return true;
    }
    return false;
  }

  /**
   * Whether the side to move forces a hit in at most `n` moves: true, false, or undefined when
   * the node budget ran out first.
   */
  winIn(pos: Position, n: number): boolean | undefined {
    this.rootPly = pos.ply;
    this.rootWin = -1;
    try {
      const won = this.or(pos, n, 0);
      if (won && this.rootWin < 0) {
        // a hit at once (or a win the table knew): the first hit, else any move that wins
        const buf = new Int32Array(MAX_MOVES);
        this.rootWin = this.hits(pos, buf) > 0 ? buf[0] : (this.winningMoves(pos, n)?.[0] ?? -1);
      }
      return won;
    } catch (e) {
      if (e instanceof OutOfNodes) {
        while (pos.ply > this.rootPly) pos.unmake();
        return undefined;
      }
      throw e;
    }
  }

  private rootPly = 0;
  private rootWin = -1;

  /** A first move that forces the hit the last `winIn` proved (−1 when it proved none). */
  get winningMove(): number {
    return this.rootWin;
  }

  /**
   * Whether the side not to move forces a hit in at most `n` moves whatever the side to move
   * replies (a game review asks it after a move that may keep a proven win): true, false, or
   * undefined when the node budget ran out first.
   */
  cannotAvoidHit(pos: Position, n: number): boolean | undefined {
    this.rootPly = pos.ply;
    try {
      return this.and(pos, n, 0);
    } catch (e) {
      if (e instanceof OutOfNodes) {
        while (pos.ply > this.rootPly) pos.unmake();
        return undefined;
      }
      throw e;
    }
  }

  /**
   * The first moves that force a hit in at most `n` moves (each proven), or undefined when the
   * budget ran out. Every move is tried: the answer is complete.
   */
  winningMoves(pos: Position, n: number): number[] | undefined {
    this.rootPly = pos.ply;
    const out: number[] = [];
    const all = legalMoves(pos);
    try {
      for (const m of all) {
        if (this.moveWins(pos, m, n, 0)) out.push(m);
      }
    } catch (e) {
      if (e instanceof OutOfNodes) {
        while (pos.ply > this.rootPly) pos.unmake();
        return undefined;
      }
      throw e;
    }
    return out;
  }

  /**
   * The replies of the defender (to move) after which the attacker still needs all `n` moves:
   * no hit in n − 1 (n ≥ 1). Undefined when the budget ran out.
   */
  longestReplies(pos: Position, n: number): number[] | undefined {
    this.rootPly = pos.ply;
    const out: number[] = [];
    const defender = pos.side;
    try {
      for (const r of legalMoves(pos)) {
        this.count();
        pos.make(r);
        const w = pos.winner;
        let ok = false;
        if (w === defender) ok = true;
        else if (w < 0) ok = n <= 1 ? true : !this.or(pos, n - 1, 1);
        pos.unmake();
        if (ok && w !== defender) out.push(r);
      }
    } catch (e) {
      if (e instanceof OutOfNodes) {
        while (pos.ply > this.rootPly) pos.unmake();
        return undefined;
      }
      throw e;
    }
    return out;
  }

  /** Whether the attacker's move `m` forces a hit within `n` moves (itself included). */
  private moveWins(pos: Position, m: number, n: number, depth: number): boolean {
    const us = pos.side;
    this.count();
    pos.make(m);
    let won: boolean;
    if (pos.winner >= 0) won = pos.winner === us;
    else won = n > 1 && this.and(pos, n - 1, depth + 1);
    pos.unmake();
    return won;
  }

  private count(): void {
    if (++this.nodes > this.limit) throw new OutOfNodes();
  }

  /** Attacker to move: a hit in at most n moves? */
  private or(pos: Position, n: number, depth: number): boolean {
    if (this.hasHit(pos, depth)) return true;
    if (n <= 1) return false;
    const key = (pos.keyLo >>> 0) + (pos.keyHi & 0x1fffff) * 4294967296;
    const t = this.table.get(key) ?? 0;
    for (let k = 2; k <= n; k++) if (t & (1 << k)) return true;
    for (let k = n; k <= 7; k++) if (t & (1 << (8 + k))) return false;
    const off = depth * MAX_MOVES;
    const cnt = pos.generate(this.moves, off) - off;
    // order: moves after which the attacker threatens a hit (were it to move again) first
    const ord = this.order;
    let front = 0;
    let back = cnt;
    for (let i = 0; i < cnt; i++) {
      const m = this.moves[off + i];
      this.count();
      pos.make(m);
      let threat = false;
      if (pos.winner < 0) {
        pos.makeNull();
        threat = this.hasHit(pos, depth + 1);
        pos.unmakeNull();
      }
      const suicide = pos.winner >= 0;
      pos.unmake();
      if (suicide) continue;
      if (threat) ord[off + front++] = m;
      else ord[off + --back] = m;
    }
    // moves from back..cnt are kept (in reverse order, which does not matter); suicides dropped
    let result = false;
    for (let i = 0; i < cnt; i++) {
      if (i >= front && i < back) continue;
      const m = ord[off + i];
      if (this.moveWins(pos, m, n, depth)) {
        result = true;
        if (depth === 0) this.rootWin = m;
        break;
      }
    }
    this.table.set(key, (this.table.get(key) ?? 0) | (result ? 1 << n : 1 << (8 + n)));
    return result;
  }

  /** Defender to move: does every reply leave the attacker a hit in at most n moves? */
  private and(pos: Position, n: number, depth: number): boolean {
    const defender = pos.side;
    const off = depth * MAX_MOVES;
    const cnt = pos.generate(this.moves, off) - off;
    const mv = this.moves;
    // killers first
    for (let k = 0; k < 2; k++) {
      const kil = this.killers[depth * 2 + k];
      if (kil < 0) continue;
      for (let i = 0; i < cnt; i++) {
        if (mv[off + i] === kil) {
          mv[off + i] = mv[off + k];
          mv[off + k] = kil;
          break;
        }
      }
    }
    for (let i = 0; i < cnt; i++) {
      const r = mv[off + i];
      this.count();
      pos.make(r);
      let attackerWins: boolean;
      if (pos.winner >= 0) attackerWins = pos.winner !== defender;
      else attackerWins = this.or(pos, n, depth + 1);
      pos.unmake();
      if (!attackerWins) {
        if (this.killers[depth * 2] !== r) {
          this.killers[depth * 2 + 1] = this.killers[depth * 2];
          this.killers[depth * 2] = r;
        }
        return false;
      }
    }
    return true;
  }
}
