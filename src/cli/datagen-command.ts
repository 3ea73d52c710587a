/**
 * `thoth datagen --out FILE …`: training data for the network by self-play (docs/nnue.md). Games
 * run on worker threads (src/threads/datagen-worker.ts), one game per thread at a time; this
 * thread drops duplicate positions and appends each finished game to the file. The file is
 * resumable: run the same command again and it goes on from what the file holds. A file that
 * cannot be read or written is exit 2, one that is not training data exit 1 (left alone); Ctrl-C
 * drops the games in progress, keeps what is written and exits 130.
 */
import { plural } from '../core/plural';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { EDITION_IDS, Position, isEditionId, type EditionId } from '../core/index';
import { DEFAULT_SEED } from '../match/config';
import {
  DATA_HEADER_BYTES,
  GAME_HEADER_BYTES,
  dataHeader,
  encodeGameHeader,
  scanData,
  type DataSummary,
} from '../train/data';
import {
  DEFAULT_DATAGEN,
  datagenSetups,
  type DatagenSettings,
  type GameEnd,
  type GameTask,
  type PlayedGame,
} from '../train/datagen';
import { KeySet } from '../train/keyset';
import { workerPool } from '../process/pool';
import { fileErrorText, sameFile } from '../process/files';
import { CommandError, EXIT, UsageError, intOption, parseArgs, type CommandSpec } from './args';
import { ProgressLine } from './progress';
import { loadNetworkFile } from '../node/network-file';
import { DatagenRunError, DatagenRunForgotten, runDatagenCoordinator } from '../distributed/datagen-coordinator';
import { BuildError } from '../distributed/builds';
import { RedisUnreachable, redisAddress, type RedisAddress } from '../distributed/redis';
import { signerFor, type Signer } from '../distributed/trust';
import { decodeBoard, gameBlocks, type GameBlock } from '../train/data';
import { exitSoon } from './match';

const d = DEFAULT_DATAGEN;

export const DATAGEN_SPEC: CommandSpec = {
  name: 'datagen',
  positional: '--out FILE [--merge IN…]',
  summary:
    'Self-play games for training the network; every quiet position (not in check, no shot that removes an enemy ' +
    "piece) is written with its search score and the game's result. The format is described in docs/nnue.md. Run the " +
    'same command again to go on: the file is appended to, and its positions count towards the targets.',
  options: [
    { name: 'out', value: 'FILE', help: 'the data file (created, or appended to)' },
    { name: 'positions', value: 'N', help: 'stop when the file holds N positions', default: '1000000' },
    { name: 'games', value: 'N', help: 'stop when the file holds N games', default: 'no limit' },
    { name: 'nodes', value: 'N', help: 'node budget per move', default: String(d.nodes) },
    { name: 'variant', value: 'V', help: 'khet2, khet1, deflexion or all (all: the 8 setups in turn)', default: 'all' },
    { name: 'threads', value: 'N', help: 'games at once, one worker thread each', default: 'the number of cores' },
    { name: 'seed', value: 'S', help: 'seed of the random openings', default: String(DEFAULT_SEED) },
    {
      name: 'random-plies',
      value: 'N',
      help: 'random plies from the setup before a game',
      default: String(d.randomPlies),
    },
    {
      name: 'skip-plies',
      value: 'N',
      help: 'keep no position before this ply, counted from the setup',
      default: String(d.skipPlies),
    },
    {
      name: 'max-score',
      value: 'CP',
      help: 'keep no position scored beyond ±CP (mate scores never)',
      default: String(d.maxScore),
    },
    {
      name: 'decided-score',
      value: 'CP',
      help: 'adjudicate a win once the score stays beyond ±CP … (0: off)',
      default: '0',
    },
    { name: 'decided-plies', value: 'N', help: '… for N plies in a row', default: String(d.decidedPlies) },
    { name: 'max-plies', value: 'N', help: 'a game this long (from the setup) is a draw', default: String(d.maxPlies) },
    { name: 'no-removal', value: 'N', help: 'the no-removal draw in plies, 0 = off', default: String(d.noRemoval) },
    {
      name: 'hash',
      value: 'MB',
      help: 'transposition table per thread, cleared before each game',
      default: String(d.hashMb),
    },
    {
      name: 'net',
      value: 'FILE',
      help: 'search with this network (NNUE; `default`: the shipped one) instead of the hand-written evaluation',
    },
    { name: 'no-dedup', help: 'keep positions that are already in the file' },
    {
      name: 'first-game',
      value: 'N',
      help: 'the index of the first game when the file has none (another host: another range, or another seed)',
      default: '0',
    },
    {
      name: 'distributed',
      value: 'URL',
      help: 'play the games on `thoth worker` processes through the Redis at redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB] (docs/distributed.md)',
    },
    {
      name: 'sign',
      value: 'FILE',
      help: 'with --distributed: the Ed25519 private key that signs the run for the workers',
      default: '$THOTH_SIGN_KEY',
    },
    { name: 'redis-ca', value: 'FILE', help: 'with --distributed rediss://: the CA certificates of the Redis server' },
    {
      name: 'redis-password-file',
      value: 'FILE',
      help: "with --distributed: the Redis password (else the address's, else $THOTH_REDIS_PASSWORD)",
    },
    { name: 'chunk', value: 'N', help: 'with --distributed: games per job', default: '32' },
    {
      name: 'merge',
      help: 'merge the data files given after the options into --out (positions already there dropped, and games left with none) instead of playing',
    },
    { name: 'quiet', help: 'no progress line (it is shown on a terminal only)' },
  ],
};

