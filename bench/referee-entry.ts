/**
 * The program bench/referee-overhead.mjs bundles once per source tree (its `../src/` imports taken
 * from that tree's src/): a local match between two fake engines that report, as their score, the
 * microseconds from reading `go` to writing `bestmove` (test/match/fixtures/fake-engine.ts
 * `--report-think`), run in this process, with the event loop's delay sampled. It prints one JSON
 * line: each move's time as the referee charged it and the engine's own, the event-loop delay
 * percentiles, and the games lost on time. FLOOR=1: instead of a match, as many engines asked
 * for moves by loops that do nothing else (the floor: pipes and scheduling alone).
 *
 *   [FLOOR=1] FAKE_DELAY=MS node referee-entry.mjs FAKE_ENGINE.mjs PGN [match flags…]
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseRecords } from '../src/core/record';
import { parseMatchArgs } from '../src/match/config';
import { EngineProcess, type EngineSpec } from '../src/match/engine-process';
import { runMatch } from '../src/match/tournament';

const [fake, pgn, ...flags] = process.argv.slice(2);
const floor = process.env.FLOOR === '1';
const fakeArgs = (seed: number): string =>
  `${fake} --seed ${seed} --play quiet --report-think --delay ${process.env.FAKE_DELAY ?? '0'}`;
const engine = (name: string, seed: number): string[] => [
  '-engine',
  'cmd=node',
  `args=${fakeArgs(seed)}`,
  `name=${name}`,
];
const engineSpec = (k: number) => ({
  name: `E${k}`,
  nameGiven: true,
  command: ['node', ...fakeArgs(k).split(' ')],
  options: [],
});
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
/** [referee ms, engine µs] per move. */
const moves: [number, number][] = [];
let forfeits = 0;
let games = 0;
if (floor) {
  // The floor: as many engine processes, each asked for a move again and again by a loop that does
  // nothing else (no rules, no record): what the pipes and the machine's scheduling cost alone.
  const slots = Number(flags[flags.indexOf('-concurrency') + 1] ?? '1');
  const perSlot = Number(process.env.FLOOR_MOVES ?? '200');
  await Promise.all(
    Array.from({ length: 2 * slots }, async (_, k) => {
      const e = new EngineProcess({ ...engineSpec(k), limits: {}, timeMarginMs: 0 } as EngineSpec);
      e.start();
      if ((await e.handshake('khet2', 20_000)) !== undefined) throw new Error('the fake engine did not start');
      for (let i = 0; i < perSlot / 2; i++) {
        let think = 0;
        e.onLine = (l) => {
          const m = / score cp (\d+) /.exec(l);
          if (m) think = Number(m[1]);
        };
        e.send('position startpos');
        const t0 = performance.now();
        e.send('go wtime 500 btime 500 winc 10 binc 10');
        const r = await e.waitFor((l) => l.startsWith('bestmove'), 10_000);
        moves.push([Math.round((r.kind === 'line' && 'at' in r ? r.at : performance.now()) - t0), think]);
      }
      await e.quit();
    }),
  );
} else {
  const cfg = parseMatchArgs([...engine('A', 1), ...engine('B', 2), '-pgnout', pgn, ...flags]);
  if (!cfg.ok) throw cfg.error;
  const r = await runMatch(cfg.value, { write: () => undefined });
  games = r.finished.length;
  for (const g of parseRecords(readFileSync(pgn, 'utf8')).games) {
    if (g.tags.get('Termination') === 'time forfeit') forfeits++;
    for (const m of g.moves) if (m.timeMs !== undefined && m.scoreCp !== undefined) moves.push([m.timeMs, m.scoreCp]);
  }
}
loop.disable();
const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
process.stdout.write(
  `${JSON.stringify({
    moves,
    forfeits,
    games,
    loop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
  })}\n`,
);
