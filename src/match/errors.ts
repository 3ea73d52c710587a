/**
 * The tournament runner's errors. The parsers of its settings (parseMatchArgs, the openings)
 * return them as values (`Result`); the runner (runMatch, runDistributed) throws them, and the
 * command line gives each its exit code in one table (src/cli/exit-codes.ts; docs/conventions.md,
 * "Errors").
 */

/** A bad setting of a run (a flag, an engine setting, a time control, an openings or record file): nothing is played. */
export class MatchConfigError extends Error {
  override name = 'MatchConfigError';
}

/** An engine could not be started (it cannot be run, it exits, or it does not finish the handshake): the run cannot begin. */
export class EngineStartError extends Error {
  override name = 'EngineStartError';

  constructor(
    readonly engine: string,
    readonly command: string,
    readonly reason: string,
  ) {
    super(`engine '${engine}' cannot start: ${reason} (command: ${command})`);
  }
}

/**
 * An `option.X=Y` that the engine does not declare, or whose value it does not accept: the run
 * cannot begin (a bad setting, so exit code 2 on the command line, as fastchess refuses it).
 */
export class EngineOptionError extends EngineStartError {
  override name = 'EngineOptionError';

  constructor(
    engine: string,
    command: string,
    readonly option: string,
    readonly value: string,
    reason: string,
  ) {
    super(engine, command, reason);
    this.message = `engine '${engine}': option.${option}=${value} refused: ${reason}`;
  }
}

/** The run was interrupted (Ctrl-C) while its engines were starting. */
export class MatchInterrupted extends Error {
  override name = 'MatchInterrupted';

  constructor() {
    super('interrupted while starting the engines');
  }
}

export type MatchError = MatchConfigError | EngineStartError | MatchInterrupted;

/** A wait that ran out (`no 'readyok' within 10 s`): the message names the flag that gives it longer. */
export const NO_ANSWER_RE = /^no '\w+' within /;
