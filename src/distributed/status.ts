/**
 * The live summary of a distributed run, as plain data: the coordinator writes it to Redis as the
 * results come in; `thoth match-status` prints it and the status page draws it.
 */
import type { Redis } from 'ioredis';
import type { MatchConfig } from '../match/config';
import type { Ledger } from '../match/ledger';
import { sprtBounds } from '../match/stats/sprt';
import { describeLimits } from '../match/timecontrol';
import { COUNT_RE } from '../core/info';
import { oneLine } from '../core/quote';
import { isRunId, keys } from './redis';

export type RunState = 'running' | 'finished' | 'stopped' | 'interrupted' | 'lost';

export interface EncounterStatus {
  a: string;
  b: string;
  wins: number;
  losses: number;
  draws: number;
  penta: number[];
  /** Elo, its 95% error, normalized Elo and its error (pentanomial when pairs are complete). */
  elo: number | null;
  eloError: number | null;
  nElo: number | null;
  nEloError: number | null;
  los: number | null;
  drawRatio: number | null;
}

export interface SprtStatus {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: string;
  llr: number | null;
  lower: number;
  upper: number;
  decision: 'H0' | 'H1' | null;
}

export interface WorkerStatus {
  id: string;
  concurrency: number;
  busy: number;
  run: string | null;
  pairs: number;
}

export interface RunStatus {
  run: string;
  state: RunState;
  message?: string;
  names: string[];
  variant: string;
  timeControl: string;
  games: number;
  /** Games in the run (null: until the SPRT decides). */
  total: number | null;
  pairsQueued: number;
  pairsActive: number;
  encounters: EncounterStatus[];
  sprt: SprtStatus | null;
  /** Ratings anchored on the first engine (or -anchor), with more than two engines. */
  ratings: { name: string; elo: number | null; games: number; points: number }[];
  /** The summary as a local run prints it. */
  lines: string[];
  refusals: Record<string, string>;
  workers: WorkerStatus[];
  started: number;
  updated: number;
}

