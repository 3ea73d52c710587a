/** `thoth stats FILE… [-sprt …] [-anchor NAME] [-drawscore X]`: the summary of record files (src/match/results/recorded.ts). */
import { isMoveText } from '../core/notation';
import { plural } from '../core/plural';
import { RECORD_FILE_LIMIT, formatRecordSyntaxError, parseRecords, type GameRecord } from '../core/record';
import { readRecordFile, sizeText } from '../process/files';
import { parseSprt, type SprtConfig } from '../match/config';
import { summariseRecords } from '../match/results/recorded';
import { CommandError, UsageError } from './args';

/** A move as records write it (`e4d5`, `e4+`, `e4-`, `d1e2u`), legal or not. */

/** Problems of a file named one by one; the rest are counted. */
const MAX_NOTES = 10;

const STATS_USAGE =
  'thoth stats FILE.pgn… [-sprt elo0=0 elo1=5 [alpha=0.05] [beta=0.05] [model=normalized|logistic]] [-anchor NAME] [-drawscore 0.5]';

/** `thoth stats --help`. */
export const STATS_HELP = `Usage: ${STATS_USAGE}

The summary of the games in record files (thoth match -pgnout, from one or several places; '-' reads
stdin): W-L-D, game pairs (pentanomial), Elo and normalized Elo with their errors, the SPRT's LLR,
with the same lines and figures as the run's own: the players in the run's order (game 1.1's first
player first), however the games were ordered in the files. A record that appears twice counts once. A file that holds no game
record ([Tag "value"] lines, moves written as moves, a result), binary data or more than
${sizeText(RECORD_FILE_LIMIT)} is an error: exit code 2.

Flags:
  -sprt [elo0=0] [elo1=5] [alpha=0.05] [beta=0.05] [model=normalized|logistic]   the test's LLR and bounds
  -anchor NAME          with three or more players, the one rated 0 in the ratings table (default: the
                        run's first engine); two players get no table (the summary is the first's)
  -drawscore X          draw points in the standings (default 0.5)
  -h, --help            this text
`;

export async function statsCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const files: string[] = [];
  let sprt: SprtConfig | undefined;
  let anchor: string | undefined;
  let drawScore = 0.5;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-sprt' || a === '--sprt') {
      const words: string[] = [];
      while (i + 1 < argv.length && argv[i + 1].includes('=') && !argv[i + 1].startsWith('-')) words.push(argv[++i]);
      const s = parseSprt(words);
      if (!s.ok) throw new UsageError(s.error.message);
      sprt = s.value;
    } else if (a === '-anchor' || a === '--anchor') {
      anchor = argv[++i];
      if (anchor === undefined) throw new UsageError('-anchor needs a name');
    } else if (a === '-drawscore' || a === '--drawscore') {
      drawScore = Number(argv[++i]);
      if (!(drawScore >= 0 && drawScore <= 1))
        throw new UsageError(`-drawscore must be a number from 0 to 1, not '${argv[i] ?? ''}'`);
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown flag ${a}; usage: ${STATS_USAGE}`);
    } else {
      files.push(a);
    }
  }
  if (files.length === 0) throw new UsageError(`usage: ${STATS_USAGE}`);
  const games: GameRecord[][] = [];
  for (const f of files) {
    const text = readRecordFile(f);
    if (!text.ok) throw new UsageError(text.error);
    const parsed = parseRecords(text.value);
    // A game record has tags (the players, the result) and moves written as moves; prose with a
    // result token in it (a README that quotes a record with `…` for its moves) is none.
    const records = parsed.games.filter((g) => g.tags.size > 0 && g.moves.every((m) => isMoveText(m.move)));
    if (records.length === 0) {
      throw new UsageError(
        `${f === '-' ? 'standard input' : `'${f}'`} holds no game records (a record is [Tag "value"] lines, moves and a result such as 1-0)`,
      );
    }
    for (const e of parsed.errors.slice(0, MAX_NOTES)) write(`Note: ${f}: ${formatRecordSyntaxError(e)}`);
    if (parsed.errors.length > MAX_NOTES)
      write(`Note: ${f}: ${parsed.errors.length - MAX_NOTES} more problems like these`);
    if (parsed.incomplete) write(`Note: ${f} ends with an unfinished game record (not counted)`);
    const left = parsed.games.length - records.length;
    if (left > 0)
      write(`Note: ${f}: ${plural(left, 'text')} ending in a result left out (no tags, or words that are not moves)`);
    games.push(records);
  }
  const s = summariseRecords(games, { sprt, anchor, drawScore });
  if ('error' in s) throw new CommandError(s.error, 1);
  for (const n of s.notes) write(`Note: ${n}`);
  write(`Games: ${s.games} from ${plural(files.length, 'file')} (${s.pairs} pairs) | ${s.variant}`);
  for (const l of s.lines) write(l);
}
