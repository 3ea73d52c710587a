/**
 * `thoth puzzles --out FILE (--selfplay N | --from FILE.pgn …)`: Khet puzzles mined from games
 * (docs/puzzles.md). Self-play games are played in this thread by the engine's own search, to a
 * node budget per move, and mined as each ends; record files are read with the rules core's
 * record reader. The file is rewritten after every game that gave puzzles, so an interrupted run
 * keeps what it found; run the same command again and it goes on (the puzzles in the file count,
 * and self-play resumes after the last game that gave one).
 */
import { plural } from '../core/plural';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import {
  EDITION_IDS,
  isEditionId,
  parseRecords,
  recordStart,
  recordVariant,
  replayRecord,
  setupKfen,
  type EditionId,
} from '../core/index';
import { DEFAULT_SEED } from '../match/config';
import { formatPuzzleFile, parsePuzzleFile, type Puzzle } from '../puzzles/format';
import { DEFAULT_MINER, Miner, type MinedGame, type MinerSettings, type PuzzleKind } from '../puzzles/miner';
import { PuzzleGames } from '../puzzles/mined-games';
import { DEFAULT_SELFPLAY, type SelfPlaySettings } from '../search/selfplay';
import { CommandError, UsageError, fileErrorText, intOption, parseArgs, type CommandSpec } from './args';
import { fmtDuration } from '../core/duration';
import { ProgressLine } from './progress';
import { checkWritable, readRecordFile, writeFileAtomic } from '../process/files';

const m = DEFAULT_MINER;
const sp = DEFAULT_SELFPLAY;

export const PUZZLES_SPEC: CommandSpec = {
  name: 'puzzles',
  positional: '--out FILE (--selfplay N | --from FILE.pgn…)',
  summary:
    'Mines puzzles from games: positions where the side to move has a unique forced Pharaoh hit in 1 to 5 moves ' +
    '(proven by the solver), a unique defence against a threatened hit, or a unique line that wins material. Writes a JSON array, one puzzle per line ' +
    '(docs/puzzles.md). Run the same command again to go on: the puzzles in the file are kept.',
  options: [
    { name: 'out', value: 'FILE', help: 'the puzzle file (created, or added to)' },
    { name: 'selfplay', value: 'N', help: 'play N games (in all, counting the games of earlier runs) and mine them' },
    { name: 'from', value: 'FILE…', multi: true, help: 'mine these record files (PGN) instead' },
    { name: 'target', value: 'N', help: 'stop once the file holds N puzzles', default: 'no limit' },
    {
      name: 'variant',
      value: 'V',
      help: 'self-play: khet2, khet1, deflexion or all (all: the 8 setups in turn)',
      default: 'all',
    },
    { name: 'seed', value: 'S', help: 'self-play: seed of the random openings', default: String(DEFAULT_SEED) },
    { name: 'nodes', value: 'N', help: 'self-play: node budget per move', default: String(sp.nodes) },
    {
      name: 'random-plies',
      value: 'N',
      help: 'self-play: random plies from the setup',
      default: String(sp.randomPlies),
    },
    {
      name: 'max-moves',
      value: 'N',
      help: "the longest hit, 1 to 5 of the solver's moves",
      default: String(m.maxMoves),
    },
    {
      name: 'solver-nodes',
      value: 'N',
      help: 'node budget of one solver question (past it the position is dropped)',
      default: String(m.solverNodes),
    },
    { name: 'kinds', value: 'K,…', help: 'the kinds to mine: hit, defence, material', default: 'hit,defence,material' },
    {
      name: 'material-depth',
      value: 'N',
      help: 'material: depth of the two-line search',
      default: String(m.materialDepth),
    },
    { name: 'quiet', help: 'no progress line (it is shown on a terminal only)' },
  ],
  notes: [
    'The shipped set: thoth puzzles --out puzzles/puzzles.json --selfplay 1000 --seed 1 --kinds hit,defence, then the',
    'same with --selfplay 400 --seed 2 --kinds material (material costs a search per position with a capture), by the',
    'self-play of that time (3000 nodes a move, another setup cycle: docs/puzzles.md).',
  ],
};

/** What `thoth puzzles` was asked to do, its flags read and checked. */
interface PuzzlesJob {
  out: string;
  /** Record files to mine, or undefined for self-play. */
  from?: string[];
  games: number;
  editions: readonly EditionId[];
  miner: MinerSettings;
  play: SelfPlaySettings;
  seed: number;
  /** Stop once the file holds this many puzzles. */
  target: number;
  quiet: boolean;
}

