/** Properties over seeded random games, Khet 2.0 (the checks are listed in random-games.ts). */
import { describe, expect, it } from 'vitest';
import { mirrorPosition, perft, type Position } from '../../src/core/index';
import { runRandomGames, type GameConfig } from './random-games';

const CONFIGS: GameConfig[] = [
  { label: 'Khet 2.0 Classic', edition: 'khet2', setup: 'classic', pharaohRotation: false, games: 400, seed: 1000 },
  { label: 'Khet 2.0 Imhotep', edition: 'khet2', setup: 'imhotep', pharaohRotation: false, games: 300, seed: 1001 },
  { label: 'Khet 2.0 Dynasty', edition: 'khet2', setup: 'dynasty', pharaohRotation: false, games: 300, seed: 1002 },
  { label: 'Khet 2.0 Classic, Pharaoh rotation on', edition: 'khet2', setup: 'classic', pharaohRotation: true, games: 200, seed: 1003 },
];

describe('Khet 2.0: properties over random games', () => {
  it.each(CONFIGS)('$label: $games games', (cfg) => {
    const st = runRandomGames(cfg);
    expect(st.games).toBe(cfg.games);
    // the games must exercise what they claim to test
    expect(st.plies).toBeGreaterThan(cfg.games * 10);
    expect(st.movesChecked).toBeGreaterThan(st.plies * 10);
    expect(st.removals).toBeGreaterThan(cfg.games);
    expect(st.pharaohHits).toBeGreaterThan(0);
    expect(st.ownPharaohHits).toBeGreaterThan(0);
    expect(st.repeatedPositions).toBeGreaterThan(cfg.games / 10);
    expect(st.repetitionDraws).toBeGreaterThan(0);
    expect(st.swaps).toBeGreaterThan(0);
  });

  it.each(CONFIGS)('$label: perft(3) of random positions equals perft(3) of their mirror images', (cfg) => {
    const positions: Position[] = [];
    runRandomGames({ ...cfg, games: 6, seed: cfg.seed + 500 }, (p) => positions.push(p));
    expect(positions.length).toBeGreaterThanOrEqual(3);
    for (const p of positions.slice(0, 4)) {
      const mir = mirrorPosition(p);
      expect(mir.side).toBe(p.side ^ 1);
      expect(perft(mir, 3)).toBe(perft(p, 3));
    }
  });
});