/** JSON cannot hold NaN or ±Infinity: they become null. */
const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The summary of a ledger as plain data (the queue and worker fields are the caller's). */
export function ledgerStatus(
  cfg: MatchConfig,
  ledger: Ledger,
): Pick<
  RunStatus,
  'names' | 'variant' | 'timeControl' | 'games' | 'total' | 'encounters' | 'sprt' | 'ratings' | 'lines'
> {
  const st = ledger.standings;
  const encounters = st.encounters.map((e, k): EncounterStatus => {
    const done = e.total.wins + e.total.losses + e.total.draws > 0;
    const s = done ? st.stats(k) : undefined;
    return {
      a: ledger.names[e.a],
      b: ledger.names[e.b],
      ...e.total,
      penta: [...e.penta],
      elo: s ? finite(s.elo) : null,
      eloError: s ? finite(s.eloError) : null,
      nElo: s ? finite(s.nElo) : null,
      nEloError: s ? finite(s.nEloError) : null,
      los: s ? finite(s.los) : null,
      drawRatio: s ? finite(s.drawRatio) : null,
    };
  });
  let sprt: SprtStatus | null = null;
  if (cfg.sprt && cfg.engines.length === 2) {
    const b = sprtBounds(cfg.sprt.alpha, cfg.sprt.beta);
    sprt = {
      ...cfg.sprt,
      llr: finite(st.llr(cfg.sprt)),
      lower: b.lower,
      upper: b.upper,
      decision: st.sprtDecision(cfg.sprt),
    };
  }
  let ratings: RunStatus['ratings'] = [];
  if (cfg.engines.length > 2) {
    let r: number[];
    try {
      r = st.ratings(ledger.anchor);
    } catch {
      r = ledger.names.map(() => NaN);
    }
    ratings = ledger.names.map((name, i) => {
      const t = st.playerTotal(i);
      return { name, elo: finite(r[i]), games: t.wins + t.losses + t.draws, points: t.wins + t.draws / 2 };
    });
  }
  const total = ledger.schedule.total;
  return {
    names: ledger.names,
    variant: cfg.variant,
    timeControl: [...new Set(cfg.engines.map((s) => describeLimits(s.limits)))].join(' / '),
    games: ledger.finished.length,
    total: Number.isFinite(total) ? total : null,
    encounters,
    sprt,
    ratings,
    lines: ledger.summaryLines(),
  };
}

/** The most slots a worker may have (`thoth worker --concurrency`, at most 1024). */
const MAX_WORKER_SLOTS = 1024;
/** The most live workers read for a status (each heartbeat is a Redis read). */
const MAX_WORKERS = 2000;
/** The most jobs a coordinator keeps queued ahead of its results, whatever the workers' slots say. */
const MAX_WINDOW = 4000;
/** Refusals of a run read for the notes and the status (any worker can write one, as many as it likes). */
const MAX_REFUSALS = 20;

/** The jobs a coordinator keeps queued ahead of its results: twice the workers' slots, at least 8, at most MAX_WINDOW. */
export function windowSize(slots: number): number {
  return Math.min(MAX_WINDOW, Math.max(8, 2 * slots));
}

/**
 * A worker's heartbeat as it wrote it, checked (any holder of the worker user writes these):
 * whole numbers in range (slots 1 to MAX_WORKER_SLOTS, busy slots at most those, pairs played),
 * the run it serves a run id or none, its id one short line. A heartbeat that is not one gives why
 * in words: the worker is left out of the counts (a heartbeat of a billion slots, or of words,
 * wedged or stalled a coordinator that sized its queue by them).
 */
function readHeartbeat(id: string, h: Record<string, string>): WorkerStatus | string {
  const count = (v: string | undefined, max: number): number | undefined =>
    v !== undefined && COUNT_RE.test(v) && Number(v) <= max ? Number(v) : undefined;
  const shown = (v: string | undefined): string => `'${oneLine(v ?? '').slice(0, 20)}'`;
  const concurrency = count(h.concurrency, MAX_WORKER_SLOTS);
  if (concurrency === undefined || concurrency < 1)
    return `its slots are ${shown(h.concurrency)}, not a whole number from 1 to ${MAX_WORKER_SLOTS}`;
  const busy = count(h.busy ?? '0', concurrency);
  if (busy === undefined) return `its busy slots are ${shown(h.busy)}, not a whole number from 0 to ${concurrency}`;
  const pairs = count(h.pairs ?? '0', Number.MAX_SAFE_INTEGER);
  if (pairs === undefined) return `its pairs played are ${shown(h.pairs)}, not a whole number`;
  const run = h.run ?? '';
  if (!(run === '' || isRunId(run))) return `its run is ${shown(run)}, not a run id`;
  if (id.length > 200) return 'its id is longer than 200 characters';
  return { id: oneLine(id), concurrency, busy, run: run || null, pairs };
}

/**
 * Live workers (heartbeats of the last 10 s), at most MAX_WORKERS, each heartbeat checked
 * (readHeartbeat); those that are not one are listed in `malformed` with why.
 */
export async function liveWorkers(
  redis: Redis,
  prune = true,
): Promise<WorkerStatus[] & { malformed?: { id: string; why: string }[] }> {
  const now = Date.now();
  // Readers (match-status, the page) only read: they may hold a read-only ACL user.
  if (prune) await redis.zremrangebyscore(keys.workers, 0, now - 60_000);
  const ids = await redis.zrangebyscore(keys.workers, now - 10_000, '+inf', 'LIMIT', 0, MAX_WORKERS);
  const beats =
    ids.length > 0 ? ((await redis.pipeline(ids.map((id) => ['hgetall', keys.worker(id)])).exec()) ?? []) : [];
  const out: WorkerStatus[] & { malformed?: { id: string; why: string }[] } = [];
  ids.forEach((id, k) => {
    const h = beats[k]?.[1] as Record<string, string> | undefined;
    if (!h || Object.keys(h).length === 0) return; // expired between the two reads
    const w = readHeartbeat(id, h);
    if (typeof w !== 'string') out.push(w);
    else (out.malformed ??= []).push({ id: oneLine(id).slice(0, 100), why: w });
  });
  return out;
}

/**
 * A few of the workers' refusals of a run (any worker can write one, as many as it likes): at
 * most `max` of them, each worker's id and reason one line (oneLine).
 */
export async function readRefusals(redis: Redis, run: string, max = MAX_REFUSALS): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let cursor = '0';
  let n = 0;
  do {
    const [next, flat] = await redis.hscan(keys.refusals(run), cursor, 'COUNT', 100);
    cursor = next;
    for (let i = 0; i + 1 < flat.length && n < max; i += 2, n++)
      out[oneLine(flat[i]).slice(0, 100)] = oneLine(flat[i + 1]);
  } while (cursor !== '0' && n < max);
  return out;
}

/** Run ids, newest first. */
export async function listRuns(redis: Redis): Promise<string[]> {
  return redis.zrevrange(keys.runs, 0, -1);
}

/** A status in Redis that this build cannot read (not JSON, or a field missing or of another type). */
export class MalformedStatus extends Error {
  override name = 'MalformedStatus';
}

const STATES: readonly string[] = ['running', 'finished', 'stopped', 'interrupted', 'lost'];

/**
 * Why a status read from Redis is not one this build prints or draws (the first field that is
 * missing or of another type), or undefined: every field the words and the page read is checked,
 * so that a status written by another version, or by hand, is one line and not a stack trace.
 */
