/** Parallel perft: root moves split over piscina worker threads. */
import { formatMove, legalMoves, toKfen, type DivideLine, type Position } from '../core/index';
import type { PerftTask } from './perft-worker';
import { workerPool } from './pool';

/** Divide at `depth` from `pos`, with `threads` workers. */
export async function parallelDivide(pos: Position, depth: number, threads: number): Promise<DivideLine[]> {
  const moves = pos.winner >= 0 ? [] : legalMoves(pos).map(formatMove);
  const pool = workerPool('perft-worker', threads, 1000);
  try {
    // The history before the position is not needed for perft: start from its KFEN.
    const kfen = toKfen(pos);
    const counts = await Promise.all(
      moves.map((mv) => {
        const task: PerftTask = {
          kfen,
          edition: pos.edition.id,
          pharaohRotation: pos.rules.pharaohRotation,
          moves: [mv],
          depth: depth - 1,
        };
        return pool.run(task) as Promise<number>;
      }),
    );
    return moves.map((move, i) => ({ move, nodes: counts[i] }));
  } finally {
    await pool.destroy();
  }
}
