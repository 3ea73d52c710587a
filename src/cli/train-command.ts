/**
 * `thoth train --out net.nnue DATA…`: fits the network to datagen's files and writes the quantised
 * network file. The flags and the lines printed; the run (the data read or streamed, the epochs,
 * the best network so far written after each, stop) is src/train/training-run.ts. `--out` is checked
 * before the data are read (it may not be one of them); Ctrl-C writes the best network so far (by
 * validation loss) and exits 130.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { DEFAULT_SEED } from '../match/config';
import { DEFAULT_SCALE, MAX_HIDDEN, type Network } from '../nnue/network';
import { loadNetworkFile } from '../node/network-file';
import { checkWritable, fileErrorText, outputIsInput, sameFile } from '../process/files';
import type { TrainSettings } from '../train/train';
import { TrainingRun } from '../train/training-run';
import { UsageError, intOption, parseArgs, type ParsedArgs } from './args';
import { onInterrupt } from './interrupt';
import { ProgressLine } from './progress';
import { TRAIN_SPEC } from './train-spec';

function numberOption(args: ParsedArgs, name: string, def: number, min: number, max: number): number {
  const v = args.options.get(name)?.[0];
  if (v === undefined) return def;
  if (!/^-?(\d+\.?\d*|\.\d+)(e-?\d+)?$/i.test(v)) throw new UsageError(`--${name} must be a number, not '${v}'`);
  const x = Number(v);
  if (!(x >= min && x <= max)) throw new UsageError(`--${name} must be from ${min} to ${max}, not ${v}`);
  return x;
}

export async function trainCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, TRAIN_SPEC);
  const out = args.options.get('out')?.[0];
  if (out === undefined || out === '') throw new UsageError('--out FILE is needed (see thoth train --help)');
  if (args.positional.length === 0) throw new UsageError('no data files given (see thoth train --help)');
  const epochs = intOption(args, 'epochs', 10, 0, 10_000);
  const initFile = args.options.get('init')?.[0];
  let init: Network | undefined;
  if (initFile !== undefined) {
    const loaded = loadNetworkFile(initFile);
    if (!loaded.ok) throw new UsageError(`--init: ${loaded.error}`);
    init = loaded.value.net;
  }
  const nameTail = initFile !== undefined ? ` init=${basename(initFile)}` : '';
  const settings: TrainSettings = {
    hidden: intOption(args, 'hidden', init?.hidden ?? 128, 1, MAX_HIDDEN),
    epochs,
    batch: intOption(args, 'batch', 4096, 1, 1 << 24),
    lr: numberOption(args, 'lr', 0.001, 1e-9, 10),
    lrDrop: intOption(args, 'lr-drop', Math.max(1, Math.round(epochs * 0.7)), 1, 10_000),
    lrGamma: numberOption(args, 'lr-gamma', 0.1, 0, 1),
    lambda: numberOption(args, 'lambda', 1, 0, 1),
    seed: intOption(args, 'seed', DEFAULT_SEED, 0, 4294967295),
    scale: intOption(args, 'scale', init?.scale ?? DEFAULT_SCALE, 1, 100_000),
    init,
  };
  if (init && init.hidden !== settings.hidden)
    throw new UsageError(`--hidden ${settings.hidden}, but the --init network has ${init.hidden} hidden neurons`);
  if (init && init.scale !== settings.scale)
    throw new UsageError(`--scale ${settings.scale}, but the --init network's scale is ${init.scale}`);
  const valFraction = numberOption(args, 'val', 0.05, 0, 0.9);
  const threads = intOption(args, 'threads', availableParallelism(), 1, 64);
  const progress = new ProgressLine(process.stderr, !args.options.has('quiet'));

  const clash = outputIsInput(out, args.positional);
  if (clash !== undefined) throw new UsageError(clash);
  try {
    checkWritable(out);
  } catch (e) {
    throw new UsageError(`cannot write '${out}': ${fileErrorText(e)}`);
  }
  const chunkPositions = intOption(args, 'chunk-positions', 2_000_000, 1, 2_000_000_000);

  // A device or a pipe (`/dev/zero`, a FIFO) would be read, or opened, without end: only files
  // (a folder or a missing file is reported by the reader below).
  for (const path of args.positional) {
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (!st.isFile() && !st.isDirectory())
      throw new UsageError(`cannot read '${path}': not a data file (a device or a pipe)`);
  }
  // The same file twice would be trained twice and leak into the validation split.
  for (const [i, b] of args.positional.entries()) {
    const a = args.positional.slice(0, i).find((p) => sameFile(p, b));
    if (a !== undefined) throw new UsageError(`'${b}' is '${a}' again: give each data file once`);
  }

  const run = new TrainingRun(
    {
      paths: args.positional,
      out,
      settings,
      valFraction,
      threads,
      threadEntry: new URL('../threads/train-worker.ts', import.meta.url),
      chunkPositions,
      nameTail,
    },
    {
      line: write,
      warn: (s) => process.stderr.write(`thoth train: ${s}\n`),
      progress: (s) => progress.show(s, true),
      clearProgress: () => progress.clear(),
      stoppable: () => onInterrupt(() => run.stop()),
    },
  );
  // A TrainingError (TrainingStopped on Ctrl-C) goes up as it is: src/cli/exit-codes.ts gives its exit code.
  await run.run();
}
