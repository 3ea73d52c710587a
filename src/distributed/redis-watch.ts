/**
 * A coordinator's watch on its Redis, shared by the match and datagen coordinators: Redis must stay
 * reachable (after `timeoutMs` without it the run stops, the records or data so far kept), and it
 * must keep the run (back without it, it restarted without persistence or evicted the keys: the
 * queues and the jobs in flight are gone, and nothing would ever come back).
 */
import type { Redis } from 'ioredis';
import { keys, type RedisAddress } from './redis';

/** What the watch tells its coordinator, and asks of it. */
interface RedisWatcher {
  /** Redis has been unreachable this long (past the timeout), in the words of the message. */
  unreachable(message: string): void;
  /** Redis answers but no longer holds the run. */
  forgotten(message: string): void;
  /** True once the coordinator is stopping or has lost Redis: nothing more to watch. */
  done(): boolean;
}

/** Starts the watch; returns its timers (the coordinator clears them when it closes). */
export function watchRedis(
  redis: Redis,
  addr: RedisAddress,
  run: string,
  timeoutMs: number,
  w: RedisWatcher,
): NodeJS.Timeout[] {
  let downSince: number | undefined;
  const reach = setInterval(() => {
    if (redis.status === 'ready') downSince = undefined;
    else if (downSince === undefined) downSince = Date.now();
    else if (Date.now() - downSince > timeoutMs && !w.done())
      w.unreachable(`lost Redis at ${addr.text} (unreachable for ${Math.round((Date.now() - downSince) / 1000)} s)`);
  }, 500);
  let checking = false;
  const keep = setInterval(() => {
    if (w.done() || checking || redis.status !== 'ready') return;
    checking = true;
    redis
      .exists(keys.run(run))
      .then((n) => {
        if (n === 0 && !w.done())
          w.forgotten(
            `Redis at ${addr.text} lost this run's queues (did it restart without persistence? run redis-server with --appendonly yes)`,
          );
      })
      .catch(() => undefined)
      .finally(() => (checking = false));
  }, 500);
  return [reach, keep];
}
