/**
 * A Redis that restarts without persistence loses a run's queues while staying reachable: the
 * coordinator says so in one line and exits 1 (it used to wait forever for pairs that no longer
 * existed), the records so far stay, and `-resume` finishes the run. A real redis-server, killed
 * and started again on the same port; the coordinator and workers as child processes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecords } from '../../src/core/record';
import { plural } from '../../src/core/plural';
import { fake, tempDir } from '../match/helpers';
import { REDIS_SERVER, ThothProcess, startRedis, worker, endProcesses } from './helpers';
import { stretched } from '../slowness';

const gameLines = (p: ThothProcess): string[] => p.out.split('\n').filter((l) => l.startsWith('Finished game '));

// a test that failed half-way leaves no coordinator or worker running (registered first: runs last)
afterAll(endProcesses);

describe.skipIf(!REDIS_SERVER)('Redis restarted without persistence', () => {
  it('the run stops with one line and exit code 1; the records stay; -resume finishes it', {
    timeout: stretched(120_000),
  }, async () => {
    const flags = [
      ...fake('A', '--seed 1 --deterministic --delay 20'),
      ...fake('B', '--seed 2 --play random --deterministic --delay 20'),
      '-each',
      'tc=10+0.1',
      '-ratinginterval',
      '0',
      '-maxplies',
      '40',
      '-rounds',
      '3',
      '-srand',
      '3',
    ];
    const pgn = join(tempDir(), 'lost.pgn');
    let redis = await startRedis();
    const port = redis.port;
    const started: ThothProcess[] = [];
    const start = (p: ThothProcess): ThothProcess => (started.push(p), p);
    try {
      const wk = start(worker(redis.url));
      // Redis stays reachable (timeout=30 never runs out): only the lost queues can end this run.
      const coord = start(
        new ThothProcess(['match', ...flags, '-distributed', redis.url, 'timeout=30', '-pgnout', pgn]),
      );
      await coord.waitFor(/^Finished game (?:.|\n)*^Finished game /m);
      await redis.stop();
      redis = await startRedis(port);
      const code = await coord.exited;
      wk.kill('SIGKILL');
      await wk.exited;
      expect(code, coord.err).toBe(1);
      expect(coord.err).toMatch(
        /^thoth match: Redis at redis:\/\/127\.0\.0\.1:\d+ lost this run's queues \(did it restart without persistence\? run redis-server with --appendonly yes\); the records so far are in \S+lost\.pgn: -resume \S+lost\.pgn finishes the run\n$/,
      );
      expect(coord.out).toMatch(/^Match stopped: Redis at .* lost this run's queues/m);
      const played = gameLines(coord).length;
      expect(played).toBeGreaterThanOrEqual(2);
      expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(played);

      const wk2 = start(worker(redis.url, ['--concurrency', '2']));
      const again = start(new ThothProcess(['match', ...flags, '-distributed', redis.url, '-resume', pgn]));
      const code2 = await again.exited;
      wk2.kill('SIGINT');
      await wk2.exited;
      expect(code2, again.err).toBe(0);
      expect(again.out).toContain(`Resumed ${plural(played, 'finished game')} from ${pgn}`);
      const rounds = parseRecords(readFileSync(pgn, 'utf8')).games.map((g) => g.tags.get('Round'));
      expect(new Set(rounds).size).toBe(6);
      expect(rounds).toHaveLength(6);
    } finally {
      for (const p of started) if (p.proc.exitCode === null && p.proc.signalCode === null) p.kill('SIGKILL');
      await redis.stop();
    }
  });
});
