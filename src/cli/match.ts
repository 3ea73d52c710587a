/** `thoth match …`: the tournament runner (cutechess-cli / fastchess flags; see src/match). */
import { plural } from '../core/plural';
import { runDistributed } from '../distributed/coordinator';
import { DEFAULT_SEARCH_TIMEOUT_S, DEFAULT_SEED, parseMatchArgs } from '../match/config';
import { runKnockout } from '../match/knockout';
import { runMatch } from '../match/tournament';
import { NO_REMOVAL_PLIES } from '../core/game-status';
import { COMPLIANCE_STEPS, COMPLIANCE_TIMEOUT_MS, checkCompliance } from '../match/compliance';
import { formatCommandLineError, splitCommandLine } from '../process/command-line';
import { CommandError, EXIT, UsageError } from './args';

/** `thoth match --help`: every flag, with its default. */
export const MATCH_HELP = `Usage: thoth match -engine cmd=<command> [settings] -engine cmd=<command> [settings] [flags]

Plays engines against each other (any engine speaking Thoth's UCI-like protocol) and does the
statistics, with cutechess-cli / fastchess flags: single dash, each followed by its values.

Engines:
  -engine cmd=… [args="…"] [name=…] [dir=…] [option.X=Y …] [tc=…|st=…|depth=…|nodes=…] [timemargin=ms]
                        [proto=uki|kei|khet2ai|khetai]: another Khet engine's protocol (docs/match.md)
                        [ponder=true]: think on the opponent's time (go ponder / ponderhit)
                        an engine (at least two); name defaults to the engine's id name; an option.X
                        the engine does not declare, or a value it refuses, stops the run (exit 2)
  -each …               settings for every engine (an engine's own settings win)
  tc=40/60+0.6 | tc=10+0.1 | tc=60 | tc=1:30+1   moves/seconds+increment; st=0.5 seconds a move;
                        depth=N; nodes=N (a clock can be combined with depth/nodes)
Schedule:
  -rounds N             rounds (default 1; with -sprt and no -rounds: until the test decides)
  -games N / -repeat    games per encounter per round (default 2: a pair, the same opening with colours swapped)
  -concurrency N        games at once (default 1; at most the number of cores)
  -tournament roundrobin|gauntlet|knockout   with more than two engines (default roundrobin);
                        knockout: a bracket seeded in the engines' order, each pairing -rounds game pairs
  -variant khet2|khet1|deflexion    (default khet2)
  -rules auto|thoth|SWITCH+…        the rules dialect (default auto: found from the engines of other
                        protocols before the first game; docs/rules.md §3.1)
  -openings setups=classic,imhotep,dynasty plies=N   a setup in turn plus N random plies (default setups=classic plies=4)
  -openings file=book.kfen order=random|sequential [start=N] [plies=N]   one KFEN per line (default order=sequential)
  -srand S              seed of the openings (default ${DEFAULT_SEED}: runs repeat)
Statistics:
  -sprt [elo0=0] [elo1=5] [alpha=0.05] [beta=0.05] [model=normalized|logistic]   sequential test (defaults shown)
  -ratinginterval N     a summary every N games (default 10; 0 = at the end only)
  -drawscore X          draw points in the standings (default 0.5; ratings always use 1/2)
  -anchor name          the engine whose rating is 0 (default: the first)
Game end:
  -draw movenumber=N movecount=N score=CP      adjudicate a draw (defaults 0, 1, 0)
  -resign movecount=N score=CP [twosided=true] adjudicate a loss (movecount default 1)
  -maxplies N | -maxmoves N                    a draw after N plies / moves (default: none)
  -noremoval PLIES      the no-removal draw rule (default ${NO_REMOVAL_PLIES}; 0 = off)
  -timemargin ms        how far past zero a clock may go (default 0)
  -recover              restart an engine that crashed or stalled and go on (default: stop the run)
  -pingtimeout ms       time to answer isready / stop (default 10000)
  -starttimeout ms      time to start and finish the handshake, warm-up included (default 30000)
  -searchtimeout S      seconds a search without a clock (depth=, nodes=) may take before the engine
                        loses on time (default ${DEFAULT_SEARCH_TIMEOUT_S})
Output:
  -pgnout FILE [nodes=true] [seldepth=true] [pv=true]
                        append every finished game to FILE (PGN, flushed game by game); each move
                        keeps score, depth and time, and these if asked
  -log FILE [faults]    append the engines' traffic of every game (or only of games with a fault)
  -resume FILE          continue an interrupted run with the same flags; new games are appended
                        (a flag that changes the games, e.g. tc= or option.X, is refused, named)
  -resume-force         with -resume: count the file's games although other flags played them
  -report json=FILE     append a JSON line per finished game and per summary to FILE
                        (an output that is an input, e.g. the -openings file, is refused: exit 2)
  -event text           the records' Event tag (default "Thoth match")
  -site text            the records' Site tag (default "?")
Compliance:
  --compliance "<command>" [--timeout MS]   check one engine against protocol.md step by step
                        (exit 0: every step passed, 1: the step that failed is named); --timeout:
                        the wait for uciok, each readyok, go depth and go nodes (default 10000);
                        docs/match.md, "Compliance"
Distributed:
  -distributed redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB] [timeout=S] [sign=KEY] [ca=FILE] [passwordfile=FILE]
                        the games are played by \`thoth worker\` processes on any machine (Redis may be
                        unreachable for timeout seconds, default 10); sign=: the Ed25519 private key the
                        workers trust (else THOTH_SIGN_KEY); ca=: the CAs of a rediss:// server;
                        passwordfile=: the Redis password (else THOTH_REDIS_PASSWORD); docs/distributed.md
  -h, --help            this text

Exit codes: 0 the run finished (or the SPRT decided); 1 it stopped on a fault (an engine crashed,
stalled or could not start; Redis lost); 2 bad flags or settings; 130 interrupted (Ctrl-C; the records so far
are written, -resume plays the rest).

Example:
  thoth match -engine cmd="node dist/cli.js" name=new -engine cmd="node old/dist/cli.js" name=old \\
    -each tc=10+0.1 option.Hash=16 -openings setups=classic,imhotep,dynasty plies=4 \\
    -sprt elo0=0 elo1=5 -concurrency 2 -pgnout games.pgn -report json=games.jsonl
`;

