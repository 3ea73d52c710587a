/**
 * The bodies of the engine's commands beneath the protocol (src/protocol/uci.ts keeps the command
 * table, the queue and the arguments' checks): the board (`d`), the evaluation term by term
 * (`eval`), perft, the game-state queries, the one-thread bench, and the limits of a `go`. Each
 * takes the position and the option values it needs and gives lines (or values); none writes.
 */
import { divide, gameStatus, keyHex, pieceText, toKfen, type Position } from '../core/index';
import { BENCH_POSITIONS, runBench } from '../search/bench';
import { TERM_NAMES, evaluate } from '../search/evaluate';
import { evaluatePosition, type Network } from '../nnue/network';
import { DEFAULT_LIMITS, MAX_PLY, type SearchFeatures, type SearchLimits } from '../search/search';
import type { SearchParams } from '../search/params';
import { timeBudget } from '../search/timeman';

/** A network as the engine holds it, as far as these commands need it. */
export interface HeldNetwork {
  net: Network;
  /** Where it came from (a path, or "default"). */
  source: string;
}

/** `d`: the board, the side to move, KFEN, key and status. */
export function displayLines(pos: Position, noRemovalLimit: number): string[] {
  const ed = pos.edition;
  const rule = '   +---+---+---+---+---+---+---+---+---+---+';
  const out = ['', '     a   b   c   d   e   f   g   h   i   j', rule];
  for (let r = 7; r >= 0; r--) {
    let row = ` ${r + 1} |`;
    for (let f = 0; f < 10; f++) {
      const p = pos.board[r * 10 + f];
      const t = p === 0 ? '' : pieceText(p, ed);
      row += (t.length === 1 ? ` ${t} ` : t.length === 2 ? ` ${t}` : '   ') + '|';
    }
    out.push(row, rule);
  }
  out.push(
    '',
    `Variant: ${ed.id} (${ed.name}), ${ed.colorNames[pos.side]} to move`,
    `KFEN: ${toKfen(pos)}`,
    `Key: ${keyHex(pos.keyLo, pos.keyHi)}`,
    `Status: ${gameStatus(pos, { noRemovalLimit }).text}`,
  );
  return out;
}

/** `eval`: the hand-written evaluation term by term, the loaded network's, and which the search uses. */
export function evalLines(pos: Position, network: HeldNetwork | null, useNNUE: boolean): string[] {
  const terms: number[] = [];
  const total = evaluate(pos, undefined, terms);
  const out = [
    `evaluation from ${pos.edition.colorNames[pos.side]}'s point of view (side to move), centi-pyramids`,
    'hand-written evaluation, term by term:',
  ];
  for (let i = 0; i < TERM_NAMES.length; i++) out.push(`  ${TERM_NAMES[i].padEnd(16)} ${terms[i].toFixed(1)}`);
  out.push(`  ${'total'.padEnd(16)} ${total}`);
  if (network === null) {
    out.push('network: none loaded (EvalFile)');
  } else {
    const use = useNNUE ? 'in use' : 'not in use: UseNNUE is false';
    out.push(`network ${network.source} (${network.net.hidden} hidden, ${use}): ${evaluatePosition(network.net, pos)}`);
  }
  const used = useNNUE ? network : null;
  out.push(
    `the search uses: ${used === null ? `the hand-written evaluation, ${total}` : `the network, ${evaluatePosition(used.net, pos)}`}`,
  );
  return out.map((l) => `info string ${l}`);
}

/** `perft <depth>`: the count under each root move, the total, the time and the speed. */
export function perftLines(pos: Position, depth: number): string[] {
  const t0 = performance.now();
  const lines = divide(pos, depth);
  let total = 0;
  const out: string[] = [];
  for (const l of lines) {
    out.push(`${l.move}: ${l.nodes}`);
    total += l.nodes;
  }
  const ms = performance.now() - t0;
  out.push(
    '',
    `Nodes searched: ${total}`,
    `Time: ${(ms / 1000).toFixed(3)} s`,
    `Nodes/second: ${Math.round(total / Math.max(ms / 1000, 1e-6))}`,
  );
  return out;
}

/** `query gameover|p1turn|result`: the answer's word, or undefined for an unknown question. */
export function queryAnswer(pos: Position, question: string | undefined, noRemovalLimit: number): string | undefined {
  const status = gameStatus(pos, { noRemovalLimit });
  switch (question) {
    case 'gameover':
      return String(status.result !== 'ongoing');
    case 'p1turn':
      return String(pos.side === 0);
    case 'result':
      return status.result === 'win'
        ? status.winner === 0
          ? 'p1win'
          : 'p2win'
        : status.result === 'draw'
          ? 'draw'
          : 'none';
    default:
      return undefined;
  }
}

/** A bench's last lines: time, nodes, speed. */
export function benchSummary(r: { ms: number; nodes: number; nps: number }): string[] {
  return ['', `Total time (ms) : ${r.ms}`, `Nodes searched  : ${r.nodes}`, `Nodes/second    : ${r.nps}`];
}

/** The one-thread bench (its node count is the signature): the built-in positions to `depth`. */
export function benchOneThread(
  depth: number,
  write: (line: string) => void,
  features: SearchFeatures,
  network: Network | null,
  params: SearchParams,
): void {
  for (const l of benchSummary(runBench(depth, write, BENCH_POSITIONS, features, network, params))) write(l);
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
