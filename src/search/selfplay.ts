/**
 * Self-play: the engine plays a game against itself from a setup and random opening plies, every
 * move searched to a node budget, with one search thread and one table. Training data (datagen,
 * src/train/datagen.ts) and the puzzle miner (src/puzzles/mined-games.ts) play their games here and
 * differ only in what they keep of them; game g of a run plays setup g of the cycle below, and its
 * opening follows from the seed and g, so a run can be made again.
 */
import {
  EDITION_IDS,
  KHET_SETUP_NAMES,
  NO_REMOVAL_PLIES,
  gameStatus,
  parseKfen,
  setupKfen,
  setupsOf,
  type EditionId,
  type GameReason,
  type Position,
  type SetupName,
} from '../core/index';
import { itemSeed, makeRng, randomOpening } from '../core/opening';
import { NetworkCache } from '../nnue/network';
import { DEFAULT_LIMITS, Searcher, type RootResult, type SearchLimits } from './search';
import { TranspositionTable } from './tt';

export interface SelfPlaySettings {
  /** Node budget per move. */
  nodes: number;
  /**
   * Depth limit per move (0 or absent: none, the node budget alone). The search always completes
   * depth 1 and polls its node budget every 256 nodes, so a tiny budget still searches depth 1 and
   * part of depth 2; `depth: 1` stops at the end of depth 1 (docs/db.md, "Building a database").
   */
  depth?: number;
  /** Random plies played from the setup before the game starts. */
  randomPlies: number;
  /** A game this long (in plies from the setup) ends there: a draw. */
  maxPlies: number;
  /** The no-removal draw in plies (0 = off). */
  noRemoval: number;
  /** Transposition table, MB (cleared before each game). */
  hashMb: number;
  /** The network file's bytes when the searches use a network (NNUE), else the hand-written evaluation. */
  network?: SharedArrayBuffer;
}

export const DEFAULT_SELFPLAY: Readonly<SelfPlaySettings> = {
  nodes: 5000,
  randomPlies: 8,
  maxPlies: 400,
  noRemoval: NO_REMOVAL_PLIES,
  hashMb: 4,
};

/** A game's setup. */
export interface SelfPlaySetup {
  edition: EditionId;
  setup: SetupName;
}

/** The setups games are played from, in turn: every rulebook setup of the editions asked for. */
export function selfPlaySetups(editions: readonly EditionId[] = EDITION_IDS): SelfPlaySetup[] {
  // The rulebooks' setups only: a game's setup follows from its number, so adding Laser Chess's
  // Mercury and Sophie here would change what every seed plays.
  return editions.flatMap((edition) =>
    setupsOf(edition)
      .filter((s) => KHET_SETUP_NAMES.includes(s))
      .map((setup) => ({ edition, setup })),
  );
}

/** Why a game ended: by the rules, at the ply cap, or adjudicated by the caller. */
export type SelfPlayEnd = GameReason | 'max-plies' | 'adjudicated';

export interface SelfPlayOutcome {
  /** 0 or 1, or -1 for a draw. */
  winner: number;
  end: SelfPlayEnd;
  /** Plies from the setup, the random opening plies included. */
  plies: number;
  /** Positions searched. */
  searched: number;
}

/**
 * Called after each search, before its move is made, with the position, the search's result and
 * the ply counted from the setup; a winner (0 or 1) returned ends the game there, adjudicated.
 */
export type SelfPlayVisit = (pos: Position, result: RootResult, ply: number) => number | undefined;

/** Plays games one after another with one search thread and one table. */
export class SelfPlayer {
  private readonly tt: TranspositionTable;
  private readonly searcher: Searcher;
  private readonly networks = new NetworkCache();

  constructor(readonly hashMb: number) {
    this.tt = new TranspositionTable(hashMb);
    this.searcher = new Searcher(this.tt);
  }

  /** Game `game`'s start: its setup after `randomPlies` random plies drawn from the seed; undefined when none is found. */
  static opening(seed: number, game: number, start: SelfPlaySetup, randomPlies: number): Position | undefined {
    return SelfPlayer.openingLine(seed, game, start, randomPlies)?.position;
  }

  /** The same start, with the setup's KFEN and the random plies that lead to it (a game record's start). */
  static openingLine(
    seed: number,
    game: number,
    start: SelfPlaySetup,
    randomPlies: number,
  ): { position: Position; setup: string; moves: string[] } | undefined {
    const kfen = setupKfen(start.edition, start.setup);
    const base = kfen === undefined ? undefined : parseKfen(kfen, start.edition);
    if (kfen === undefined || !base?.ok) throw new Error(`${start.edition} has no ${start.setup} setup`);
    const o = randomOpening(makeRng(itemSeed(seed, game)), base.value, randomPlies);
    return o && { position: o.position, setup: kfen, moves: o.moves };
  }

  /** Plays from `pos` (an opening, `s.randomPlies` plies from its setup) to the end, calling `visit` at every move. */
  play(pos: Position, s: SelfPlaySettings, visit: SelfPlayVisit): SelfPlayOutcome {
    this.tt.clear();
    this.searcher.clearHistory();
    this.searcher.setNetwork(s.network === undefined ? null : this.networks.get(s.network));
    const limits: SearchLimits = { ...DEFAULT_LIMITS, nodes: s.nodes, noRemovalLimit: s.noRemoval };
    if (s.depth !== undefined && s.depth > 0) limits.depth = s.depth;
    let searched = 0;
    for (;;) {
      const ply = s.randomPlies + pos.ply;
      const status = gameStatus(pos, { noRemovalLimit: s.noRemoval });
      if (status.result !== 'ongoing')
        return { winner: status.winner, end: status.reason ?? 'no-moves', plies: ply, searched };
      if (ply >= s.maxPlies) return { winner: -1, end: 'max-plies', plies: ply, searched };
      const r = this.searcher.run(pos, limits);
      searched++;
      const adjudicated = visit(pos, r, ply);
      if (adjudicated !== undefined) return { winner: adjudicated, end: 'adjudicated', plies: ply, searched };
      pos.make(r.best);
    }
  }
}
