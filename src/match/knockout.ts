/**
 * `-tournament knockout`: the engines in a bracket, seeded in the order they are given (the first
 * against the last, the second against the one before it, the top seeds through a round without
 * an opponent when the field is not a power of two). Each pairing is a match of its own (runMatch:
 * `-rounds` game pairs from the run's openings, records appended to the same `-pgnout`); the
 * higher score goes on, a tie is played on one game pair at a time (at most TIEBREAK_PAIRS, each on
 * openings of its own), and a tie that stays goes to the higher seed. docs/match.md, "Knockout".
 */
import type { MatchConfig } from './config';
import type { FinishedGame, MatchSummary, StopReason } from './ledger';
import { type RunOptions, runMatch } from './tournament';

/** Game pairs played at most to break a tie before the higher seed goes on. */
const TIEBREAK_PAIRS = 3;

export interface KnockoutResult {
  stop: StopReason;
  message?: string;
  /** Every game of every pairing, in the order played. */
  finished: FinishedGame[];
  /** The engine index of the winner (when the bracket finished). */
  winner?: number;
}

/** The pairings of a round: seed indices, best against worst; an odd one out goes on alone. */
export function pairings(seeds: readonly number[]): { pairs: [number, number][]; bye: number[] } {
  let size = 1;
  while (size < seeds.length) size *= 2;
  const byes = size - seeds.length;
  const bye = seeds.slice(0, byes);
  const rest = seeds.slice(byes);
  const pairs: [number, number][] = [];
  for (let i = 0; i < rest.length / 2; i++) pairs.push([rest[i], rest[rest.length - 1 - i]]);
  return { pairs, bye };
}

/** Plays one pairing; resolves to its summary (it throws runMatch's errors: the run cannot go on). */
async function playPairing(
  cfg: MatchConfig,
  a: number,
  b: number,
  rounds: number,
  event: string,
  srand: number,
  opts: RunOptions,
): Promise<MatchSummary> {
  const sub: MatchConfig = {
    ...cfg,
    engines: [cfg.engines[a], cfg.engines[b]],
    rounds,
    srand,
    knockout: false,
    event,
    notes: [],
    ratingInterval: 0,
  };
  return runMatch(sub, opts);
}

/** A's points in a pairing's games (B's are the rest). */
function pairingPoints(s: MatchSummary): number {
  return s.finished.reduce((p, f) => p + (f.game.first === 0 ? f.score : 1 - f.score), 0);
}

/** Plays the bracket; a pairing that cannot begin throws runMatch's error (the games so far are written). */
export async function runKnockout(cfg: MatchConfig, opts: RunOptions): Promise<KnockoutResult> {
  const write = opts.write;
  const finished: FinishedGame[] = [];
  const name = (i: number): string => cfg.engines[i].name;
  let seeds = cfg.engines.map((_, i) => i);
  for (let round = 1; seeds.length > 1; round++) {
    const { pairs, bye } = pairings(seeds);
    write(
      `Knockout round ${round}: ${pairs.map(([a, b]) => `${name(a)} vs ${name(b)}`).join(', ')}${bye.length > 0 ? `; through without a game: ${bye.map(name).join(', ')}` : ''}`,
    );
    const next: number[] = [...bye];
    for (const [a, b] of pairs) {
      let pa = 0;
      let games = 0;
      for (let extra = 0; extra <= TIEBREAK_PAIRS; extra++) {
        const rounds = extra === 0 ? cfg.rounds : 1;
        const what = extra === 0 ? `round ${round}` : `round ${round}, tie-break ${extra}`;
        // a tie-break pair on openings of its own
        const srand = (cfg.srand + extra * 7919) >>> 0;
        const r = await playPairing(cfg, a, b, rounds, `${cfg.event} (knockout ${what})`, srand, opts);
        finished.push(...r.finished);
        pa += pairingPoints(r);
        games += r.finished.length;
        if (r.stop !== 'done') return { stop: r.stop, message: r.message, finished };
        if (pa * 2 !== games) break;
      }
      const winner = pa * 2 > games ? a : pa * 2 < games ? b : a; // a tie that stays: the higher seed
      const tie = pa * 2 === games ? ' (still tied: the higher seed goes on)' : '';
      write(`Knockout round ${round}: ${name(a)} ${pa} - ${games - pa} ${name(b)}: ${name(winner)} goes on${tie}`);
      next.push(winner);
    }
    // the next round keeps the seeding order
    seeds = next.sort((x, y) => x - y);
  }
  write(`Knockout winner: ${name(seeds[0])}`);
  return { stop: 'done', finished, winner: seeds[0] };
}
