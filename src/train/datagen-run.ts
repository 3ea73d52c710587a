/**
 * A datagen run (docs/nnue.md): the data file opened and resumed (what it holds counts towards the
 * targets, its positions' keys feed the duplicate check), games appended whole as they come (from
 * the worker threads here, from `thoth worker`s' shards, or from other files merged in), stopped by
 * its targets, a failure or stop(). `thoth datagen` (src/cli/datagen-command.ts) parses the flags
 * and prints what the run did; the games themselves are datagen.ts's.
 */
import { plural } from '../core/plural';
import { closeSync, readFileSync } from 'node:fs';
import { EDITION_IDS, Position } from '../core/index';
import { workerPool } from '../process/pool';
import { GAME_HEADER_BYTES, decodeBoard, encodeGameHeader, gameBlocks, type DataSummary, type GameBlock } from './data';
import { DatagenError, EDITION_SALT, WriteFailure, appendGames, openDataFile, openForAppend } from './data-file';
import type { DatagenSettings, GameEnd, GameTask, PlayedGame } from './datagen';
import { KeySet } from './keyset';
import { RecordsFile, datagenRecord } from './datagen-records';

export interface DatagenOpenOptions {
  /** The data file: created, or appended to. */
  out: string;
  /** Drop positions the file (or the run) holds already. */
  dedup: boolean;
  /** Stop when the file holds this many positions … */
  positions: number;
  /** … or this many games (Infinity: no limit). */
  games: number;
  /** The index of the first game when the file has none. */
  firstGame: number;
  /** A line about the file for stderr (an unfinished last game cut off). */
  note: (line: string) => void;
  /** Also append each game played here to this record file (`--records`). */
  records?: string;
}

/** What the games played by this run were, for the closing lines. */
export interface DatagenTally {
  searched: number;
  early: number;
  notQuiet: number;
  score: number;
  /** Games the first player lost, drew, won. */
  results: [number, number, number];
  ends: Map<GameEnd, number>;
}

/** Local play: the games on worker threads, one game per thread at a time. */
export interface LocalPlay {
  /**
   * The entry point the threads run, as the caller names it: src/threads/datagen-worker.ts, which
   * imports this folder (src/process/pool.ts).
   */
  entry: URL;
  threads: number;
  seed: number;
  /** Game g plays setups[g mod length]. */
  setups: readonly { edition: GameTask['edition']; setup: GameTask['setup'] }[];
  settings: DatagenSettings;
}

export class DatagenRun {
  /** Games, positions and duplicates dropped, written by this run. */
  games = 0;
  positions = 0;
  duplicates = 0;
  readonly tally: DatagenTally = { searched: 0, early: 0, notQuiet: 0, score: 0, results: [0, 0, 0], ends: new Map() };
  /** The first game this run plays. */
  readonly nextGame: number;
  /** Set by stop() (Ctrl-C): the games in progress are dropped. */
  stopped = false;
  private fd = -1;
  private lastGame: number;
  private readonly board = new Uint8Array(80);
  private readonly pos = EDITION_IDS.map((id) => new Position(id));
  private stopPlay: (() => void) | undefined;
  private readonly recordsFile: RecordsFile | undefined;
  /** The settings and seed of local play, for the records. */
  private playing: LocalPlay | undefined;

  private constructor(
    readonly o: DatagenOpenOptions,
    /** What the file held when the run opened it. */
    readonly had: DataSummary,
    private readonly keys: KeySet | undefined,
  ) {
    this.lastGame = had.lastGame;
    this.recordsFile = o.records === undefined ? undefined : new RecordsFile(o.records);
    this.nextGame = Math.max(had.lastGame + 1, o.firstGame);
  }

  /** Opens the data file and reads what it holds (DatagenError when it cannot be appended to). */
  static open(o: DatagenOpenOptions): DatagenRun {
    const keys = o.dedup ? new KeySet(1 << 16) : undefined;
    return new DatagenRun(o, openDataFile(o.out, keys, o.note), keys);
  }

