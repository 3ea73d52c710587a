/**
 * `thoth datagen` played here: the run's games on worker threads (src/train/datagen-run.ts), a
 * progress line, the closing lines; Ctrl-C stops the run (the games in progress dropped, exit 130).
 */
import { fmtDuration } from '../core/duration';
import { plural } from '../core/plural';
import type { DatagenRun, LocalPlay } from '../train/datagen-run';
import { CommandError, EXIT } from './args';
import { onInterrupt } from './interrupt';
import type { ProgressLine } from './progress';

/** `n` things, against their target `of` when `on` (`1,200/5,000 positions`), else alone (`1,200 positions`). */
function countAgainst(n: number, one: string, many: string, of: number, on: boolean): string {
  return on
    ? `${n.toLocaleString('en')}/${plural(of, one, many, of.toLocaleString('en'))}`
    : plural(n, one, many, n.toLocaleString('en'));
}

/** The games on worker threads, a progress line, the closing lines; Ctrl-C stops the run. */
export async function playLocal(run: DatagenRun, p: LocalPlay, progress: ProgressLine, write: (s: string) => void) {
  const { out, positions: target, games: gameTarget } = run.o;
  // The ETA counts towards the target given: games when there is one (a game database), else positions.
  const byGames = Number.isFinite(gameTarget);
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const secs = Math.max((performance.now() - t0) / 1000, 1e-3);
    const rate = run.positions / secs;
    const t = run.totals();
    const left = byGames ? (gameTarget - t.games) / (run.games / secs) : (target - t.positions) / rate;
    const eta = Number.isFinite(left) && left >= 0 ? ` ETA ${fmtDuration(left * 1000)}` : '';
    const line = `${countAgainst(t.positions, 'position', 'positions', target, !byGames)}, ${countAgainst(t.games, 'game', 'games', gameTarget, byGames)}`;
    progress.show(`datagen: ${line}, ${rate.toFixed(0)} positions/s,${eta}`, true);
  }, 1000);
  ticker.unref();
  const detach = onInterrupt(() => {
    progress.clear();
    process.stderr.write('\nInterrupted: the games in progress are dropped; run the same command again to go on\n');
    run.stop();
  });
  try {
    await run.play(p);
  } finally {
    detach();
    clearInterval(ticker);
    progress.clear();
  }
  const secs = (performance.now() - t0) / 1000;
  const t = run.totals();
  const tally = run.tally;
  const pct = (x: number): string => `${((100 * x) / Math.max(1, tally.searched)).toFixed(1)} %`;
  const rate = (run.positions / Math.max(secs, 1e-3)).toFixed(1);
  write(
    `Wrote ${plural(run.positions, 'position')} of ${plural(run.games, 'game')} to ${out} in ${secs.toFixed(1)} s (${rate} positions/s, ` +
      `${plural(p.threads, 'thread')}, ${p.settings.depth ? `depth ${p.settings.depth}` : `${p.settings.nodes} nodes`} per move); the file holds ${plural(t.positions, 'position')} of ${plural(t.games, 'game')}`,
  );
  write(
    `Searched ${plural(tally.searched, 'position')}: kept ${pct(run.positions)}; left out: before ply ${p.settings.skipPlies} ${pct(tally.early)}, ` +
      `not quiet ${pct(tally.notQuiet)}, score ${pct(tally.score)}, duplicates ${pct(run.duplicates)}`,
  );
  const ends = [...tally.ends].map(([k, v]) => `${k} ${v}`).join(', ');
  const [lost, drawn, won] = tally.results;
  write(`Games: first player won ${won}, drawn ${drawn}, lost ${lost}; ended by ${ends || 'none'}`);
  if (run.stopped)
    throw new CommandError(
      `interrupted: ${out} holds ${plural(t.positions, 'position')}; the same command goes on`,
      EXIT.interrupted,
    );
}
