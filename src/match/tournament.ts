/**
 * The run: starts the engines, plays the schedule on `concurrency` game slots (each slot with its
 * own engine processes, kept between games), writes every finished game to the record file at
 * once, prints a line per game and summaries, and stops when the schedule is done, the SPRT
 * decides, an engine fault ends the run (without `-recover`), or the caller aborts (Ctrl-C).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { EDITIONS } from '../core/index';
import { err, ok, type Result } from '../core/result';
import type { MatchConfig } from './config';
import { EngineProcess, type EngineSpec } from './engine';
import { EngineStartError, MatchConfigError, MatchInterrupted, type MatchError } from './errors';
import { playGame, type GameOutcome } from './game';
import { OpeningBook } from './openings';
import { parseRecords, recordPlayers, recordVariant, serializeRecord, type GameRecord } from '../core/record';
import { Standings, encounterLines, standingsLines } from './report';
import { Schedule, type ScheduledGame } from './schedule';
import { describeLimits } from './timecontrol';

export type StopReason = 'done' | 'sprt' | 'interrupted' | 'fault';

export interface FinishedGame {
  game: ScheduledGame;
  score: number;
  record: GameRecord;
  /** True when it came from the resume file. */
  resumed: boolean;
}

export interface MatchSummary {
  stop: StopReason;
  /** Why the run stopped early (fault, interruption), in words. */
  message?: string;
  names: string[];
  finished: FinishedGame[];
  standings: Standings;
  schedule: Schedule;
}

export interface RunOptions {
  /** Receives every output line. */
  write: (line: string) => void;
  /** Aborting ends the run: games in progress are dropped (and played again by -resume). */
  signal?: AbortSignal;
  /** Draw a progress line on this stream (a terminal). */
  progress?: NodeJS.WriteStream;
}

/** Appends records and flushes them to disk one game at a time. */
class RecordWriter {
  private fd: number;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'a');
  }
  append(rec: GameRecord): void {
    writeSync(this.fd, serializeRecord(rec));
    fsyncSync(this.fd);
  }
  close(): void {
    closeSync(this.fd);
  }
}

function scoreOfResult(r: string): number | undefined {
  return r === '1-0' ? 1 : r === '0-1' ? 0 : r === '1/2-1/2' ? 0.5 : undefined;
}

function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

/** Starts an engine and does the handshake; returns it, or throws EngineStartError (MatchInterrupted on an abort). */
async function startEngine(spec: EngineSpec, cfg: MatchConfig, signal?: AbortSignal): Promise<EngineProcess> {
  const e = new EngineProcess(spec);
  e.start();
  const problem = await e.handshake(cfg.variant, cfg.startTimeoutMs, signal);
  if (problem !== undefined) {
    e.kill();
    if (problem === 'aborted') throw new MatchInterrupted();
    throw new EngineStartError(spec.name, e.commandText, problem);
  }
  return e;
}

/**
 * Plays a run. A bad setting found on the way (the openings or record file, -anchor, -resume) is a
 * MatchConfigError and nothing is played; an engine that cannot start is an EngineStartError.
 */
export async function runMatch(cfg: MatchConfig, opts: RunOptions): Promise<Result<MatchSummary, MatchError>> {
  try {
    return ok(await playRun(cfg, opts));
  } catch (e) {
    if (e instanceof MatchConfigError || e instanceof EngineStartError || e instanceof MatchInterrupted) return err(e);
    throw e;
  }
}

