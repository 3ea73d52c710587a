/** `thoth tune`: SPSA over the match runner (src/match/tune.ts), locally or on workers; docs/tuning.md. */
import { existsSync, readFileSync } from 'node:fs';
import { runDistributed } from '../distributed/coordinator';
import { DEFAULT_R_END, checkSpsaState, newSpsaState, type SpsaParam, type SpsaState } from '../match/spsa';
import { runMatch } from '../match/tournament';
import { applyLimit, hasLimit, type EngineLimits } from '../match/timecontrol';
import { runTune, type PlayMatch } from '../match/tune';
import { formatCommandLine } from '../process/command-line';
import { writeFileAtomic } from '../process/files';
import { DEFAULT_PARAMS, PARAM_SPECS } from '../search/params';
import { CommandError, EXIT, UsageError, fileErrorText, intOption, parseArgs, type CommandSpec } from './args';
import { exitCodeOf } from './exit-codes';
import { ownEngineCommand } from './own-engine';

const ALL = PARAM_SPECS.map((p) => p.name);

export const TUNE_SPEC: CommandSpec = {
  name: 'tune',
  summary:
    'Tunes the search parameters by SPSA: each iteration plays game pairs between the engine with every parameter ' +
    'nudged up or down at random and the same engine nudged the other way, and moves the parameters by the result.',
  options: [
    { name: 'state', value: 'FILE', help: 'the run: created, or gone on with (the same command again after Ctrl-C)' },
    {
      name: 'params',
      value: 'NAME[:C_END],…',
      help: 'the parameters and their step at the end',
      default: 'all, with the steps in src/search/params.ts',
    },
    { name: 'iterations', value: 'N', help: 'SPSA iterations', default: '1000' },
    { name: 'pairs', value: 'N', help: 'game pairs an iteration', default: '1' },
    {
      name: 'engine',
      value: 'CMD',
      help: "the engine command line (default: this Thoth, node and its package's dist/cli.js, wherever it is run from)",
    },
    { name: 'tc', value: 'TC', help: "time control of the games (thoth match's tc=)", default: '2+0.02' },
    {
      name: 'limit',
      value: 'KEY=VALUE',
      help: "the games' limit as thoth match writes it, instead of --tc: tc=…, st=S, nodes=N or depth=N",
    },
    { name: 'concurrency', value: 'N', help: 'games at once', default: '1' },
    { name: 'r-end', value: 'X', help: 'learning rate at the last iteration', default: String(DEFAULT_R_END) },
    { name: 'seed', value: 'S', help: 'seed of the perturbations and openings', default: '1' },
    { name: 'distributed', value: 'URL', help: 'play the games on `thoth worker` processes through this Redis' },
    {
      name: 'start-timeout',
      value: 'MS',
      help: "time an engine may take to start, its warm-up included (thoth match's -starttimeout)",
      default: "thoth match's, 30000",
    },
    {
      name: 'ping-timeout',
      value: 'MS',
      help: "time an engine may take to answer isready / stop (thoth match's -pingtimeout)",
      default: "thoth match's, 10000",
    },
  ],
  notes: [
    'Games: Hash 16, one thread, the Classic, Imhotep and Dynasty setups with 4 random plies.',
    'The tuned values are a proposal: keep them only after an SPRT against the defaults accepts (docs/tuning.md).',
  ],
};

/** The match's timeouts that tune passes on: thoth match's flag and tune's option. */
const MATCH_TIMEOUTS: [string, string][] = [
  ['-starttimeout', 'start-timeout'],
  ['-pingtimeout', 'ping-timeout'],
];

/** A match's message with the flag it names (`-starttimeout MS gives it longer`) put as tune's option. */
function tuneFlags(message: string): string {
  return MATCH_TIMEOUTS.reduce((m, [flag, option]) => m.replaceAll(`${flag} MS`, `--${option} MS`), message);
}

function parseParams(text: string | undefined, rEnd: number): SpsaParam[] {
  const words =
    text === undefined
      ? ALL
      : text
          .split(',')
          .map((w) => w.trim())
          .filter(Boolean);
  if (words.length === 0) throw new UsageError('--params needs at least one parameter');
  return words.map((w) => {
    const [name, step] = w.split(':');
    const spec = PARAM_SPECS.find((p) => p.name.toLowerCase() === name.toLowerCase());
    if (!spec) throw new UsageError(`unknown parameter '${name}' (${ALL.join(', ')})`);
    const cEnd = step === undefined ? spec.cEnd : Number(step);
    if (!(cEnd > 0) || cEnd > spec.max - spec.min)
      throw new UsageError(`${spec.name}: the step must be above 0 and at most ${spec.max - spec.min}, not '${step}'`);
    return { name: spec.name, min: spec.min, max: spec.max, cEnd, rEnd };
  });
}

