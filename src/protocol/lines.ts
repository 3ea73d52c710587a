/**
 * The protocol's lines for what the engine hands back as data (src/engine/engine.ts): the board
 * (`d`), the evaluation (`eval`), perft, bench, the game-state queries and `bestmove`.
 */
import type { GameStatus } from '../core/index';
import type { BenchResult, BenchStep } from '../search/bench';
import type { BoardReport, EvalReport, PerftReport } from '../engine/commands';
import type { BestMove, GoOutcome } from '../engine/engine';

/** `d`: the board, the side to move, KFEN, key and status. */
export function boardLines(b: BoardReport): string[] {
  const rule = '   +---+---+---+---+---+---+---+---+---+---+';
  const out = ['', '     a   b   c   d   e   f   g   h   i   j', rule];
  b.ranks.forEach((squares, i) => {
    let row = ` ${8 - i} |`;
    for (const t of squares) row += (t.length === 1 ? ` ${t} ` : t.length === 2 ? ` ${t}` : '   ') + '|';
    out.push(row, rule);
  });
  out.push(
    '',
    `Variant: ${b.variant} (${b.variantName}), ${b.toMove} to move`,
    `KFEN: ${b.kfen}`,
    `Key: ${b.key}`,
    `Status: ${b.status}`,
  );
  return out;
}

/** `eval`: the hand-written evaluation term by term, the loaded network's, and which the search uses. */
export function evalLines(e: EvalReport): string[] {
  const out = [
    `evaluation from ${e.toMove}'s point of view (side to move), centi-pyramids`,
    'hand-written evaluation, term by term:',
  ];
  for (const t of e.terms) out.push(`  ${t.name.padEnd(16)} ${t.value.toFixed(1)}`);
  out.push(`  ${'total'.padEnd(16)} ${e.total}`);
  const n = e.network;
  if (n === null) {
    out.push('network: none loaded (EvalFile)');
  } else {
    const use = n.inUse ? 'in use' : 'not in use: UseNNUE is false';
    const sum = n.checksum !== undefined ? `sha256 ${n.checksum.slice(0, 16)}, ` : '';
    out.push(`network ${n.source} (${sum}${n.hidden} hidden, ${use}): ${n.score}`);
  }
  out.push(`the search uses: ${n?.inUse ? `the network, ${n.score}` : `the hand-written evaluation, ${e.total}`}`);
  return out.map((l) => `info string ${l}`);
}

/** `perft <depth>`: the count under each root move, the total, the time and the speed. */
export function perftLines(p: PerftReport): string[] {
  return [
    ...p.moves.map((l) => `${l.move}: ${l.nodes}`),
    '',
    `Nodes searched: ${p.total}`,
    `Time: ${(p.ms / 1000).toFixed(3)} s`,
    `Nodes/second: ${Math.round(p.total / Math.max(p.ms / 1000, 1e-6))}`,
  ];
}

/** One bench position searched. */
export function benchStepLine(s: BenchStep): string {
  return `info string bench ${s.n}/${s.count} ${s.edition} nodes ${s.nodes} bestmove ${s.best}`;
}

/** A bench's last lines: time, nodes, speed. */
export function benchSummary(r: BenchResult): string[] {
  return ['', `Total time (ms) : ${r.ms}`, `Nodes searched  : ${r.nodes}`, `Nodes/second    : ${r.nps}`];
}

/** `query gameover|p1turn|result`: the answer's word, or undefined for an unknown question. */
export function queryAnswer(status: GameStatus, side: number, question: string | undefined): string | undefined {
  switch (question) {
    case 'gameover':
      return String(status.result !== 'ongoing');
    case 'p1turn':
      return String(side === 0);
    case 'result':
      if (status.result === 'win') return status.winner === 0 ? 'p1win' : 'p2win';
      return status.result === 'draw' ? 'draw' : 'none';
    default:
      return undefined;
  }
}

/** `bestmove <move> [ponder <move>]`. */
export function bestmoveLine(b: BestMove): string {
  return `bestmove ${b.best}${b.ponder !== '' ? ` ponder ${b.ponder}` : ''}`;
}

/** `debug on`: what a `go` (its arguments `args`, arrived at `received`) started. */
export function goDebugText(
  args: readonly string[],
  r: Extract<GoOutcome, { kind: 'started' }>,
  received: number,
): string {
  return (
    `go: ${args.join(' ') || '(no limits)'}: optimum ${r.optimumMs} ms, maximum ${r.maximumMs} ms (0 = none), overhead ${r.overhead} ms, ` +
    `${r.threads} thread(s), hash ${r.hashMb} MB, started ${r.started - received} ms after it arrived`
  );
}
