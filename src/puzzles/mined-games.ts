/**
 * Self-play games for the puzzle miner: self-play as datagen plays it (src/search/selfplay.ts: the
 * same setups in turn, random opening plies, every move searched to a node budget) in this thread,
 * each move kept with the mate its search saw. Everything follows from the seed and the game's
 * index, so a run can be made again.
 */
import { toKfen, type EditionId } from '../core/index';
import { MATE_BOUND, mateMoves } from '../core/score';
import { SelfPlayer, selfPlaySetups, type SelfPlaySettings } from '../search/selfplay';
import type { MinedGame } from './miner';

/** Plays the puzzle miner's self-play games. */
export class PuzzleGames {
  private readonly player: SelfPlayer;

  constructor(readonly settings: SelfPlaySettings) {
    this.player = new SelfPlayer(settings.hashMb);
  }

  /** Plays game `g` of a run seeded with `seed`; undefined when no opening was found. */
  play(g: number, seed: number, editions: readonly EditionId[]): MinedGame | undefined {
    const setups = selfPlaySetups(editions);
    const start = setups[g % setups.length];
    const pos = SelfPlayer.opening(seed, g, start, this.settings.randomPlies);
    if (!pos) return undefined;
    const kfen = toKfen(pos);
    const moves: number[] = [];
    const mateFor: (number | undefined)[] = [];
    const { winner } = this.player.play(pos, this.settings, (_pos, r) => {
      mateFor.push(r.score >= MATE_BOUND ? mateMoves(r.score) : undefined);
      moves.push(r.best);
      return undefined;
    });
    return {
      variant: start.edition,
      start: kfen,
      moves,
      mateFor,
      winner,
      source: `selfplay:${seed}:${g}:${start.setup}`,
    };
  }
}
