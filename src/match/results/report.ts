/**
 * Results of a run: counts per encounter and per player, and the text scripts parse (cutechess's
 * `Score of …`, `Elo difference: …`, `SPRT: …`, fastchess's `Ptnml(0-2): […]`), plus a standings
 * table with maximum-likelihood ratings and a cross table for more than two engines.
 */
import type { SprtConfig } from '../config';
import type { ScheduledGame } from '../schedule';
import type { MatchStats } from '../stats/elo';
import { pentanomialIndex, type Pentanomial } from '../stats/pentanomial';
import { fitRatings, type RatedGame } from '../stats/ratings';
import { sprtBounds, sprtDecision, type SprtBounds, type SprtDecision } from '../stats/sprt';
import { points, type Trinomial } from '../stats/wdl';
import {
  encounterLLR,
  encounterStats,
  summarizeEncounter,
  type EncounterCounts,
  type EncounterSummary,
  type StandingRow,
} from './summary';

const zero = (): Trinomial => ({ wins: 0, losses: 0, draws: 0 });

function addScore(t: Trinomial, s: number): void {
  if (s === 1) t.wins++;
  else if (s === 0) t.losses++;
  else t.draws++;
}

const games = (t: Trinomial): number => t.wins + t.losses + t.draws;

/** Results of one encounter, from the point of view of its first engine. */
export interface EncounterResults extends EncounterCounts {
  a: number;
  b: number;
}

export class Standings {
  readonly encounters: EncounterResults[];
  /** cross[i][j]: player i's results against player j. */
  readonly cross: Trinomial[][];
  readonly rated: RatedGame[] = [];
  finished = 0;
  /** The first game of each pair seen so far: pair key → A's score. */
  private readonly open = new Map<string, number>();

  constructor(
    readonly names: string[],
    encounters: readonly (readonly [number, number])[],
    readonly pairs: boolean,
  ) {
    this.encounters = encounters.map(([a, b]) => ({
      a,
      b,
      total: zero(),
      asFirst: zero(),
      asSecond: zero(),
      firstPlayer: zero(),
      penta: [0, 0, 0, 0, 0],
    }));
    this.cross = names.map(() => names.map(zero));
  }

  /** Adds a finished game; `score` is the first player's (1, ½, 0). */
  add(g: ScheduledGame, score: number): void {
    this.finished++;
    const e = this.encounters[g.encounter];
    const aFirst = g.first === e.a;
    const aScore = aFirst ? score : 1 - score;
    addScore(e.total, aScore);
    addScore(aFirst ? e.asFirst : e.asSecond, aScore);
    addScore(e.firstPlayer, score);
    addScore(this.cross[g.first][g.second], score);
    addScore(this.cross[g.second][g.first], 1 - score);
    this.rated.push({ white: g.first, black: g.second, score });
    if (g.pairKey !== undefined) {
      const other = this.open.get(g.pairKey);
      if (other === undefined) {
        this.open.set(g.pairKey, aScore);
      } else {
        this.open.delete(g.pairKey);
        e.penta[pentanomialIndex(other, aScore)]++;
      }
    }
  }

  /** A player's results against everyone. */
  playerTotal(i: number): Trinomial {
    const t = zero();
    for (const r of this.cross[i]) {
      t.wins += r.wins;
      t.losses += r.losses;
      t.draws += r.draws;
    }
    return t;
  }

  /** Statistics of an encounter: pentanomial when there are complete pairs, else per game. */
  stats(enc = 0): MatchStats & { penta: boolean } {
    return encounterStats(this.encounters[enc], this.pairs);
  }

  /** The SPRT log-likelihood ratio of an encounter (NaN while no decision can be expressed yet). */
  llr(s: SprtConfig, enc = 0): number {
    return encounterLLR(this.encounters[enc], this.pairs, s);
  }

