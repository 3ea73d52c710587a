/**
 * What the `worker` Redis user (or anyone who can write the queues) can do to a run, replayed on a
 * real redis-server against a real coordinator and worker (docs/distributed.md, "Trust"): forged
 * results, a pair job edited in the queue, a job deleted, stop messages on the run's control
 * channel, heartbeats of a billion slots or of words. Each is refused or survived with one line;
 * the run then ends as a local run with the same flags does, and its record file reads back as the
 * coordinator counted it (`thoth stats`, `-resume`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecords } from '../../src/core/record';
import type { PairResult, ReportedGame, SignedJob } from '../../src/distributed/jobs';
import { QUEUE_PREFIX, keys, openRedis, parseRedisUrl } from '../../src/distributed/redis';
import { fake, run, tempDir } from '../match/helpers';
import {
  CONTROL,
  REDIS_SERVER,
  ThothProcess,
  normalisedGames,
  startRedis,
  worker,
  type RedisInstance,
} from './helpers';
import { runSlowness, stretched } from '../slowness';

const outLines = (p: ThothProcess): string[] => p.out.split('\n').filter((l) => l !== '');

describe.skipIf(!REDIS_SERVER)('forgeries on a real Redis', () => {
  let redis: RedisInstance;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a match: each forgery refused or survived in one line, and the games are those of a local run', {
    timeout: stretched(240_000),
  }, async () => {
    const dir = tempDir();
    const pgn = join(dir, 'dist.pgn');
    const flags = [
      ...fake('A', '--seed 1 --deterministic --delay 5'),
      ...fake('B', '--seed 2 --play random --deterministic --delay 5'),
      '-each',
      'tc=10+0.1',
      '-ratinginterval',
      '0',
      '-maxplies',
      '30',
      '-rounds',
      '3',
      '-srand',
      '3',
    ];
    const a = parseRedisUrl(redis.url);
    if (!a.ok) throw a.error;
    const conn = await openRedis(a.value);
    const coord = new ThothProcess(['match', ...flags, '-distributed', redis.url, '-pgnout', pgn]);
    let wk: ThothProcess | undefined;
    let publishing: NodeJS.Timeout | undefined;
    try {
      await coord.waitFor(/\(run ([0-9a-f]{12})\)/);
      const id = /\(run ([0-9a-f]{12})\)/.exec(coord.out)![1];
      const connection = { host: '127.0.0.1', port: redis.port };
      const results = new Queue(keys.resultsQueue(id), { connection, prefix: QUEUE_PREFIX });
      const pairs = new Queue(keys.pairsQueue(id), { connection, prefix: QUEUE_PREFIX });
      // the three pairs queued, before any worker
      for (let k = 0; k < 100 * runSlowness() && (await pairs.getWaitingCount()) < 3; k++)
        await new Promise((r) => setTimeout(r, 100));

      // Forged results: a game of no moves scored 1-0, moves that are not legal there, junk, a pair of no run.
      const evil = '\u001b[31mevil\nFinished game 1 (A vs B): 1-0';
      const game = (over: Partial<ReportedGame>): ReportedGame => ({
        index: 0,
        score: 1,
        termination: 'normal',
        reason: 'Pharaoh hit\u001b[2J',
        faultSide: -1,
        engineLost: false,
        record: { tags: [['White', 'B']], moves: [], result: '1-0' },
        ...over,
      });
      const forged: unknown[] = [
        { pair: 'pair-1', worker: evil, ms: 1, games: [game({})] } satisfies PairResult,
        {
          pair: 'pair-1',
          worker: 'w2',
          ms: 1,
          games: [game({ record: { tags: [], moves: [{ move: 'a1a2' }, { move: 'j8j7' }], result: '1-0' } })],
        },
        'garbage',
        { pair: 'pair-999', worker: 'w3', games: [] },
      ];
      for (const [k, data] of forged.entries()) await results.add('result', data, { jobId: `forged-${k}` });

      // A pair job edited in the queue (its opening changed, the signature kept), and one deleted.
      const edited = await pairs.getJob('pair-3');
      const body = JSON.parse((edited!.data as SignedJob).body);
      body.opening.label = 'edited';
      await edited!.updateData({ ...(edited!.data as SignedJob), body: JSON.stringify(body) });
      await (await pairs.getJob('pair-5'))!.remove();

      // Heartbeats of a billion slots and of words, alive for the whole run.
      for (const [w, c] of [
        ['huge', '1000000000'],
        ['words', 'many'],
      ]) {
        await conn.hset(keys.worker(w), { concurrency: c, busy: '0', run: '', pairs: '0' });
        await conn.zadd(keys.workers, Date.now() + 3_600_000, w);
      }

      await coord.waitFor(/^Note: worker words is left out of the counts/m);
      // Stop messages on the control channel all along: a worker must not cancel its pairs for them.
      publishing = setInterval(() => void conn.publish(keys.control(id), 'stop').catch(() => undefined), 50);
      wk = worker(redis.url);
      const code = await coord.exited;
      expect(code, coord.err + coord.out).toBe(0);
      clearInterval(publishing);
      await results.close();
      await pairs.close();

      const lines = outLines(coord);
      expect(coord.out).not.toMatch(CONTROL);
      const notes = lines.filter((l) => l.startsWith('Note:'));
      expect(notes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^Note: the result of pair-1 from worker \?\[31mevil\?Finished game 1 \(A vs B\): 1-0 is refused \(game 1: the moves do not end the game, and 'normal' is not an engine's fault\); the pair is played again$/,
          ),
          expect.stringMatching(
            /^Note: the result of pair-1 from worker w2 is refused \(game 1: move 1 \(a1a2\) is not legal\); /,
          ),
          'Note: a result from worker undefined is refused (not a pair of this run)',
          'Note: a result of pair-999 from worker w3 is refused (not a pair of this run)',
          expect.stringMatching(
            /^Note: pair-3 failed on a worker \(pair-3 is not a job of this run: it does not match its signature by the run's key \(changed in Redis\)\); it is queued again$/,
          ),
          'Note: pair-5 is gone from the queue without a result to count; it is queued again',
          "Note: worker huge is left out of the counts: its slots are '1000000000', not a whole number from 1 to 1024",
          "Note: worker words is left out of the counts: its slots are 'many', not a whole number from 1 to 1024",
        ]),
      );
      // one line each: no note twice
      expect(notes.filter((l, i) => notes.indexOf(l) !== i)).toEqual([]);
      // the stop messages cancelled nothing: each pair played once (pair-3 once its job was queued again)
      const played = outLines(wk).filter((l) => l.startsWith('Played '));
      expect(played.map((l) => l.split(' ')[1]).sort()).toEqual(['pair-1', 'pair-3', 'pair-5']);

      // The games are a local run's, and the file reads back as the coordinator counted it.
      const local = await run([...flags, '-pgnout', join(dir, 'local.pgn')]);
      expect(normalisedGames(readFileSync(pgn, 'utf8'))).toEqual(
        normalisedGames(readFileSync(join(dir, 'local.pgn'), 'utf8')),
      );
      expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(6);
      const score = lines.filter((l) => l.startsWith('Score of')).pop();
      expect(score).toBe(local.lines.filter((l) => l.startsWith('Score of')).pop());
      const stats = new ThothProcess(['stats', pgn]);
      expect(await stats.exited).toBe(0);
      expect(stats.out).toContain(score);
      const resumed = new ThothProcess(['match', ...flags, '-resume', pgn]);
      expect(await resumed.exited, resumed.err).toBe(0);
      expect(resumed.out).toMatch(/^Resumed 6 finished games from /m);
    } finally {
      clearInterval(publishing);
      coord.kill('SIGKILL');
      wk?.kill('SIGINT');
      await wk?.exited;
      conn.disconnect();
    }
  });
});
