/**
 * The one place where the typed errors that the I/O floors throw become exit codes
 * (docs/conventions.md, "Errors"). src/cli.ts prints such an error's message after `thoth <command>: `
 * and exits with the code found here; an error not listed is a bug (an internal error, exit 1, with
 * its stack).
 */
import { DbError } from '../db/database';
import { BuildError } from '../distributed/builds';
import { DatagenRunError } from '../distributed/datagen-coordinator';
import { RedisUnreachable } from '../distributed/redis';
import { EngineOptionError, EngineStartError, MatchConfigError, MatchInterrupted } from '../match/errors';
import { DatagenError } from '../train/data-file';
import { TrainingError, TrainingStopped } from '../train/training-run';
import { CommandError, EXIT } from './args';

/** An error class and the exit code of its errors; the first row that matches counts (a subclass before its base). */
type ExitRow = readonly [new (...args: never[]) => Error, (e: never) => number];

const EXIT_CODES: readonly ExitRow[] = [
  // The command's own words, with their code (UsageError: 2).
  [CommandError, (e: CommandError) => e.exitCode],
  // An option the engine lacks or refuses is a bad setting, as fastchess refuses it.
  [EngineOptionError, () => EXIT.usage],
  [MatchConfigError, () => EXIT.usage],
  [MatchInterrupted, () => EXIT.interrupted],
  [EngineStartError, () => EXIT.failure],
  [RedisUnreachable, () => EXIT.failure],
  [BuildError, () => EXIT.failure],
  [DatagenRunError, () => EXIT.failure],
  [DbError, () => EXIT.failure],
  [TrainingStopped, () => EXIT.interrupted],
  // A file named on the command line that cannot be read or written is bad usage; the rest fails.
  [DatagenError, (e: DatagenError) => (e.usage ? EXIT.usage : EXIT.failure)],
  [TrainingError, (e: TrainingError) => (e.usage ? EXIT.usage : EXIT.failure)],
];

/** The exit code of an error a command threw, or undefined for one that no floor means to throw (a bug). */
export function exitCodeOf(e: unknown): number | undefined {
  for (const [kind, code] of EXIT_CODES) if (e instanceof kind) return code(e as never);
  return undefined;
}
