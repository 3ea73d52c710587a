/**
 * A match's results as plain data: W-L-D, the pentanomial, Elo and normalized Elo with their 95%
 * errors, LOS, the SPRT's LLR, bounds and decision. The cutechess-style text (report.ts) and the
 * JSON lines of `-report json=FILE` are both made from an {@link EncounterSummary}; anything that
 * adds up counts on its own (e.g. from several machines) gets the same numbers from
 * {@link summarizeEncounter}.
 */
import type { SprtConfig } from '../config';
import type { MatchStats } from '../stats/elo';
import { pentanomialStats, type Pentanomial } from '../stats/pentanomial';
import { sprtBounds, sprtDecision, sprtLLR, type SprtDecision, type SprtModel } from '../stats/sprt';
import { trinomialStats, type Trinomial } from '../stats/wdl';

/** The counts of one encounter (engine A against engine B), from A's point of view. */
export interface EncounterCounts {
  total: Trinomial;
  /** A as the first player (Silver / Gold), and as the second. */
  asFirst: Trinomial;
  asSecond: Trinomial;
  /** The first player's results, whoever it was. */
  firstPlayer: Trinomial;
  /** Complete game pairs: [LL, LD, WL+DD, WD, WW]. */
  penta: Pentanomial;
}

export interface SprtSummary {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: SprtModel;
  /** The log-likelihood ratio; NaN while a hypothesis lies outside what the results can express. */
  llr: number;
  lower: number;
  upper: number;
  /** `H1`, `H0`, or null while the test goes on. */
  decision: SprtDecision;
}

/**
 * An encounter's results. The Elo numbers are A's over B (see {@link MatchStats}): Elo and normalized
 * Elo with their 95% errors, LOS in %, the draw ratio in % of games.
 */
export interface EncounterSummary
  extends Pick<MatchStats, 'elo' | 'eloError' | 'nElo' | 'nEloError' | 'los' | 'drawRatio'> {
  /** A and B. */
  players: [string, string];
  games: number;
  /** A's wins, losses and draws. */
  wins: number;
  losses: number;
  draws: number;
  /** A's points per game (draws ½). */
  score: number;
  asFirst: Trinomial;
  asSecond: Trinomial;
  firstPlayer: Trinomial;
  /** Complete pairs, when games are played in pairs; otherwise null. */
  pentanomial: Pentanomial | null;
  /** What the Elo numbers come from: complete pairs, or single games. */
  model: 'pentanomial' | 'trinomial';
  sprt: SprtSummary | null;
}

/** A player's line in the standings of a run with more than two engines. */
export interface StandingRow {
  rank: number;
  /** The engine's index in the run. */
  index: number;
  name: string;
  /** Maximum-likelihood Elo, the anchor at 0. */
  elo: number;
  anchor: boolean;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** Points with draws worth `-drawscore`; `score` is points per game with draws worth ½. */
  points: number;
  score: number;
}

const gamesOf = (t: Trinomial): number => t.wins + t.losses + t.draws;

/** Statistics of an encounter: over complete pairs when games come in pairs and some pair is complete, else per game. */
export function encounterStats(c: EncounterCounts, pairs: boolean): MatchStats & { penta: boolean } {
  const tri = trinomialStats(c.total);
  const pairsDone = c.penta.reduce((x, y) => x + y, 0);
  if (pairs && pairsDone > 0) return { ...pentanomialStats(c.penta), drawRatio: tri.drawRatio, penta: true };
  return { ...tri, penta: false };
}

/**
 * The SPRT log-likelihood ratio of an encounter (over pairs when games come in pairs). NaN while a
 * hypothesis lies outside what the results so far can express, e.g. after a few pairs that all
 * scored the same.
 */
export function encounterLLR(c: EncounterCounts, pairs: boolean, s: SprtConfig): number {
  try {
    return pairs ? sprtLLR(c.penta, s.elo0, s.elo1, s.model) : sprtLLR(c.total, s.elo0, s.elo1, s.model);
  } catch (e) {
    if (e instanceof RangeError) return NaN;
    throw e;
  }
}

/** Everything known about an encounter, as data. */
export function summarizeEncounter(
  c: EncounterCounts,
  players: [string, string],
  opts: { pairs: boolean; sprt?: SprtConfig },
): EncounterSummary {
  const s = encounterStats(c, opts.pairs);
  const games = gamesOf(c.total);
  let sprt: SprtSummary | null = null;
  if (opts.sprt) {
    const b = sprtBounds(opts.sprt.alpha, opts.sprt.beta);
    const llr = encounterLLR(c, opts.pairs, opts.sprt);
    sprt = { ...opts.sprt, llr, lower: b.lower, upper: b.upper, decision: sprtDecision(llr, b) };
  }
  return {
    players,
    games,
    wins: c.total.wins,
    losses: c.total.losses,
    draws: c.total.draws,
    score: games > 0 ? (c.total.wins + c.total.draws / 2) / games : NaN,
    asFirst: { ...c.asFirst },
    asSecond: { ...c.asSecond },
    firstPlayer: { ...c.firstPlayer },
    pentanomial: opts.pairs ? [...c.penta] : null,
    model: s.penta ? 'pentanomial' : 'trinomial',
    elo: s.elo,
    eloError: s.eloError,
    nElo: s.nElo,
    nEloError: s.nEloError,
    los: s.los,
    drawRatio: s.drawRatio,
    sprt,
  };
}

/**
 * One JSON line (no newline) of any value: numbers that JSON cannot hold (NaN, ±Infinity: an
 * Elo after only wins, an error before there is any spread) are written as null.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
}