  /** An encounter's results as data (what the text and the JSON report are made from). */
  summary(enc = 0, sprt?: SprtConfig): EncounterSummary {
    const e = this.encounters[enc];
    return summarizeEncounter(e, [this.names[e.a], this.names[e.b]], { pairs: this.pairs, sprt });
  }

  sprtDecision(s: SprtConfig, enc = 0): SprtDecision {
    return sprtDecision(this.llr(s, enc), sprtBounds(s.alpha, s.beta));
  }

  /** The standings, best first: points (draws worth `drawScore`), then rating. */
  table(anchor: number, drawScore: number): StandingRow[] {
    let ratings: number[];
    try {
      ratings = this.ratings(anchor);
    } catch {
      ratings = this.names.map(() => NaN);
    }
    const order = this.names.map((_, i) => i);
    const pts = order.map((i) => points(this.playerTotal(i), drawScore));
    order.sort((x, y) => pts[y] - pts[x] || ratings[y] - ratings[x] || x - y);
    return order.map((i, r) => {
      const t = this.playerTotal(i);
      const g = games(t);
      return {
        rank: r + 1,
        index: i,
        name: this.names[i],
        elo: ratings[i],
        anchor: i === anchor,
        games: g,
        wins: t.wins,
        losses: t.losses,
        draws: t.draws,
        points: pts[i],
        score: g > 0 ? points(t) / g : NaN,
      };
    });
  }

  /** Maximum-likelihood ratings anchored on player `anchor` (at 0). */
  ratings(anchor: number): number[] {
    return fitRatings(this.names, this.rated, anchor);
  }
}

function subLine(label: string, t: Trinomial): string {
  const n = games(t);
  const score = n > 0 ? points(t) / n : 0;
  return `...      ${label}: ${t.wins} - ${t.losses} - ${t.draws}  [${score.toFixed(3)}] ${n}`;
}

/** The cutechess-style block for one encounter (and the SPRT line when a test runs). */
export function encounterLines(
  st: Standings,
  enc: number,
  colorNames: readonly [string, string],
  sprt?: SprtConfig,
): string[] {
  return summaryLines(st.summary(enc, sprt), colorNames);
}

/** The cutechess-style text of an encounter's summary. */
function summaryLines(s: EncounterSummary, colorNames: readonly [string, string]): string[] {
  const [A, B] = s.players;
  const lines = [formatScoreLine(A, B, s)];
  if (s.games === 0) return lines;
  lines.push(subLine(`${A} playing ${colorNames[0]}`, s.asFirst));
  lines.push(subLine(`${A} playing ${colorNames[1]}`, s.asSecond));
  lines.push(subLine(`${colorNames[0]} vs ${colorNames[1]}`, s.firstPlayer));
  lines.push(formatEloLine(s));
  lines.push(
    `Normalized Elo: ${fixedOrNa(s.nElo, 1)} +/- ${fixedOrNa(s.nEloError, 1)} (${s.model === 'pentanomial' ? 'pentanomial' : 'per game'})`,
  );
  if (s.pentanomial) lines.push(formatPentanomialLine(s.pentanomial));
  if (s.sprt) lines.push(formatSprtLine(s.sprt.llr, { lower: s.sprt.lower, upper: s.sprt.upper }));
  return lines;
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

/** Standings with ratings (anchored) and a cross table, for more than two engines. */
export function standingsLines(st: Standings, anchor: number, drawScore: number): string[] {
  const n = st.names.length;
  const rows = st.table(anchor, drawScore);
  const w = Math.max(4, ...st.names.map((s) => s.length));
  const lines: string[] = [];
  lines.push(
    `${pad('Rank', 5)}${pad('Name', w + 2)}${pad('Elo', 8, true)}${pad('Games', 8, true)}${pad('Points', 9, true)}${pad('Score', 8, true)}${pad('Draws', 8, true)}`,
  );
  for (const r of rows) {
    const g = r.games;
    const elo = r.anchor ? '0.0*' : Number.isFinite(r.elo) ? (r.elo >= 0 ? '+' : '') + r.elo.toFixed(1) : 'n/a';
    lines.push(
      `${pad(String(r.rank), 5)}${pad(r.name, w + 2)}${pad(elo, 8, true)}${pad(String(g), 8, true)}` +
        `${pad(r.points.toFixed(1), 9, true)}${pad(g > 0 ? (100 * r.score).toFixed(1) + '%' : '-', 8, true)}` +
        `${pad(g > 0 ? ((100 * r.draws) / g).toFixed(1) + '%' : '-', 8, true)}`,
    );
  }
  const order = rows.map((r) => r.index);
  lines.push(
    `* anchor: ${st.names[anchor]} (ratings: maximum likelihood over all games, draws = 1/2${drawScore !== 0.5 ? `; points: draws = ${drawScore}` : ''})`,
  );
  if (n > 2) {
    lines.push('');
    lines.push('Cross table (points of the row engine against the column engine):');
    const cw = Math.max(9, ...st.names.map((s) => s.length + 1));
    lines.push(pad('', w + 2) + order.map((j) => pad(st.names[j], cw, true)).join(''));
    for (const i of order) {
      const cells = order.map((j) => {
        if (i === j) return pad('-', cw, true);
        const t = st.cross[i][j];
        const g = games(t);
        return pad(g === 0 ? '.' : `${fmtPts(points(t, drawScore))}/${g}`, cw, true);
      });
      lines.push(pad(st.names[i], w + 2) + cells.join(''));
    }
  }
  return lines;
}

function fmtPts(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toFixed(2)));
}

