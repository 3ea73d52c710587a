/**
 * The search's `info` line: the one format and the one parser of it. The engine writes what the
 * search reports; the match runner, the GUI page and the tests read what engines write. No node
 * modules here: the GUI page bundles this file for the browser.
 *
 *   info depth D seldepth S multipv K score cp X|mate M [lowerbound|upperbound]
 *        nodes N nps R hashfull H time MS pv m1 m2 …
 *
 * `info string …` lines are free text and stay text.
 */
import { quote } from './quote';
import { err, ok, type Result } from './result';
import type { Bound, Score, SearchInfo } from './score';

export type { Bound, Score, SearchInfo };

/**
 * What an `info` line says. Engines send the fields they like, so any may be missing. `wdl`: the
 * side to move's win, draw and loss chances in per mille (`UCI_ShowWDL`).
 */
export type InfoFields = Partial<SearchInfo> & { wdl?: [number, number, number] };

/** Why a line is not search information: `field` is the token where reading stopped. */
export interface InfoError {
  field: string;
  message: string;
}

export function formatInfoError(e: InfoError): string {
  return `${e.field}: ${e.message}`;
}

/** The fields in the order GUIs expect (Stockfish's). */
export function formatInfo(info: InfoFields): string {
  let s = 'info';
  if (info.depth !== undefined) s += ` depth ${info.depth}`;
  if (info.seldepth !== undefined) s += ` seldepth ${info.seldepth}`;
  if (info.multipv !== undefined) s += ` multipv ${info.multipv}`;
  if (info.score !== undefined) {
    s += ` score ${info.score.kind} ${info.score.value}`;
    if (info.bound === 'lower') s += ' lowerbound';
    else if (info.bound === 'upper') s += ' upperbound';
  }
  if (info.wdl !== undefined) s += ` wdl ${info.wdl.join(' ')}`;
  if (info.nodes !== undefined) s += ` nodes ${info.nodes}`;
  if (info.nps !== undefined) s += ` nps ${info.nps}`;
  if (info.hashfull !== undefined) s += ` hashfull ${info.hashfull}`;
  if (info.time !== undefined) s += ` time ${info.time}`;
  if (info.pv !== undefined) s += ` pv${info.pv.map((m) => ` ${m}`).join('')}`;
  return s;
}

type CountField = 'depth' | 'seldepth' | 'multipv' | 'nodes' | 'nps' | 'hashfull' | 'time';
const COUNTS: ReadonlySet<string> = new Set<CountField>([
  'depth',
  'seldepth',
  'multipv',
  'nodes',
  'nps',
  'hashfull',
  'time',
]);
const isCount = (t: string): t is CountField => COUNTS.has(t);

/** Fields of other engines that Thoth does not use, with the number of values they take. */
const SKIPPED: ReadonlyMap<string, number> = new Map([
  ['currmove', 1],
  ['currmovenumber', 1],
  ['tbhits', 1],
  ['sbhits', 1],
  ['cpuload', 1],
]);
/** Fields that take the rest of the line. */
const TAILS: ReadonlySet<string> = new Set(['refutation', 'currline']);

/** Whole numbers that stay exact as numbers: a count of at most 15 digits, a score of at most 9. */
export const COUNT_RE = /^\d{1,15}$/;
const SCORE_RE = /^[+-]?\d{1,9}$/;

/**
 * Reads an `info` line. Unknown tokens are skipped (UCI); a known field with a malformed value, or
 * an `info string` line, is an error. A score without a bound token is exact.
 */
export function parseInfo(line: string): Result<InfoFields, InfoError> {
  const t = line.trim().split(/\s+/);
  if (t[0] !== 'info') return err({ field: 'info', message: `not an info line: ${quote(t[0] ?? '')}` });
  const info: InfoFields = {};
  for (let i = 1; i < t.length; i++) {
    const k = t[i];
    if (isCount(k)) {
      const v = t[i + 1];
      if (v === undefined || !COUNT_RE.test(v))
        return err({ field: k, message: `needs a whole number, not ${quote(v ?? '')}` });
      info[k] = Number(v);
      i++;
    } else if (k === 'score') {
      const kind = t[i + 1];
      const v = t[i + 2];
      if (kind !== 'cp' && kind !== 'mate')
        return err({ field: k, message: `expected cp or mate, not ${quote(kind ?? '')}` });
      if (v === undefined || !SCORE_RE.test(v))
        return err({ field: k, message: `${kind} needs a whole number, not ${quote(v ?? '')}` });
      info.score = { kind, value: Number(v) };
      info.bound ??= 'exact';
      i += 2;
    } else if (k === 'wdl') {
      const v = t.slice(i + 1, i + 4);
      if (v.length < 3 || !v.every((x) => COUNT_RE.test(x)))
        return err({ field: k, message: `needs three whole numbers, not ${quote(v.join(' '))}` });
      info.wdl = [Number(v[0]), Number(v[1]), Number(v[2])];
      i += 3;
    } else if (k === 'lowerbound' || k === 'upperbound') {
      info.bound = k === 'lowerbound' ? 'lower' : 'upper';
    } else if (k === 'pv') {
      info.pv = t.slice(i + 1);
      break;
    } else if (k === 'string') {
      return err({ field: k, message: 'free text, not search information' });
    } else if (TAILS.has(k)) {
      break;
    } else {
      i += SKIPPED.get(k) ?? 0;
    }
  }
  return ok(info);
}

/** An `info` line with a principal variation and a score: what a GUI shows of a search. */
export type InfoLine = InfoFields & Pick<SearchInfo, 'depth' | 'multipv' | 'score' | 'pv'>;

/** The line as a GUI shows it, or null when it has no depth, score or moves (`multipv` 1 when not given). */
export function pvInfo(line: string): InfoLine | null {
  const r = parseInfo(line);
  if (!r.ok) return null;
  const { depth, score, pv } = r.value;
  if (depth === undefined || score === undefined || pv === undefined || pv.length === 0) return null;
  return { ...r.value, depth, score, pv, multipv: r.value.multipv ?? 1 };
}
