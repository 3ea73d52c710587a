/** Parallel perft: root moves split over piscina worker threads. */
import { formatMove, legalMoves, pickRules, toKfen, type DivideLine, type Position } from '../core/index';
import type { PerftTask } from './perft-worker';
import { workerPool } from '../process/pool';

/**
 * Divide at `depth` from `pos`, with `threads` workers; `onLine` hears of each root move when it
 * and every move before it are counted (so in the order of the result).
 */
export async function parallelDivide(
  pos: Position,
  depth: number,
  threads: number,
  onLine?: (line: DivideLine, index: number, total: number) => void,
): Promise<DivideLine[]> {
  const moves = pos.winner >= 0 ? [] : legalMoves(pos).map(formatMove);
  const pool = workerPool(new URL('./perft-worker.ts', import.meta.url), threads, 1000);
  try {
    // The history before the position is not needed for perft: start from its KFEN.
    const kfen = toKfen(pos);
    const counts: (number | undefined)[] = moves.map(() => undefined);
    let next = 0;
    const flush = (): void => {
      for (; next < moves.length && counts[next] !== undefined; next++)
        onLine?.({ move: moves[next], nodes: counts[next]! }, next, moves.length);
    };
    await Promise.all(
      moves.map((mv, i) => {
        const task: PerftTask = {
          kfen,
          edition: pos.edition.id,
          ...pickRules(pos.rules),
          moves: [mv],
          depth: depth - 1,
        };
        return (pool.run(task) as Promise<number>).then((c) => {
          counts[i] = c;
          flush();
        });
      }),
    );
    return moves.map((move, i) => ({ move, nodes: counts[i]! }));
  } finally {
    await pool.destroy();
  }
}
