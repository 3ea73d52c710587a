/**
 * Self-play for training data: one game from a setup and random opening plies, every move
 * searched to a fixed node budget, and the quiet positions kept with their search score and,
 * once the game is over, its result. Pure computation (no I/O): the worker threads run it and
 * `thoth datagen` (src/cli/datagen-command.ts) writes what it returns.
 */
import {
  EDITION_IDS,
  KHET_SETUP_NAMES,
  MAX_MOVES,
  NO_REMOVAL_PLIES,
  gameStatus,
  parseKfen,
  setupKfen,
  setupsOf,
  type EditionId,
  type Position,
  type SetupName,
} from '../core/index';
import { itemSeed, makeRng, randomOpening } from '../core/opening';
import { DEFAULT_LIMITS, Searcher, type SearchLimits } from '../search/search';
import { MATE_BOUND } from '../core/score';
import { TranspositionTable } from '../search/tt';
import { DRAW, LOSS, MAX_POSITION_BYTES, WIN, encodePosition } from './data';
import { editionIndex } from '../nnue/features';
import { NetworkCache } from '../nnue/network';

export interface DatagenSettings {
  /** Node budget per move. */
  nodes: number;
  /** Random plies played from the setup before the game starts. */
  randomPlies: number;
  /** Positions before this ply (counted from the setup) are not kept. */
  skipPlies: number;
  /** Positions whose search score is beyond ±maxScore are not kept (mate scores never are). */
  maxScore: number;
  /** A game longer than this many plies (from the setup) is a draw. */
  maxPlies: number;
  /** The no-removal draw in plies (0 = off). */
  noRemoval: number;
  /** A game is adjudicated won once the score stays beyond ±decidedScore for decidedPlies plies (0 = off). */
  decidedScore: number;
  decidedPlies: number;
  /** Transposition table per thread, MB (cleared before each game). */
  hashMb: number;
  /** The network file's bytes when the searches use a network (NNUE), else the hand-written evaluation. */
  network?: SharedArrayBuffer;
}

export const DEFAULT_DATAGEN: DatagenSettings = {
  nodes: 5000,
  randomPlies: 8,
  skipPlies: 12,
  maxScore: 2000,
  maxPlies: 400,
  noRemoval: NO_REMOVAL_PLIES,
  decidedScore: 0,
  decidedPlies: 8,
  hashMb: 4,
};

export interface GameTask {
  /** The game's index: with the seed it fixes the opening. */
  game: number;
  seed: number;
  edition: EditionId;
  setup: SetupName;
  settings: DatagenSettings;
}

/** Why the game ended. */
export type GameEnd = 'pharaoh' | 'repetition' | 'no-removal' | 'no-moves' | 'max-plies' | 'adjudicated' | 'no-opening';

export interface PlayedGame {
  game: number;
  /** 0 khet2, 1 khet1, 2 deflexion. */
  edition: number;
  /** For the first player: LOSS, DRAW or WIN. */
  result: number;
  end: GameEnd;
  /** Plies played, the random opening plies included. */
  plies: number;
  /** Positions searched (the ones after the opening). */
  searched: number;
  /** Kept positions: their records (src/train/data.ts) one after another … */
  records: Uint8Array;
  /** … record k ends at ends[k] … */
  ends: Int32Array;
  /** … and its Zobrist key is keys[2k] (low half), keys[2k + 1] (high half). */
  keys: Int32Array;
  /** Why the positions that were searched were not kept. */
  skipped: { early: number; notQuiet: number; score: number };
}

/** The setups games are played from, in turn: every setup of the editions asked for. */
export function datagenSetups(
  editions: readonly EditionId[] = EDITION_IDS,
): { edition: EditionId; setup: SetupName }[] {
  // The rulebooks' setups only: a game's setup follows from its number, so adding Laser Chess's
  // Mercury and Sophie here would change what every seed plays.
  return editions.flatMap((edition) =>
    setupsOf(edition)
      .filter((s) => KHET_SETUP_NAMES.includes(s))
      .map((setup) => ({ edition, setup })),
  );
}

const quietMoves = new Int32Array(MAX_MOVES);

/**
 * True when the position is quiet: the side to move is not in check (the enemy beam, fired now,
 * would not hit its Pharaoh) and has no move whose shot removes an enemy piece.
 */