/** The run itself; it throws the errors that runMatch returns. */
async function playRun(cfg: MatchConfig, opts: RunOptions): Promise<MatchSummary> {
  const ed = EDITIONS[cfg.variant];
  const opened = OpeningBook.open(cfg.openings, cfg.variant, cfg.srand);
  if (!opened.ok) throw opened.error;
  const book = opened.value;
  const schedule = new Schedule(cfg.engines.length, cfg.tournament, cfg.games, cfg.rounds);
  const progress = opts.progress;
  let barShown = false;
  const clearBar = (): void => {
    if (barShown && progress) progress.write('\r\x1b[K');
    barShown = false;
  };
  const write = (line: string): void => {
    clearBar();
    opts.write(line);
  };
  for (const n of cfg.notes) write(`Note: ${n}`);
  const outPath = cfg.pgnout ?? cfg.resume;
  if (outPath !== undefined) {
    try {
      closeSync(openSync(outPath, 'a'));
    } catch (e) {
      throw new MatchConfigError(`cannot write the record file '${outPath}': ${(e as Error).message}`);
    }
  }

  // Start every engine once: an engine that cannot start stops the run before any game.
  const stop = new AbortController();
  const onUserAbort = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onUserAbort, { once: true });
  if (opts.signal?.aborted) stop.abort();
  const first = new Map<number, EngineProcess>();
  const started = await Promise.allSettled(cfg.engines.map((s) => startEngine(s, cfg, stop.signal)));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    for (const r of started) if (r.status === 'fulfilled') await r.value.quit(200);
    opts.signal?.removeEventListener('abort', onUserAbort);
    throw failed.reason;
  }
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') first.set(i, r.value);
  });
  /** Ends the run before any game: engines quit, then the error. */
  const fail = async (e: Error): Promise<never> => {
    for (const eng of first.values()) await eng.quit(200);
    opts.signal?.removeEventListener('abort', onUserAbort);
    throw e;
  };

  // Names: name= or the engine's id name; made unique.
  const names: string[] = [];
  cfg.engines.forEach((spec, i) => {
    const base = spec.nameGiven ? spec.name : first.get(i)?.idName ?? spec.name;
    let name = base;
    for (let k = 2; names.includes(name); k++) name = `${base}-${k}`;
    names.push(name);
    spec.name = name;
  });
  let anchor = 0;
  if (cfg.anchor !== undefined) {
    anchor = names.indexOf(cfg.anchor);
    if (anchor < 0) {
      await fail(new MatchConfigError(`-anchor ${cfg.anchor}: no engine has that name (${names.join(', ')})`));
    }
  }

  const standings = new Standings(names, schedule.encounters, schedule.paired);
  const finished: FinishedGame[] = [];
  const done = new Set<number>();

  // Resume: the finished games in the record file count, and are not played again.
  if (cfg.resume !== undefined) {
    if (!existsSync(cfg.resume) || readFileSync(cfg.resume, 'utf8').trim() === '') {
      write(`Note: ${cfg.resume} holds no games yet: starting a new run`);
    } else {
      const text = readFileSync(cfg.resume, 'utf8');
      const parsed = parseRecords(text);
      if (parsed.incomplete && (cfg.pgnout === undefined || cfg.pgnout === cfg.resume)) {
        truncateSync(cfg.resume, Buffer.byteLength(text.slice(0, parsed.end), 'utf8'));
        write(`Note: dropped an unfinished game record at the end of ${cfg.resume}`);
      }
      let ignored = 0;
      for (const rec of parsed.games) {
        const idx = schedule.indexOfTag(rec.tags.get('Round') ?? '');
        const score = scoreOfResult(rec.result);
        if (idx === undefined || score === undefined || done.has(idx)) {
          ignored++;
          continue;
        }
        const g = schedule.game(idx);
        const [p0, p1] = recordPlayers(rec);
        if (recordVariant(rec) !== cfg.variant || p0 !== names[g.first] || p1 !== names[g.second]) {
          await fail(new MatchConfigError(
            `-resume ${cfg.resume}: game ${rec.tags.get('Round')} is ${p0} vs ${p1} (${recordVariant(rec)}), but this run ` +
              `schedules ${names[g.first]} vs ${names[g.second]} (${cfg.variant}) there: resume with the same engines and flags`,
          ));
        }
        if (rec.tags.get('KFEN') !== book.get(g.openingIndex).kfen) {
          await fail(new MatchConfigError(
            `-resume ${cfg.resume}: game ${rec.tags.get('Round')} started from another opening than this run gives it: ` +
              'resume with the same -openings and -srand',
          ));
        }
        done.add(idx);
        standings.add(g, score);
        finished.push({ game: g, score, record: rec, resumed: true });
      }
      write(`Resumed ${done.size} finished games from ${cfg.resume}${ignored > 0 ? ` (${ignored} records ignored)` : ''}`);
    }
  }
  const writer = outPath !== undefined ? new RecordWriter(outPath) : undefined;
  if (cfg.variant !== 'khet2') {
    for (const [i, e] of first) {
      if (!e.optionNames.has('uci_variant')) write(`Note: engine ${names[i]} does not declare a UCI_Variant option; it may not play ${cfg.variant}`);
    }
  }

  // The plan, in words.
  const total = schedule.total;
  const lims = [...new Set(cfg.engines.map((s) => describeLimits(s.limits)))].join(' / ');
  const op = cfg.openings.kind === 'setups' ? `setups ${cfg.openings.setups.join(',')} +${cfg.openings.plies} random plies` : `file ${cfg.openings.path} (${cfg.openings.order})`;
  write(
    `Match: ${names.join(' vs ')} | ${ed.name} | ${lims} | ${Number.isFinite(total) ? `${total} games` : 'until SPRT decides'}` +
      `${cfg.engines.length > 2 ? ` | ${cfg.tournament}` : ''} | openings: ${op} | concurrency ${cfg.concurrency}`,
  );

  const summary = (): void => {
    const lines: string[] = [];
    if (cfg.engines.length === 2 || cfg.tournament === 'gauntlet') {
      schedule.encounters.forEach((_, k) => lines.push(...encounterLines(standings, k, ed.colorNames, cfg.engines.length === 2 ? cfg.sprt : undefined)));
    }
    if (cfg.engines.length > 2) {
      if (lines.length > 0) lines.push('');
      lines.push(...standingsLines(standings, anchor, cfg.drawScore));
    }
    for (const l of lines) write(l);
  };

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
  stop.signal.addEventListener('abort', () => {
    if (!stopping) halt('interrupted', 'interrupted');
  });

  let next = 0;
  const takeNext = (): ScheduledGame | undefined => {
    while (next < total && done.has(next)) next++;
    if (stopping || next >= total) return undefined;
    return schedule.game(next++);
  };

  const t0 = performance.now();
  let playedHere = 0;
  const drawBar = (): void => {
    if (!progress) return;
    const n = finished.length;
    const el = performance.now() - t0;
    let text: string;
    if (Number.isFinite(total)) {
      const width = 30;
      const fill = Math.round((width * n) / total);
      const eta = playedHere > 0 ? ((total - n) * el) / playedHere : NaN;
      text = `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${n}/${total} games, ${fmtDuration(el)} elapsed, ETA ${fmtDuration(eta)}`;
    } else {
      text = `${n} games, ${fmtDuration(el)} elapsed`;
      if (cfg.sprt) text += `, LLR ${standings.llr(cfg.sprt).toFixed(2)}`;
    }
    progress.write(`\r\x1b[K${text}`);
    barShown = true;
  };

  const onFinished = (g: ScheduledGame, o: GameOutcome): void => {
    writer?.append(o.record);
    done.add(g.index);
    standings.add(g, o.score);
    finished.push({ game: g, score: o.score, record: o.record, resumed: false });
    playedHere++;
    write(`Finished game ${g.index + 1} (${names[g.first]} vs ${names[g.second]}): ${o.record.result} {${o.reason}}`);
    if (cfg.ratingInterval > 0 && standings.finished % cfg.ratingInterval === 0) summary();
    if (cfg.sprt && standings.sprtDecision(cfg.sprt) !== null) {
      halt('sprt', `SPRT: ${standings.sprtDecision(cfg.sprt)} was accepted`, true);
    } else if (o.engineLost && !cfg.recover) {
      const who = names[o.faultSide === 0 ? g.first : g.second];
      halt('fault', `engine ${who}: ${o.termination} (${o.reason}); stopping the run (-recover restarts engines that fail)`);
    }
    drawBar();
  };

  const worker = (slot: number): Promise<void> =>
    playSlot(slot).catch((e: unknown) => {
      // A bug must not leave engines running or lose the results: stop, and say why.
      halt('fault', `internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}`, true);
    });
  const playSlot = async (slot: number): Promise<void> => {
    const cache = slot === 0 ? first : new Map<number, EngineProcess>();
    try {
      for (;;) {
        const g = takeNext();
        if (!g) break;
        const engines: EngineProcess[] = [];
        for (const idx of [g.first, g.second]) {
          let e = cache.get(idx);
          if (!e || (!e.alive && cfg.recover)) {
            if (e) write(`Restarting engine ${names[idx]} (${e.exitText()})`);
            try {
              e = await startEngine(cfg.engines[idx], cfg, stop.signal);
            } catch (err) {
              if (stop.signal.aborted) return;
              halt('fault', (err as Error).message, true);
              return;
            }
            cache.set(idx, e);
          }
          engines.push(e);
        }
        const opening = book.get(g.openingIndex);
        const outcome = await playGame({
          engines: [engines[0], engines[1]],
          names: [names[g.first], names[g.second]],
          kfen: opening.kfen,
          openingLabel: opening.label,
          variant: cfg.variant,
          noRemovalLimit: cfg.noRemovalLimit,
          adjudication: cfg.adjudication,
          pingTimeoutMs: cfg.pingTimeoutMs,
          event: cfg.event,
          round: g.roundTag,
          signal: stop.signal,
        });
        if (!outcome) break; // aborted
        onFinished(g, outcome);
      }
    } finally {
      await Promise.all([...cache.values()].map((e) => (stop.signal.aborted ? Promise.resolve(e.kill()) : e.quit())));
    }
  };

  // A resumed run whose test had already decided plays nothing more.
  if (cfg.sprt && standings.sprtDecision(cfg.sprt) !== null) halt('sprt', `SPRT: ${standings.sprtDecision(cfg.sprt)} was accepted`);
  drawBar();
  try {
    await Promise.all(Array.from({ length: cfg.concurrency }, (_, i) => worker(i)));
  } finally {
    writer?.close();
    opts.signal?.removeEventListener('abort', onUserAbort);
  }

  clearBar();
  if (!(cfg.ratingInterval > 0 && standings.finished % cfg.ratingInterval === 0 && playedHere > 0)) summary();
  const remaining = Number.isFinite(total) ? total - done.size : undefined;
  const reason = stopReason as StopReason;
  switch (reason) {
    case 'done':
      write('Finished match');
      break;
    case 'sprt':
      write(`Finished match (${stopMessage})`);
      break;
    case 'interrupted':
      write(`Match interrupted after ${finished.length} games${remaining !== undefined ? `; ${remaining} still to play` : ''}${outPath ? ` (continue with -resume ${outPath})` : ''}`);
      break;
    case 'fault':
      write(`Match stopped: ${stopMessage}`);
      break;
  }
  return { stop: reason, message: stopMessage, names, finished, standings, schedule };
}
