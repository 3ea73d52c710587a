/**
 * `thoth datagen --out FILE …`: training data for the network by self-play (docs/nnue.md). The
 * flags and the lines printed; the run (the file resumed, dedup, the games on worker threads,
 * merge, stop) is src/train/datagen-run.ts, `--distributed` datagen-distributed.ts. A file that
 * cannot be read or written is exit 2, one that is not training data exit 1 (left alone); Ctrl-C
 * drops the games in progress, keeps what is written and exits 130.
 */
import { plural } from '../core/plural';
import { accessSync, constants, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { EDITION_IDS, isEditionId, type EditionId } from '../core/index';
import { DEFAULT_SEED } from '../match/config';
import { loadNetworkFile } from '../node/network-file';
import { fileErrorText, sameFile } from '../process/files';
import { selfPlaySetups } from '../search/selfplay';
import { DEFAULT_DATAGEN as d, datagenArgs, type DatagenSettings } from '../train/datagen';
import { DatagenRun, readMergeInput } from '../train/datagen-run';
import { CommandError, UsageError, intOption, parseArgs, type ParsedArgs } from './args';
import { distributedDatagen, distributedFlags } from './datagen-distributed';
import { DATAGEN_SPEC } from './datagen-spec';
import { playLocal } from './datagen-local';
import { endWithParent } from './interrupt';
import { ProgressLine } from './progress';

/** The largest count --positions and --games take. */
const MAX_COUNT = 2_000_000_000;

/**
 * Where a run stops: `--positions` (a million by default) and `--games` (no limit by default),
 * whichever comes first; `--games` alone sets no positions' limit, so that a game database's
 * `--games 150000` is not cut short by the positions' default.
 */
export function datagenTargets(args: ParsedArgs): { positions: number; games: number } {
  const games = intOption(args, 'games', 0, 0, MAX_COUNT) || Infinity;
  const positions = args.options.has('positions')
    ? intOption(args, 'positions', 1_000_000, 1, MAX_COUNT)
    : Number.isFinite(games)
      ? Infinity
      : 1_000_000;
  return { positions, games };
}

const note = (s: string): boolean => process.stderr.write(`thoth datagen: ${s}\n`);

export async function datagenCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, DATAGEN_SPEC);
  if (args.options.has('merge')) return mergeCommand(args, write);
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument '${args.positional[0]}' (see thoth datagen --help)`);
  const out = outFile(args);
  const variant = args.options.get('variant')?.[0] ?? 'all';
  if (variant !== 'all' && !isEditionId(variant))
    throw new UsageError(`unknown variant '${variant}' (khet2, khet1, deflexion or all)`);
  const ev = evaluation(args.options.get('net')?.[0], out);
  const settings: DatagenSettings = {
    nodes: intOption(args, 'nodes', d.nodes, 1, 100_000_000),
    depth: intOption(args, 'depth', 0, 0, 100),
    randomPlies: intOption(args, 'random-plies', d.randomPlies, 0, 100),
    skipPlies: intOption(args, 'skip-plies', d.skipPlies, 0, 10_000),
    maxScore: intOption(args, 'max-score', d.maxScore, 0, 32000),
    decidedScore: intOption(args, 'decided-score', d.decidedScore, 0, 32000),
    decidedPlies: intOption(args, 'decided-plies', d.decidedPlies, 1, 1000),
    maxPlies: intOption(args, 'max-plies', d.maxPlies, 1, 10_000),
    noRemoval: intOption(args, 'no-removal', d.noRemoval, 0, 10_000),
    hashMb: intOption(args, 'hash', d.hashMb, 1, 1024),
    network: ev.network,
  };
  const { positions, games } = datagenTargets(args);
  const threads = intOption(args, 'threads', availableParallelism(), 1, 256);
  const seed = intOption(args, 'seed', DEFAULT_SEED, 0, 4294967295);
  const dedup = !args.options.has('no-dedup');
  const firstGame = intOption(args, 'first-game', 0, 0, 4_000_000_000);
  const progress = new ProgressLine(process.stderr, !args.options.has('quiet'));
  const dist = distributedFlags(args);
  if (!dist) endWithParent();
  const records = args.options.get('records')?.[0];
  if (records !== undefined) {
    if (dist) throw new UsageError('--records keeps the games played here: it does not go with --distributed');
    if (sameFile(out, records)) throw new UsageError(`--out and --records are the same file '${out}'`);
  }
  const run = DatagenRun.open({ out, dedup, positions, games, firstGame, note, records });
  if (run.done())
    return write(
      `${out} already holds ${plural(run.had.positions, 'position')} of ${plural(run.had.games, 'game')}: nothing to do`,
    );
  const limit = settings.depth
    ? `depth ${settings.depth} (at most ${settings.nodes} nodes)`
    : `${settings.nodes} nodes`;
  write(`Self-play into ${out} with ${ev.words}, ${limit} a move${dist ? ', distributed' : ''}`);
  if (dist) {
    const network = settings.network && new Uint8Array(settings.network);
    return await distributedDatagen(
      run,
      dist,
      { args: datagenArgs(variant, seed, settings), network, networkFile: ev.file },
      { progress, write },
    );
  }
  const editions: readonly EditionId[] = variant === 'all' ? EDITION_IDS : [variant as EditionId];
  const entry = new URL('../threads/datagen-worker.ts', import.meta.url);
  await playLocal(run, { entry, threads, seed, setups: selfPlaySetups(editions), settings }, progress, write);
}

function outFile(args: ParsedArgs): string {
  const out = args.options.get('out')?.[0];
  if (out === undefined || out === '') throw new UsageError('--out FILE is needed (see thoth datagen --help)');
  return out;
}

/**
 * The evaluation the searches use, and its words for the start line: the network of --net FILE,
 * the shipped one (`default`, and without --net), or the hand-written evaluation (`none`).
 */
function evaluation(file = 'default', out: string): { network?: SharedArrayBuffer; file?: string; words: string } {
  if (file === 'none') return { words: 'the hand-written evaluation (--net none)' };
  if (file !== 'default') {
    try {
      accessSync(file, constants.R_OK);
      if (statSync(file).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    } catch (e) {
      throw new UsageError(`--net: cannot read '${file}': ${fileErrorText(e)}`);
    }
    if (sameFile(out, file))
      throw new UsageError(`--out and --net are the same file '${out}': the network would be written over`);
  }
  const r = loadNetworkFile(file);
  if (!r.ok) throw new CommandError(`--net: ${r.error}`);
  const words = file === 'default' ? 'the shipped network (nets/default.nnue)' : `the network ${file}`;
  return { network: r.value.bytes, file: file === 'default' ? file : path.resolve(file), words };
}

/** `--merge --out OUT IN…`: appends the games of the inputs to OUT, dropping positions OUT holds already. */
function mergeCommand(args: ParsedArgs, write: (s: string) => void): void {
  const out = outFile(args);
  if (args.positional.length === 0)
    throw new UsageError('--merge needs the data files to merge: thoth datagen --merge --out OUT IN…');
  const playing = DATAGEN_SPEC.options
    .map((o) => o.name)
    .filter((n) => !['out', 'merge', 'no-dedup', 'quiet'].includes(n) && args.options.has(n));
  if (playing.length > 0) throw new UsageError(`--merge plays no games: --${playing[0]} has no use with it`);
  const inputs = args.positional.map((p) => readMergeInput(p, note));
  const run = DatagenRun.open({
    out,
    dedup: !args.options.has('no-dedup'),
    positions: 0,
    games: 0,
    firstGame: 0,
    note,
  });
  try {
    run.merge(inputs, (path, games, positions) =>
      write(`${path}: ${plural(games, 'game')}, ${plural(positions, 'position')} merged`),
    );
  } finally {
    run.close();
  }
  const t = run.totals();
  write(
    `Merged ${plural(run.positions, 'position')} of ${plural(run.games, 'game')} into ${out} (${plural(run.duplicates, 'duplicate')} dropped); it holds ${plural(t.positions, 'position')} of ${plural(t.games, 'game')}`,
  );
}