function isQuiet(pos: Position): boolean {
  const us = pos.side;
  const pharaoh = pos.pharaohSq[us];
  if (pharaoh >= 0 && pos.laserTarget(us ^ 1) === pharaoh) return false;
  const n = pos.generate(quietMoves, 0);
  pos.prepareShots();
  for (let i = 0; i < n; i++) {
    if (pos.shotAfterPrepared(quietMoves[i]) >= 0 && pos.probePiece >> 5 !== us) return false;
  }
  return true;
}

/** Plays games one after another with one search thread and one table (a worker thread's). */
export class GamePlayer {
  private readonly tt: TranspositionTable;
  private readonly searcher: Searcher;
  private records = new Uint8Array(64 * 1024);
  private ends = new Int32Array(1024);
  private keys = new Int32Array(2048);

  constructor(readonly hashMb: number) {
    this.tt = new TranspositionTable(hashMb);
    this.searcher = new Searcher(this.tt);
  }

  private readonly networks = new NetworkCache();

  play(task: GameTask): PlayedGame {
    const s = task.settings;
    const edition = editionIndex(task.edition);
    const kfen = setupKfen(task.edition, task.setup);
    const base = kfen === undefined ? undefined : parseKfen(kfen, task.edition);
    if (!base?.ok) throw new Error(`${task.edition} has no ${task.setup} setup`);
    const opening = randomOpening(makeRng(itemSeed(task.seed, task.game)), base.value, s.randomPlies);
    const skipped = { early: 0, notQuiet: 0, score: 0 };
    const done = (
      result: number,
      end: GameEnd,
      plies: number,
      searched: number,
      count: number,
      bytes: number,
    ): PlayedGame => ({
      game: task.game,
      edition,
      result,
      end,
      plies,
      searched,
      skipped,
      records: this.records.slice(0, bytes),
      ends: this.ends.slice(0, count),
      keys: this.keys.slice(0, 2 * count),
    });
    if (!opening) return done(DRAW, 'no-opening', 0, 0, 0, 0);
    const pos = opening.position;
    this.tt.clear();
    this.searcher.clearHistory();
    this.searcher.setNetwork(s.network === undefined ? null : this.networks.get(s.network));
    const limits: SearchLimits = { ...DEFAULT_LIMITS, nodes: s.nodes, noRemovalLimit: s.noRemoval };
    let count = 0;
    let bytes = 0;
    let searched = 0;
    let decidedFor = -1;
    let decidedRun = 0;
    for (;;) {
      const ply = s.randomPlies + pos.ply;
      const status = gameStatus(pos, { noRemovalLimit: s.noRemoval });
      if (status.result !== 'ongoing') {
        const result = status.winner < 0 ? DRAW : status.winner === 0 ? WIN : LOSS;
        return done(result, status.reason ?? 'no-moves', ply, searched, count, bytes);
      }
      if (ply >= s.maxPlies) return done(DRAW, 'max-plies', ply, searched, count, bytes);
      const r = this.searcher.run(pos, limits);
      searched++;
      const score = r.score;
      if (ply < s.skipPlies) skipped.early++;
      else if (Math.abs(score) > s.maxScore || Math.abs(score) >= MATE_BOUND) skipped.score++;
      else if (!isQuiet(pos)) skipped.notQuiet++;
      else {
        this.reserve(count + 1, bytes + MAX_POSITION_BYTES);
        bytes += encodePosition(pos.board, pos.side, score, ply, this.records, bytes);
        this.ends[count] = bytes;
        this.keys[2 * count] = pos.keyLo;
        this.keys[2 * count + 1] = pos.keyHi;
        count++;
      }
      if (s.decidedScore > 0) {
        const white = pos.side === 0 ? score : -score;
        const ahead = white >= s.decidedScore ? 0 : white <= -s.decidedScore ? 1 : -1;
        decidedRun = ahead >= 0 && ahead === decidedFor ? decidedRun + 1 : ahead >= 0 ? 1 : 0;
        decidedFor = ahead;
        if (decidedRun >= s.decidedPlies)
          return done(ahead === 0 ? WIN : LOSS, 'adjudicated', ply, searched, count, bytes);
      }
      pos.make(r.best);
    }
  }

  private reserve(count: number, bytes: number): void {
    if (bytes > this.records.length) {
      const r = new Uint8Array(this.records.length * 2);
      r.set(this.records);
      this.records = r;
    }
    if (count > this.ends.length) {
      const e = new Int32Array(this.ends.length * 2);
      e.set(this.ends);
      this.ends = e;
      const k = new Int32Array(this.keys.length * 2);
      k.set(this.keys);
      this.keys = k;
    }
  }
}
