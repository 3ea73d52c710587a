/**
 * The one entry point. `thoth <subcommand> ...` runs a tool (perft, match, ...); no arguments
 * start the engine's protocol loop on stdin/stdout; arguments that start with a protocol command
 * (`thoth bench`, `thoth "position setup dynasty" d`) are run as protocol commands, then the engine
 * quits. Anything else is a mistyped command: exit code 2 with a hint.
 *
 * Exit codes: 0 the work finished; 1 it failed (an engine could not start, a match stopped on a
 * fault); 2 bad usage; 130 interrupted.
 */
import { clipMessage } from './core/quote';
import { didYouMean } from './core/suggest';
import { ANALYSE_SPEC, analyseCommand } from './cli/analyse';
import { EXIT, UsageError, helpText, usageLine, wantsHelp, type CommandSpec } from './cli/args';
import { DB_SPEC, dbCommand } from './cli/db-command';
import { datagenCommand } from './cli/datagen-command';
import { exitCodeOf } from './cli/exit-codes';
import { DATAGEN_SPEC } from './cli/datagen-spec';
import { GENFENS_SPEC, genfensCommand, openBenchGenfens } from './cli/genfens';
import { GUI_SPEC, guiCommand } from './cli/gui';
import { MATCH_HELP, matchCommand } from './cli/match';
import { MATCH_STATUS_SPEC, matchStatusCommand } from './cli/match-status';
import { PERFT_SPEC, perftCommand } from './cli/perft-command';
import { PICTURE_SPEC, pictureCommand } from './cli/picture-command';
import { PUZZLES_SPEC, puzzlesCommand } from './cli/puzzles';
import { STATS_HELP, statsCommand } from './cli/stats-command';
import { trainCommand } from './cli/train-command';
import { TRAIN_SPEC } from './cli/train-spec';
import { TUNE_SPEC, tuneCommand } from './cli/tune-command';
import { WORKER_SPEC, workerCommand } from './cli/worker-command';
import { exitOnOutputError } from './process/output';
import { runProtocol } from './node/loop';
import { KNOWN_COMMANDS, isKnownCommand } from './protocol/uci';
import { VERSION } from './version';

type Run = (argv: string[], write: (s: string) => void) => Promise<void>;

interface Subcommand {
  run: Run;
  /** The `--help` text. */
  help: string;
  /** The line in `thoth help`. */
  usage: string;
  summary: string;
}

const fromSpec = (spec: CommandSpec, run: Run, summary: string): Subcommand => ({
  run,
  help: helpText(spec),
  usage: usageLine(spec),
  summary,
});

const SUBCOMMANDS: Record<string, Subcommand> = {
  perft: fromSpec(PERFT_SPEC, perftCommand, 'perft / divide from any position'),
  analyse: fromSpec(ANALYSE_SPEC, analyseCommand, 'the best moves of a position in words, or a review of a game'),
  picture: fromSpec(PICTURE_SPEC, pictureCommand, 'a picture of a position (SVG, PNG) or an animated game (GIF, APNG)'),
  match: {
    run: matchCommand,
    help: MATCH_HELP,
    usage: 'thoth match -engine … -engine … [flags]',
    summary: 'matches and tournaments (SPRT, Elo, records); -distributed: on workers',
  },
  worker: fromSpec(WORKER_SPEC, workerCommand, 'plays the game pairs of distributed matches'),
  'match-status': fromSpec(
    MATCH_STATUS_SPEC,
    matchStatusCommand,
    'the live summary of a distributed match, or its page',
  ),
  stats: {
    run: statsCommand,
    help: STATS_HELP,
    usage: 'thoth stats FILE.pgn… [flags]',
    summary: 'the summary (W-L-D, pairs, Elo, nElo, LLR) of record files, merged',
  },
  genfens: fromSpec(GENFENS_SPEC, genfensCommand, 'KFEN openings for matches'),
  gui: fromSpec(GUI_SPEC, guiCommand, 'the browser GUI: play, two players, analysis (127.0.0.1 unless --host)'),
  datagen: fromSpec(DATAGEN_SPEC, datagenCommand, 'training data for the network by self-play (docs/nnue.md)'),
  db: fromSpec(
    DB_SPEC,
    dbCommand,
    'the game database: import, browse, explorer, position search, batch review (docs/db.md)',
  ),
  train: fromSpec(TRAIN_SPEC, trainCommand, "trains the network on datagen's files; writes the network file"),
  puzzles: fromSpec(
    PUZZLES_SPEC,
    puzzlesCommand,
    'puzzles (forced hits, defences, material) mined from games (docs/puzzles.md)',
  ),
  tune: fromSpec(TUNE_SPEC, tuneCommand, 'tunes the search parameters by SPSA over matches (docs/tuning.md)'),
};
/** Other spellings. */
const ALIASES: Record<string, string> = { analyze: 'analyse' };

/** `thoth bench --help`: bench is a protocol command (protocol.md), run from the command line. */
const BENCH_HELP = [
  'Usage: thoth bench [depth [threads]]',
  '',
  'The deterministic benchmark: the built-in positions (every setup of every edition, middle games',
  'and tactical positions) searched to a fixed depth, each with a fresh 16 MB table, with the',
  'search switches and the evaluation as set. Prints one line per position, then the total time,',
  "the nodes and the nodes per second. The node count with one thread is the build's signature",
  '(quoted as "Bench: N" in commit messages).',
  '',
  '  depth     search depth, 1 to 30 (default: 6)',
  '  threads   search threads (default: 1); with more, the node count varies from run to run',
  '',
  'Options go first, as protocol commands: thoth "setoption name UseNNUE value false" "bench 8".',
  'A bad depth or thread count is an error: nothing runs, exit code 2.',
  '',
].join('\n');

