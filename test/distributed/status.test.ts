/**
 * The status of a distributed run as Redis holds it, read back by `thoth match-status` and the
 * page: a malformed status (not JSON, a field missing or of another type: written by another
 * version, or by hand) is one line and exit code 1, never a stack trace; the LLR series of a long
 * SPRT (a point per game) is thinned to what a graph can show, its first and last points kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, openRedis, parseRedisUrl } from '../../src/distributed/redis';
import { LLR_POINTS, readLlrSeries } from '../../src/distributed/status';
import { REDIS_SERVER, ThothProcess, sampleStatus, startRedis, type RedisInstance } from './helpers';

describe.skipIf(!REDIS_SERVER)('a run status in Redis', () => {
  let redis: RedisInstance;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const connect = async () => {
    const a = parseRedisUrl(redis.url);
    if (!a.ok) throw a.error;
    return openRedis(a.value);
  };

  it('match-status on a malformed status: one line, exit code 1, no stack trace', async () => {
    const r = await connect();
    try {
      const cases: [string, string, RegExp][] = [
        ['a0a0a0a0a0a1', '{"run": ', /its status in Redis is not JSON$/],
        ['a0a0a0a0a0a2', '[1, 2]', /its status in Redis is not one this thoth reads \(not an object\)$/],
        [
          'a0a0a0a0a0a3',
          JSON.stringify({ ...sampleStatus('a0a0a0a0a0a3'), names: 'A vs B' }),
          /its status in Redis is not one this thoth reads \(its field 'names' is missing or of another type\)$/,
        ],
        [
          'a0a0a0a0a0a4',
          JSON.stringify({ ...sampleStatus('a0a0a0a0a0a4'), lines: undefined }),
          /its status in Redis is not one this thoth reads \(its field 'lines' is missing or of another type\)$/,
        ],
        [
          'a0a0a0a0a0a5',
          JSON.stringify({ kind: 'datagen', ...sampleStatus('a0a0a0a0a0a5') }),
          /its status in Redis is not one this thoth reads \(its field 'out' is missing or of another type\)$/,
        ],
      ];
      for (const [run, text] of cases) {
        await r.set(keys.status(run), text);
        await r.zadd(keys.runs, Date.now(), run);
      }
      // all at once: each a process of its own
      const procs = cases.map(([run]) => new ThothProcess(['match-status', redis.url, run]));
      for (const [k, [run, , message]] of cases.entries()) {
        const p = procs[k];
        expect(await p.exited, p.err).toBe(1);
        const lines = p.err.split('\n').filter((l) => l !== '');
        expect(lines, p.err).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^thoth match-status: run ${run}: ${message.source}`));
      }
      // a good one still prints
      await r.set(keys.status('a0a0a0a0a0a6'), JSON.stringify(sampleStatus('a0a0a0a0a0a6')));
      const good = new ThothProcess(['match-status', redis.url, 'a0a0a0a0a0a6']);
      expect(await good.exited, good.err).toBe(0);
      expect(good.out).toMatch(/^Run a0a0a0a0a0a6: A vs B \| khet2 \| 10\+0\.1 \| running$/m);
    } finally {
      r.disconnect();
    }
  });

  it(`an LLR series of 200,000 games is read as ${LLR_POINTS} points, the first and the last kept`, async () => {
    const r = await connect();
    try {
      const run = 'b0b0b0b0b0b0';
      const n = 200_000;
      for (let from = 0; from < n; from += 10_000) {
        const batch = Array.from({ length: 10_000 }, (_, k) => `${from + k + 1} ${((from + k) / n).toFixed(4)}`);
        await r.rpush(keys.llr(run), ...batch);
      }
      const s = await readLlrSeries(r, run);
      expect(s).toHaveLength(LLR_POINTS);
      expect(s[0]).toEqual([1, 0]);
      expect(s[s.length - 1]).toEqual([n, Number(((n - 1) / n).toFixed(4))]);
      for (let k = 1; k < s.length; k++) expect(s[k][0]).toBeGreaterThan(s[k - 1][0]);
    } finally {
      r.disconnect();
    }
  });
});