function statusProblem(s: unknown): string | undefined {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return 'not an object';
  const o = s as Record<string, unknown>;
  const num = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
  const numOrNull = (v: unknown): boolean => v === null || num(v);
  const str = (v: unknown): boolean => typeof v === 'string';
  const strings = (v: unknown): boolean => Array.isArray(v) && v.every(str);
  const record = (v: unknown): boolean =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(str);
  const checks: [string, (v: unknown) => boolean][] = [
    ['run', str],
    ['state', (v) => str(v) && STATES.includes(v as string)],
    ['message', (v) => v === undefined || str(v)],
    ['games', num],
    ['refusals', record],
    ['started', num],
    ['updated', num],
  ];
  if (o.kind === 'datagen') {
    checks.push(
      ['out', str],
      ['positions', num],
      ['targetPositions', numOrNull],
      ['targetGames', numOrNull],
      ['chunksQueued', num],
      ['chunksActive', num],
      ['rate', num],
      [
        'tallies',
        (v) =>
          Array.isArray(v) &&
          v.every(
            (t) => typeof t === 'object' && t !== null && str(t.id) && num(t.chunks) && num(t.positions) && num(t.rate),
          ),
      ],
    );
  } else {
    checks.push(
      ['names', strings],
      ['variant', str],
      ['timeControl', str],
      ['total', numOrNull],
      ['pairsQueued', num],
      ['pairsActive', num],
      ['lines', strings],
      ['encounters', Array.isArray],
      ['ratings', Array.isArray],
      ['sprt', (v) => v === null || (typeof v === 'object' && !Array.isArray(v))],
    );
  }
  for (const [field, ok] of checks) if (!ok(o[field])) return `its field '${field}' is missing or of another type`;
  return undefined;
}

/**
 * A run's last status (a match's or a datagen run's: `kind`), or undefined when it has none;
 * throws MalformedStatus for one this build cannot read.
 */
export async function readStatus(redis: Redis, run: string): Promise<RunStatus | undefined> {
  const text = await redis.get(keys.status(run));
  if (text === null) return undefined;
  let s: unknown;
  try {
    s = JSON.parse(text);
  } catch {
    throw new MalformedStatus(`run ${run}: its status in Redis is not JSON`);
  }
  const why = statusProblem(s);
  if (why !== undefined)
    throw new MalformedStatus(`run ${run}: its status in Redis is not one this thoth reads (${why})`);
  const status = s as RunStatus;
  status.workers = (await liveWorkers(redis, false)).filter((w) => w.run === run || w.run === null);
  return status;
}

/** The most points of the LLR series the page and `match-status --json` get: a graph 640 pixels wide needs no more. */
export const LLR_POINTS = 2000;

/**
 * The LLR after each counted game, [games, llr], thinned to at most `max` points spread evenly
 * over the run (the first and the last kept): the series in Redis has a point per game, hundreds
 * of thousands in a long SPRT.
 */
export async function readLlrSeries(redis: Redis, run: string, max = LLR_POINTS): Promise<[number, number][]> {
  const items = await redis.lrange(keys.llr(run), 0, -1);
  const all: [number, number][] = [];
  for (const t of items) {
    const [g, l] = t.split(' ').map(Number);
    if (Number.isFinite(g) && Number.isFinite(l)) all.push([g, l]);
  }
  if (all.length <= max) return all;
  const out: [number, number][] = [];
  for (let k = 0; k < max; k++) out.push(all[Math.round((k * (all.length - 1)) / (max - 1))]);
  return out;
}

/**
 * A run's queue in words: its counts while it runs; once it is over, that it is, with the final
 * counts (nothing, once the queues are gone; an interrupted run keeps its own for the same command).
 */
export function queueWords(state: RunState, queued: number, active: number, what: string): string {
  const counts = `${what} queued ${queued}, in progress ${active}`;
  if (state === 'running') return counts;
  if (queued === 0 && active === 0) return `${state}: nothing queued or in progress`;
  return `${state}: ${counts}${state === 'interrupted' ? ' (kept for the same command to go on)' : ''}`;
}

/** The status in words, for `thoth match-status`. */
export function statusLines(s: RunStatus): string[] {
  const age = Math.round((Date.now() - s.updated) / 1000);
  const lines = [
    `Run ${s.run}: ${oneLine(s.names.join(' vs '))} | ${oneLine(s.variant)} | ${oneLine(s.timeControl)} | ${s.state}${s.message ? ` (${oneLine(s.message)})` : ''}`,
    `Games ${s.games}${s.total !== null ? `/${s.total}` : ''} | ${queueWords(s.state, s.pairsQueued, s.pairsActive, 'pairs')} | updated ${age} s ago`,
  ];
  const busy = s.workers.reduce((n, w) => n + w.busy, 0);
  const slots = s.workers.reduce((n, w) => n + w.concurrency, 0);
  lines.push(
    `Workers: ${s.workers.length} (${busy}/${slots} slots busy)${s.workers.length > 0 ? ': ' + s.workers.map((w) => `${oneLine(w.id)} ${w.busy}/${w.concurrency}`).join(', ') : ''}`,
  );
  for (const [w, why] of Object.entries(s.refusals)) lines.push(`Refused by ${oneLine(w)}: ${oneLine(why)}`);
  for (const l of s.lines) lines.push(oneLine(l));
  return lines;
}
