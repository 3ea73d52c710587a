/**
 * The live summary of a distributed run, as plain data: the coordinator writes it to Redis as the
 * results come in; `thoth match-status` prints it and the status page draws it.
 */
import type { Redis } from 'ioredis';
import type { MatchConfig } from '../match/config';
import type { Ledger } from '../match/ledger';
import { sprtBounds } from '../match/stats/sprt';
import { describeLimits } from '../match/timecontrol';
import { keys } from './redis';

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

/** Live workers (heartbeats of the last 10 s). */
export async function liveWorkers(redis: Redis, prune = true): Promise<WorkerStatus[]> {
  const now = Date.now();
  // Readers (match-status, the page) only read: they may hold a read-only ACL user.
  if (prune) await redis.zremrangebyscore(keys.workers, 0, now - 60_000);
  const ids = await redis.zrangebyscore(keys.workers, now - 10_000, '+inf');
  const out: WorkerStatus[] = [];
  for (const id of ids) {
    const h = await redis.hgetall(keys.worker(id));
    if (!h.concurrency) continue;
    out.push({
      id,
      concurrency: Number(h.concurrency),
      busy: Number(h.busy ?? 0),
      run: h.run || null,
      pairs: Number(h.pairs ?? 0),
    });
  }
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
export function statusProblem(s: unknown): string | undefined {
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
 * Text a worker wrote to Redis (its id, a refusal), made one printable line: control characters
 * (newlines, terminal escapes) become '?', and it is cut at 300 characters. Whoever holds the
 * worker user can write there, and must not forge lines of the coordinator's output.
 */
export function oneLine(text: unknown): string {
  const t = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return t.length > 300 ? `${t.slice(0, 297)}...` : t;
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
