/**
 * The bodies of the engine's commands beneath the protocol: the board (`d`), the evaluation term
 * by term (`eval`), perft, and the limits of a `go`. Each takes the position and the option
 * values it needs and gives plain data; src/protocol/lines.ts makes the protocol's lines of it.
 */
import { boardRows, divide, gameStatus, keyHex, toKfen, type EditionId, type Position } from '../core/index';
import { TERM_NAMES, evaluate } from '../search/evaluate';
import { evaluatePosition, type Network } from '../nnue/network';
import { DEFAULT_LIMITS, MAX_PLY, type SearchLimits } from '../search/search';
import { timeBudget } from '../search/timeman';

/** A network as the engine holds it, as far as these commands need it. */
export interface HeldNetwork {
  net: Network;
  /** Where it came from (a path, or "default"). */
  source: string;
  /** The SHA-256 of its file (hex), when known. */
  checksum?: string;
}

/** `d`: the board and what is known of the position. */
export interface BoardReport {
  /** The ranks from the top (8) down, each the text of its squares from file a to j ('' empty). */
  ranks: string[][];
  variant: EditionId;
  variantName: string;
  /** The colour to move, by name. */
  toMove: string;
  kfen: string;
  key: string;
  /** The game status in words. */
  status: string;
}

export function boardReport(pos: Position, noRemovalLimit: number): BoardReport {
  const ed = pos.edition;
  return {
    ranks: boardRows(pos.board, ed),
    variant: ed.id,
    variantName: ed.name,
    toMove: ed.colorNames[pos.side],
    kfen: toKfen(pos),
    key: keyHex(pos.keyLo, pos.keyHi),
    status: gameStatus(pos, { noRemovalLimit }).text,
  };
}

/** `eval`: the hand-written evaluation term by term, the loaded network's, and which the search uses. */
export interface EvalReport {
  /** The side to move (the point of view), by name. */
  toMove: string;
  terms: Array<{ name: string; value: number }>;
  /** The hand-written evaluation. */
  total: number;
  /** The network of EvalFile, if one is loaded: its score, and whether the search uses it (UseNNUE). */
  network: { source: string; checksum?: string; hidden: number; score: number; inUse: boolean } | null;
}

export function evalReport(pos: Position, network: HeldNetwork | null, useNNUE: boolean): EvalReport {
  const values: number[] = [];
  const total = evaluate(pos, undefined, values);
  return {
    toMove: pos.edition.colorNames[pos.side],
    terms: TERM_NAMES.map((name, i) => ({ name, value: values[i] })),
    total,
    network:
      network === null
        ? null
        : {
            source: network.source,
            checksum: network.checksum,
            hidden: network.net.hidden,
            score: evaluatePosition(network.net, pos),
            inUse: useNNUE,
          },
  };
}

/** `perft <depth>`: the count under each root move, the total and the time. */
export interface PerftReport {
  moves: Array<{ move: string; nodes: number }>;
  total: number;
  ms: number;
}

export function perftReport(pos: Position, depth: number): PerftReport {
  const t0 = performance.now();
  const moves = divide(pos, depth);
  let total = 0;
  for (const l of moves) total += l.nodes;
  return { moves, total, ms: performance.now() - t0 };
}

/** What a `go` asks for, in numbers (src/protocol/go.ts parses them). */
export interface GoNumbers {
  time?: number;
  inc?: number;
  movestogo?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  mate?: number;
}

/**
 * The search limits of a `go` for the side to move: the time budget from its clock (none for
 * `infinite`), the depth kept inside the search's stack, nodes and mate.
 */
export function goLimits(
  n: GoNumbers,
  infinite: boolean,
  searchMoves: string[],
  o: { moveOverhead: number; multiPV: number; noRemovalLimit: number },
): { limits: Omit<SearchLimits, 'searchMoves'> & { searchMoves: string[] }; optimumMs: number; maximumMs: number } {
  const budget = infinite
    ? { optimumMs: 0, maximumMs: 0 }
    : timeBudget({ time: n.time, inc: n.inc, movesToGo: n.movestogo, movetime: n.movetime }, o.moveOverhead);
  const limits = {
    ...DEFAULT_LIMITS,
    depth: n.depth !== undefined ? Math.max(1, Math.min(n.depth, MAX_PLY - 8)) : DEFAULT_LIMITS.depth,
    nodes: n.nodes ?? 0,
    mate: n.mate ?? 0,
    optimumMs: budget.optimumMs,
    maximumMs: budget.maximumMs,
    searchMoves,
    multiPV: o.multiPV,
    noRemovalLimit: o.noRemovalLimit,
  };
  return { limits, ...budget };
}