function mainHelp(): string {
  const rows: [string, string][] = [
    ['thoth', 'the engine: the UCI-like protocol on stdin/stdout (protocol.md)'],
    ['thoth bench [depth [threads]]', 'the deterministic benchmark (a protocol command)'],
    ['thoth "position setup dynasty" d', 'protocol commands as arguments, then quit'],
    ...Object.values(SUBCOMMANDS).map((s): [string, string] => [s.usage, s.summary]),
    ['thoth help [command]', "this text, or a command's options (also: thoth <command> --help)"],
    ['thoth --version', 'the version'],
  ];
  // Long usages put their line of words under them.
  const w = 36;
  const row = ([a, b]: [string, string]): string[] =>
    a.length + 2 <= w ? [`  ${a.padEnd(w)}${b}`] : [`  ${a}`, `  ${''.padEnd(w)}${b}`];
  return [
    `Thoth ${VERSION}: a Khet engine (Khet 2.0, Khet 1.0, Deflexion).`,
    '',
    'Usage:',
    ...rows.flatMap(row),
    '',
    'Exit codes: 0 done, 1 failed (an engine could not start, a match stopped on a fault), 2 bad usage, 130 interrupted.',
    '',
  ].join('\n');
}

/** The words `thoth <word>` understands, for "did you mean". */
function knownWords(): string[] {
  return [
    ...Object.keys(SUBCOMMANDS),
    ...Object.keys(ALIASES),
    ...KNOWN_COMMANDS,
    'help',
    '--help',
    '--version',
    'version',
  ];
}

async function main(argv: string[]): Promise<number> {
  const write = (s: string): void => {
    process.stdout.write(s + '\n');
  };
  const [cmd, ...rest] = argv;
  if (cmd === 'help' || cmd === '--help' || cmd === '-h') {
    const topic = rest[0];
    if (topic === undefined) {
      process.stdout.write(mainHelp());
      return EXIT.ok;
    }
    const sub = SUBCOMMANDS[ALIASES[topic] ?? topic];
    if (sub) {
      process.stdout.write(sub.help);
      return EXIT.ok;
    }
    if (topic === 'bench') {
      process.stdout.write(BENCH_HELP);
      return EXIT.ok;
    }
    process.stderr.write(
      `${clipMessage(`thoth help: no command '${topic}'${didYouMean(topic, [...Object.keys(SUBCOMMANDS), 'bench'])}`)}\n`,
    );
    return EXIT.usage;
  }
  if (cmd === '--version' || cmd === 'version' || cmd === '-V') {
    write(`Thoth ${VERSION}`);
    return EXIT.ok;
  }
  const name = cmd === undefined ? undefined : (ALIASES[cmd] ?? cmd);
  const sub = name === undefined ? undefined : SUBCOMMANDS[name];
  if (sub) {
    if (wantsHelp(rest)) {
      process.stdout.write(sub.help);
      return EXIT.ok;
    }
    try {
      await sub.run(rest, write);
      return EXIT.ok;
    } catch (e) {
      // A typed error of any floor: its message, and its exit code from the one table (src/cli/exit-codes.ts).
      const code = exitCodeOf(e);
      if (code === undefined) throw e;
      process.stderr.write(`thoth ${cmd}: ${clipMessage((e as Error).message)}\n`);
      return code;
    }
  }
  const words = cmd?.trim().split(/\s+/) ?? [];
  if (words[0] === 'genfens' && words.length > 1) {
    // OpenBench's form: `thoth "genfens N seed S book None" quit` (quit, or nothing, may follow)
    try {
      if (rest.some((w) => w !== 'quit'))
        throw new UsageError(`after "genfens …" only quit may follow, not '${rest.join(' ')}'`);
      openBenchGenfens(words, write);
      return EXIT.ok;
    } catch (e) {
      const code = exitCodeOf(e);
      if (code === undefined) throw e;
      process.stderr.write(`thoth genfens: ${clipMessage((e as Error).message)}\n`);
      return code;
    }
  }
  if (cmd !== undefined && !isKnownCommand(cmd.trim().split(/\s+/)[0])) {
    const word = cmd.trim().split(/\s+/)[0];
    const what = word.startsWith('-') ? 'option' : 'command';
    process.stderr.write(
      `${clipMessage(`thoth: unknown ${what} '${word}'${didYouMean(word, knownWords())}; thoth help lists the commands`)}\n`,
    );
    return EXIT.usage;
  }
  if (name === 'bench' && wantsHelp(rest)) {
    process.stdout.write(BENCH_HELP);
    return EXIT.ok;
  }
  // protocol commands as arguments: an error is also a message on stderr and exit code 2
  const errors = await runProtocol(argv);
  for (const e of errors) process.stderr.write(`thoth: ${clipMessage(e)}\n`);
  return errors.length > 0 ? EXIT.usage : EXIT.ok;
}

// Output that cannot be written (`> /dev/full`) ends the program with one line on stderr and exit
// code 1, engines ended; a reader that went away (`| head`) ends it quietly (src/process/output.ts).
exitOnOutputError();

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`thoth: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = EXIT.failure;
  },
);
