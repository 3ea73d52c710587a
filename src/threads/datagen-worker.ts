/** Worker: one self-play game of `thoth datagen` (piscina task); the table lives as long as the thread. */
import { GamePlayer, type GameTask, type PlayedGame } from '../train/datagen';

let player: GamePlayer | undefined;

export default function run(task: GameTask): PlayedGame {
  if (player === undefined || player.hashMb !== task.settings.hashMb) player = new GamePlayer(task.settings.hashMb);
  return player.play(task);
}
