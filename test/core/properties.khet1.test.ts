/** Properties over seeded random games, Khet 1.0 (the checks are listed in random-games.ts). */
import { propertySuite, type GameConfig } from './random-games';

const CONFIGS: GameConfig[] = [
  { label: 'Khet 1.0 Classic', edition: 'khet1', setup: 'classic', pharaohRotation: false, games: 160, seed: 2000 },
  { label: 'Khet 1.0 Imhotep', edition: 'khet1', setup: 'imhotep', pharaohRotation: false, games: 120, seed: 2001 },
  { label: 'Khet 1.0 Dynasty', edition: 'khet1', setup: 'dynasty', pharaohRotation: false, games: 120, seed: 2002 },
];

propertySuite('Khet 1.0', CONFIGS, true);
