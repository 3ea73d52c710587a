/**
 * `thoth train --out net.nnue DATA…`: fits the network to datagen's files (src/train/train.ts)
 * and writes the quantised network file. A validation split of whole games is held out and its
 * loss printed after every epoch; a seed makes a run repeat exactly (the same file, byte for byte).
 * `--out` is checked before the data are read (it may not be one of them) and written whole; Ctrl-C
 * writes the best network so far (by validation loss) and exits 130.
 */
import { every, plural } from '../core/plural';
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { DEFAULT_SEED } from '../match/config';
import { DEFAULT_SCALE, MAX_HIDDEN, quantise, writeNetwork, type Network } from '../nnue/network';
import { loadNetworkFile } from '../node/network-file';
import { startTrainThreads } from '../train/train-threads';
import { LOGISTIC_K, Trainer, loadTrainingData, quantisationError, type TrainSettings } from '../train/train';
import { checkWritable, fileErrorText, outputIsInput, sameFile, writeFileAtomic } from '../process/files';
import { dropRepeatedGames } from '../train/data';
import { DataIndexError, epochChunks, indexDataFiles, packGames, type DataIndex } from '../train/stream';
import { CommandError, EXIT, UsageError, intOption, parseArgs, type CommandSpec, type ParsedArgs } from './args';
import { ProgressLine } from './progress';

