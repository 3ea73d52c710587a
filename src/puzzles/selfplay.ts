/**
 * Self-play games for the puzzle miner: a setup, random opening plies (as datagen's games,
 * src/train/datagen.ts), then every move searched by the engine to a node budget in this thread.
 * Everything follows from the seed and the game's index, so a run can be made again.
 */
import {
  EDITION_IDS,
  MAX_MOVES,
  NO_REMOVAL_PLIES,
  gameStatus,
  parseKfen,
  setupKfen,
  setupsOf,
  toKfen,
  type EditionId,
  type SetupName,
} from '../core/index';
import { itemSeed, makeRng, randomOpening } from '../core/opening';
import { DEFAULT_LIMITS, Searcher } from '../search/search';
import { MATE_BOUND, mateMoves } from '../core/score';
import { TranspositionTable } from '../search/tt';
import type { MinedGame } from './miner';

export interface SelfplaySettings {
  /** Node budget per move. */
  nodes: number;
  randomPlies: number;
  /** A game this long (from its start) is stopped. */
  maxPlies: number;
  hashMb: number;
}

export const DEFAULT_SELFPLAY: SelfplaySettings = { nodes: 3000, randomPlies: 8, maxPlies: 300, hashMb: 4 };

/**
 * The edition and setup of game `g` for the editions asked: with all three, three games in five
 * are Khet 2.0, one Khet 1.0, one Deflexion; the setups of an edition come in turn.
 */
function selfplaySetup(g: number, editions: readonly EditionId[]): { edition: EditionId; setup: SetupName } {
  const cycle: EditionId[] =
    editions.length === EDITION_IDS.length ? ['khet2', 'khet2', 'khet2', 'khet1', 'deflexion'] : [...editions];
  const edition = cycle[g % cycle.length];
  const turn =
    Math.floor(g / cycle.length) * cycle.filter((e) => e === edition).length +
    cycle.slice(0, g % cycle.length).filter((e) => e === edition).length;
  const setups = setupsOf(edition);
  return { edition, setup: setups[turn % setups.length] };
}

export class SelfPlayer {
  private readonly tt: TranspositionTable;
  private readonly searcher: Searcher;

  constructor(readonly settings: SelfplaySettings = DEFAULT_SELFPLAY) {
    this.tt = new TranspositionTable(settings.hashMb);
    this.searcher = new Searcher(this.tt);
  }

  /** Plays game `g` of a run seeded with `seed`; undefined when no opening was found. */
  play(g: number, seed: number, editions: readonly EditionId[]): MinedGame | undefined {
    const s = this.settings;
    const { edition, setup } = selfplaySetup(g, editions);
    const kfen = setupKfen(edition, setup);
    const base = kfen === undefined ? undefined : parseKfen(kfen, edition);
    if (!base?.ok) return undefined;
    const opening = randomOpening(makeRng(itemSeed(seed, g)), base.value, s.randomPlies);
    if (!opening) return undefined;
    const pos = opening.position;
    const start = toKfen(pos);
    this.tt.clear();
    this.searcher.clearHistory();
    const limits = { ...DEFAULT_LIMITS, nodes: s.nodes, noRemovalLimit: NO_REMOVAL_PLIES };
    const moves: number[] = [];
    const mateFor: (number | undefined)[] = [];
    let winner = -1;
    while (moves.length < s.maxPlies && moves.length < MAX_MOVES * 4) {
      const status = gameStatus(pos, { noRemovalLimit: NO_REMOVAL_PLIES });
      if (status.result !== 'ongoing') {
        winner = status.winner;
        break;
      }
      const r = this.searcher.run(pos, limits);
      mateFor.push(r.score >= MATE_BOUND ? mateMoves(r.score) : undefined);
      moves.push(r.best);
      pos.make(r.best);
    }
    if (pos.winner >= 0) winner = pos.winner;
    return { variant: edition, start, moves, mateFor, winner, source: `selfplay:${seed}:${g}:${setup}` };
  }
}
