/**
 * The accounts of a run, wherever its games are played: the games resumed from the record file,
 * every finished game written to it at once (flushed game by game), the line per game, the
 * standings and the summaries, the SPRT and fault decisions, the progress line and the last words.
 * The local runner (tournament.ts) and the coordinator of a distributed run both keep one.
 */
import { countEndings, endingLines } from './results/endings';
import { plural } from '../core/plural';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EDITIONS } from '../core/index';
import {
  parseRecords,
  recordPlayers,
  recordStart,
  recordVariant,
  serializeRecord,
  type GameRecord,
} from '../core/record';
import { ok } from '../core/result';
import { fileErrorText, readRecordFile, sameFile } from '../process/files';
import type { MatchConfig } from './config';
import { MatchConfigError } from './errors';
import type { GameOutcome } from './referee';
import type { OpeningBook } from './openings';
import { JsonReport, type SummaryLine } from './results/json-report';
import { Standings, encounterLines, fixedOrNa, standingsLines } from './results/report';
import type { Schedule, ScheduledGame } from './schedule';
import { describeLimits } from './timecontrol';
import { recordedSettings, runSettings, settingsDifferences, settingsTags } from './run-settings';
import { VERSION } from '../version';
import { type OutputError, outputError } from '../process/output';

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

/** A decision to end the run, taken on a finished game. */
export interface Halt {
  reason: 'sprt' | 'fault';
  message: string;
  /** Abort the games in progress (the SPRT decided) rather than let them finish (a fault). */
  abortGames: boolean;
}

