/**
 * A run's two outputs, the record file and the JSON report: the checks before its first game (each
 * can be written; neither is one of the run's inputs nor the other output, which writing would
 * destroy), and the outputs as the run writes them, each dropped at its first failed write.
 */
import { accessSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { GameRecord } from '../core/record';
import { fileErrorText, isSpecial, sameFile } from '../process/files';
import { type OutputError, outputError } from '../process/output';
import type { MatchConfig } from './config';
import { MatchConfigError } from './errors';
import { RecordWriter, recordPath } from './record-file';
import { JsonReport } from './results/json-report';

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

/**
 * The words for an output of the run (the record file, the JSON report) that is one of its
 * inputs or the other output, or undefined when the outputs are files of their own. Paths are
 * compared resolved (symbolic links, `..`, hard links); a device (`/dev/null`) destroys nothing.
 */
export function outputClash(cfg: MatchConfig): string | undefined {
  const outputs: [string, string | undefined][] = [
    [cfg.pgnout !== undefined ? '-pgnout' : '-resume', recordPath(cfg)],
    ['-report json=', cfg.jsonReport],
  ].map(([what, path]) => [what as string, path === undefined || isSpecial(path) ? undefined : path]);
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

/** The record file and the JSON report of a run, as it writes them. */
export class RunOutputs {
  /**
   * The first failed write to the record file or the JSON report (a full disk): the run stops on
   * it, and nothing more is written to that output.
   */
  failure?: OutputError;
  private writer?: RecordWriter;
  /** `-report json=FILE`. */
  private report?: JsonReport;
  /** The record file failed: the games finished after that are not in it, so they are not counted. */
  private recordLost = false;

  /** Opens the record file and the JSON report for appending. */
  open(cfg: MatchConfig): void {
    const p = recordPath(cfg);
    if (p !== undefined) this.writer = new RecordWriter(p);
    if (cfg.jsonReport !== undefined) this.report = JsonReport.open(cfg.jsonReport);
  }

  /** Runs a write to an output file; a failure is kept in {@link failure} (that output is then dropped). */
  private guard(target: string, write: () => void, drop: () => void): void {
    try {
      write();
    } catch (e) {
      this.failure ??= outputError(target, e);
      try {
        drop();
      } catch {
        // closing a broken output
      }
    }
  }

  /** Appends the record; false when the game is not in the record file (it failed, now or before). */
  writeRecord(rec: GameRecord): boolean {
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

  writeReport(line: Parameters<JsonReport['write']>[0]): void {
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

  closeReport(): void {
    const r = this.report;
    this.report = undefined;
    this.guard(
      `the report file '${r?.path ?? ''}'`,
      () => r?.close(),
      () => undefined,
    );
  }
}
