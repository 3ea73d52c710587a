/** Properties over seeded random games, Khet 2.0 (the checks are listed in random-games.ts). */
import { propertySuite, type GameConfig } from './random-games';

const CONFIGS: GameConfig[] = [
  { label: 'Khet 2.0 Classic', edition: 'khet2', setup: 'classic', pharaohRotation: false, games: 160, seed: 1000 },
  { label: 'Khet 2.0 Imhotep', edition: 'khet2', setup: 'imhotep', pharaohRotation: false, games: 120, seed: 1001 },
  { label: 'Khet 2.0 Dynasty', edition: 'khet2', setup: 'dynasty', pharaohRotation: false, games: 120, seed: 1002 },
  {
    label: 'Khet 2.0 Classic, Pharaoh rotation on',
    edition: 'khet2',
    setup: 'classic',
    pharaohRotation: true,
    games: 80,
    seed: 1003,
  },
  {
    label: "Khet 2.0 Classic, ddket's dialect (Pharaoh rotation, two Scarab rotations)",
    edition: 'khet2',
    setup: 'classic',
    pharaohRotation: true,
    games: 40,
    seed: 1004,
    dialect: { twoScarabRotations: true },
  },
  {
    label: "Khet 2.0 Imhotep, khetai's dialect (two Scarab rotations, swaps onto reserved squares and with the Sphinx)",
    edition: 'khet2',
    setup: 'imhotep',
    pharaohRotation: false,
    games: 60,
    seed: 1005,
    dialect: { twoScarabRotations: true, swapOntoReserved: true, swapSphinx: true },
  },
];

propertySuite('Khet 2.0', CONFIGS, false);
