/**
 * Distributed datagen when the world fails under it: a Redis that restarts without persistence
 * (the run's queues are gone while Redis stays reachable) and a full disk on the coordinator
 * (a file-size limit, `ulimit -f`, gives the short write and then EFBIG a full disk gives). Each
 * stops with one line and exit code 1, the file keeps whole games only, and the same command
 * then finishes the file byte for byte as a local one-thread run writes it. A real redis-server,
 * the coordinator and workers as child processes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanData } from '../../src/train/data';
import { tempDir } from '../match/helpers';
import { REDIS_SERVER, ThothProcess, small, startRedis, worker, endProcesses } from './helpers';
import { stretched } from '../slowness';
import { until } from '../patience';

/**
 * Games a run: four chunks of two, a chunk process each (most of these tests' CPU is those
 * processes starting). Enough that the fault comes with chunks still to play: the Redis restart
 * after the first chunk written, the file-size limit at half of the file.
 */
const GAMES = 8;

// a test that failed half-way leaves no coordinator or worker running (registered first: runs last)
afterAll(endProcesses);

describe.skipIf(!REDIS_SERVER)('distributed datagen faults', () => {
  it('Redis restarted without persistence: one line, exit 1; the same command finishes the file as a local run', {
    timeout: stretched(150_000),
  }, async () => {
    const dir = tempDir();
    const out = join(dir, 'dist.bin');
    const flags = [...small(7301), '--games', String(GAMES)];
    const local = new ThothProcess(['datagen', '--out', join(dir, 'local.bin'), '--threads', '1', ...flags]);
    let redis = await startRedis();
    const port = redis.port;
    const started: ThothProcess[] = [];
    const start = (p: ThothProcess): ThothProcess => (started.push(p), p);
    try {
      const cache = ['--cache', join(dir, 'cache')];
      const wk = start(worker(redis.url, cache));
      const command = ['datagen', '--out', out, '--chunk', '2', '--distributed', redis.url, ...flags];
      const coord = start(new ThothProcess(command));
      // Some games written, most still to come.
      await until('two games written', 60_000, () => existsSync(out) && scanData(readFileSync(out)).summary.games >= 2);
      await redis.stop();
      redis = await startRedis(port);
      const code = await coord.exited;
      wk.kill('SIGKILL');
      await wk.exited;
      expect(code, coord.err + coord.out).toBe(1);
      expect(coord.err).toMatch(
        /^thoth datagen: Redis at redis:\/\/127\.0\.0\.1:\d+ lost this run's queues \(did it restart without persistence\? run redis-server with --appendonly yes\); the games so far are in \S+dist\.bin: the same command finishes the run\n$/,
      );
      const kept = scanData(readFileSync(out));
      expect(kept.error).toBeUndefined();
      expect(kept.summary.games).toBeLessThan(GAMES);

      const wk2 = start(worker(redis.url, cache));
      const again = start(new ThothProcess(command));
      expect(await again.exited, again.err + again.out).toBe(0);
      wk2.kill('SIGINT');
      await wk2.exited;
      expect(await local.exited).toBe(0);
      expect(again.out).toMatch(new RegExp(`; the file holds \\d+ positions of ${GAMES} games$`, 'm'));
      expect(readFileSync(out).equals(readFileSync(join(dir, 'local.bin')))).toBe(true);
    } finally {
      for (const p of [...started, local])
        if (p.proc.exitCode === null && p.proc.signalCode === null) p.kill('SIGKILL');
      await redis.stop();
    }
  });

  it('a full disk: `cannot write …`, exit 1, whole games only; with free space the same command finishes the file as a local run', {
    timeout: stretched(150_000),
  }, async () => {
    const dir = tempDir();
    const out = join(dir, 'dist.bin');
    const flags = [...small(7302), '--games', String(GAMES)];
    const local = new ThothProcess(['datagen', '--out', join(dir, 'local.bin'), '--threads', '1', ...flags]);
    const redis = await startRedis();
    const started: ThothProcess[] = [];
    const start = (p: ThothProcess): ThothProcess => (started.push(p), p);
    try {
      expect(await local.exited).toBe(0);
      const full = statSync(join(dir, 'local.bin')).size;
      const wk = start(worker(redis.url, ['--cache', join(dir, 'cache'), '--concurrency', '2']));
      const command = ['datagen', '--out', out, '--chunk', '2', '--distributed', redis.url, ...flags];
      // Room for about half the file: a game is cut short by the limit (a short write), the next write fails.
      const coord = start(new ThothProcess(command, undefined, {}, Math.floor(full / 2 / 512)));
      const code = await coord.exited;
      expect(code, coord.err + coord.out).toBe(1);
      const m =
        /^thoth datagen: cannot write '\S+dist\.bin': the file would be larger than this process may write \(ulimit -f\); the file holds (\d+) positions? of (\d+) whole games?: free space and run the same command again\n$/.exec(
          coord.err,
        );
      expect(m, coord.err).not.toBeNull();
      const kept = scanData(readFileSync(out));
      expect(kept.error).toBeUndefined();
      expect(kept.summary.games).toBe(Number(m![2]));
      expect(kept.summary.positions).toBe(Number(m![1]));
      expect(kept.summary.games).toBeGreaterThan(0);
      expect(kept.summary.games).toBeLessThan(GAMES);

      const again = start(new ThothProcess(command));
      expect(await again.exited, again.err + again.out).toBe(0);
      wk.kill('SIGINT');
      await wk.exited;
      expect(again.out).toMatch(new RegExp(`; the file holds \\d+ positions of ${GAMES} games$`, 'm'));
      expect(readFileSync(out).equals(readFileSync(join(dir, 'local.bin')))).toBe(true);
    } finally {
      for (const p of started) if (p.proc.exitCode === null && p.proc.signalCode === null) p.kill('SIGKILL');
      await redis.stop();
    }
  });
});