export const TRAIN_SPEC: CommandSpec = {
  name: 'train',
  positional: '--out FILE DATA…',
  summary:
    "Trains the network on the positions of datagen's files (DATA…, docs/nnue.md) and writes the quantised network " +
    `file. The loss is the squared error between sigmoid(output · SCALE / ${LOGISTIC_K}) and λ · sigmoid(score / ${LOGISTIC_K}) ` +
    '+ (1 − λ) · result; the optimiser is Adam.',
  options: [
    {
      name: 'out',
      value: 'FILE',
      help: 'the network file to write (not a data file); Ctrl-C writes the best network so far there',
    },
    {
      name: 'init',
      value: 'NET',
      help: "a warm start: begin from this network's weights ('default': the shipped one) instead of random ones; its hidden size and scale are kept",
    },
    { name: 'hidden', value: 'N', help: 'neurons per perspective', default: '128, or that of --init' },
    {
      name: 'epochs',
      value: 'N',
      help: "passes over the training positions (0: none, only the --init network's loss)",
      default: '10',
    },
    { name: 'batch', value: 'N', help: 'positions per optimiser step', default: '4096' },
    { name: 'lr', value: 'X', help: "Adam's learning rate", default: '0.001' },
    {
      name: 'lr-drop',
      value: 'N',
      help: 'multiply the rate by --lr-gamma after every N epochs',
      default: '70 % of --epochs',
    },
    { name: 'lr-gamma', value: 'X', help: 'the factor of --lr-drop', default: '0.1' },
    {
      name: 'lambda',
      value: 'X',
      help: 'weight of the search score against the game result in the target',
      default: '1',
    },
    { name: 'val', value: 'X', help: 'share of the games held out for validation', default: '0.05' },
    {
      name: 'seed',
      value: 'S',
      help: 'seed of the initial weights, the order and the split',
      default: String(DEFAULT_SEED),
    },
    { name: 'scale', value: 'N', help: 'centi-pyramids per unit of output', default: String(DEFAULT_SCALE) },
    { name: 'threads', value: 'N', help: "threads computing each batch's gradient", default: 'the number of cores' },
    {
      name: 'chunk-positions',
      value: 'N',
      help: 'more training positions than this are streamed from the files in shuffled chunks of at most N (memory: about 0.6 kB a position of a chunk; docs/nnue.md)',
      default: '2000000',
    },
    { name: 'quiet', help: 'no progress line (it is shown on a terminal only)' },
  ],
};

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

  const t0 = performance.now();
  // Data that do not fit in one chunk are streamed; a file the index cannot read is left to the
  // whole-file reader below, which says what is wrong with it.
  let index: DataIndex | undefined;
  try {
    index = indexDataFiles(args.positional, valFraction, settings.seed);
  } catch {
    index = undefined;
  }
  if (index && index.trainPositions > chunkPositions) {
    return streamedTraining(args.positional, index, settings, {
      valFraction,
      threads,
      chunkPositions,
      out,
      progress,
      write,
      t0,
      nameTail,
    });
  }
  const sources = args.positional.map((path) => {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(path));
    } catch (e) {
      throw e instanceof UsageError ? e : new UsageError(`cannot read '${path}': ${fileErrorText(e)}`);
    }
    return { name: path, bytes };
  });
  // A game in two files (a merged file and a shard already in it) is trained once.
  const unique = dropRepeatedGames(sources.map((f) => f.bytes));
  const repeated = unique.reduce((n, u) => n + u.dropped, 0);
  for (const [i, u] of unique.entries()) sources[i].bytes = u.bytes;
  if (repeated > 0)
    write(
      `Note: ${repeated} repeated game${repeated === 1 ? '' : 's'} dropped (the same positions, result and edition as a game before them in the data)`,
    );
  progress.show('train: reading the data', true);
  const loaded = loadTrainingData(sources, valFraction, settings.seed);
  progress.clear();
  if (!loaded.ok) throw new CommandError(`${loaded.error.source}: ${loaded.error.error.message}`);
  const { data, files } = loaded.value;
  for (const f of files) if (f.warning) process.stderr.write(`thoth train: ${f.name}: ${f.warning}\n`);
  const trainer = new Trainer(data, settings);
  if (trainer.trainIdx.length === 0) throw new CommandError('no training positions in the data');
  write(
    `Data: ${plural(data.count, 'position')} of ${plural(
      files.reduce((n, f) => n + f.games, 0),
      'game',
    )} from ${plural(files.length, 'file')} ` +
      `read in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${trainer.trainIdx.length} for training, ` +
      `${trainer.valIdx.length} for validation; ${(data.feats.length / Math.max(1, data.count)).toFixed(1)} features a position`,
  );
  write(
    `Network: ${settings.hidden} hidden × 2 perspectives; batch ${settings.batch}, lr ${settings.lr} (× ${settings.lrGamma} ` +
      `${every(settings.lrDrop, 'epoch')}), λ ${settings.lambda}, seed ${settings.seed}, ${plural(threads, 'thread')}`,
  );
  const loss = (x: number): string => (Number.isNaN(x) ? '-' : x.toFixed(6));
  if (trainer.valIdx.length === 0)
    write(
      `No validation split (--val ${valFraction} of ${plural(
        files.reduce((n, f) => n + f.games, 0),
        'game',
      )} is none)`,
    );
  else
    write(
      `Validation loss before training ${loss(trainer.validationLoss())} (predicting the mean target: ${loss(trainer.constantLoss())})`,
    );

  const name = (epochsDone: number): string =>
    `data=${files.map((f) => basename(f.name)).join(',')} positions=${data.count} epochs=${epochsDone} seed=${settings.seed} ` +
    `hidden=${settings.hidden} batch=${settings.batch} lr=${settings.lr} lambda=${settings.lambda} val=${valFraction}` +
    nameTail;
  if (epochs > 0) write(checkpointLine(out));
  const splitter = threads > 1 ? await startTrainThreads(trainer, threads) : undefined;
  let shown = 0;
  const onBatch = (done: number, total: number): void => {
    const now = performance.now();
    if (now - shown < 500) return;
    shown = now;
    progress.show(`train: epoch ${trainer.epoch}/${epochs}, ${((100 * done) / total).toFixed(0)} %`, true);
  };
  // Ctrl-C: the epoch stops before its next batch and the best network so far is written; a
  // second Ctrl-C leaves at once.
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  // The best network so far: the parameters of the epoch with the lowest validation loss (the last
  // epoch's without a validation split).
  let best: { params: Float32Array; epoch: number; valLoss: number } | undefined;
  let done = 0;
  try {
    for (let e = 1; e <= epochs && !interrupted; e++) {
      const r = await trainer.runEpoch(splitter, onBatch, () => interrupted);
      progress.clear();
      if (r.stopped) break;
      done = r.epoch;
      write(
        `epoch ${r.epoch}/${epochs}: train loss ${loss(r.trainLoss)}, val loss ${loss(r.valLoss)}, ` +
          `${r.seconds.toFixed(1)} s, ${Math.round(r.positionsPerSecond)} positions/s, lr ${r.lr}`,
      );
      if (best === undefined || Number.isNaN(r.valLoss) || r.valLoss < best.valLoss) {
        best = { params: trainer.net.params.slice(), epoch: r.epoch, valLoss: r.valLoss };
        // The checkpoint: the best network so far, written whole (a kill or a full disk later keeps it).
        const now = trainer.net.params.slice();
        trainer.net.params.set(best.params);
        writeNet(
          out,
          writeNetwork(
            quantise(trainer.net, { scale: settings.scale, editions: data.editions, name: name(best.epoch) }),
          ),
        );
        trainer.net.params.set(now);
      }
    }
  } finally {
    progress.clear();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await splitter?.close();
  }
  if (interrupted) {
    // The weights as they stand (part of an epoch) may beat every finished epoch.
    const now = trainer.validationLoss();
    if (best !== undefined && !(now < best.valLoss)) trainer.net.params.set(best.params);
    else best = { params: trainer.net.params, epoch: 0, valLoss: now };
  }

  const finalName = name(interrupted ? (best!.epoch > 0 ? best!.epoch : done) : epochs);
  const q = quantise(trainer.net, { scale: settings.scale, editions: data.editions, name: finalName });
  const bytes = writeNetwork(q);
  writeNet(out, bytes);
  if (interrupted) {
    throw new CommandError(
      `interrupted after ${done} of ${plural(epochs, 'epoch')}: wrote the best network so far to ${out} ` +
        `(${best!.epoch > 0 ? `epoch ${best!.epoch}'s` : 'the weights as they stood'}, validation loss ${loss(best!.valLoss)})`,
      EXIT.interrupted,
    );
  }
  const check = quantisationError(trainer.net, q, data, trainer.valIdx.length > 0 ? trainer.valIdx : trainer.trainIdx);
  write(
    `Quantised: evaluations differ from the float network's by ${check.mean.toFixed(2)} cp on average ` +
      `(largest ${check.max.toFixed(0)} cp; mean |evaluation| ${check.meanAbsEval.toFixed(0)} cp)`,
  );
  write(`Wrote ${out} (${bytes.length} bytes): ${finalName}`);
}