  /** Games and positions in the file. */
  totals(): { games: number; positions: number } {
    return { games: this.had.games + this.games, positions: this.had.positions + this.positions };
  }

  /** True when the file holds the positions or the games asked for. */
  done(): boolean {
    const t = this.totals();
    return t.positions >= this.o.positions || t.games >= this.o.games;
  }

  /** Ends the run's writing (the file stays whole: only whole games were written). */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.recordsFile?.close();
  }

  /** Appends a game played here, dropping the positions the file holds already. */
  appendGame(g: PlayedGame): void {
    // The record first: a game whose positions then fail is played and recorded again, and the
    // database keeps one game per move list.
    const p = this.playing;
    const text =
      p &&
      this.recordsFile &&
      datagenRecord(g, { setup: p.setups[g.game % p.setups.length].setup, seed: p.seed }, p.settings);
    if (text !== undefined) this.recordsFile!.append(text);
    const block = new Uint8Array(GAME_HEADER_BYTES + g.records.length);
    let at = GAME_HEADER_BYTES;
    let kept = 0;
    for (let k = 0; k < g.ends.length; k++) {
      const from = k === 0 ? 0 : g.ends[k - 1];
      if (this.keys && !this.keys.add(g.keys[2 * k], g.keys[2 * k + 1] ^ EDITION_SALT[g.edition])) {
        this.duplicates++;
        continue;
      }
      block.set(g.records.subarray(from, g.ends[k]), at);
      at += g.ends[k] - from;
      kept++;
    }
    encodeGameHeader(g.game, g.edition, g.result, kept, block, 0);
    this.write(block, at);
    this.games++;
    this.positions += kept;
    const t = this.tally;
    t.searched += g.searched;
    t.early += g.skipped.early;
    t.notQuiet += g.skipped.notQuiet;
    t.score += g.skipped.score;
    t.results[g.result]++;
    t.ends.set(g.end, (t.ends.get(g.end) ?? 0) + 1);
  }

  /**
   * Appends a game of another data file, dropping the positions the file holds already; with
   * `dropRepeated`, a game none of whose positions is new is not written. Returns its positions.
   */
  appendBlock(b: GameBlock, dropRepeated = false): number {
    const count = b.starts.length - 1;
    const block = new Uint8Array(GAME_HEADER_BYTES + b.starts[count] - b.starts[0]);
    let at = GAME_HEADER_BYTES;
    let kept = 0;
    for (let k = 0; k < count; k++) {
      if (this.keys) {
        const p = this.pos[b.edition];
        p.setup(this.board, decodeBoard(b.bytes, b.starts[k], this.board));
        if (!this.keys.add(p.keyLo, p.keyHi ^ EDITION_SALT[b.edition])) {
          this.duplicates++;
          continue;
        }
      }
      block.set(b.bytes.subarray(b.starts[k], b.starts[k + 1]), at);
      at += b.starts[k + 1] - b.starts[k];
      kept++;
    }
    if (dropRepeated && kept === 0 && count > 0) return count;
    encodeGameHeader(b.game, b.edition, b.result, kept, block, 0);
    this.write(block, at);
    this.games++;
    this.positions += kept;
    return count;
  }

  /** Opens the file to append to (DatagenError when it cannot be written). */
  begin(): void {
    if (this.fd < 0) this.fd = openForAppend(this.o.out);
  }

  /** Merges other files' games in, in order; `each` hears what each input added. */
  merge(
    inputs: readonly { path: string; blocks: GameBlock[] }[],
    each: (path: string, games: number, positions: number) => void,
  ): void {
    this.begin();
    for (const input of inputs) {
      const before = { games: this.games, positions: this.positions };
      for (const b of input.blocks) this.appendBlock(b, true);
      each(input.path, this.games - before.games, this.positions - before.positions);
    }
  }

  /**
   * Writes the games of a worker's shard for the chunk `first … first + count − 1` that are not in
   * the file yet, in game order (a distributed run, src/distributed/datagen-coordinator.ts); the
   * positions the shard held, or why it is rejected.
   */
  appendShard(first: number, count: number, shard: Uint8Array): { positions: number } | { rejected: string } {
    const g = gameBlocks(shard);
    if (g.error) return { rejected: g.error.message };
    if (g.blocks.length !== count || g.blocks.some((b, i) => b.game !== first + i))
      return {
        rejected: `it holds games ${g.blocks.map((b) => b.game).join(', ')}, not ${first}-${first + count - 1}`,
      };
    let positions = 0;
    try {
      for (const b of g.blocks) {
        if (b.game <= this.lastGame || b.game < this.nextGame) continue;
        if (this.done()) break;
        positions += this.appendBlock(b);
        this.lastGame = b.game;
      }
    } catch (e) {
      throw e instanceof WriteFailure ? this.writeFailed(e) : e;
    }
    return { positions };
  }

  /**
   * Plays games on worker threads until the targets are met, a game fails or a write fails
   * (DatagenError, after the threads are gone), or stop() is called.
   */
  async play(p: LocalPlay): Promise<void> {
    this.begin();
    this.playing = p;
    const pool = workerPool(p.entry, p.threads, 1000);
    let destroyed: Promise<void> | undefined;
    const destroyPool = (): Promise<void> => (destroyed ??= pool.destroy());
    let stopping = false;
    let failure: Error | undefined;
    this.stopPlay = () => {
      stopping = true;
      void destroyPool();
    };
    let started = 0;
    let next = this.nextGame;
    try {
      await new Promise<void>((resolve) => {
        let running = 0;
        const launch = (): void => {
          while (!stopping && !this.done() && running < p.threads + 1 && this.had.games + started < this.o.games) {
            const game = next++;
            const { edition, setup } = p.setups[game % p.setups.length];
            const task: GameTask = {
              game,
              seed: p.seed,
              edition,
              setup,
              settings: p.settings,
              line: this.recordsFile !== undefined,
            };
            running++;
            started++;
            (pool.run(task) as Promise<PlayedGame>)
              .then(
                (g) => {
                  if (stopping) return;
                  try {
                    this.appendGame(g);
                  } catch (e) {
                    failure ??= e as Error;
                    this.stopPlay!();
                  }
                  if (this.done()) stopping = true;
                },
                (e: unknown) => {
                  if (stopping) return;
                  failure = e instanceof Error ? e : new Error(String(e));
                  stopping = true;
                },
              )
              .finally(() => {
                running--;
                if (this.done()) stopping = true;
                launch();
                if (running === 0) resolve();
              });
          }
          if (running === 0) resolve();
        };
        launch();
      });
    } finally {
      this.stopPlay = undefined;
      this.close();
      await destroyPool();
    }
    if (failure instanceof WriteFailure) throw this.writeFailed(failure);
    if (failure) throw new DatagenError(`a game failed: ${failure.message}`);
  }

  /** Ctrl-C: the games in progress are dropped; what is written stays. */
  stop(): void {
    this.stopped = true;
    this.stopPlay?.();
  }

  /** A failed write, with what the file holds (whole games) and what to do. */
  writeFailed(e: WriteFailure): WriteFailure {
    const t = this.totals();
    return new WriteFailure(
      `${e.message}; the file holds ${plural(t.positions, 'position')} of ${plural(t.games, 'whole game')}: free space and run the same command again`,
    );
  }

  private write(block: Uint8Array, length: number): void {
    this.begin();
    appendGames(this.fd, block, length, this.o.out);
  }
}

/**
 * A data file to merge: its whole games (a cut-off last game is left out, with a note); a file
 * that cannot be read or is not training data is a DatagenError.
 */
export function readMergeInput(path: string, note: (line: string) => void): { path: string; blocks: GameBlock[] } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new DatagenError(`cannot read '${path}': ${(e as Error).message}`);
  }
  const g = gameBlocks(bytes);
  if (g.error && g.error.kind !== 'truncated') throw new DatagenError(`${path}: ${g.error.message}; nothing merged`);
  if (g.error) note(`${path}: ${g.error.message}; its complete games are merged`);
  return { path, blocks: g.blocks };
}
