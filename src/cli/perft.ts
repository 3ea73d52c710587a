/** `thoth perft <depth> [...]`: Stockfish-style perft and divide. */
import { divide, perft, type DivideLine } from '../core/index';
import { parallelDivide } from '../threads/perft-pool';
import { UsageError, intOption, parseArgs } from './args';
import { POSITION_MULTI, POSITION_VALUED, positionFromArgs } from './position-args';

export const PERFT_USAGE =
  'thoth perft <depth> [--variant khet2|khet1|deflexion] [--setup classic|imhotep|dynasty] [--kfen "<kfen>"] ' +
  '[--moves m1 m2 ...] [--divide] [--threads N] [--pharaoh-rotation]';

export async function perftCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, [...POSITION_VALUED, 'threads'], ['divide', 'pharaoh-rotation'], POSITION_MULTI);
  if (args.positional.length !== 1) throw new UsageError(`usage: ${PERFT_USAGE}`);
  const dText = args.positional[0];
  if (!/^\d+$/.test(dText) || Number(dText) < 1 || Number(dText) > 20) {
    throw new UsageError(`depth must be a whole number from 1 to 20, not '${dText}'`);
  }
  const depth = Number(dText);
  const threads = intOption(args, 'threads', 1, 1, 256);
  const pos = positionFromArgs(args, args.options.has('pharaoh-rotation'));
  const t0 = performance.now();
  let nodes: number;
  let lines: DivideLine[] | undefined;
  if (threads > 1) {
    lines = await parallelDivide(pos, depth, threads);
    nodes = lines.reduce((s, l) => s + l.nodes, 0);
  } else if (args.options.has('divide')) {
    lines = divide(pos, depth);
    nodes = lines.reduce((s, l) => s + l.nodes, 0);
  } else {
    nodes = perft(pos, depth);
  }
  const ms = performance.now() - t0;
  if (args.options.has('divide') && lines) {
    for (const l of lines) write(`${l.move}: ${l.nodes}`);
    write('');
  }
  write(`Nodes searched: ${nodes}`);
  write(`Time: ${(ms / 1000).toFixed(3)} s`);
  write(`Nodes/second: ${Math.round(nodes / Math.max(ms / 1000, 1e-6))}`);
}
