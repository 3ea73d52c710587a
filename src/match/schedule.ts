/**
 * The order of games in a run. Every round plays each encounter (a pair of engines: all pairs in
 * a round robin, the first engine against each other one in a gauntlet) `games` times; consecutive
 * games 1-2, 3-4, … of an encounter form a pair: the same opening with colours swapped. Each pair
 * of a round has its own opening, shared by all encounters of that round. A game's place is its
 * `Round` tag `round.k` (both from 1), which `-resume` uses to find what is still to play.
 */
import { ROUND_TAG_RE } from '../core/record';
import type { TournamentKind } from './config';

export interface ScheduledGame {
  /** 0-based position in the run. */
  index: number;
  /** 0-based round. */
  round: number;
  /** 0-based position within the round. */
  inRound: number;
  encounter: number;
  /** Engine indices of the first player (Silver / Gold) and the second. */
  first: number;
  second: number;
  openingIndex: number;
  /** Key shared by the two games of a pair (undefined for an unpaired game). */
  pairKey?: string;
  /** `round.k`, both from 1. */
  roundTag: string;
}

/** A `Round` tag `r.k` read: the round and the game within it (from 1), or undefined for other text. */
export function parseRoundTag(tag: string): { round: number; game: number } | undefined {
  const m = ROUND_TAG_RE.exec(tag);
  return m ? { round: Number(m[1]), game: Number(m[2]) } : undefined;
}

export class Schedule {
  readonly encounters: [number, number][] = [];
  readonly perRound: number;
  readonly pairsPerRound: number;

  constructor(
    engines: number,
    kind: TournamentKind,
    readonly games: number,
    readonly rounds: number,
  ) {
    if (kind === 'gauntlet') {
      for (let j = 1; j < engines; j++) this.encounters.push([0, j]);
    } else {
      for (let i = 0; i < engines; i++) for (let j = i + 1; j < engines; j++) this.encounters.push([i, j]);
    }
    this.perRound = this.encounters.length * games;
    this.pairsPerRound = Math.ceil(games / 2);
  }

  /** Games in the run (Infinity when rounds are unlimited). */
  get total(): number {
    return this.rounds * this.perRound;
  }

  /** True when games come in colour-swapped pairs. */
  get paired(): boolean {
    return this.games % 2 === 0;
  }

  game(index: number): ScheduledGame {
    const round = Math.floor(index / this.perRound);
    const inRound = index % this.perRound;
    const encounter = Math.floor(inRound / this.games);
    const g = inRound % this.games;
    const [a, b] = this.encounters[encounter];
    // Colours alternate within an encounter (and across rounds when games is odd).
    const aFirst = (g + round * this.games) % 2 === 0;
    const pairNo = Math.floor(g / 2);
    const paired = 2 * pairNo + 1 < this.games;
    return {
      index,
      round,
      inRound,
      encounter,
      first: aFirst ? a : b,
      second: aFirst ? b : a,
      openingIndex: round * this.pairsPerRound + pairNo,
      pairKey: paired ? `${round}:${encounter}:${pairNo}` : undefined,
      roundTag: `${round + 1}.${inRound + 1}`,
    };
  }

  /** The index of a `round.k` tag, or undefined when it is not a place in this schedule. */
  indexOfTag(tag: string): number | undefined {
    const t = parseRoundTag(tag.trim());
    if (!t) return undefined;
    const { round: r, game: k } = t;
    if (r < 1 || k < 1 || k > this.perRound || r > this.rounds) return undefined;
    return (r - 1) * this.perRound + (k - 1);
  }
}