/** Where the checkpoints go, in words. */
const checkpointLine = (out: string): string =>
  `Checkpoint: after each epoch the best network so far is written to ${out} (whole, by rename); after a crash \`--init ${out}\` goes on from it`;

/** Writes the network file whole (a temporary file renamed over it); a failure is one line. */
function writeNet(out: string, bytes: Uint8Array): void {
  try {
    writeFileAtomic(out, bytes);
  } catch (e) {
    throw new CommandError(`cannot write '${out}': ${fileErrorText(e)}`);
  }
}

interface StreamOptions {
  valFraction: number;
  threads: number;
  chunkPositions: number;
  out: string;
  progress: ProgressLine;
  write: (s: string) => void;
  t0: number;
  /** The end of the network's name field (` init=FILE` after a warm start). */
  nameTail: string;
}

/** Training on data larger than one chunk: streamed from the files in shuffled chunks (src/train/stream.ts). */
async function streamedTraining(
  paths: string[],
  index: DataIndex,
  settings: TrainSettings,
  o: StreamOptions,
): Promise<void> {
  const { valFraction, threads, chunkPositions, out, progress, write } = o;
  const epochs = settings.epochs;
  for (const f of index.files) if (f.warning) process.stderr.write(`thoth train: ${f.name}: ${f.warning}\n`);
  const pack = (games: Parameters<typeof packGames>[1]) => {
    try {
      return packGames(paths, games, valFraction, settings.seed);
    } catch (e) {
      if (e instanceof DataIndexError) throw new CommandError(`${e.source}: ${e.message}`);
      throw e;
    }
  };
  progress.show('train: reading the validation split', true);
  const valData = pack(index.validation);
  progress.clear();
  const main = new Trainer(valData, settings);
  const games = index.files.reduce((n, f) => n + f.games, 0);
  const total = index.trainPositions + index.validationPositions;
  write(
    `Data: ${plural(total, 'position')} of ${plural(games, 'game')} from ${plural(index.files.length, 'file')} indexed in ${((performance.now() - o.t0) / 1000).toFixed(1)} s: ` +
      `${index.trainPositions} for training, streamed in shuffled chunks of at most ${plural(chunkPositions, 'position')}; ${index.validationPositions} for validation`,
  );
  write(
    `Network: ${settings.hidden} hidden × 2 perspectives; batch ${settings.batch}, lr ${settings.lr} (× ${settings.lrGamma} ` +
      `${every(settings.lrDrop, 'epoch')}), λ ${settings.lambda}, seed ${settings.seed}, ${plural(threads, 'thread')}`,
  );
  const loss = (x: number): string => (Number.isNaN(x) ? '-' : x.toFixed(6));
  if (main.valIdx.length === 0) write(`No validation split (--val ${valFraction} of ${plural(games, 'game')} is none)`);
  else write(`Validation loss before training ${loss(main.validationLoss())}`);
  // The last chunk, kept only for the quantisation check when there is no validation split (else
  // it would hold the previous chunk in memory while the next one is read).
  let last: Trainer = main;
  const name = (epochsDone: number): string =>
    `data=${index.files.map((f) => basename(f.name)).join(',')} positions=${total} epochs=${epochsDone} seed=${settings.seed} ` +
    `hidden=${settings.hidden} batch=${settings.batch} lr=${settings.lr} lambda=${settings.lambda} val=${valFraction}` +
    o.nameTail;
  if (epochs > 0) write(checkpointLine(out));
  for (let e = 1; e <= epochs; e++) {
    const t0 = performance.now();
    const chunks = epochChunks(index, chunkPositions, settings.seed, e);
    let sum = 0;
    let done = 0;
    let shown = 0;
    let lr = 0;
    for (const [c, chunk] of chunks.entries()) {
      progress.show(`train: epoch ${e}/${epochs}, reading chunk ${c + 1}/${chunks.length}`, true);
      const t = new Trainer(pack(chunk), settings, main.training);
      if (main.valIdx.length === 0) last = t;
      const splitter = threads > 1 ? await startTrainThreads(t, threads) : undefined;
      try {
        const r = await t.pass(e, splitter, (d) => {
          const now = performance.now();
          if (now - shown < 500) return;
          shown = now;
          progress.show(
            `train: epoch ${e}/${epochs}, chunk ${c + 1}/${chunks.length}, ${((100 * (done + d)) / index.trainPositions).toFixed(0)} %`,
            true,
          );
        });
        sum += r.loss;
        lr = r.lr;
      } finally {
        await splitter?.close();
      }
      done += t.trainIdx.length;
    }
    progress.clear();
    const seconds = (performance.now() - t0) / 1000;
    write(
      `epoch ${e}/${epochs}: train loss ${loss(sum / Math.max(1, done))}, val loss ${loss(main.validationLoss())}, ` +
        `${seconds.toFixed(1)} s, ${Math.round(done / seconds)} positions/s, lr ${lr}, ${plural(chunks.length, 'chunk')}`,
    );
    if (e < epochs)
      writeNet(
        out,
        writeNetwork(quantise(main.net, { scale: settings.scale, editions: index.editions, name: name(e) })),
      );
  }

  const q = quantise(main.net, { scale: settings.scale, editions: index.editions, name: name(epochs) });
  const bytes = writeNetwork(q);
  writeNet(out, bytes);
  const check =
    main.valIdx.length > 0
      ? quantisationError(main.net, q, valData, main.valIdx)
      : quantisationError(main.net, q, last.data, last.trainIdx);
  write(
    `Quantised: evaluations differ from the float network's by ${check.mean.toFixed(2)} cp on average ` +
      `(largest ${check.max.toFixed(0)} cp; mean |evaluation| ${check.meanAbsEval.toFixed(0)} cp)`,
  );
  write(`Wrote ${out} (${bytes.length} bytes): ${name(epochs)}`);
}
