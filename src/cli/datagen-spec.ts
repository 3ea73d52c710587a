/** `thoth datagen`'s flags, each declared once (parser, --help, hints); src/cli/datagen-command.ts reads them. */
import { DEFAULT_SEED } from '../match/config';
import { DEFAULT_DATAGEN as d } from '../train/datagen';
import type { CommandSpec } from './args';
import { DISTRIBUTED_OPTIONS } from './datagen-distributed';

export const DATAGEN_SPEC: CommandSpec = {
  name: 'datagen',
  positional: '--out FILE [--merge IN…]',
  summary:
    'Self-play games for training the network; every quiet position (not in check, no shot that removes an enemy ' +
    "piece) is written with its search score and the game's result. The format is described in docs/nnue.md. Run the " +
    'same command again to go on: the file is appended to, and its positions count towards the targets.',
  options: [
    { name: 'out', value: 'FILE', help: 'the data file (created, or appended to)' },
    {
      name: 'positions',
      value: 'N',
      help: 'stop at N positions in the file',
      default: '1000000; none with --games',
    },
    { name: 'games', value: 'N', help: 'stop when the file holds N games', default: 'no limit' },
    { name: 'nodes', value: 'N', help: 'node budget per move', default: String(d.nodes) },
    {
      name: 'depth',
      value: 'D',
      help: 'also stop each search at depth D (1: the cheapest games, for a game database with --records)',
      default: 'no limit',
    },
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
      help: 'search with this network (NNUE): a file, `default` (the shipped one) or `none` (the hand-written evaluation)',
      default: 'default',
    },
    {
      name: 'records',
      value: 'FILE',
      help: 'also append every game played here to FILE as a game record (PGN), for thoth db import',
    },
    { name: 'no-dedup', help: 'keep positions that are already in the file' },
    {
      name: 'first-game',
      value: 'N',
      help: 'the index of the first game when the file has none (another host: another range, or another seed)',
      default: '0',
    },
    ...DISTRIBUTED_OPTIONS,
    {
      name: 'merge',
      help: 'merge the data files given after the options into --out (positions already there dropped, and games left with none) instead of playing',
    },
    { name: 'quiet', help: 'no progress line (it is shown on a terminal only)' },
  ],
};
