/**
 * A training run (docs/nnue.md): the data read whole, or indexed and streamed in shuffled chunks
 * when they are larger than one chunk (stream.ts); the epochs of the trainer (train.ts), each one
 * reported; the best network so far (by validation loss) written whole after every epoch as a
 * checkpoint; stop() (Ctrl-C) ends the epoch before its next batch and writes the best network so
 * far. `thoth train` (src/cli/train-command.ts) parses the flags and prints the lines it reports.
 */
import { every, plural } from '../core/plural';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { writeNetwork, type Network } from '../nnue/network';
import { fileErrorText, writeFileAtomic } from '../process/files';
import { dropRepeatedGames } from './data';
import { quantise, type FloatNetwork } from './float-network';
import { DataIndexError, epochChunks, indexDataFiles, packGames, type DataIndex } from './stream';
import { startTrainThreads } from './train-threads';
import { Trainer, loadTrainingData, quantisationError, type TrainSettings, type TrainingData } from './train';

export interface TrainingRunOptions {
  /** The data files. */
  paths: string[];
  /** The network file to write (checkpoints and the result). */
  out: string;
  settings: TrainSettings;
  /** Share of the games held out for validation. */
  valFraction: number;
  threads: number;
  /** The entry point of the helper threads (src/threads/train-worker.ts, as the caller names it), when threads > 1. */
  threadEntry: URL;
  /** More training positions than this are streamed in shuffled chunks of at most this many. */
  chunkPositions: number;
  /** The end of the network's name field (` init=FILE` after a warm start). */
  nameTail: string;
}

/** Where the run reports: lines (stdout), a data file's warning (stderr), the progress line. */
export interface TrainingReport {
  line(s: string): void;
  warn(s: string): void;
  progress(s: string): void;
  clearProgress(): void;
  /** The epochs over data in memory begin: stop() is heard from now until the returned function is called. */
  stoppable(): () => void;
}

/** Why a run stops, in one line: `usage` when a data file named cannot be read (exit 2), else a failure (exit 1). */
export class TrainingError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** A run stopped by stop(): the best network so far was written. */
export class TrainingStopped extends TrainingError {}

const loss = (x: number): string => (Number.isNaN(x) ? '-' : x.toFixed(6));

export class TrainingRun {
  /** Set by stop(): the epoch stops before its next batch. */
  stopped = false;
  private readonly t0 = performance.now();

