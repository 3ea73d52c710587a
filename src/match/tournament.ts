/**
 * The local run: starts the engines, plays the schedule on `concurrency` game slots (each slot with
 * its own engine processes, kept between games), and keeps the accounts in a Ledger (record file,
 * a line per game, summaries); it stops when the schedule is done, the SPRT decides, an engine
 * fault ends the run (without `-recover`), or the caller aborts (Ctrl-C).
 */
import type { MatchConfig } from './config';
import type { EngineProcess } from './engine-process';
import { EngineStartError, MatchConfigError, MatchInterrupted } from './errors';
import { Ledger, type Halt, type MatchSummary, type StopReason } from './ledger';
import { OpeningBook } from './openings';
import { checkRecordFile, outputClash } from './outputs';
import { anchorIndex, settleNames } from './player-names';
import { Schedule, type ScheduledGame } from './schedule';
import { settleRules } from './rules-check';
import { GameSlot, startEngine } from './slot';

export type { FinishedGame, MatchSummary, StopReason } from './ledger';

export interface RunOptions {
  /** Receives every output line. */
  write: (line: string) => void;
  /** Aborting ends the run: games in progress are dropped (and played again by -resume). */
  signal?: AbortSignal;
  /** Draw a progress line on this stream (a terminal). */
  progress?: NodeJS.WriteStream;
}

/** A run made ready: engines started once (names known), the schedule, the book, and the ledger with the resumed games. */
export interface PreparedRun {
  book: OpeningBook;
  schedule: Schedule;
  ledger: Ledger;
  /** The engines started to learn their names, by engine index (the caller owns them). */
  engines: Map<number, EngineProcess>;
}

/**
 * What every run does before its first game, locally or distributed: the openings and the record
 * file checked, every engine started once (an engine that cannot start stops the run before any
 * game), the names settled, -anchor checked, and the -resume file counted. Throws what runMatch
 * throws; on a throw, the engines started are ended.
 */
export async function prepareRun(
  cfg: MatchConfig,
  opts: RunOptions,
  signal: AbortSignal,
  /**
   * Called with the ledger and the engines started before the -resume file is read (a distributed
   * run asks its engines which evaluation they use and takes its lock there).
   */
  beforeResume?: (ledger: Ledger, engines: ReadonlyMap<number, EngineProcess>) => Promise<void>,
): Promise<PreparedRun> {
  const clash = outputClash(cfg);
  if (clash !== undefined) throw new MatchConfigError(clash);
  const opened = OpeningBook.open(cfg.openings, cfg.variant, cfg.srand, { noRemovalLimit: cfg.noRemovalLimit });
  if (!opened.ok) throw opened.error;
  const book = opened.value;
  const schedule = new Schedule(cfg.engines.length, cfg.tournament, cfg.games, cfg.rounds);
  for (const n of cfg.notes) opts.write(`Note: ${n}`);
  checkRecordFile(cfg);
  await settleRules(cfg, opts.write, book.get(0).kfen, signal);

  const engines = new Map<number, EngineProcess>();
  const started = await Promise.allSettled(cfg.engines.map((s) => startEngine(s, cfg, signal)));
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') engines.set(i, r.value);
  });
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  try {
    if (failed) throw failed.reason;
    const names = settleNames(
      cfg,
      cfg.engines.map((_, i) => engines.get(i)?.idName),
    );
    const ledger = new Ledger(cfg, names, schedule, book, anchorIndex(cfg, names), opts.write, opts.progress);
    await beforeResume?.(ledger, engines);
    if (cfg.resume !== undefined) ledger.resume(cfg.resume);
    if (cfg.variant !== 'khet2') {
      for (const [i, e] of engines) {
        if (!e.optionNames.has('uci_variant'))
          ledger.write(
            `Note: engine ${names[i]} does not declare a UCI_Variant option; it may not play ${cfg.variant}`,
          );
      }
    }
    return { book, schedule, ledger, engines };
  } catch (e) {
    for (const eng of engines.values()) await eng.quit(200);
    throw e;
  }
}

/**
 * Plays a run. A bad setting found on the way (the openings or record file, -anchor, -resume) throws
 * a MatchConfigError and nothing is played; an engine that cannot start, an EngineStartError (an
 * EngineOptionError for an option it refuses); Ctrl-C while the engines start, MatchInterrupted.
 * A run that begins returns its summary, however it stopped (`stop`: done, sprt, fault, interrupted).
 */
export async function runMatch(cfg: MatchConfig, opts: RunOptions): Promise<MatchSummary> {
  const stop = new AbortController();
  const onUserAbort = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onUserAbort, { once: true });
  if (opts.signal?.aborted) stop.abort();
  let prepared: PreparedRun;
  try {
    prepared = await prepareRun(cfg, opts, stop.signal);
  } catch (e) {
    opts.signal?.removeEventListener('abort', onUserAbort);
    throw e;
  }
  const { book, schedule, ledger } = prepared;
  const names = ledger.names;
  try {
    ledger.openRecords();
    ledger.planLine(`concurrency ${cfg.concurrency}`);
  } catch (e) {
    for (const eng of prepared.engines.values()) eng.kill();
    opts.signal?.removeEventListener('abort', onUserAbort);
    throw e;
  }

  let stopReason: StopReason = 'done';
  let stopMessage: string | undefined;
  let stopping = false;
  const halt = (reason: StopReason, message?: string, abortGames = false): void => {
    if (stopping) return;
    stopping = true;
    stopReason = reason;
    stopMessage = message;
    if (abortGames) stop.abort();
  };
  const haltOn = (h: Halt | undefined): void => {
    if (h) halt(h.reason, h.message, h.abortGames);
  };
  stop.signal.addEventListener('abort', () => {
    if (!stopping) halt('interrupted', 'interrupted');
  });

  const total = schedule.total;
  let next = 0;
  const takeNext = (): ScheduledGame | undefined => {
    while (next < total && ledger.done.has(next)) next++;
    if (stopping || next >= total) return undefined;
    return schedule.game(next++);
  };

  const worker = (slot: number): Promise<void> =>
    playSlot(slot).catch((e: unknown) => {
      // A bug must not leave engines running or lose the results: stop, and say why.
      halt('fault', `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, true);
    });
  const playSlot = async (i: number): Promise<void> => {
    const slot = new GameSlot(
      cfg,
      names,
      stop.signal,
      (l) => ledger.write(l),
      i === 0 ? prepared.engines : undefined,
      ledger.recordTags,
    );
    try {
      for (;;) {
        const g = takeNext();
        if (!g) break;
        let outcome;
        try {
          outcome = await slot.play(g, book.get(g.openingIndex));
        } catch (e) {
          if (!(e instanceof EngineStartError || e instanceof MatchInterrupted)) throw e;
          if (!stop.signal.aborted) halt('fault', e.message, true);
          return;
        }
        if (!outcome) break; // aborted
        haltOn(ledger.add(g, outcome));
      }
    } finally {
      await slot.close(stop.signal.aborted);
    }
  };

  // A record file or report that cannot be written (a full disk) stops the run before its first game.
  haltOn(ledger.outputHalt() ?? ledger.sprtHalt());
  ledger.drawBar();
  try {
    await Promise.all(Array.from({ length: cfg.concurrency }, (_, i) => worker(i)));
  } finally {
    ledger.closeRecords();
    opts.signal?.removeEventListener('abort', onUserAbort);
  }
  return ledger.end(stopReason as StopReason, stopMessage);
}
