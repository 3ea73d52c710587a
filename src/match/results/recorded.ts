/**
 * The summary of finished games read back from record files (`thoth stats`), so that runs played
 * in several places merge: W-L-D, game pairs (pentanomial), Elo and normalized Elo, the SPRT's LLR,
 * with the same Standings and the same lines as a run.
 *
 * Pairs are found as the runner writes them: within one file, games `r.k` and `r.k+1` (k odd) of
 * a round form a pair when they start from the same KFEN with the players' colours swapped. Any
 * other game counts alone. A record that appears twice (the same text) counts once. The players
 * come in the run's order (game 1.1's first player first), whatever order the games finished in,
 * so that the same games give the run's figures, told from the same side.
 */
import { plural } from '../../core/plural';
import { EDITIONS, type EditionId } from '../../core/index';
import {
  recordPlayers,
  recordStart,
  recordVariant,
  scoreOfResult,
  serializeRecord,
  type GameRecord,
} from '../../core/record';
import type { SprtConfig } from '../config';
import { Standings, encounterLines, standingsLines } from './report';
import { parseRoundTag, type ScheduledGame } from '../schedule';

export interface RecordedSummary {
  names: string[];
  standings: Standings;
  variant: EditionId;
  /** Games counted, and pairs among them. */
  games: number;
  pairs: number;
  /** Why some records were not counted (unfinished, repeated, another variant). */
  notes: string[];
  lines: string[];
}

export interface RecordedOptions {
  sprt?: SprtConfig;
  /** The engine whose rating is 0 in the ratings table of three or more players (default: the run's first). */
  anchor?: string;
  drawScore: number;
}

interface CountedGame {
  rec: GameRecord;
  file: number;
  score: number;
}

/** The finished games of one variant (the first game's), each record once, and why others were left out. */
function countedGames(files: readonly GameRecord[][], notes: string[]): CountedGame[] {
  const seen = new Set<string>();
  const games: CountedGame[] = [];
  let unfinished = 0;
  let repeated = 0;
  files.forEach((recs, file) => {
    for (const rec of recs) {
      const score = scoreOfResult(rec.result);
      if (score === undefined) {
        unfinished++;
        continue;
      }
      const text = serializeRecord(rec);
      if (seen.has(text)) {
        repeated++;
        continue;
      }
      seen.add(text);
      games.push({ rec, file, score });
    }
  });
  if (unfinished > 0) notes.push(`${unfinished} unfinished games (result *) not counted`);
  if (repeated > 0)
    notes.push(`${plural(repeated, 'record')} that ${repeated === 1 ? 'appears' : 'appear'} twice counted once`);
  if (games.length === 0) return [];
  const variant = recordVariant(games[0].rec);
  const other = games.filter((g) => recordVariant(g.rec) !== variant).length;
  if (other > 0) notes.push(`${plural(other, 'game')} of another variant than ${variant} not counted`);
  return games.filter((g) => recordVariant(g.rec) === variant);
}

/** A game's place in its run, from its `Round` tag (`r.k`, or `r`); undefined parts sort last. */
function place(g: CountedGame): [number, number] {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(g.rec.tags.get('Round')?.trim() ?? '');
  return m ? [Number(m[1]), m[2] !== undefined ? Number(m[2]) : Infinity] : [Infinity, Infinity];
}

/**
 * The games in the order the run scheduled them (file by file, then by `Round`), not the order
 * they finished in (a run with -concurrency writes them as they end): so the players come in the
 * run's order, its first engine first (game 1.1's first player), and the summary is told from the
 * same side as the run's.
 */
function inRunOrder(games: CountedGame[]): CountedGame[] {
  const at = new Map(games.map((g) => [g, place(g)]));
  return [...games].sort((x, y) => {
    const [a, b] = [at.get(x)!, at.get(y)!];
    return x.file - y.file || a[0] - b[0] || a[1] - b[1];
  });
}

/** The slot of a game's pair: its file, round and pair within the round (from `Round` r.k). */
function pairSlot(g: CountedGame): string | undefined {
  const t = parseRoundTag(g.rec.tags.get('Round') ?? '');
  return t ? `${g.file}:${t.round}:${Math.floor((t.game - 1) / 2)}` : undefined;
}

