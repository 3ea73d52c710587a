/**
 * One coordinator per run: the run's lock in Redis (`keys.lock(run)`), taken with a time to live,
 * renewed while the coordinator lives and released when it closes. A coordinator that dies holds
 * the lock for LOCK_TTL_MS at most, so the next one waits that long and then goes on.
 */
import type { Redis } from 'ioredis';
import { keys } from './redis';
import { sleep, within } from './wait';

/** How long a lock outlives the coordinator that stopped renewing it. */
const LOCK_TTL_MS = 15_000;
/** How often a waiting coordinator asks again. */
const POLL_MS = 500;

/** Releases the lock only if it is still ours (a lock that expired may be another's by now). */
const RELEASE_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/** The lock is another live coordinator's: `holder` names it. */
export class RunLocked extends Error {
  constructor(
    readonly run: string,
    readonly holder: string | null,
  ) {
    super(`run ${run} is being coordinated by ${holder}: stop it first (or wait for its lock to end)`);
    this.name = 'RunLocked';
  }
}

export class RunLock {
  private held = false;
  private renewal?: NodeJS.Timeout;

  /** `owner` names this coordinator in the lock (host:pid), as other coordinators see it. */
  constructor(
    private readonly redis: Redis,
    private readonly run: string,
    private readonly owner: string,
  ) {}

  /**
   * Takes the lock, waiting (with one `note`) for a dead coordinator's lock to expire; a lock still
   * renewed after its time to live is a live coordinator's: RunLocked. Then renews it until release().
   */
  async take(note: (line: string) => void): Promise<void> {
    const { redis, run } = this;
    const key = keys.lock(run);
    for (let waited = 0; ; waited++) {
      if ((await redis.set(key, this.owner, 'PX', LOCK_TTL_MS, 'NX')) === 'OK') break;
      const holder = await redis.get(key);
      if (waited === 0) {
        const ttl = await redis.pttl(key);
        note(
          `Note: run ${run} is locked by coordinator ${holder} (a coordinator that died: the lock ends within ${Math.ceil(Math.max(ttl, 0) / 1000)} s); waiting`,
        );
      }
      if (waited * POLL_MS > LOCK_TTL_MS + 2000) throw new RunLocked(run, holder);
      await sleep(POLL_MS);
    }
    this.held = true;
    this.renewal = setInterval(() => {
      if (redis.status === 'ready') void redis.set(key, this.owner, 'PX', LOCK_TTL_MS).catch(() => undefined);
    }, LOCK_TTL_MS / 3);
  }

  /** Stops renewing and frees the lock if it is still ours, without waiting long for a Redis that is gone. */
  async release(): Promise<void> {
    clearInterval(this.renewal);
    if (!this.held || this.redis.status !== 'ready') return;
    this.held = false;
    await within(this.redis.eval(RELEASE_IF_OURS, 1, keys.lock(this.run), this.owner), 1000);
  }
}
