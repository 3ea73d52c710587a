/**
 * The one entry point. `thoth <subcommand> ...` runs a tool (perft, match, ...); no arguments
 * start the engine's protocol loop on stdin/stdout; any other arguments are run as protocol
 * commands, then the engine quits.
 */
import { ANALYSE_USAGE, analyseCommand } from './cli/analyse';
import { CommandError } from './cli/args';
import { DATAGEN_USAGE, datagenCommand } from './cli/datagen';
import { GUI_USAGE, guiCommand } from './cli/gui';
import { GENFENS_USAGE, genfensCommand } from './cli/genfens';
import { MATCH_USAGE, matchCommand } from './cli/match';
import { PERFT_USAGE, perftCommand } from './cli/perft';
import { WORKER_USAGE, workerCommand } from './cli/worker';
import { STATS_USAGE, statsCommand } from './cli/stats';
import { MATCH_STATUS_USAGE, matchStatusCommand } from './cli/match-status';
import { TRAIN_USAGE, trainCommand } from './cli/train';
import { runProtocol } from './protocol/loop';
import { VERSION } from './version';

const HELP = `Thoth ${VERSION}: a Khet engine (Khet 2.0, Khet 1.0, Deflexion).

Usage:
  thoth                       start the engine (UCI-like protocol on stdin/stdout; see protocol.md)
  thoth <command> ...         run protocol commands, then quit: thoth bench [depth [threads]],
                              thoth "position setup dynasty" d, thoth "go perft 4"
  ${PERFT_USAGE}
  ${GUI_USAGE}
                              the browser GUI: play, two players, analysis (127.0.0.1 only)
  ${ANALYSE_USAGE}
                              analysis for people: best moves in words, or a game annotated
  ${MATCH_USAGE}
                              engine-vs-engine matches and tournaments (SPRT, Elo, records);
                              with -distributed, the games are played by workers (docs/distributed.md)
  ${WORKER_USAGE}
                              plays the game pairs of distributed matches
  ${MATCH_STATUS_USAGE}
                              the live summary of a distributed match, or its page in a browser
  ${STATS_USAGE}
                              the summary (W-L-D, pairs, Elo, nElo, LLR) of record files, merged
  ${GENFENS_USAGE}
                              KFEN openings for matches
  ${DATAGEN_USAGE}
                              training data for the network by self-play (docs/nnue.md)
  ${TRAIN_USAGE}
                              trains the network on datagen's files; writes the network file
  thoth help                  this text
  thoth --version             the version
`;

type Subcommand = (argv: string[], write: (s: string) => void) => Promise<void>;

const SUBCOMMANDS: Record<string, Subcommand> = {
  perft: perftCommand,
  match: matchCommand,
  worker: workerCommand,
  stats: statsCommand,
  'match-status': matchStatusCommand,
  genfens: genfensCommand,
  gui: guiCommand,
  analyse: analyseCommand,
  analyze: analyseCommand,
  datagen: datagenCommand,
  train: trainCommand,
};

async function main(argv: string[]): Promise<number> {
  const write = (s: string): void => {
    process.stdout.write(s + '\n');
  };
  const [cmd, ...rest] = argv;
  if (cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(HELP);
    return 0;
  }
  if (cmd === '--version' || cmd === 'version') {
    write(`Thoth ${VERSION}`);
    return 0;
  }
  const sub = cmd === undefined ? undefined : SUBCOMMANDS[cmd];
  if (sub) {
    try {
      await sub(rest, write);
      return 0;
    } catch (e) {
      if (e instanceof CommandError) {
        process.stderr.write(`thoth ${cmd}: ${e.message}\n`);
        return e.exitCode;
      }
      throw e;
    }
  }
  await runProtocol(argv);
  return 0;
}

// A reader that goes away (`thoth perft 5 | head -1`) ends the program quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`thoth: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