export async function matchCommand(argv: string[], write: (s: string) => void): Promise<void> {
  if (argv.length === 0) throw new UsageError('give at least two -engine cmd=… (thoth match --help lists the flags)');
  if (argv[0] === '--compliance' || argv[0] === '-compliance') return complianceCommand(argv.slice(1), write);
  const parsed = parseMatchArgs(argv);
  if (!parsed.ok) throw new UsageError(parsed.error.message);
  const cfg = parsed.value;
  // Ctrl-C: end the run cleanly (games in progress are dropped; finished ones are saved and
  // summarised). A second Ctrl-C exits at once.
  const ctrl = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write('\nInterrupted: stopping the games in progress (Ctrl-C again to quit at once)\n');
    ctrl.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const opts = {
      write,
      signal: ctrl.signal,
      progress: process.stderr.isTTY && process.stdout.isTTY ? process.stderr : undefined,
    };
    // A run that cannot begin (or loses Redis) throws its typed error: src/cli/exit-codes.ts gives its exit code.
    const summary = cfg.distributed
      ? await runDistributed(cfg, opts)
      : cfg.knockout
        ? await runKnockout(cfg, opts)
        : await runMatch(cfg, opts);
    // The results are written; the exit code says whether the work finished.
    if (summary.stop === 'fault')
      throw new CommandError(`the run stopped: ${summary.message ?? 'a fault'}`, EXIT.failure);
    if (summary.stop === 'interrupted')
      throw new CommandError(`interrupted after ${plural(summary.finished.length, 'game')}`, EXIT.interrupted);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    // Connections to a Redis that went away keep retrying in the background: do not wait for them.
    if (cfg.distributed) exitSoon();
  }
}

/** Ends the process a moment after the command (with the exit code the entry point sets), whatever is still open. */
export function exitSoon(): void {
  setTimeout(() => process.exit(), 1000).unref();
}
/** `thoth match --compliance "<command>"`: the engine checked step by step against protocol.md. */
async function complianceCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const timeout = argv.length === 3 && argv[1] === '--timeout' ? argv[2] : undefined;
  if (argv.length !== 1 && timeout === undefined)
    throw new UsageError(
      '--compliance takes one engine command, quoted, and --timeout MS: --compliance "node dist/cli.js" --timeout 30000',
    );
  if (timeout !== undefined && !/^[1-9]\d{0,6}$/.test(timeout))
    throw new UsageError(`--timeout must be a whole number of ms from 1 to 9999999, not '${timeout}'`);
  const timeoutMs = timeout === undefined ? COMPLIANCE_TIMEOUT_MS : Number(timeout);
  const words = splitCommandLine(argv[0]);
  if (!words.ok) throw new UsageError(`--compliance: ${formatCommandLineError(words.error)}`);
  if (words.value.length === 0) throw new UsageError('--compliance needs a command');
  write(`Compliance of ${argv[0]} with protocol.md (${COMPLIANCE_STEPS.length} steps)`);
  const r = await checkCompliance(words.value, write, timeoutMs);
  if (r.failed !== undefined) {
    // a wait of the check's own (not the protocol's) names the flag that makes it longer
    const longer = r.failed.slow ? `; --timeout MS gives it longer (now ${timeoutMs})` : '';
    throw new CommandError(
      `not compliant: step ${r.passed.length + 1} (${r.failed.step}) fails: ${r.failed.why}${longer}`,
      EXIT.failure,
    );
  }
  write(`Compliant: ${r.name ?? argv[0]} passes all ${COMPLIANCE_STEPS.length} steps`);
}