function parseJob(argv: string[]): PuzzlesJob {
  const args = parseArgs(argv, PUZZLES_SPEC);
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument '${args.positional[0]}' (see thoth puzzles --help)`);
  const out = args.options.get('out')?.[0];
  if (out === undefined || out === '') throw new UsageError('--out FILE is needed (see thoth puzzles --help)');
  const from = args.options.get('from');
  if ((from === undefined) === !args.options.has('selfplay'))
    throw new UsageError('give either --selfplay N or --from FILE.pgn… (see thoth puzzles --help)');
  if (from !== undefined && from.length === 0) throw new UsageError('--from needs at least one record file');
  const variant = args.options.get('variant')?.[0] ?? 'all';
  if (variant !== 'all' && !isEditionId(variant))
    throw new UsageError(`unknown variant '${variant}' (khet2, khet1, deflexion or all)`);
  const kinds = (args.options.get('kinds')?.[0] ?? 'hit,defence,material').split(',').map((k) => k.trim());
  for (const k of kinds)
    if (k !== 'hit' && k !== 'defence' && k !== 'material')
      throw new UsageError(`unknown kind '${k}' (hit, defence or material)`);
  return {
    out,
    from,
    games: intOption(args, 'selfplay', 0, 1, 100_000_000),
    editions: variant === 'all' ? EDITION_IDS : [variant as EditionId],
    miner: {
      ...m,
      maxMoves: intOption(args, 'max-moves', m.maxMoves, 1, 5),
      solverNodes: intOption(args, 'solver-nodes', m.solverNodes, 1000, 1_000_000_000),
      kinds: kinds as PuzzleKind[],
      materialDepth: intOption(args, 'material-depth', m.materialDepth, 1, 30),
    },
    play: {
      ...sp,
      nodes: intOption(args, 'nodes', sp.nodes, 1, 100_000_000),
      randomPlies: intOption(args, 'random-plies', sp.randomPlies, 0, 100),
    },
    seed: intOption(args, 'seed', DEFAULT_SEED, 0, 4294967295),
    target: intOption(args, 'target', 0, 0, 100_000_000) || Infinity,
    quiet: args.options.has('quiet'),
  };
}

export async function puzzlesCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const job = parseJob(argv);
  // The output file is tried before the work (without creating or emptying it): a path that cannot
  // be written is bad usage (exit code 2, docs/cli.md), found before any game is mined.
  try {
    checkWritable(job.out);
  } catch (e) {
    throw new UsageError(`cannot write '${job.out}': ${fileErrorText(e)}`);
  }
  // read the record files first: a bad one costs nothing
  const recordGames: MinedGame[] = [];
  for (const file of job.from ?? [])
    recordGames.push(...readGames(file, (s) => process.stderr.write(`thoth puzzles: ${s}\n`)));
  const run = new MiningRun(job);
  run.save();
  const stop = (): void => run.stop();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    if (job.from !== undefined) run.mineRecords(recordGames);
    else await run.mineSelfplay();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    run.progress.clear();
  }
  run.report(write);
  if (run.stopping)
    throw new CommandError('interrupted: the puzzles found are in the file; run the same command again to go on', 130);
}

/** One run of the miner over games into the puzzle file, which is rewritten whenever a game gives puzzles. */
class MiningRun {
  readonly puzzles: Puzzle[];
  readonly progress: ProgressLine;
  private readonly mine: Miner;
  private readonly had: number;
  private readonly t0 = performance.now();
  private played = 0;
  stopping = false;

  constructor(private readonly job: PuzzlesJob) {
    this.puzzles = readExisting(job.out);
    this.had = this.puzzles.length;
    this.mine = new Miner(job.miner);
    for (const p of this.puzzles) this.mine.remember(p);
    this.progress = new ProgressLine(process.stderr, !job.quiet);
  }

  /** A first Ctrl-C stops after the game in hand; a second one at once. */
  stop(): void {
    if (this.stopping) process.exit(130);
    this.stopping = true;
  }

  save(): void {
    try {
      // Whole, through a temporary file; a link's file is written (the link kept) and a device in
      // place: a rename over `--out /dev/null` replaced the device with a plain file.
      writeFileAtomic(this.job.out, formatPuzzleFile(this.puzzles));
    } catch (e) {
      throw new CommandError(`cannot write '${this.job.out}': ${fileErrorText(e)}`);
    }
  }

  private get going(): boolean {
    return !this.stopping && this.puzzles.length < this.job.target;
  }

  private take(g: MinedGame, done: number, total: number): void {
    const found = this.mine.mine(g);
    if (found.length > 0) {
      this.puzzles.push(...found.slice(0, Math.max(0, this.job.target - this.puzzles.length)));
      this.save();
    }
    this.played++;
    const s = (performance.now() - this.t0) / 1000;
    const n = this.puzzles.length - this.had;
    this.progress.show(
      `puzzles: ${done}/${total} games, ${this.puzzles.length} puzzles, ${n > 0 ? (s / n).toFixed(1) : '-'} s per puzzle, ${fmtDuration(s * 1000)}`,
    );
  }

  mineRecords(games: MinedGame[]): void {
    for (let k = 0; k < games.length && this.going; k++) this.take(games[k], k + 1, games.length);
  }

  async mineSelfplay(): Promise<void> {
    const { job } = this;
    const player = new PuzzleGames(job.play);
    const first = resumeGame(this.puzzles, job.seed);
    if (first >= job.games) {
      process.stderr.write(
        `thoth puzzles: ${job.out} holds puzzles of self-play games up to game ${first - 1} of seed ${job.seed} (games count from 0): --selfplay ${job.games} counts the games ` +
          `of earlier runs too, so none is left to play (give a larger N, or another --seed)\n`,
      );
    }
    for (let g = first; g < job.games && this.going; g++) {
      const game = player.play(g, job.seed, job.editions);
      if (game) this.take(game, g + 1, job.games);
      else this.played++;
      // let a signal in between games
      await new Promise((r) => setImmediate(r));
    }
  }

  report(write: (s: string) => void): void {
    const { puzzles, played } = this;
    const secs = (performance.now() - this.t0) / 1000;
    const found = puzzles.length - this.had;
    const t = this.mine.tally;
    const perGame = played > 0 ? ((1000 * found) / played).toFixed(0) : '0';
    write(
      `Wrote ${plural(found, 'puzzle')} from ${plural(played, 'game')} to ${this.job.out} in ${secs.toFixed(1)} s (${perGame} per 1,000 games, ` +
        `${found > 0 ? (secs / found).toFixed(2) : '-'} s per puzzle); the file holds ${puzzles.length}`,
    );
    const byVariant = EDITION_IDS.map((e) => `${e} ${puzzles.filter((p) => p.variant === e).length}`).join(', ');
    write(
      `Mined ${plural(t.positions, 'position')}: ${plural(t.hit, 'hit')}, ${plural(t.defence, 'defence')}, ${t.material} material; dropped ${t.notUnique} not unique, ` +
        `${t.duplicate} near-duplicates, ${t.budget} over the solver's budget. In the file: ${byVariant}`,
    );
  }
}