// ---------------------------------------------------------------------------------------------
// The summary lines (cutechess / fastchess)
// ---------------------------------------------------------------------------------------------

/** A number with `digits` decimals, or `n/a` when it is not finite (an Elo of 100 % wins, an error of too few games). */
export function fixedOrNa(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : 'n/a';
}

/** `Score of A vs B: 120 - 98 - 182  [0.527] 400` (wins - losses - draws  [score] games). */
export function formatScoreLine(nameA: string, nameB: string, r: Trinomial): string {
  const games = r.wins + r.losses + r.draws;
  const score = games > 0 ? points(r) / games : 0;
  return `Score of ${nameA} vs ${nameB}: ${r.wins} - ${r.losses} - ${r.draws}  ` + `[${score.toFixed(3)}] ${games}`;
}

/**
 * `Elo difference: 19.1 +/- 24.0, LOS: 94.0 %, DrawRatio: 45.5 %` (one decimal each; `n/a` for a
 * value the results cannot give yet, e.g. the Elo of 100 % wins).
 */
export function formatEloLine(s: Pick<MatchStats, 'elo' | 'eloError' | 'los' | 'drawRatio'>): string {
  return (
    `Elo difference: ${fixedOrNa(s.elo, 1)} +/- ${fixedOrNa(s.eloError, 1)}, ` +
    `LOS: ${fixedOrNa(s.los, 1)} %, DrawRatio: ${fixedOrNa(s.drawRatio, 1)} %`
  );
}

/**
 * `SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted`. The percentage is
 * `llr / upper × 100`; the suffix comes from {@link sprtDecision} (none while the test runs on).
 */
export function formatSprtLine(llr: number, bounds: SprtBounds): string {
  const decision = sprtDecision(llr, bounds);
  const suffix = decision ? ` - ${decision} was accepted` : '';
  return (
    `SPRT: llr ${fixedOrNa(llr, 2)} (${fixedOrNa((llr / bounds.upper) * 100, 1)}%), ` +
    `lbound ${bounds.lower.toFixed(2)}, ubound ${bounds.upper.toFixed(2)}${suffix}`
  );
}

/** `Ptnml(0-2): [LL, LD, WL+DD, WD, WW]` with the counts filled in. */
export function formatPentanomialLine(p: Pentanomial): string {
  return `Ptnml(0-2): [${p.join(', ')}]`;
}