/** The games' limit word for `-each`: `--limit KEY=VALUE`, else `tc=` and `--tc` (default 2+0.02). */
function limitWord(args: ReturnType<typeof parseArgs>): string {
  const tc = args.options.get('tc')?.[0];
  const limit = args.options.get('limit')?.[0];
  if (tc !== undefined && limit !== undefined) throw new UsageError('give --tc or --limit, not both');
  const flag = limit === undefined ? '--tc' : '--limit';
  const word = limit ?? `tc=${tc ?? '2+0.02'}`;
  const eq = word.indexOf('=');
  const limits: EngineLimits = {};
  const r = applyLimit(limits, word.slice(0, eq), word.slice(eq + 1));
  if (!r.ok) throw new UsageError(`${flag}: ${r.error.message}`);
  if (!r.value || !hasLimit(limits))
    throw new UsageError(`${flag} '${limit ?? tc}': not a limit that ends a game (tc=…, st=S, nodes=N or depth=N)`);
  return word;
}

function readState(file: string, names: string[]): SpsaState | undefined {
  if (!existsSync(file)) return undefined;
  let x: unknown;
  try {
    x = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read '${file}': ${e instanceof SyntaxError ? 'not JSON' : fileErrorText(e)}`);
  }
  const bad = checkSpsaState(x, names);
  if (bad) throw new UsageError(`'${file}': ${bad}`);
  return x as SpsaState;
}

export async function tuneCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, TUNE_SPEC);
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument '${args.positional[0]}' (see thoth tune --help)`);
  const file = args.options.get('state')?.[0];
  if (!file) throw new UsageError('--state FILE is needed: the run is kept there (see thoth tune --help)');
  const rEnd = Number(args.options.get('r-end')?.[0] ?? DEFAULT_R_END);
  if (!(rEnd > 0 && rEnd < 1)) throw new UsageError('--r-end must be above 0 and below 1');
  const params = parseParams(args.options.get('params')?.[0], rEnd);
  const iterations = intOption(args, 'iterations', 1000, 1, 1e7);
  const seed = intOption(args, 'seed', 1, 0, 4294967295);
  const start = params.map((p) => DEFAULT_PARAMS[PARAM_SPECS.find((s) => s.name === p.name)!.key]);
  const state =
    readState(
      file,
      params.map((p) => p.name),
    ) ?? newSpsaState(params, start, iterations, seed);
  const distributed = args.options.get('distributed')?.[0];
  const matchFlags = [
    '-each',
    limitWord(args),
    'option.Hash=16',
    'option.Threads=1',
    '-openings',
    'setups=classic,imhotep,dynasty',
    'plies=4',
    '-concurrency',
    String(intOption(args, 'concurrency', 1, 1, 1024)),
    ...(distributed ? ['-distributed', distributed] : []),
    ...MATCH_TIMEOUTS.flatMap(([flag, option]) =>
      args.options.has(option) ? [flag, String(intOption(args, option, 0, 1, 3_600_000))] : [],
    ),
  ];
  /** The state last saved: where a match that cannot begin leaves the run. */
  let reached = state;
  const save = (s: SpsaState): void => {
    try {
      writeFileAtomic(file, JSON.stringify(s, null, 1) + '\n');
    } catch (e) {
      throw new CommandError(`cannot write '${file}': ${fileErrorText(e)}`);
    }
    reached = s;
  };
  save(state);
  const ctrl = new AbortController();
  const onSigint = (): void => ctrl.abort();
  process.on('SIGINT', onSigint);
  const quiet = { write: () => undefined, signal: ctrl.signal };
  const play: PlayMatch = (cfg) => (cfg.distributed ? runDistributed(cfg, quiet) : runMatch(cfg, quiet));
  const settings = {
    engine: args.options.get('engine')?.[0] ?? formatCommandLine(ownEngineCommand()),
    pairs: intOption(args, 'pairs', 1, 1, 10000),
    matchFlags,
  };
  try {
    write(
      `Tuning ${params.map((p) => p.name).join(', ')} from iteration ${state.k} of ${state.iterations}; the run is kept in ${file}`,
    );
    const values = (s: SpsaState): string => s.params.map((p, i) => `${p.name}=${Math.round(s.theta[i])}`).join(' ');
    let end: Awaited<ReturnType<typeof runTune>>;
    try {
      end = await runTune(settings, state, play, save, write, ctrl.signal);
    } catch (e) {
      // A match that cannot begin (an engine that does not start, Redis not there) stops the run
      // as a match that stops on a fault does: exit 1, the state saved so far kept.
      if (e instanceof CommandError || exitCodeOf(e) === undefined) throw e;
      write(`Stopped after iteration ${reached.k - 1}: ${values(reached)}`);
      throw new CommandError(`a match stopped: ${tuneFlags((e as Error).message)}`, EXIT.failure);
    }
    write(`${end.stopped ? 'Stopped' : 'Done'} after iteration ${end.state.k - 1}: ${values(end.state)}`);
    if (end.stopped === 'interrupted')
      throw new CommandError('interrupted; the same command goes on', EXIT.interrupted);
    if (end.stopped) throw new CommandError(`a match stopped: ${tuneFlags(end.stopped)}`, EXIT.failure);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