/** Two games of one slot that start from the same KFEN with the colours swapped. */
function isPair(list: CountedGame[] | undefined): boolean {
  if (!list || list.length !== 2) return false;
  const [a, b] = list.map((x) => x.rec);
  const [a0, a1] = recordPlayers(a);
  const [b0, b1] = recordPlayers(b);
  return recordStart(a) === recordStart(b) && a0 === b1 && a1 === b0 && a0 !== a1;
}

/** The players (in order of appearance) and their encounters (pairs of players, lower index first). */
class Players {
  readonly names: string[] = [];
  readonly encounters: [number, number][] = [];

  id(name: string): number {
    let i = this.names.indexOf(name);
    if (i < 0) i = this.names.push(name) - 1;
    return i;
  }

  encounter(a: number, b: number): number {
    const [x, y] = a < b ? [a, b] : [b, a];
    let k = this.encounters.findIndex(([p, q]) => p === x && q === y);
    if (k < 0) k = this.encounters.push([x, y]) - 1;
    return k;
  }
}

/** The summary of the games of several record files (`files[i]` are the games of one file). */
export function summariseRecords(
  files: readonly GameRecord[][],
  opts: RecordedOptions,
): RecordedSummary | { error: string } {
  const notes: string[] = [];
  const counted = inRunOrder(countedGames(files, notes));
  if (counted.length === 0) return { error: 'no finished games in these files' };
  const variant = recordVariant(counted[0].rec);
  const players = new Players();
  const { names, encounters } = players;
  for (const g of counted) recordPlayers(g.rec).forEach((n) => players.id(n));

  // Pairs: r.(2j-1) and r.(2j) of one file with the same opening and the colours swapped.
  const slot = new Map<string, CountedGame[]>();
  for (const g of counted) {
    const key = pairSlot(g);
    if (key !== undefined) slot.set(key, [...(slot.get(key) ?? []), g]);
  }
  let pairs = 0;
  for (const list of slot.values()) if (isPair(list)) pairs++;

  if (opts.anchor !== undefined && !names.includes(opts.anchor))
    return { error: `-anchor ${opts.anchor}: no player has that name (${names.join(', ')})` };
  if (opts.anchor !== undefined && names.length === 2)
    notes.push(
      "-anchor sets who is rated 0 in the ratings table of three or more players; the summary of two is always the run's first engine's (game 1.1's first player) against the other, as the run's own",
    );
  if (opts.sprt && names.length !== 2)
    return { error: `-sprt needs the games of exactly two players (these files have ${names.length})` };
  // Standings takes its encounters up front: find them all first.
  for (const g of counted) {
    const [p0, p1] = recordPlayers(g.rec);
    players.encounter(players.id(p0), players.id(p1));
  }
  const standings = new Standings(names, encounters, pairs > 0);
  counted.forEach((g, i) => {
    const [p0, p1] = recordPlayers(g.rec);
    const first = players.id(p0);
    const second = players.id(p1);
    const key = pairSlot(g);
    const game: ScheduledGame = {
      index: i,
      round: 0,
      inRound: 0,
      encounter: players.encounter(first, second),
      first,
      second,
      openingIndex: 0,
      pairKey: key !== undefined && isPair(slot.get(key)) ? key : undefined,
      roundTag: g.rec.tags.get('Round') ?? '',
    };
    standings.add(game, g.score);
  });
  return {
    names,
    standings,
    variant,
    games: counted.length,
    pairs,
    notes,
    lines: recordedSummaryLines(standings, variant, opts),
  };
}

function recordedSummaryLines(standings: Standings, variant: EditionId, opts: RecordedOptions): string[] {
  const { names } = standings;
  const lines: string[] = [];
  const colors = EDITIONS[variant].colorNames;
  if (names.length === 2) {
    lines.push(...encounterLines(standings, 0, colors, opts.sprt));
  } else {
    const anchor = opts.anchor !== undefined ? names.indexOf(opts.anchor) : 0;
    standings.encounters.forEach((_, k) => lines.push(...encounterLines(standings, k, colors)));
    lines.push('', ...standingsLines(standings, anchor, opts.drawScore));
  }
  return lines;
}
