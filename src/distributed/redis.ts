/**
 * The Redis a distributed run lives in: its address (`redis://HOST:PORT[/DB]`), connections, and
 * the names of everything the run keeps there. ioredis and BullMQ are loaded only when a
 * distributed command runs, so that an engine started from this build never loads them.
 */
import type { RedisOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../core/result';

export interface RedisAddress {
  host: string;
  port: number;
  db: number;
  /** The address as the user gave it (for messages). */
  text: string;
}

/** A bad `redis://` address. */
export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

/** Redis cannot be reached, or was lost during the run. */
export class RedisUnreachable extends Error {
  override name = 'RedisUnreachable';
}

/** Parses `redis://HOST:PORT[/DB]` (the port defaults to 6379, the database to 0). */
export function parseRedisUrl(text: string): Result<RedisAddress, RedisUrlError> {
  const bad = (why: string): { ok: false; error: RedisUrlError } => err(new RedisUrlError(`'${text}' is not a Redis address (${why}); expected redis://HOST:PORT[/DB]`));
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return bad('not a URL');
  }
  if (u.protocol !== 'redis:') return bad(`the scheme is ${u.protocol.replace(/:$/, '')}, not redis`);
  if (u.hostname === '') return bad('no host');
  if (u.username !== '' || u.password !== '') return bad('credentials in the address are not supported');
  if (u.search !== '' || u.hash !== '') return bad('unexpected ?query or #fragment');
  const port = u.port === '' ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) return bad(`'/${path}' is not a database number`);
  const db = path === '' ? 0 : Number(path);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return ok({ host, port, db, text });
}

/** Connection settings for ioredis and BullMQ (BullMQ's blocking connections need maxRetriesPerRequest: null). */
export function connectionOptions(a: RedisAddress): RedisOptions {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    maxRetriesPerRequest: null,
    connectTimeout: 5000,
    retryStrategy: (times: number) => Math.min(200 * times, 2000),
  };
}

/**
 * Opens a connection and waits until Redis answers, at most `timeoutMs`; a RedisUnreachable
 * with the reason otherwise (the connection is then closed).
 */
export async function openRedis(a: RedisAddress, timeoutMs = 5000): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const r = new Redis({ ...connectionOptions(a), lazyConnect: true });
  let last = '';
  r.on('error', (e: Error) => {
    last = e.message;
  });
  const timer = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new RedisUnreachable(`cannot reach Redis at ${a.text}${last ? `: ${last}` : ''} (waited ${timeoutMs / 1000} s)`)), timeoutMs).unref();
  });
  try {
    await Promise.race([r.connect().then(() => r.ping()), timer]);
    return r;
  } catch (e) {
    r.disconnect();
    if (e instanceof RedisUnreachable) throw e;
    throw new RedisUnreachable(`cannot reach Redis at ${a.text}: ${last || (e as Error).message}`);
  }
}

/** BullMQ's key prefix for Thoth's queues. */
export const QUEUE_PREFIX = 'thoth';

/** The names of a run's queues and keys. */
export const keys = {
  /** Sorted set: run id → creation time. */
  runs: 'thoth:runs',
  run: (id: string) => `thoth:run:${id}`,
  lock: (id: string) => `thoth:run:${id}:lock`,
  status: (id: string) => `thoth:run:${id}:status`,
  llr: (id: string) => `thoth:run:${id}:llr`,
  refusals: (id: string) => `thoth:run:${id}:refusals`,
  control: (id: string) => `thoth:run:${id}:control`,
  build: (checksum: string) => `thoth:build:${checksum}`,
  worker: (id: string) => `thoth:worker:${id}`,
  workers: 'thoth:workers',
  pairsQueue: (id: string) => `pairs-${id}`,
  resultsQueue: (id: string) => `results-${id}`,
};
