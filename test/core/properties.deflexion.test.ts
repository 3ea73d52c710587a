/** Properties over seeded random games, Deflexion (the checks are listed in random-games.ts). */
import { propertySuite, type GameConfig } from './random-games';

const CONFIGS: GameConfig[] = [
  {
    label: 'Deflexion Classic',
    edition: 'deflexion',
    setup: 'classic',
    pharaohRotation: false,
    games: 200,
    seed: 3000,
  },
  {
    label: 'Deflexion Imhotep',
    edition: 'deflexion',
    setup: 'imhotep',
    pharaohRotation: false,
    games: 200,
    seed: 3001,
  },
];

propertySuite('Deflexion', CONFIGS, false);
