/**
 * What a datagen or review coordinator watches while its run goes on (datagen-coordinator.ts,
 * review-coordinator.ts): every 500 ms, that Redis answers (unreachable for longer than
 * `timeoutMs`, 10 s by default: RedisUnreachable) and still holds the run's hash (a Redis
 * restarted without persistence has lost the queues: the error `forgotten` makes). `lost` hears
 * the first of them, once; the run's hash is not looked at while `quiet()` (the run is stopping).
 */
import type { Redis } from 'ioredis';
import { keys, type RedisAddress, RedisUnreachable } from './redis';

export function watchRun(o: {
  redis: Redis;
  addr: RedisAddress;
  run: string;
  timeoutMs?: number;
  quiet: () => boolean;
  forgotten: (message: string) => RedisUnreachable;
  lost: (e: RedisUnreachable) => void;
}): NodeJS.Timeout {
  const { redis, addr } = o;
  let downSince: number | undefined;
  let checking = false;
  let gone = false;
  const lose = (e: RedisUnreachable): void => {
    if (gone) return;
    gone = true;
    o.lost(e);
  };
  return setInterval(() => {
    if (gone) return;
    if (redis.status === 'ready') downSince = undefined;
    else if (downSince === undefined) downSince = Date.now();
    else if (Date.now() - downSince > (o.timeoutMs ?? 10_000))
      lose(
        new RedisUnreachable(
          `lost Redis at ${addr.text} (unreachable for ${Math.round((Date.now() - downSince) / 1000)} s)`,
        ),
      );
    if (gone || checking || o.quiet() || redis.status !== 'ready') return;
    checking = true;
    redis
      .exists(keys.run(o.run))
      .then((n) => {
        if (n !== 0 || gone || o.quiet()) return;
        lose(
          o.forgotten(
            `Redis at ${addr.text} lost this run's queues (did it restart without persistence? run redis-server with --appendonly yes)`,
          ),
        );
      })
      .catch(() => undefined)
      .finally(() => (checking = false));
  }, 500);
}
