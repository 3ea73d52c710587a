/**
 * The puzzle miner's self-play is datagen's (src/search/selfplay.ts): game g of a seed starts
 * from the same setup and opening, and is the same game, move for move, to the same end.
 */
import { describe, expect, it } from 'vitest';
import { EDITION_IDS, toKfen } from '../../src/core/index';
import { PuzzleGames } from '../../src/puzzles/mined-games';
import { DEFAULT_SELFPLAY, SelfPlayer, selfPlaySetups } from '../../src/search/selfplay';
import { DRAW, LOSS, WIN } from '../../src/train/data';
import { DEFAULT_DATAGEN, GamePlayer } from '../../src/train/datagen';

describe('puzzle self-play', () => {
  it('has the defaults of datagen', () => {
    const { nodes, randomPlies, maxPlies, noRemoval, hashMb } = DEFAULT_DATAGEN;
    expect({ nodes, randomPlies, maxPlies, noRemoval, hashMb }).toEqual(DEFAULT_SELFPLAY);
  });

  it("plays datagen's games: the setups in turn, the same openings, the same plies and result", () => {
    const settings = { ...DEFAULT_SELFPLAY, nodes: 200, maxPlies: 40 };
    const puzzles = new PuzzleGames(settings);
    const datagen = new GamePlayer(settings.hashMb);
    const setups = selfPlaySetups(EDITION_IDS);
    for (let g = 0; g < 9; g++) {
      const game = puzzles.play(g, 11, EDITION_IDS);
      if (!game) throw new Error(`no game ${g}`);
      const { edition, setup } = setups[g % setups.length];
      expect(game.source).toBe(`selfplay:11:${g}:${setup}`);
      expect(game.variant).toBe(edition);
      expect(game.start).toBe(toKfen(SelfPlayer.opening(11, g, { edition, setup }, settings.randomPlies)!));
      const played = datagen.play({ game: g, seed: 11, edition, setup, settings: { ...DEFAULT_DATAGEN, ...settings } });
      expect(game.moves.length + settings.randomPlies).toBe(played.plies);
      expect(played.result).toBe(game.winner < 0 ? DRAW : game.winner === 0 ? WIN : LOSS);
    }
  });
});
