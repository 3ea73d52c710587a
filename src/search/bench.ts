/**
 * The deterministic `bench`: fixed positions, fixed depth, one thread, a fresh hash per run.
 * Its node count is the build's signature (quoted as `Bench: N` in commit messages).
 */
import { formatMove, parseKfen, SETUPS, type EditionId } from '../core/index';
import { DEFAULT_LIMITS, Searcher } from './search';
import { TranspositionTable } from './tt';

export const BENCH_DEPTH = 7;

export interface BenchPosition {
  edition: EditionId;
  kfen: string;
}

/** All setups of all editions, then middle games and tactical positions. */
export const BENCH_POSITIONS: BenchPosition[] = [
  ...(Object.keys(SETUPS) as EditionId[]).flatMap((edition) =>
    Object.values(SETUPS[edition]).map((kfen) => ({ edition, kfen: kfen! })),
  ),
  // BENCH_EXTRA
];

export interface BenchResult {
  nodes: number;
  ms: number;
  nps: number;
}

export function runBench(depth: number, write: (line: string) => void, positions: BenchPosition[] = BENCH_POSITIONS): BenchResult {
  let nodes = 0;
  const t0 = performance.now();
  for (let i = 0; i < positions.length; i++) {
    const { edition, kfen } = positions[i];
    const r = parseKfen(kfen, edition);
    if (!r.ok) throw new Error(`bench position ${i + 1} is invalid: ${r.error.message}`);
    const searcher = new Searcher(new TranspositionTable(16));
    const res = searcher.run(r.value, { ...DEFAULT_LIMITS, depth });
    nodes += res.nodes;
    write(`info string bench ${i + 1}/${positions.length} ${edition} nodes ${res.nodes} bestmove ${formatMove(res.best)}`);
  }
  const ms = Math.max(1, Math.round(performance.now() - t0));
  return { nodes, ms, nps: Math.round((nodes * 1000) / ms) };
}
