/**
 * What the `worker` Redis user can do to a distributed datagen run, replayed on a real
 * redis-server (docs/distributed.md, "Trust"): forged shards (junk, and a well-formed shard of the
 * chunk's game indices from another seed), a chunk job deleted from the queue, stop messages on
 * the run's control channel while the worker plays. Each is refused or survived with one line, and
 * the file is a local one-thread run's byte for byte: no forged game is written, no chunk is lost
 * (a forged stop used to cancel chunks, which the coordinator then waited for forever).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkResult } from '../../src/distributed/datagen-jobs';
import { QUEUE_PREFIX, keys, openRedis, parseRedisUrl } from '../../src/distributed/redis';
import { tempDir } from '../match/helpers';
import { CONTROL, REDIS_SERVER, ThothProcess, small, startRedis, worker, type RedisInstance } from './helpers';
import { runSlowness, stretched } from '../slowness';

describe.skipIf(!REDIS_SERVER)('forgeries against distributed datagen on a real Redis', () => {
  let redis: RedisInstance;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('forged shards refused, a deleted chunk played again, stop messages survived: the file of a local run', {
    timeout: stretched(300_000),
  }, async () => {
    const dir = tempDir();
    const out = join(dir, 'dist.bin');
    const flags = [...small(8202), '--games', '6'];
    const local = new ThothProcess(['datagen', '--out', join(dir, 'local.bin'), '--threads', '1', ...flags]);
    // a well-formed shard of games 2 and 3 (chunk 1's), from another seed
    const foreign = new ThothProcess([
      'datagen',
      '--out',
      join(dir, 'foreign.bin'),
      '--threads',
      '1',
      '--first-game',
      '2',
      '--games',
      '2',
      '--no-dedup',
      ...small(1),
    ]);
    expect(await foreign.exited, foreign.err).toBe(0);
    const a = parseRedisUrl(redis.url);
    if (!a.ok) throw a.error;
    const conn = await openRedis(a.value);
    const coord = new ThothProcess(['datagen', '--out', out, '--chunk', '2', '--distributed', redis.url, ...flags]);
    let wk: ThothProcess | undefined;
    let publishing: NodeJS.Timeout | undefined;
    try {
      await coord.waitFor(/^Datagen run [0-9a-f]{12} /m);
      const run = /^Datagen run ([0-9a-f]{12}) /m.exec(coord.out)![1];
      const connection = { host: '127.0.0.1', port: redis.port };
      const results = new Queue(keys.resultsQueue(run), { connection, prefix: QUEUE_PREFIX });
      const jobs = new Queue(keys.pairsQueue(run), { connection, prefix: QUEUE_PREFIX });
      for (let k = 0; k < 100 * runSlowness() && (await jobs.getWaitingCount()) < 3; k++)
        await new Promise((r) => setTimeout(r, 100));
      const forged: ChunkResult[] = [
        { chunk: 0, worker: 'junk\u001b[2J', shard: Buffer.from('not a data file').toString('base64'), ms: 1 },
        { chunk: 1, worker: 'foreign', shard: readFileSync(join(dir, 'foreign.bin')).toString('base64'), ms: 1 },
      ];
      for (const [k, f] of forged.entries()) await results.add('result', f, { jobId: `forged-${k}` });
      await (await jobs.getJob('chunk-2'))!.remove();
      await coord.waitFor(/^Note: chunk-1 from worker foreign rejected/m, 120_000);
      await coord.waitFor(/^Note: chunk-0 from worker junk\?\[2J rejected/m, 120_000);
      await results.close();
      await jobs.close();
      // Stop messages all along while the worker plays: it must cancel nothing for them.
      publishing = setInterval(() => void conn.publish(keys.control(run), 'stop').catch(() => undefined), 50);
      wk = worker(redis.url);
      expect(await coord.exited, coord.err + coord.out).toBe(0);
      clearInterval(publishing);
      expect(await local.exited).toBe(0);
      expect(readFileSync(out).equals(readFileSync(join(dir, 'local.bin')))).toBe(true);
      expect(coord.out).not.toMatch(CONTROL);
      const notes = coord.out.split('\n').filter((l) => l.startsWith('Note:'));
      expect(notes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^Note: chunk-0 from worker junk\?\[2J rejected \(game [01] is not the game this run plays there\); it is played again$/,
          ),
          expect.stringMatching(
            /^Note: chunk-1 from worker foreign rejected \(game [23] is not the game this run plays there\); it is played again$/,
          ),
          'Note: chunk-2 is gone from the queue without a result to count; it is queued again',
        ]),
      );
      expect(notes.filter((l, i) => notes.indexOf(l) !== i)).toEqual([]);
      // the stop messages lost no chunk: the only one queued again is the one deleted
      expect(notes.filter((l) => /is gone from the queue|failed on a worker/.test(l))).toEqual([
        'Note: chunk-2 is gone from the queue without a result to count; it is queued again',
      ]);
      // nothing cancelled: each chunk played once
      const played = wk.out.split('\n').filter((l) => l.startsWith('Played '));
      expect(played.map((l) => l.split(' ')[1]).sort()).toEqual(['chunk-0', 'chunk-1', 'chunk-2']);
    } finally {
      clearInterval(publishing);
      coord.kill('SIGKILL');
      wk?.kill('SIGINT');
      await wk?.exited;
      conn.disconnect();
    }
  });
});
