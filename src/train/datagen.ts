/**
 * Self-play for training data: one game of self-play (src/search/selfplay.ts: a setup, random
 * opening plies, every move searched to a fixed node budget), and the quiet positions kept with
 * their search score and, once the game is over, its result. Pure computation (no I/O): the worker threads run it and
 * `thoth datagen` (src/cli/datagen-command.ts) writes what it returns.
 */
import { MAX_MOVES, formatMove, type EditionId, type Position, type SetupName } from '../core/index';
import { MATE_BOUND } from '../core/score';
import type { RootResult } from '../search/search';
import { DEFAULT_SELFPLAY, SelfPlayer, type SelfPlayEnd, type SelfPlaySettings } from '../search/selfplay';
import { DRAW, LOSS, MAX_POSITION_BYTES, WIN, encodePosition } from './data';
import { editionIndex } from '../nnue/features';

/** Self-play's settings (src/search/selfplay.ts) and what datagen keeps of a game. */
export interface DatagenSettings extends SelfPlaySettings {
  /** Positions before this ply (counted from the setup) are not kept. */
  skipPlies: number;
  /** Positions whose search score is beyond ±maxScore are not kept (mate scores never are). */
  maxScore: number;
  /** A game is adjudicated won once the score stays beyond ±decidedScore for decidedPlies plies (0 = off). */
  decidedScore: number;
  decidedPlies: number;
}

export const DEFAULT_DATAGEN: Readonly<DatagenSettings> = {
  ...DEFAULT_SELFPLAY,
  skipPlies: 12,
  maxScore: 2000,
  decidedScore: 0,
  decidedPlies: 8,
};

export interface GameTask {
  /** The game's index: with the seed it fixes the opening. */
  game: number;
  seed: number;
  edition: EditionId;
  setup: SetupName;
  settings: DatagenSettings;
  /** Keep the game's moves too (`thoth datagen --records`). */
  line?: boolean;
}

/** A game's moves as a record holds them: from the setup, the random opening plies first. */
interface DatagenLine {
  /** The setup's KFEN. */
  start: string;
  /** The random opening plies, then the moves searched. */
  moves: string[];
}

/** Why the game ended. */
export type GameEnd = SelfPlayEnd | 'no-opening';

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
  /** The moves, when the task asked for them. */
  line?: DatagenLine;
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
  private readonly player: SelfPlayer;
  private records = new Uint8Array(64 * 1024);
  private ends = new Int32Array(1024);
  private keys = new Int32Array(2048);

  constructor(readonly hashMb: number) {
    this.player = new SelfPlayer(hashMb);
  }

  play(task: GameTask): PlayedGame {
    const s = task.settings;
    const edition = editionIndex(task.edition);
    const opening = SelfPlayer.openingLine(task.seed, task.game, task, s.randomPlies);
    const pos = opening?.position;
    const line = task.line && opening ? { start: opening.setup, moves: [...opening.moves] } : undefined;
    const skipped = { early: 0, notQuiet: 0, score: 0 };
    let count = 0;
    let bytes = 0;
    const done = (result: number, end: GameEnd, plies: number, searched: number): PlayedGame => ({
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
      line,
    });
    if (!pos) return done(DRAW, 'no-opening', 0, 0);
    let decidedFor = -1;
    let decidedRun = 0;
    const visit = (pos: Position, r: RootResult, ply: number): number | undefined => {
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
      if (s.decidedScore <= 0) return undefined;
      const white = pos.side === 0 ? score : -score;
      const ahead = white >= s.decidedScore ? 0 : white <= -s.decidedScore ? 1 : -1;
      decidedRun = ahead >= 0 && ahead === decidedFor ? decidedRun + 1 : ahead >= 0 ? 1 : 0;
      decidedFor = ahead;
      return decidedRun >= s.decidedPlies ? ahead : undefined;
    };
    const g = this.player.play(pos, s, (pos, r, ply) => {
      const adjudicated = visit(pos, r, ply);
      if (line && adjudicated === undefined) line.moves.push(formatMove(r.best));
      return adjudicated;
    });
    return done(g.winner < 0 ? DRAW : g.winner === 0 ? WIN : LOSS, g.end, g.plies, g.searched);
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

/**
 * The flags that fix the games, as a worker's datagen gets them: a network travels apart (by
 * checksum), the hand-written evaluation as `--net none`.
 */
export function datagenArgs(variant: string, seed: number, s: DatagenSettings): string[] {
  const flags: [string, number][] = [
    ['nodes', s.nodes],
    ['random-plies', s.randomPlies],
    ['skip-plies', s.skipPlies],
    ['max-score', s.maxScore],
    ['decided-score', s.decidedScore],
    ['decided-plies', s.decidedPlies],
    ['max-plies', s.maxPlies],
    ['no-removal', s.noRemoval],
    ['hash', s.hashMb],
  ];
  // --depth only when set, so that the arguments of a run without it stay as they were
  if (s.depth !== undefined && s.depth > 0) flags.push(['depth', s.depth]);
  const rest = flags.flatMap(([f, v]) => [`--${f}`, String(v)]);
  return ['--variant', variant, '--seed', String(seed), ...rest, ...(s.network ? [] : ['--net', 'none'])];
}
