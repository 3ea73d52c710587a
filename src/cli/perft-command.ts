/** `thoth perft <depth> [...]`: Stockfish-style perft and divide. */
import { plural } from '../core/plural';
import { divide, perft, toKfen, type DivideLine } from '../core/index';
import { jsonLine } from '../match/results/summary';
import { parallelDivide } from '../threads/perft-pool';
import { UsageError, intOption, parseArgs, type CommandSpec } from './args';
import { fmtDuration } from '../core/duration';
import { ProgressLine } from './progress';
import { POSITION_OPTIONS, positionFromArgs } from './position-args';

export const PERFT_SPEC: CommandSpec = {
  name: 'perft',
  positional: '<depth>',
  summary:
    "Counts the move sequences of <depth> plies from a position (1 to 20), as Stockfish's perft does: " +
    '`Nodes searched: N`, the time and the speed. A move that hits a Pharaoh ends the game there.',
  options: [
    ...POSITION_OPTIONS,
    { name: 'divide', help: 'a `<move>: <count>` line per root move, printed as each is counted' },
    { name: 'threads', value: 'N', help: 'split the root moves over N worker threads', default: '1' },
    {
      name: 'json',
      help: 'one JSON object instead of the text: depth, variant, kfen, nodes, timeMs, nps (and divide)',
    },
    {
      name: 'allow-no-pharaoh',
      help: 'take a --kfen without both Pharaohs (a test board; positions for play need both)',
    },
  ],
  notes: [
    'On a terminal a progress line on stderr shows the root moves done.',
    'Example: thoth perft 5 --setup dynasty --divide',
  ],
};

export async function perftCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, PERFT_SPEC);
  if (args.positional.length !== 1) {
    const hint = args.options.has('moves') ? ' (the moves end at the first word that is not a move)' : '';
    throw new UsageError(
      args.positional.length === 0
        ? 'give a depth, e.g. thoth perft 5 (thoth perft --help)'
        : `one depth only, not '${args.positional.join(' ')}'${hint}`,
    );
  }
  const dText = args.positional[0];
  if (!/^\d+$/.test(dText) || Number(dText) < 1 || Number(dText) > 20) {
    throw new UsageError(`depth must be a whole number from 1 to 20, not '${dText}'`);
  }
  const depth = Number(dText);
  const threads = intOption(args, 'threads', 1, 1, 256);
  const pos = positionFromArgs(args, args.options.has('pharaoh-rotation'), args.options.has('allow-no-pharaoh'));
  const json = args.options.has('json');
  const showDivide = args.options.has('divide');
  const kfen = toKfen(pos);
  const progress = new ProgressLine(process.stderr);
  const t0 = performance.now();
  let counted = 0;
  let nodesSoFar = 0;
  // Root moves are printed as they are counted (divide), and feed the progress line.
  const onLine = (l: DivideLine, i: number, total: number): void => {
    counted++;
    nodesSoFar += l.nodes;
    if (showDivide && !json) {
      progress.clear();
      write(`${l.move}: ${l.nodes}`);
    }
    const el = performance.now() - t0;
    const eta = counted < total ? ((total - counted) * el) / counted : 0;
    progress.show(
      `perft ${depth}: ${i + 1}/${plural(total, 'root move')}, ${nodesSoFar} nodes, ${fmtDuration(el)} (about ${fmtDuration(eta)} to go)`,
    );
  };
  let nodes: number;
  let lines: DivideLine[] | undefined;
  try {
    if (threads > 1) {
      lines = await parallelDivide(pos, depth, threads, onLine);
    } else if (showDivide || (depth >= 6 && process.stderr.isTTY)) {
      // Counting root move by root move costs nothing extra and lets the progress line move.
      lines = divide(pos, depth, onLine);
    } else {
      nodes = perft(pos, depth);
    }
  } finally {
    progress.clear();
  }
  nodes ??= lines!.reduce((s, l) => s + l.nodes, 0);
  const ms = performance.now() - t0;
  const nps = Math.round(nodes / Math.max(ms / 1000, 1e-6));
  if (json) {
    write(
      jsonLine({
        depth,
        variant: pos.edition.id,
        kfen,
        nodes,
        timeMs: Math.round(ms),
        nps,
        ...(showDivide && lines ? { divide: lines } : {}),
      }),
    );
    return;
  }
  if (showDivide) write('');
  write(`Nodes searched: ${nodes}`);
  write(`Time: ${(ms / 1000).toFixed(3)} s`);
  write(`Nodes/second: ${nps}`);
}
