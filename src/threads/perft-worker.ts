/** Worker: perft of one root move (piscina task). */
import { parseKfen, parseMove, perft, pickRules, type EditionId } from '../core/index';

export interface PerftTask {
  kfen: string;
  edition: EditionId;
  pharaohRotation: boolean;
  twoScarabRotations?: boolean;
  swapOntoReserved?: boolean;
  swapSphinx?: boolean;
  /** Moves from the KFEN to the root, then the root move to count. */
  moves: string[];
  depth: number;
}

export default function run(task: PerftTask): number {
  const r = parseKfen(task.kfen, task.edition, pickRules(task));
  if (!r.ok) throw new Error(r.error.message);
  const pos = r.value;
  for (const text of task.moves) {
    const m = parseMove(pos, text);
    if (!m.ok) throw new Error(m.error.message);
    pos.make(m.value);
  }
  if (task.depth <= 0) return 1;
  if (pos.winner >= 0) return 0;
  return perft(pos, task.depth);
}
