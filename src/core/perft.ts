/**
 * Perft: the number of move sequences of exactly `depth` plies. A move that hits a Pharaoh ends
 * the game: it counts at its own ply and has no continuations.
 *
 * Bulk counting: the last ply is counted, not generated (Position.countMoves). On a board where
 * Position.repliesByDelta holds (Khet 2.0 without Obelisks), the ply before it is not made
 * either when its shot removes nothing: the beam is walked once (prepareShots), and the
 * opponent's count is the parent's adjusted for the squares the move touched
 * (repliesAfterQuiet). Moves whose shot removes a piece are made. perftStats makes every move
 * and is the check on both shortcuts (test/core/perft-bulk.test.ts).
 */
import { MAX_MOVES } from './move';
import { formatMove } from './notation';
import { PHARAOH } from './pieces';
import type { Position } from './position';

const MAX_DEPTH = 64;

/** Preallocated move lists, one per ply, reused across calls. */
let stack = new Int32Array(MAX_MOVES * 16);

function ensure(depth: number): void {
  if (stack.length < MAX_MOVES * (depth + 1)) stack = new Int32Array(MAX_MOVES * (depth + 1));
}

function perftRec(pos: Position, depth: number, base: number): number {
  if (depth === 1) return pos.countMoves();
  const end = pos.generate(stack, base);
  let nodes = 0;
  if (depth === 2 && pos.repliesByDelta()) {
    pos.prepareShots();
    const replies = pos.countMovesOf(pos.side ^ 1);
    for (let i = base; i < end; i++) {
      const m = stack[i];
      if (pos.shotAfterPrepared(m) < 0) {
        nodes += pos.repliesAfterQuiet(m, replies);
      } else {
        pos.make(m);
        if (pos.winner < 0) nodes += pos.countMoves();
        pos.unmake();
      }
    }
    return nodes;
  }
  for (let i = base; i < end; i++) {
    pos.make(stack[i]);
    if (pos.winner < 0) nodes += perftRec(pos, depth - 1, end);
    pos.unmake();
  }
  return nodes;
}

export function perft(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  if (depth > MAX_DEPTH) throw new RangeError(`perft depth ${depth} is above ${MAX_DEPTH}`);
  if (pos.winner >= 0) return 0;
  ensure(depth);
  return perftRec(pos, depth, 0);
}

/**
 * Perft as most other Khet engines count it (docs/rules.md §7.4): a move that ends the game is a
 * leaf wherever it comes, so a sequence cut short by a Pharaoh hit counts once at any depth. Plain
 * make and unmake (no bulk count): for comparing engines, not for speed.
 */
export function perftEndsAsLeaves(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  if (depth > MAX_DEPTH) throw new RangeError(`perft depth ${depth} is above ${MAX_DEPTH}`);
  if (pos.winner >= 0) return 0;
  ensure(depth);
  const rec = (d: number, base: number): number => {
    const end = pos.generate(stack, base);
    if (d === 1) return end - base;
    let nodes = 0;
    for (let i = base; i < end; i++) {
      pos.make(stack[i]);
      nodes += pos.winner >= 0 ? 1 : rec(d - 1, end);
      pos.unmake();
    }
    return nodes;
  };
  return rec(depth, 0);
}

export interface DivideLine {
  move: string;
  nodes: number;
}

/** Perft per root move (Stockfish's `go perft` / divide); `onLine` hears of each root move as it is counted. */
export function divide(
  pos: Position,
  depth: number,
  onLine?: (line: DivideLine, index: number, total: number) => void,
): DivideLine[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = pos.winner >= 0 ? 0 : pos.generate(buf, 0);
  const out: DivideLine[] = [];
  for (let i = 0; i < n; i++) {
    pos.make(buf[i]);
    const nodes = depth <= 1 ? 1 : pos.winner >= 0 ? 0 : perft(pos, depth - 1);
    pos.unmake();
    const line = { move: formatMove(buf[i]), nodes };
    out.push(line);
    onLine?.(line, i, n);
  }
  return out;
}

export interface PerftStats {
  nodes: number;
  /** Moves at the last ply whose shot removed a piece (Pharaohs included). */
  removals: number;
  /** ... that hit the opponent's Pharaoh. */
  opponentPharaoh: number;
  /** ... that hit the mover's own Pharaoh. */
  ownPharaoh: number;
}

/** Perft that makes every last-ply move and counts what its shot did (slower: no bulk count). */
export function perftStats(pos: Position, depth: number): PerftStats {
  const s: PerftStats = { nodes: 0, removals: 0, opponentPharaoh: 0, ownPharaoh: 0 };
  if (depth <= 0 || pos.winner >= 0) return s;
  ensure(depth);
  const rec = (d: number, base: number): void => {
    const end = pos.generate(stack, base);
    for (let i = base; i < end; i++) {
      const mover = pos.side;
      const killed = pos.make(stack[i]);
      if (d === 1) {
        s.nodes++;
        if (killed >= 0) {
          s.removals++;
          const k = pos.killedPieceAt(pos.ply - 1);
          if (((k >> 2) & 7) === PHARAOH) {
            if (k >> 5 === mover) s.ownPharaoh++;
            else s.opponentPharaoh++;
          }
        }
      } else if (pos.winner < 0) {
        rec(d - 1, end);
      }
      pos.unmake();
    }
  };
  rec(depth, 0);
  return s;
}