/** Keys of the same board in different editions must differ. */
const EDITION_SALT = [0, 0x5bd1e995, 0x27d4eb2f];

interface Tally {
  games: number;
  positions: number;
  searched: number;
  early: number;
  notQuiet: number;
  score: number;
  duplicates: number;
  results: [number, number, number];
  ends: Map<GameEnd, number>;
}

export async function datagenCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, DATAGEN_SPEC);
  if (args.options.has('merge')) return mergeCommand(args, write);
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument '${args.positional[0]}' (see thoth datagen --help)`);
  const out = args.options.get('out')?.[0];
  if (out === undefined || out === '') throw new UsageError('--out FILE is needed (see thoth datagen --help)');
  const variant = args.options.get('variant')?.[0] ?? 'all';
  if (variant !== 'all' && !isEditionId(variant))
    throw new UsageError(`unknown variant '${variant}' (khet2, khet1, deflexion or all)`);
  const editions: readonly EditionId[] = variant === 'all' ? EDITION_IDS : [variant as EditionId];
  const settings: DatagenSettings = {
    nodes: intOption(args, 'nodes', d.nodes, 1, 100_000_000),
    randomPlies: intOption(args, 'random-plies', d.randomPlies, 0, 100),
    skipPlies: intOption(args, 'skip-plies', d.skipPlies, 0, 10_000),
    maxScore: intOption(args, 'max-score', d.maxScore, 0, 32000),
    decidedScore: intOption(args, 'decided-score', d.decidedScore, 0, 32000),
    decidedPlies: intOption(args, 'decided-plies', d.decidedPlies, 1, 1000),
    maxPlies: intOption(args, 'max-plies', d.maxPlies, 1, 10_000),
    noRemoval: intOption(args, 'no-removal', d.noRemoval, 0, 10_000),
    hashMb: intOption(args, 'hash', d.hashMb, 1, 1024),
  };
  const netFile = args.options.get('net')?.[0];
  if (netFile !== undefined) {
    if (netFile !== 'default') {
      try {
        accessSync(netFile, constants.R_OK);
        if (statSync(netFile).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
      } catch (e) {
        throw new UsageError(`--net: cannot read '${netFile}': ${fileErrorText(e)}`);
      }
      if (sameFile(out, netFile))
        throw new UsageError(`--out and --net are the same file '${out}': the network would be written over`);
    }
    const r = loadNetworkFile(netFile);
    if (!r.ok) throw new CommandError(`--net: ${r.error}`);
    settings.network = r.value.bytes;
  }
  const positionsTarget = intOption(args, 'positions', 1_000_000, 1, 2_000_000_000);
  const gamesTarget = intOption(args, 'games', 0, 0, 2_000_000_000) || Infinity;
  const threads = intOption(args, 'threads', availableParallelism(), 1, 256);
  const seed = intOption(args, 'seed', DEFAULT_SEED, 0, 4294967295);
  const dedup = !args.options.has('no-dedup');
  const firstGame = intOption(args, 'first-game', 0, 0, 4_000_000_000);
  const progress = new ProgressLine(process.stderr, !args.options.has('quiet'));
  const url = args.options.get('distributed')?.[0];
  const chunk = intOption(args, 'chunk', 32, 1, 10_000);
  if (url !== undefined) {
    const addr = redisAddress(url, {
      caFile: args.options.get('redis-ca')?.[0],
      passwordFile: args.options.get('redis-password-file')?.[0],
    });
    if (!addr.ok) throw new UsageError(`--distributed: ${addr.error.message}`);
    if (args.options.has('threads'))
      throw new UsageError(
        "--threads is for a local run; with --distributed the workers' --concurrency says how many games run at once",
      );
    const signer = signerFor(args.options.get('sign')?.[0]);
    if (!signer.ok) throw new UsageError(`--distributed: ${signer.error.message}`);
    return distributedDatagen({
      addr: addr.value,
      signer: signer.value,
      out,
      chunk,
      firstGame,
      dedup,
      positionsTarget,
      gamesTarget,
      progress,
      write,
      args: settingsArgs(variant, seed, settings),
      network: settings.network ? new Uint8Array(settings.network) : undefined,
    });
  }
  // Started by a worker with an IPC channel (src/distributed/datagen-worker.ts): end with it.
  // The channel must not keep this process alive once the games are written.
  if (typeof process.send === 'function') {
    process.on('disconnect', () => process.exit(1));
    if (!process.connected) process.exit(1); // the worker died while this process was starting
    process.channel?.unref();
  }

  const keys = new KeySet(1 << 16);
  const have = openDataFile(out, dedup ? keys : undefined, (s) => process.stderr.write(`thoth datagen: ${s}\n`));
  if (have.positions >= positionsTarget || have.games >= gamesTarget) {
    write(`${out} already holds ${plural(have.positions, 'position')} of ${plural(have.games, 'game')}: nothing to do`);
    return;
  }

  const setups = datagenSetups(editions);
  const tally: Tally = {
    games: 0,
    positions: 0,
    searched: 0,
    early: 0,
    notQuiet: 0,
    score: 0,
    duplicates: 0,
    results: [0, 0, 0],
    ends: new Map(),
  };
  const done = (): boolean =>
    have.positions + tally.positions >= positionsTarget || have.games + tally.games >= gamesTarget;
  let fd: number;
  try {
    fd = openSync(out, 'a');
  } catch (e) {
    throw new UsageError(`cannot write '${out}': ${fileErrorText(e)}`);
  }
  const pool = workerPool('datagen-worker', threads, 1000);
  const t0 = performance.now();
  let nextGame = Math.max(have.lastGame + 1, firstGame);
  let started = 0;
  let stopping = false;
  let failure: Error | undefined;
  let interrupts = 0;
  let destroyed: Promise<void> | undefined;
  const destroyPool = (): Promise<void> => (destroyed ??= pool.destroy());

  const show = (): void => {
    const s = (performance.now() - t0) / 1000;
    const rate = tally.positions / Math.max(s, 1e-3);
    const total = have.positions + tally.positions;
    const eta =
      rate > 0 && Number.isFinite(positionsTarget) ? ` ETA ${duration((positionsTarget - total) / rate)}` : '';
    progress.show(
      `datagen: ${total.toLocaleString('en')}/${plural(positionsTarget, 'position', 'positions', positionsTarget.toLocaleString('en'))}, ` +
        `${plural(have.games + tally.games, 'game', 'games', (have.games + tally.games).toLocaleString('en'))}, ${rate.toFixed(0)} positions/s,${eta}`,
      true,
    );
  };
  const ticker = setInterval(show, 1000);
  ticker.unref();

  const finished = new Promise<void>((resolve) => {
    let running = 0;
    const launch = (): void => {
      while (!stopping && !done() && running < threads + 1 && have.games + started < gamesTarget) {
        const game = nextGame++;
        const { edition, setup } = setups[game % setups.length];
        const task: GameTask = { game, seed, edition, setup, settings };
        running++;
        started++;
        (pool.run(task) as Promise<PlayedGame>)
          .then(
            (g) => {
              if (!stopping) append(g);
            },
            (e: unknown) => {
              if (!stopping) {
                failure = e instanceof Error ? e : new Error(String(e));
                stopping = true;
              }
            },
          )
          .finally(() => {
            running--;
            if (done()) stopping = true;
            launch();
            if (running === 0) resolve();
          });
      }
      if (running === 0) resolve();
    };
    launch();
  });

  const append = (g: PlayedGame): void => {
    const block = new Uint8Array(GAME_HEADER_BYTES + g.records.length);
    let at = GAME_HEADER_BYTES;
    let kept = 0;
    for (let k = 0; k < g.ends.length; k++) {
      const from = k === 0 ? 0 : g.ends[k - 1];
      if (dedup && !keys.add(g.keys[2 * k], g.keys[2 * k + 1] ^ EDITION_SALT[g.edition])) {
        tally.duplicates++;
        continue;
      }
      block.set(g.records.subarray(from, g.ends[k]), at);
      at += g.ends[k] - from;
      kept++;
    }
    encodeGameHeader(g.game, g.edition, g.result, kept, block, 0);
    try {
      appendWhole(fd, block, at, out);
    } catch (e) {
      if (!failure) failure = e as Error;
      stopping = true;
      void destroyPool();
      return;
    }
    tally.games++;
    tally.positions += kept;
    tally.searched += g.searched;
    tally.early += g.skipped.early;
    tally.notQuiet += g.skipped.notQuiet;
    tally.score += g.skipped.score;
    tally.results[g.result]++;
    tally.ends.set(g.end, (tally.ends.get(g.end) ?? 0) + 1);
    if (done()) stopping = true;
  };

  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    progress.clear();
    process.stderr.write('\nInterrupted: the games in progress are dropped; run the same command again to go on\n');
    stopping = true;
    void destroyPool();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    await finished;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    clearInterval(ticker);
    progress.clear();
    closeSync(fd);
    await destroyPool();
  }
  if (failure instanceof WriteFailure)
    throw new CommandError(
      `${failure.message}; the file holds ${plural(have.positions + tally.positions, 'position')} of ${plural(have.games + tally.games, 'whole game')}: free space and run the same command again`,
    );
  if (failure) throw new CommandError(`a game failed: ${failure.message}`);
  const interrupted = interrupts > 0;

  const secs = (performance.now() - t0) / 1000;
  const pct = (x: number): string => `${((100 * x) / Math.max(1, tally.searched)).toFixed(1)} %`;
  write(
    `Wrote ${plural(tally.positions, 'position')} of ${plural(tally.games, 'game')} to ${out} in ${secs.toFixed(1)} s ` +
      `(${(tally.positions / Math.max(secs, 1e-3)).toFixed(1)} positions/s, ${plural(threads, 'thread')}, ` +
      `${settings.nodes} nodes per move); the file holds ${plural(have.positions + tally.positions, 'position')} of ${plural(have.games + tally.games, 'game')}`,
  );
  write(
    `Searched ${plural(tally.searched, 'position')}: kept ${pct(tally.positions)}; left out: before ply ${settings.skipPlies} ${pct(tally.early)}, ` +
      `not quiet ${pct(tally.notQuiet)}, score ${pct(tally.score)}, duplicates ${pct(tally.duplicates)}`,
  );
  const ends = [...tally.ends].map(([k, v]) => `${k} ${v}`).join(', ');
  write(
    `Games: first player won ${tally.results[2]}, drawn ${tally.results[1]}, lost ${tally.results[0]}; ended by ${ends || 'none'}`,
  );
  if (interrupted)
    throw new CommandError(
      `interrupted: ${out} holds ${plural(have.positions + tally.positions, 'position')}; the same command goes on`,
      EXIT.interrupted,
    );
}

/**
 * Checks the file for appending and returns what it holds (the keys of its positions go into
 * `keys`). A new or empty file gets the header; an unfinished last game (a run that was killed)
 * is cut off; anything else that is wrong with the file stops the command, which never appends
 * to a file it cannot read.
 */
function openDataFile(path: string, keys: KeySet | undefined, note: (s: string) => void): DataSummary {
  const empty: DataSummary = { games: 0, positions: 0, lastGame: -1, validBytes: DATA_HEADER_BYTES };
  let size = 0;
  try {
    size = existsSync(path) ? statSync(path).size : 0;
    if (size === 0) {
      const fd = openSync(path, 'w');
      writeSync(fd, dataHeader());
      closeSync(fd);
      return empty;
    }
    const positions = EDITION_IDS.map((id) => new Position(id));
    const scan = scanData(
      readFileSync(path),
      keys &&
        ((r) => {
          const p = positions[r.edition];
          p.setup(r.board, r.side);
          keys.add(p.keyLo, p.keyHi ^ EDITION_SALT[r.edition]);
        }),
    );
    if (!scan.error) return scan.summary;
    if (scan.error.kind !== 'truncated') throw new CommandError(`${path}: ${scan.error.message}; not appending to it`);
    if (scan.summary.validBytes === 0) {
      truncateSync(path, 0);
      const fd = openSync(path, 'w');
      writeSync(fd, dataHeader());
      closeSync(fd);
      return empty;
    }
    note(`${path}: ${scan.error.message}; ${size - scan.summary.validBytes} bytes of it dropped`);
    truncateSync(path, scan.summary.validBytes);
    return scan.summary;
  } catch (e) {
    if (e instanceof CommandError) throw e;
    throw new UsageError(`cannot write '${path}': ${fileErrorText(e)}`);
  }
}

/** The flags that fix the games, as a worker's datagen gets them (the network travels by checksum). */
function settingsArgs(variant: string, seed: number, s: DatagenSettings): string[] {
  return [
    '--variant',
    variant,
    '--seed',
    String(seed),
    '--nodes',
    String(s.nodes),
    '--random-plies',
    String(s.randomPlies),
    '--skip-plies',
    String(s.skipPlies),
    '--max-score',
    String(s.maxScore),
    '--decided-score',
    String(s.decidedScore),
    '--decided-plies',
    String(s.decidedPlies),
    '--max-plies',
    String(s.maxPlies),
    '--no-removal',
    String(s.noRemoval),
    '--hash',
    String(s.hashMb),
  ];
}

/** A write to the data file that failed (a full disk); the file was cut back to its whole games. */
class WriteFailure extends Error {}

/**
 * Writes `length` bytes of `block` at the end of the data file, all or nothing: a short write (the
 * disk filled up in the middle of a game) is cut off again, so that the file holds whole games
 * only and a game is counted only once it is written. Throws WriteFailure.
 */
function appendWhole(fd: number, block: Uint8Array, length: number, path: string): void {
  const size = fstatSync(fd).size;
  let done = 0;
  try {
    while (done < length) {
      const n = writeSync(fd, block, done, length - done);
      if (n <= 0) throw Object.assign(new Error('nothing written'), { code: 'ENOSPC' });
      done += n;
    }
  } catch (e) {
    try {
      ftruncateSync(fd, size);
    } catch {
      // the next run cuts the unfinished game off (openDataFile)
    }
    throw new WriteFailure(`cannot write '${path}': ${fileErrorText(e)}`);
  }
}

/**
 * Appends whole games, given as blocks of another data file, to an open data file, dropping the
 * positions whose key is in `keys` already (when deduplicating).
 */
class BlockWriter {
  games = 0;
  positions = 0;
  duplicates = 0;
  private readonly board = new Uint8Array(80);
  private readonly pos = EDITION_IDS.map((id) => new Position(id));

  constructor(
    private readonly fd: number,
    private readonly keys: KeySet | undefined,
    private readonly path: string,
  ) {}

  /** Positions of the block (before dedup). With `dropRepeated`, a game all of whose positions are there already is not written. */
  append(b: GameBlock, dropRepeated = false): number {
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
    appendWhole(this.fd, block, at, this.path);
    this.games++;
    this.positions += kept;
    return count;
  }
}

interface DistributedRun {
  addr: RedisAddress;
  signer: Signer;
  out: string;
  chunk: number;
  firstGame: number;
  dedup: boolean;
  positionsTarget: number;
  gamesTarget: number;
  progress: ProgressLine;
  write: (s: string) => void;
  args: string[];
  network?: Uint8Array;
}

/** `--distributed`: the games are played by workers; this process dedupes and writes them in game order. */
async function distributedDatagen(r: DistributedRun): Promise<void> {
  const note = (s: string): void => {
    r.progress.clear();
    r.write(s);
  };
  const keys = new KeySet(1 << 16);
  const have = openDataFile(r.out, r.dedup ? keys : undefined, (s) => process.stderr.write(`thoth datagen: ${s}\n`));
  if (have.positions >= r.positionsTarget || have.games >= r.gamesTarget) {
    r.write(
      `${r.out} already holds ${plural(have.positions, 'position')} of ${plural(have.games, 'game')}: nothing to do`,
    );
    return;
  }
  const fd = openSync(r.out, 'a');
  const w = new BlockWriter(fd, r.dedup ? keys : undefined, r.out);
  let lastGame = have.lastGame;
  const nextGame = Math.max(have.lastGame + 1, r.firstGame);
  const done = (): boolean =>
    have.positions + w.positions >= r.positionsTarget || have.games + w.games >= r.gamesTarget;
  const stop = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    r.progress.clear();
    process.stderr.write(
      '\nInterrupted: the workers finish the chunks in progress, kept in Redis; run the same command again to go on\n',
    );
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    r.progress.show(
      `datagen: ${(have.positions + w.positions).toLocaleString('en')}/${plural(r.positionsTarget, 'position', 'positions', r.positionsTarget.toLocaleString('en'))}, ` +
        `${plural(have.games + w.games, 'game', 'games', (have.games + w.games).toLocaleString('en'))}, ${(w.positions / Math.max(s, 1e-3)).toFixed(0)} positions/s (distributed)`,
      true,
    );
  }, 1000);
  ticker.unref();
  let outcome;
  try {
    outcome = await runDatagenCoordinator(
      r.addr,
      {
        args: r.args,
        chunk: r.chunk,
        network: r.network,
        out: r.out,
        signal: stop.signal,
        signer: r.signer,
        targetPositions: r.positionsTarget,
        targetGames: Number.isFinite(r.gamesTarget) ? r.gamesTarget : null,
      },
      {
        nextGame,
        endGame: Number.isFinite(r.gamesTarget) ? nextGame + (r.gamesTarget - have.games) : Infinity,
        write: (first, count, shard) => {
          const g = gameBlocks(shard);
          if (g.error) return { rejected: g.error.message };
          if (g.blocks.length !== count || g.blocks.some((b, i) => b.game !== first + i)) {
            return {
              rejected: `it holds games ${g.blocks.map((b) => b.game).join(', ')}, not ${first}-${first + count - 1}`,
            };
          }
          let positions = 0;
          try {
            for (const b of g.blocks) {
              if (b.game <= lastGame || b.game < nextGame) continue;
              if (done()) break;
              positions += w.append(b);
              lastGame = b.game;
            }
          } catch (e) {
            if (!(e instanceof WriteFailure)) throw e;
            throw new WriteFailure(
              `${e.message}; the file holds ${plural(have.positions + w.positions, 'position')} of ${plural(have.games + w.games, 'whole game')}: free space and run the same command again`,
            );
          }
          return { positions };
        },
        done,
        totals: () => ({ games: have.games + w.games, positions: have.positions + w.positions }),
        note,
      },
    );
  } catch (e) {
    if (e instanceof DatagenRunForgotten)
      throw new CommandError(`${e.message}; the games so far are in ${r.out}: the same command finishes the run`, 1);
    if (e instanceof RedisUnreachable) throw new CommandError(`${e.message}; the games so far are in ${r.out}`, 1);
    if (e instanceof BuildError || e instanceof DatagenRunError) throw new CommandError(e.message, 1);
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    clearInterval(ticker);
    r.progress.clear();
    closeSync(fd);
    exitSoon();
  }
  const secs = (performance.now() - t0) / 1000;
  r.write(
    `Wrote ${plural(w.positions, 'position')} of ${plural(w.games, 'game')} to ${r.out} in ${secs.toFixed(1)} s (${(w.positions / Math.max(secs, 1e-3)).toFixed(1)} positions/s, ` +
      `distributed run ${outcome.run}, ${plural(r.chunk, 'game')} a chunk); the file holds ${plural(have.positions + w.positions, 'position')} of ${plural(have.games + w.games, 'game')}`,
  );
  r.write(`Duplicates dropped: ${w.duplicates}`);
  for (const t of outcome.tallies)
    r.write(
      `Worker ${t.id}: ${plural(t.chunks, 'chunk')}, ${plural(t.positions, 'position')}, ${t.rate.toFixed(1)} positions/s`,
    );
}

/** `--merge --out OUT IN…`: appends the games of the inputs to OUT, dropping positions OUT holds already. */
function mergeCommand(args: ReturnType<typeof parseArgs>, write: (s: string) => void): void {
  const out = args.options.get('out')?.[0];
  if (out === undefined || out === '') throw new UsageError('--out FILE is needed (see thoth datagen --help)');
  if (args.positional.length === 0)
    throw new UsageError('--merge needs the data files to merge: thoth datagen --merge --out OUT IN…');
  const playing = DATAGEN_SPEC.options
    .map((o) => o.name)
    .filter((n) => !['out', 'merge', 'no-dedup', 'quiet'].includes(n) && args.options.has(n));
  if (playing.length > 0) throw new UsageError(`--merge plays no games: --${playing[0]} has no use with it`);
  const inputs: { path: string; blocks: GameBlock[] }[] = [];
  for (const p of args.positional) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(p);
    } catch (e) {
      throw new CommandError(`cannot read '${p}': ${(e as Error).message}`);
    }
    const g = gameBlocks(bytes);
    if (g.error && g.error.kind !== 'truncated') throw new CommandError(`${p}: ${g.error.message}; nothing merged`);
    if (g.error) process.stderr.write(`thoth datagen: ${p}: ${g.error.message}; its complete games are merged\n`);
    inputs.push({ path: p, blocks: g.blocks });
  }
  const dedup = !args.options.has('no-dedup');
  const keys = new KeySet(1 << 16);
  const have = openDataFile(out, dedup ? keys : undefined, (s) => process.stderr.write(`thoth datagen: ${s}\n`));
  const fd = openSync(out, 'a');
  const w = new BlockWriter(fd, dedup ? keys : undefined, out);
  try {
    for (const input of inputs) {
      const before = { games: w.games, positions: w.positions };
      for (const b of input.blocks) w.append(b, true);
      write(
        `${input.path}: ${plural(w.games - before.games, 'game')}, ${plural(w.positions - before.positions, 'position')} merged`,
      );
    }
  } finally {
    closeSync(fd);
  }
  write(
    `Merged ${plural(w.positions, 'position')} of ${plural(w.games, 'game')} into ${out} (${plural(w.duplicates, 'duplicate')} dropped); it holds ${plural(have.positions + w.positions, 'position')} of ${plural(have.games + w.games, 'game')}`,
  );
}

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}