/** The puzzles already in the file (none when it does not exist or is empty). */
function readExisting(out: string): Puzzle[] {
  if (!existsSync(out)) return [];
  let text: string;
  try {
    // A device or a pipe holds no puzzles: `/dev/zero` was read without end, `/dev/full` too;
    // writing to it says whether it takes the file (`/dev/null` does, `/dev/full` does not).
    const st = statSync(out);
    if (st.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    if (!st.isFile()) return [];
    text = readFileSync(out, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read '${out}': ${fileErrorText(e)}`);
  }
  if (text.trim() === '') return [];
  const r = parsePuzzleFile(text);
  if (!r.ok) throw new CommandError(`${out}: ${r.error}; not adding to it`);
  return r.value;
}

/** The self-play game to start from: after the last one of this seed that gave a puzzle. */
function resumeGame(puzzles: readonly Puzzle[], seed: number): number {
  let next = 0;
  for (const p of puzzles) {
    const m = /^selfplay:(\d+):(\d+):/.exec(p.source);
    if (m && Number(m[1]) === seed) next = Math.max(next, Number(m[2]) + 1);
  }
  return next;
}

/** The games of a record file, ready to mine; records that do not replay are skipped with a note. */
function readGames(file: string, note: (s: string) => void): MinedGame[] {
  // Up to the record-file limit; a device or binary data (`/dev/zero`) is refused, not read without end.
  const read = readRecordFile(file);
  if (!read.ok) throw new UsageError(read.error);
  const text = read.value;
  const parsed = parseRecords(text);
  if (parsed.games.length === 0)
    throw new UsageError(`${file}: no game found${parsed.errors[0] ? ` (${parsed.errors[0].message})` : ''}`);
  const out: MinedGame[] = [];
  parsed.games.forEach((rec, k) => {
    const r = replayRecord(rec);
    if (!r.ok) {
      note(`${file}: game ${k + 1} skipped: ${r.error.message}`);
      return;
    }
    const v = recordVariant(rec);
    out.push({
      variant: v,
      start: recordStart(rec) ?? setupKfen(v, 'classic') ?? '',
      moves: r.value.moves,
      mateFor: rec.moves.map((mv) => mv.mate),
      winner: r.value.position.winner,
      source: `${basename(file)}#${k + 1}`,
    });
  });
  return out;
}