/** Appends records and flushes them to disk one game at a time. */
class RecordWriter {
  /** Opened with the first record: a run that finishes no game leaves no empty file behind. */
  private fd?: number;
  constructor(readonly path: string) {}
  /**
   * Appends one game whole or not at all: a short write (a full disk) is cut off again and
   * thrown as the error the next write gives, so that a game is counted only once it is in the file.
   */
  append(rec: GameRecord): void {
    this.fd ??= openSync(this.path, 'a');
    const fd = this.fd;
    const bytes = Buffer.from(serializeRecord(rec));
    let size: number | undefined;
    try {
      const st = fstatSync(fd);
      if (st.isFile()) size = st.size;
    } catch {
      // not a file: nothing to cut back
    }
    let done = 0;
    try {
      while (done < bytes.length) {
        const n = writeSync(fd, bytes, done, bytes.length - done);
        if (n <= 0) throw Object.assign(new Error('no space left on device (ENOSPC)'), { code: 'ENOSPC' });
        done += n;
      }
    } catch (e) {
      if (size !== undefined && done > 0) {
        try {
          ftruncateSync(fd, size);
        } catch {
          // -resume drops an unfinished last game
        }
      }
      throw e;
    }
    try {
      fsyncSync(this.fd);
    } catch (e) {
      // A device or a pipe (`-pgnout /dev/null`, /dev/stdout) cannot be synchronised: nothing to flush there.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'ENOTSUP') throw e;
    }
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export function scoreOfResult(r: string): number | undefined {
  return r === '1-0' ? 1 : r === '0-1' ? 0 : r === '1/2-1/2' ? 0.5 : undefined;
}

/** A duration as `42s`, `3m05s`, `1h02m` (also the command line's progress lines). */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

/** The record file of a run: -pgnout, else the -resume file. */
export function recordPath(cfg: MatchConfig): string | undefined {
  return cfg.pgnout ?? cfg.resume;
}

/** True for a path that names a plain file that is there. */
function isPlainFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The files a run reads: the -openings file, the -resume file when the records go to another
 * -pgnout, and the files named in the engines' commands and options (a program given by a path,
 * an argument or an option's value that is a file there, relative to dir=: option.EvalFile),
 * each with its words (`the openings file`), the path as given and the path to compare.
 */
function runInputs(cfg: MatchConfig): [words: string, shown: string, path: string][] {
  const inputs: [string, string, string][] = [];
  if (cfg.openings.kind === 'file') inputs.push(['the openings file', cfg.openings.path, cfg.openings.path]);
  if (cfg.resume !== undefined && cfg.pgnout !== undefined && !sameFile(cfg.pgnout, cfg.resume))
    inputs.push(['the -resume file', cfg.resume, cfg.resume]);
  cfg.engines.forEach((spec, i) => {
    spec.command.forEach((word, k) => {
      if (k === 0 && !word.includes('/')) return; // a program found on the PATH
      const path = resolve(spec.dir ?? '.', word);
      if (isPlainFile(path)) inputs.push([`read by the command of -engine #${i + 1}, the file`, word, path]);
    });
    for (const [name, value] of spec.options) {
      const path = resolve(spec.dir ?? '.', value);
      if (value !== '' && isPlainFile(path))
        inputs.push([`read by option.${name} of -engine #${i + 1}, the file`, value, path]);
    }
  });
  return inputs;
}

/** True for a path that is there and is neither a plain file nor a folder: a device (`/dev/null`) or a pipe. */
function isDevice(path: string): boolean {
  try {
    const st = statSync(path);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/**
 * The words for an output of the run (the record file, the JSON report) that is one of its
 * inputs or the other output, or undefined when the outputs are files of their own. Paths are
 * compared resolved (symbolic links, `..`, hard links); a device (`/dev/null`) destroys nothing.
 */
export function outputClash(cfg: MatchConfig): string | undefined {
  const outputs: [string, string | undefined][] = [
    [cfg.pgnout !== undefined ? '-pgnout' : '-resume', recordPath(cfg)],
    ['-report json=', cfg.jsonReport],
  ].map(([what, path]) => [what as string, path === undefined || isDevice(path) ? undefined : path]);
  const inputs = runInputs(cfg);
  for (const [what, out] of outputs) {
    if (out === undefined) continue;
    const hit = inputs.find(([, , i]) => sameFile(out, i));
    if (hit !== undefined)
      return `${what}${what.endsWith('=') ? '' : ' '}${out} is ${hit[0]} '${hit[1]}': writing it would destroy what the run reads; give another file`;
  }
  const [rec, report] = [outputs[0][1], outputs[1][1]];
  if (rec !== undefined && report !== undefined && sameFile(rec, report)) {
    return `-report json=${report} is the record file '${rec}': the games and the JSON lines need a file each`;
  }
  return undefined;
}

/**
 * Checks that the record file and the JSON report can be written, without creating them (a file
 * appears when there is something to write); a MatchConfigError, in one line, otherwise.
 */
export function checkRecordFile(cfg: MatchConfig): void {
  for (const [what, path] of [
    ['record file', recordPath(cfg)],
    ['report file', cfg.jsonReport],
  ] as const) {
    if (path === undefined) continue;
    try {
      if (existsSync(path)) closeSync(openSync(path, 'a'));
      else {
        const dir = dirname(resolve(path));
        if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
        accessSync(dir, constants.W_OK);
      }
    } catch (e) {
      throw new MatchConfigError(`cannot write the ${what} '${path}': ${fileErrorText(e)}`);
    }
  }
}

/** Engine names: name= or the engine's id name (from `idNames`), made unique; written into the specs. */
export function settleNames(cfg: MatchConfig, idNames: readonly (string | undefined)[]): string[] {
  const names: string[] = [];
  cfg.engines.forEach((spec, i) => {
    const base = spec.nameGiven ? spec.name : (idNames[i] ?? spec.name);
    let name = base;
    for (let k = 2; names.includes(name); k++) name = `${base}-${k}`;
    names.push(name);
    spec.name = name;
  });
  return names;
}

/** The index of -anchor among the names (0 without it); a MatchConfigError when no engine has that name. */
export function anchorIndex(cfg: MatchConfig, names: readonly string[]): number {
  if (cfg.anchor === undefined) return 0;
  const i = names.indexOf(cfg.anchor);
  if (i < 0) throw new MatchConfigError(`-anchor ${cfg.anchor}: no engine has that name (${names.join(', ')})`);
  return i;
}

export class Ledger {
  readonly standings: Standings;
  readonly finished: FinishedGame[] = [];
  /** Schedule indices of the finished games (resumed or played). */
  readonly done = new Set<number>();
  /** Games finished in this run (not resumed). */
  playedHere = 0;
  private writer?: RecordWriter;
  /** `-report json=FILE`. */
  private report?: JsonReport;
  private barShown = false;
  private readonly t0 = performance.now();
  /** The standings count at the last summary printed. */
  private summarisedAt = -1;
  /** What makes this run's games what they are (the records' MatchSettings tag). */
  private readonly settings: [string, string][];

  constructor(
    private readonly cfg: MatchConfig,
    readonly names: string[],
    readonly schedule: Schedule,
    private readonly book: OpeningBook,
    readonly anchor: number,
    private readonly out: (line: string) => void,
    /** Draw a progress line on this stream (a terminal). */
    private readonly progress?: NodeJS.WriteStream,
  ) {
    this.standings = new Standings(names, schedule.encounters, schedule.paired);
    this.settings = runSettings(cfg, names);
  }

  /**
   * The first failed write to the record file or the JSON report (a full disk): the run stops on
   * it (see {@link add}), and nothing more is written to that output.
   */
  outputFailure?: OutputError;

  /** Runs a write to an output file; a failure is kept in {@link outputFailure} (that output is then dropped). */
  private guard(target: string, write: () => void, drop: () => void): void {
    try {
      write();
    } catch (e) {
      this.outputFailure ??= outputError(target, e);
      try {
        drop();
      } catch {
        // closing a broken output
      }
    }
  }

  /** The record file failed: the games finished after that are not in it, so they are not counted. */
  private recordLost = false;

  /** Appends the record; false when the game is not in the record file (it failed, now or before). */
  private writeRecord(rec: GameRecord): boolean {
    const w = this.writer;
    if (!w) return !this.recordLost;
    this.guard(
      `the record file '${w.path}'`,
      () => w.append(rec),
      () => {
        this.recordLost = true;
        this.writer = undefined;
        w.close();
      },
    );
    return !this.recordLost;
  }

  private writeReport(line: Parameters<JsonReport['write']>[0]): void {
    const r = this.report;
    if (!r) return;
    this.guard(
      `the report file '${r.path}'`,
      () => r.write(line),
      () => {
        this.report = undefined;
        r.close();
      },
    );
  }

  /** The halt for a failed output, once one failed. */
  outputHalt(): Halt | undefined {
    const f = this.outputFailure;
    return f ? { reason: 'fault', message: `${f.message}; stopping the run`, abortGames: true } : undefined;
  }

  /** Writes a line of output (clearing the progress line first). */
  write(line: string): void {
    this.clearBar();
    this.out(line);
  }

  /**
   * Counts the finished games of the -resume file (they are not played again), dropping an
   * unfinished record at its end. Throws MatchConfigError when the file's games do not fit this
   * run (other engines or variant; other settings or openings unless -resume-force), naming the
   * difference.
   */
  resume(path: string): void {
    const cfg = this.cfg;
    const read = existsSync(path) ? readRecordFile(path) : ok('');
    if (!read.ok) throw new MatchConfigError(`-resume: ${read.error}`);
    const text = read.value;
    if (text.trim() === '') {
      this.write(`Note: ${path} holds no games yet: starting a new run`);
      return;
    }
    const parsed = parseRecords(text);
    if (parsed.incomplete && (cfg.pgnout === undefined || cfg.pgnout === path)) {
      truncateSync(path, Buffer.byteLength(text.slice(0, parsed.end), 'utf8'));
      this.write(`Note: dropped an unfinished game record at the end of ${path}`);
    }
    const names = this.names;
    let ignored = 0;
    let forced: string | undefined;
    for (const rec of parsed.games) {
      const idx = this.schedule.indexOfTag(rec.tags.get('Round') ?? '');
      const score = scoreOfResult(rec.result);
      if (idx === undefined || score === undefined || this.done.has(idx)) {
        ignored++;
        continue;
      }
      const g = this.schedule.game(idx);
      const [p0, p1] = recordPlayers(rec);
      if (recordVariant(rec) !== cfg.variant || p0 !== names[g.first] || p1 !== names[g.second]) {
        throw new MatchConfigError(
          `-resume ${path}: game ${rec.tags.get('Round')} is ${p0} vs ${p1} (${recordVariant(rec)}), but this run ` +
            `schedules ${names[g.first]} vs ${names[g.second]} (${cfg.variant}) there: resume with the same engines and flags`,
        );
      }
      const recorded = recordedSettings(rec.tags);
      const diffs = recorded === undefined ? [] : settingsDifferences(recorded, this.settings);
      if (diffs.length > 0) {
        const what = `game ${rec.tags.get('Round')} was played with other settings (${diffs.join('; ')})`;
        if (!cfg.resumeForce) {
          throw new MatchConfigError(
            `-resume ${path}: ${what}: give the same flags, or add -resume-force to count its games anyway`,
          );
        }
        forced ??= what;
      }
      if (recordStart(rec) !== this.book.get(g.openingIndex).kfen && !cfg.resumeForce) {
        throw new MatchConfigError(
          `-resume ${path}: game ${rec.tags.get('Round')} started from another opening than this run gives it: ` +
            'resume with the same -openings and -srand (or -resume-force to count its games anyway)',
        );
      }
      this.done.add(idx);
      this.standings.add(g, score);
      this.finished.push({ game: g, score, record: rec, resumed: true });
    }
    if (forced !== undefined) this.write(`Note: -resume-force: counting the games of ${path} although ${forced}`);
    this.write(
      `Resumed ${plural(this.done.size, 'finished game')} from ${path}${ignored > 0 ? ` (${plural(ignored, 'record')} ignored)` : ''}`,
    );
  }

  /** Opens the record file and the JSON report for appending (after {@link resume}). */
  openRecords(): void {
    const p = recordPath(this.cfg);
    if (p !== undefined) this.writer = new RecordWriter(p);
    if (this.cfg.jsonReport !== undefined) this.report = JsonReport.open(this.cfg.jsonReport);
  }

  closeRecords(): void {
    const w = this.writer;
    this.writer = undefined;
    if (w)
      this.guard(
        `the record file '${w.path}'`,
        () => w.close(),
        () => undefined,
      );
  }

  /** The plan in words: `Match: A vs B | Khet 2.0 | 10+0.1 | 400 games | openings: … | <where>`. */
  planLine(where: string): void {
    const cfg = this.cfg;
    const total = this.schedule.total;
    const lims = [...new Set(cfg.engines.map((s) => describeLimits(s.limits)))].join(' / ');
    const op =
      cfg.openings.kind === 'setups'
        ? `setups ${cfg.openings.setups.join(',')} +${cfg.openings.plies} random plies`
        : `file ${cfg.openings.path} (${cfg.openings.order})`;
    this.write(
      `Match: ${this.names.join(' vs ')} | ${EDITIONS[cfg.variant].name} | ${lims} | ${Number.isFinite(total) ? `${plural(total, 'game')}` : 'until SPRT decides'}` +
        `${cfg.engines.length > 2 ? ` | ${cfg.tournament}` : ''} | openings: ${op} | ${where}`,
    );
    this.writeReport({
      type: 'start',
      version: VERSION,
      date: new Date().toISOString(),
      engines: this.names,
      variant: cfg.variant,
      limits: cfg.engines.map((s) => describeLimits(s.limits)),
      games: Number.isFinite(total) ? total : null,
      sprt: cfg.sprt && cfg.engines.length === 2 ? { ...cfg.sprt } : null,
      openings: op,
      where,
      resumed: this.done.size,
    });
  }

  /** The summary as data (what the JSON report writes): every encounter, and the standings with more than two engines. */
  summaryData(final: boolean): SummaryLine {
    const cfg = this.cfg;
    return {
      type: 'summary',
      final,
      games: this.standings.finished,
      encounters: this.schedule.encounters.map((_, k) =>
        this.standings.summary(k, cfg.engines.length === 2 ? cfg.sprt : undefined),
      ),
      standings: cfg.engines.length > 2 ? this.standings.table(this.anchor, cfg.drawScore) : null,
      endings: countEndings(this.finished.map((f) => f.record)),
    };
  }

  /** The summary block: cutechess lines per encounter (two engines or a gauntlet), standings for more. */
  summaryLines(): string[] {
    const cfg = this.cfg;
    const lines: string[] = [];
    const colors = EDITIONS[cfg.variant].colorNames;
    if (cfg.engines.length === 2 || cfg.tournament === 'gauntlet') {
      this.schedule.encounters.forEach((_, k) =>
        lines.push(...encounterLines(this.standings, k, colors, cfg.engines.length === 2 ? cfg.sprt : undefined)),
      );
    }
    if (cfg.engines.length > 2) {
      if (lines.length > 0) lines.push('');
      lines.push(...standingsLines(this.standings, this.anchor, cfg.drawScore));
    }
    return [
      ...lines,
      ...endingLines(
        this.finished.map((f) => f.record),
        this.names,
      ),
    ];
  }

  summary(): void {
    this.summarisedAt = this.standings.finished;
    this.writeReport(this.summaryData(false));
    for (const l of this.summaryLines()) this.write(l);
  }

  /** The SPRT's decision as a halt (a resumed run whose test had already decided plays nothing more). */
  sprtHalt(): Halt | undefined {
    const s = this.cfg.sprt;
    const d = s ? this.standings.sprtDecision(s) : null;
    return d ? { reason: 'sprt', message: `SPRT: ${d} was accepted`, abortGames: true } : undefined;
  }

  /**
   * Counts a finished game: the record file, the line, the standings, the summary every
   * -ratinginterval games. Returns a halt when the SPRT decides, or when an engine was lost and
   * the run does not -recover.
   */
  add(g: ScheduledGame, o: GameOutcome): Halt | undefined {
    const cfg = this.cfg;
    const names = this.names;
    for (const [tag, value] of settingsTags(this.settings)) o.record.tags.set(tag, value);
    if (!this.writeRecord(o.record)) {
      // Not in the record file, so not counted: the summary says what the file holds, and -resume plays it again.
      this.write(
        `Game ${g.index + 1} (${names[g.first]} vs ${names[g.second]}) finished but is not counted: the record file cannot be written`,
      );
      return this.outputHalt();
    }
    this.writeReport(JsonReport.gameLine(g.index + 1, o.record, o.score));
    this.done.add(g.index);
    this.standings.add(g, o.score);
    this.finished.push({ game: g, score: o.score, record: o.record, resumed: false });
    this.playedHere++;
    this.write(
      `Finished game ${g.index + 1} (${names[g.first]} vs ${names[g.second]}): ${o.record.result} {${o.reason}}`,
    );
    if (cfg.ratingInterval > 0 && this.standings.finished % cfg.ratingInterval === 0) this.summary();
    let halt = this.outputHalt() ?? this.sprtHalt();
    if (!halt && o.engineLost && !cfg.recover) {
      const who = names[o.faultSide === 0 ? g.first : g.second];
      halt = {
        reason: 'fault',
        message: `engine ${who}: ${o.termination} (${o.reason}); stopping the run (-recover restarts engines that fail)`,
        abortGames: false,
      };
    }
    this.drawBar();
    return halt;
  }

  /** The progress line, on a terminal. */
  drawBar(): void {
    const progress = this.progress;
    if (!progress) return;
    const n = this.finished.length;
    const total = this.schedule.total;
    const el = performance.now() - this.t0;
    let text: string;
    if (Number.isFinite(total)) {
      const width = 30;
      const fill = Math.round((width * n) / total);
      const eta = this.playedHere > 0 ? ((total - n) * el) / this.playedHere : NaN;
      text = `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${n}/${plural(total, 'game')}, ${fmtDuration(el)} elapsed, ETA ${fmtDuration(eta)}`;
    } else {
      text = `${plural(n, 'game')}, ${fmtDuration(el)} elapsed`;
      if (this.cfg.sprt) text += `, LLR ${fixedOrNa(this.standings.llr(this.cfg.sprt), 2)}`;
    }
    progress.write(`\r\x1b[K${text}`);
    this.barShown = true;
  }

  private clearBar(): void {
    if (this.barShown && this.progress) this.progress.write('\r\x1b[K');
    this.barShown = false;
  }

  /**
   * The last words: the summary (unless the last game just printed it) and the line that says
   * how the run ended. `detail` is added to an SPRT stop (what became of the games in progress).
   */
  end(stop: StopReason, message: string | undefined, detail = ''): MatchSummary {
    this.clearBar();
    if (!(this.summarisedAt === this.standings.finished && this.playedHere > 0)) this.summary();
    const total = this.schedule.total;
    const remaining = Number.isFinite(total) ? total - this.done.size : undefined;
    const outPath = recordPath(this.cfg);
    switch (stop) {
      case 'done':
        this.write('Finished match');
        break;
      case 'sprt':
        this.write(`Finished match (${message}${detail})`);
        break;
      case 'interrupted':
        this.write(
          `Match interrupted after ${plural(this.finished.length, 'game')}${remaining !== undefined ? `; ${remaining} still to play` : ''}` +
            `${outPath ? ` (continue with -resume ${outPath})` : ''}`,
        );
        break;
      case 'fault':
        this.write(`Match stopped: ${message}`);
        break;
    }
    this.writeReport({ ...this.summaryData(true), stop, message: message ?? null });
    const r = this.report;
    this.report = undefined;
    this.guard(
      `the report file '${r?.path ?? ''}'`,
      () => r?.close(),
      () => undefined,
    );
    return {
      stop,
      message,
      names: this.names,
      finished: this.finished,
      standings: this.standings,
      schedule: this.schedule,
    };
  }
}
