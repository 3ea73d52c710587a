/** Records for the game database's tests: short self-play games as `thoth datagen --records` writes them. */
import { DEFAULT_DATAGEN, GamePlayer } from '../../src/train/datagen';
import { datagenRecord } from '../../src/train/datagen-records';

/** `count` classic Khet 2.0 games of at most `maxPlies` plies, one node a move after 4 random plies. */
export function selfPlayRecords(count: number, seed: number, maxPlies: number): string {
  const player = new GamePlayer(1);
  const settings = { ...DEFAULT_DATAGEN, nodes: 1, randomPlies: 4, maxPlies };
  let text = '';
  for (let g = 0; g < count; g++) {
    const task = { game: g, seed, edition: 'khet2' as const, setup: 'classic' as const, settings, line: true };
    text += datagenRecord(player.play(task), task, settings, '2026.01.02');
  }
  return text;
}
