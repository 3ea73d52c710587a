/**
 * The status page in a real Chromium against a real redis-server: an SPRT of 200,000 games (a
 * point of the LLR series per game) is drawn, and a status it cannot read says so on the page.
 * (Spreading the series into Math.max overflowed the page's stack past about 150,000 points.)
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusPage, type StatusPage } from '../../src/distributed/page';
import { keys, openRedis, parseRedisUrl } from '../../src/distributed/redis';
import { HAVE_CHROMIUM, theBrowser, watchErrors } from '../gui/browser';
import { REDIS_SERVER, ROOT, sampleStatus, startRedis, type RedisInstance } from './helpers';
import { stretched } from '../slowness';

describe.skipIf(!REDIS_SERVER || !HAVE_CHROMIUM)('the status page', () => {
  let redis: RedisInstance;
  let page: StatusPage;
  let conn: Awaited<ReturnType<typeof openRedis>>;
  beforeAll(async () => {
    redis = await startRedis();
    const a = parseRedisUrl(redis.url);
    if (!a.ok) throw a.error;
    conn = await openRedis(a.value);
    page = await startStatusPage(conn, { port: 0, staticDir: path.join(ROOT, 'dist', 'status') });
  });
  afterAll(async () => {
    await page?.close();
    conn?.disconnect();
    await redis?.stop();
  });

  const show = async (run: string): Promise<{ errors: string[]; points: number; meta: string }> => {
    const ctx = await (await theBrowser()).newContext();
    try {
      const p = await ctx.newPage();
      const errors: string[] = [];
      watchErrors(p, errors);
      await p.goto(`${page.url}&run=${run}`);
      // the first answer of /api/status drawn (or the page's error: then nothing changes)
      await p.waitForFunction(() => document.getElementById('meta')?.textContent !== 'Loading…', undefined, {
        timeout: stretched(60_000),
      });
      await p.waitForTimeout(300);
      const points = await p.evaluate(
        () => (document.querySelector('polyline.llr')?.getAttribute('points') ?? '').split(' ').filter(Boolean).length,
      );
      const meta = (await p.textContent('#meta')) ?? '';
      return { errors, points, meta };
    } finally {
      await ctx.close();
    }
  };

  it('draws the LLR of an SPRT of 200,000 games', async () => {
    const run = 'c0c0c0c0c0c0';
    const n = 200_000;
    await conn.set(keys.status(run), JSON.stringify({ ...sampleStatus(run), games: n }));
    await conn.zadd(keys.runs, Date.now(), run);
    for (let from = 0; from < n; from += 10_000)
      await conn.rpush(
        keys.llr(run),
        ...Array.from({ length: 10_000 }, (_, k) => `${from + k + 1} ${(Math.sin((from + k) / 5000) * 2).toFixed(3)}`),
      );
    const r = await show(run);
    expect(r.errors).toEqual([]);
    expect(r.points).toBeGreaterThan(1000);
    expect(r.points).toBeLessThanOrEqual(2001);
  });

  it('a status it cannot read: the reason on the page', async () => {
    const run = 'c0c0c0c0c0c1';
    await conn.set(keys.status(run), '{"run":');
    await conn.zadd(keys.runs, Date.now(), run);
    const r = await show(run);
    expect(r.errors).toEqual([]);
    expect(r.meta).toBe(`run ${run}: its status in Redis is not JSON`);
  });
});