  constructor(
    readonly o: TrainingRunOptions,
    private readonly report: TrainingReport,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** Reads the data and trains; throws TrainingError (TrainingStopped after stop()). */
  async run(): Promise<void> {
    // Data that do not fit in one chunk are streamed; a file the index cannot read is left to the
    // whole-file reader, which says what is wrong with it.
    let index: DataIndex | undefined;
    try {
      index = indexDataFiles(this.o.paths, this.o.valFraction, this.o.settings.seed);
    } catch {
      index = undefined;
    }
    if (index && index.trainPositions > this.o.chunkPositions) return this.streamed(index);
    return this.whole();
  }

  /** The network's name field after `epochs` epochs. */
  private name(files: readonly { name: string }[], positions: number, epochs: number): string {
    const s = this.o.settings;
    return (
      `data=${files.map((f) => basename(f.name)).join(',')} positions=${positions} epochs=${epochs} seed=${s.seed} ` +
      `hidden=${s.hidden} batch=${s.batch} lr=${s.lr} lambda=${s.lambda} val=${this.o.valFraction}` +
      this.o.nameTail
    );
  }

  /** Writes the network file whole (a temporary file renamed over it); the bytes written. */
  private save(net: FloatNetwork, editions: number, name: string): { q: Network; bytes: Uint8Array } {
    const q = quantise(net, { scale: this.o.settings.scale, editions, name });
    const bytes = writeNetwork(q);
    try {
      writeFileAtomic(this.o.out, bytes);
    } catch (e) {
      throw new TrainingError(`cannot write '${this.o.out}': ${fileErrorText(e)}`);
    }
    return { q, bytes };
  }

  private settingsLines(validation: string): void {
    const s = this.o.settings;
    const t = this.o.threads;
    this.report.line(
      `Network: ${s.hidden} hidden × 2 perspectives; batch ${s.batch}, lr ${s.lr} (× ${s.lrGamma} ` +
        `${every(s.lrDrop, 'epoch')}), λ ${s.lambda}, seed ${s.seed}, ${plural(t, 'thread')}`,
    );
    this.report.line(validation);
    if (s.epochs > 0)
      this.report.line(
        `Checkpoint: after each epoch the best network so far is written to ${this.o.out} (whole, by rename); after a crash \`--init ${this.o.out}\` goes on from it`,
      );
  }

  private closingLines(net: FloatNetwork, q: Network, data: TrainingData, idx: Uint32Array, bytes: Uint8Array) {
    const check = quantisationError(net, q, data, idx);
    this.report.line(
      `Quantised: evaluations differ from the float network's by ${check.mean.toFixed(2)} cp on average ` +
        `(largest ${check.max.toFixed(0)} cp; mean |evaluation| ${check.meanAbsEval.toFixed(0)} cp)`,
    );
    this.report.line(`Wrote ${this.o.out} (${bytes.length} bytes): ${q.name}`);
  }

  /** The data read whole (what fits in one chunk). */
  private async whole(): Promise<void> {
    const { paths, settings, valFraction } = this.o;
    const sources = paths.map((path): { name: string; bytes: Uint8Array } => {
      try {
        return { name: path, bytes: new Uint8Array(readFileSync(path)) };
      } catch (e) {
        throw new TrainingError(`cannot read '${path}': ${fileErrorText(e)}`, true);
      }
    });
    // A game in two files (a merged file and a shard already in it) is trained once.
    const unique = dropRepeatedGames(sources.map((f) => f.bytes));
    const repeated = unique.reduce((n, u) => n + u.dropped, 0);
    for (const [i, u] of unique.entries()) sources[i].bytes = u.bytes;
    if (repeated > 0)
      this.report.line(
        `Note: ${repeated} repeated game${repeated === 1 ? '' : 's'} dropped (the same positions, result and edition as a game before them in the data)`,
      );
    this.report.progress('train: reading the data');
    const loaded = loadTrainingData(sources, valFraction, settings.seed);
    this.report.clearProgress();
    if (!loaded.ok) throw new TrainingError(`${loaded.error.source}: ${loaded.error.error.message}`);
    const { data, files } = loaded.value;
    for (const f of files) if (f.warning) this.report.warn(`${f.name}: ${f.warning}`);
    const trainer = new Trainer(data, settings);
    if (trainer.trainIdx.length === 0) throw new TrainingError('no training positions in the data');
    const games = files.reduce((n, f) => n + f.games, 0);
    this.report.line(
      `Data: ${plural(data.count, 'position')} of ${plural(games, 'game')} from ${plural(files.length, 'file')} ` +
        `read in ${((performance.now() - this.t0) / 1000).toFixed(1)} s: ${trainer.trainIdx.length} for training, ` +
        `${trainer.valIdx.length} for validation; ${(data.feats.length / Math.max(1, data.count)).toFixed(1)} features a position`,
    );
    this.settingsLines(
      trainer.valIdx.length === 0
        ? `No validation split (--val ${valFraction} of ${plural(games, 'game')} is none)`
        : `Validation loss before training ${loss(trainer.validationLoss())} (predicting the mean target: ${loss(trainer.constantLoss())})`,
    );
    const name = (epochs: number): string => this.name(files, data.count, epochs);
    const { best, done } = await this.epochs(trainer, (params, epoch) => {
      // The checkpoint: the best network so far, written whole (a kill or a full disk later keeps it).
      const now = trainer.net.params.slice();
      trainer.net.params.set(params);
      this.save(trainer.net, data.editions, name(epoch));
      trainer.net.params.set(now);
    });
    const finalName = name(this.stopped ? (best.epoch > 0 ? best.epoch : done) : settings.epochs);
    const { q, bytes } = this.save(trainer.net, data.editions, finalName);
    if (this.stopped) {
      const e = settings.epochs;
      throw new TrainingStopped(
        `interrupted after ${done} of ${plural(e, 'epoch')}: wrote the best network so far to ${this.o.out} ` +
          `(${best.epoch > 0 ? `epoch ${best.epoch}'s` : 'the weights as they stood'}, validation loss ${loss(best.valLoss)})`,
      );
    }
    this.closingLines(trainer.net, q, data, trainer.valIdx.length > 0 ? trainer.valIdx : trainer.trainIdx, bytes);
  }

  /**
   * The epochs over data in memory, each reported; `checkpoint` hears the best parameters so far
   * (the epoch with the lowest validation loss; the last without a validation split). Leaves the
   * trainer's network at the best parameters when stopped (the weights as they stand, part of an
   * epoch, when they beat every finished epoch).
   */
  private async epochs(trainer: Trainer, checkpoint: (params: Float32Array, epoch: number) => void) {
    const epochs = this.o.settings.epochs;
    const splitter =
      this.o.threads > 1 ? await startTrainThreads(trainer, this.o.threads, this.o.threadEntry) : undefined;
    let shown = 0;
    const onBatch = (done: number, total: number): void => {
      const now = performance.now();
      if (now - shown < 500) return;
      shown = now;
      this.report.progress(`train: epoch ${trainer.epoch}/${epochs}, ${((100 * done) / total).toFixed(0)} %`);
    };
    let best: { params: Float32Array; epoch: number; valLoss: number } | undefined;
    let done = 0;
    const deaf = this.report.stoppable();
    try {
      for (let e = 1; e <= epochs && !this.stopped; e++) {
        const r = await trainer.runEpoch(splitter, onBatch, () => this.stopped);
        this.report.clearProgress();
        if (r.stopped) break;
        done = r.epoch;
        this.report.line(
          `epoch ${r.epoch}/${epochs}: train loss ${loss(r.trainLoss)}, val loss ${loss(r.valLoss)}, ` +
            `${r.seconds.toFixed(1)} s, ${Math.round(r.positionsPerSecond)} positions/s, lr ${r.lr}`,
        );
        if (best === undefined || Number.isNaN(r.valLoss) || r.valLoss < best.valLoss) {
          best = { params: trainer.net.params.slice(), epoch: r.epoch, valLoss: r.valLoss };
          checkpoint(best.params, best.epoch);
        }
      }
    } finally {
      this.report.clearProgress();
      deaf();
      await splitter?.close();
    }
    if (this.stopped) {
      const now = trainer.validationLoss();
      if (best !== undefined && !(now < best.valLoss)) trainer.net.params.set(best.params);
      else best = { params: trainer.net.params, epoch: 0, valLoss: now };
    }
    return { best: best ?? { epoch: 0, valLoss: NaN }, done };
  }

  /** Training on data larger than one chunk: streamed from the files in shuffled chunks (stream.ts). */
  private async streamed(index: DataIndex): Promise<void> {
    const { paths, settings, valFraction, chunkPositions } = this.o;
    for (const f of index.files) if (f.warning) this.report.warn(`${f.name}: ${f.warning}`);
    const pack = (games: Parameters<typeof packGames>[1]) => {
      try {
        return packGames(paths, games, valFraction, settings.seed);
      } catch (e) {
        if (e instanceof DataIndexError) throw new TrainingError(`${e.source}: ${e.message}`);
        throw e;
      }
    };
    this.report.progress('train: reading the validation split');
    const valData = pack(index.validation);
    this.report.clearProgress();
    const main = new Trainer(valData, settings);
    const games = index.files.reduce((n, f) => n + f.games, 0);
    const total = index.trainPositions + index.validationPositions;
    this.report.line(
      `Data: ${plural(total, 'position')} of ${plural(games, 'game')} from ${plural(index.files.length, 'file')} indexed in ${((performance.now() - this.t0) / 1000).toFixed(1)} s: ` +
        `${index.trainPositions} for training, streamed in shuffled chunks of at most ${plural(chunkPositions, 'position')}; ${index.validationPositions} for validation`,
    );
    this.settingsLines(
      main.valIdx.length === 0
        ? `No validation split (--val ${valFraction} of ${plural(games, 'game')} is none)`
        : `Validation loss before training ${loss(main.validationLoss())}`,
    );
    const name = (epochs: number): string => this.name(index.files, total, epochs);
    // The last chunk, kept only for the quantisation check when there is no validation split (else
    // it would hold the previous chunk in memory while the next one is read).
    let last: Trainer = main;
    for (let e = 1; e <= settings.epochs; e++) {
      last = await this.streamedEpoch(index, main, e, pack);
      if (e < settings.epochs) this.save(main.net, index.editions, name(e));
    }
    const { q, bytes } = this.save(main.net, index.editions, name(settings.epochs));
    if (main.valIdx.length > 0) this.closingLines(main.net, q, valData, main.valIdx, bytes);
    else this.closingLines(main.net, q, last.data, last.trainIdx, bytes);
  }

  /** One streamed epoch, reported; the trainer of its last chunk. */
  private async streamedEpoch(
    index: DataIndex,
    main: Trainer,
    e: number,
    pack: (games: Parameters<typeof packGames>[1]) => TrainingData,
  ): Promise<Trainer> {
    const { settings, threads, chunkPositions } = this.o;
    const epochs = settings.epochs;
    const t0 = performance.now();
    const chunks = epochChunks(index, chunkPositions, settings.seed, e);
    let sum = 0;
    let done = 0;
    let shown = 0;
    let lr = 0;
    let last = main;
    for (const [c, chunk] of chunks.entries()) {
      this.report.progress(`train: epoch ${e}/${epochs}, reading chunk ${c + 1}/${chunks.length}`);
      const t = new Trainer(pack(chunk), settings, main.training);
      if (main.valIdx.length === 0) last = t;
      const splitter = threads > 1 ? await startTrainThreads(t, threads, this.o.threadEntry) : undefined;
      try {
        const r = await t.pass(e, splitter, (d) => {
          const now = performance.now();
          if (now - shown < 500) return;
          shown = now;
          const pct = ((100 * (done + d)) / index.trainPositions).toFixed(0);
          this.report.progress(`train: epoch ${e}/${epochs}, chunk ${c + 1}/${chunks.length}, ${pct} %`);
        });
        sum += r.loss;
        lr = r.lr;
      } finally {
        await splitter?.close();
      }
      done += t.trainIdx.length;
    }
    this.report.clearProgress();
    const seconds = (performance.now() - t0) / 1000;
    this.report.line(
      `epoch ${e}/${epochs}: train loss ${loss(sum / Math.max(1, done))}, val loss ${loss(main.validationLoss())}, ` +
        `${seconds.toFixed(1)} s, ${Math.round(done / seconds)} positions/s, lr ${lr}, ${plural(chunks.length, 'chunk')}`,
    );
    return last;
  }
}
