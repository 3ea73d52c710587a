/**
 * The Redis a distributed run lives in: its address (`redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB]`,
 * the password also from a file or THOTH_REDIS_PASSWORD, a CA file for TLS), connections, and
 * the names of everything the run keeps there. ioredis and BullMQ are loaded only when a
 * distributed command runs, so that an engine started from this build never loads them.
 */
import type { RedisOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../core/result';
import { readFileCapped } from '../process/files';

/**
 * The most a password file or a CA file is read (a password's first line; a CA bundle such as
 * Debian's ca-certificates.crt is about 200 KB): a device such as /dev/zero, or a wrong file, is
 * refused there instead of read forever.
 */
const PASSWORD_FILE_LIMIT = 64 * 1024;
const CA_FILE_LIMIT = 4 * 1024 * 1024;

export interface RedisAddress {
  host: string;
  port: number;
  db: number;
  /** The address as the user gave it, without its password (for messages). */
  text: string;
  /** `rediss://`: TLS, the server's certificate checked against `ca` (else the system's CAs). */
  tls: boolean;
  /** The ACL user (Redis 6+), or undefined: the default user. */
  username?: string;
  password?: string;
  /** PEM of the CAs that sign the server's certificate (`--redis-ca FILE`). */
  ca?: Buffer;
}

/** Where an address's secrets come from besides the address itself. */
export interface RedisSecrets {
  /** A file whose first line is the password (`--redis-password-file FILE`). */
  passwordFile?: string;
  /** A PEM file of the CAs of a `rediss://` server (`--redis-ca FILE`). */
  caFile?: string;
  /** The environment (THOTH_REDIS_PASSWORD). */
  env?: NodeJS.ProcessEnv;
}

/** The address syntax, for messages. */
export const REDIS_URL_SYNTAX = 'redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB]';

/** A bad `redis://` address. */
export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

/** Redis cannot be reached, or was lost during the run. */
export class RedisUnreachable extends Error {
  override name = 'RedisUnreachable';
}

/**
 * Parses `redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB]` (the port defaults to 6379, the database
 * to 0; user and password percent-encoded). The address in messages never shows the password.
 */
export function parseRedisUrl(text: string): Result<RedisAddress, RedisUrlError> {
  let shown = text;
  const bad = (why: string): { ok: false; error: RedisUrlError } =>
    err(new RedisUrlError(`'${shown}' is not a Redis address (${why}); expected ${REDIS_URL_SYNTAX}`));
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    shown = text.replace(/^([a-z]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
    return bad('not a URL');
  }
  if (u.password !== '') {
    const v = new URL(text);
    v.password = '***';
    shown = v.href.replace(/\/$/, text.endsWith('/') ? '/' : '');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    return bad(`the scheme is ${u.protocol.replace(/:$/, '')}, not redis or rediss`);
  if (u.hostname === '') return bad('no host');
  if (u.search !== '' || u.hash !== '') return bad('unexpected ?query or #fragment');
  const port = u.port === '' ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) return bad(`'/${path}' is not a database number`);
  const db = path === '' ? 0 : Number(path);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  let username: string | undefined;
  let password: string | undefined;
  try {
    username = u.username !== '' ? decodeURIComponent(u.username) : undefined;
    password = u.password !== '' ? decodeURIComponent(u.password) : undefined;
  } catch {
    return bad('a bad %-escape in the user or password');
  }
  return ok({ host, port, db, text: shown, tls: u.protocol === 'rediss:', username, password });
}

/**
 * An address with its secrets: the password from the address, else from `passwordFile` (its
 * first line), else THOTH_REDIS_PASSWORD; the CA file read for `rediss://`.
 */
export function redisAddress(text: string, secrets: RedisSecrets = {}): Result<RedisAddress, RedisUrlError> {
  const a = parseRedisUrl(text);
  if (!a.ok) return a;
  const addr = a.value;
  const env = secrets.env ?? process.env;
  if (addr.password === undefined && secrets.passwordFile !== undefined) {
    const r = readFileCapped(
      secrets.passwordFile,
      `the Redis password file '${secrets.passwordFile}'`,
      PASSWORD_FILE_LIMIT,
      ', the limit for a password file',
    );
    if (!r.ok) return err(new RedisUrlError(r.error));
    addr.password = r.value.toString('utf8').split(/\r?\n/)[0];
    if (addr.password === '')
      return err(new RedisUrlError(`the Redis password file '${secrets.passwordFile}' is empty`));
  }
  if (addr.password === undefined && env.THOTH_REDIS_PASSWORD) addr.password = env.THOTH_REDIS_PASSWORD;
  if (secrets.caFile !== undefined) {
    if (!addr.tls) return err(new RedisUrlError(`a CA file is for a TLS address (rediss://), not ${addr.text}`));
    const r = readFileCapped(
      secrets.caFile,
      `the CA file '${secrets.caFile}'`,
      CA_FILE_LIMIT,
      ', the limit for a CA file',
    );
    if (!r.ok) return err(new RedisUrlError(r.error));
    addr.ca = r.value;
    if (!addr.ca.toString('latin1').includes('-----BEGIN CERTIFICATE-----'))
      return err(new RedisUrlError(`the CA file '${secrets.caFile}' holds no PEM certificate`));
  }
  return ok(addr);
}

/** Connection settings for ioredis and BullMQ (BullMQ's blocking connections need maxRetriesPerRequest: null). */
export function connectionOptions(a: RedisAddress): RedisOptions {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    ...(a.username !== undefined ? { username: a.username } : {}),
    ...(a.password !== undefined ? { password: a.password } : {}),
    ...(a.tls ? { tls: a.ca !== undefined ? { ca: a.ca } : {} } : {}),
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
  let fatal: (e: RedisUnreachable) => void = () => undefined;
  r.on('error', (e: Error) => {
    last = e.message.split('\n')[0];
    // A refused login or a certificate that does not check out will not get better by waiting.
    const why = loginOrTlsProblem(e);
    if (why !== undefined) fatal(new RedisUnreachable(`cannot use Redis at ${a.text}: ${why}`));
  });
  const timer = new Promise<never>((_, reject) => {
    fatal = reject;
    setTimeout(
      () =>
        reject(
          new RedisUnreachable(
            `cannot reach Redis at ${a.text}${last ? `: ${last}` : ''} (waited ${timeoutMs / 1000} s)`,
          ),
        ),
      timeoutMs,
    ).unref();
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

/** A refused login or a TLS certificate that fails its check, in words; undefined for other errors. */
function loginOrTlsProblem(e: Error): string | undefined {
  const m = e.message.split('\n')[0];
  const hint = '(give the user and password in the address, --redis-password-file FILE or THOTH_REDIS_PASSWORD)';
  if (/^NOAUTH\b/.test(m)) return `it wants a password (NOAUTH) ${hint}`;
  if (/^WRONGPASS\b/.test(m)) return `the user or password is wrong, or the user is disabled (WRONGPASS) ${hint}`;
  if (/^NOPERM\b/.test(m)) return `${m} (see the ACL users of docs/distributed.md)`;
  if (/\bAUTH\b.*(without any password|no password is set)/i.test(m))
    return `${m} (this Redis has no password: leave it out of the address)`;
  const code = (e as NodeJS.ErrnoException).code ?? '';
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code))
    return `its TLS certificate is not trusted: ${m} (give the CA that signed it with --redis-ca FILE, or ca=FILE after -distributed)`;
  if (/wrong version number|packet length too long|unknown protocol/i.test(m))
    return `TLS failed (${m}): is this a rediss:// server?`;
  return undefined;
}

/** BullMQ's key prefix for Thoth's queues. */
export const QUEUE_PREFIX = 'thoth';

/** How long a finished run's keys (its settings, status, LLR and refusals) stay in Redis: seven days. */
export const KEEP_FINISHED_S = 7 * 24 * 3600;

/** True for text shaped like a run's id (12 hex digits: a match's or a datagen run's, as its coordinator prints it). */
export const isRunId = (text: string): boolean => /^[0-9a-f]{12}$/.test(text);

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
  net: (checksum: string) => `thoth:net:${checksum}`,
  worker: (id: string) => `thoth:worker:${id}`,
  workers: 'thoth:workers',
  pairsQueue: (id: string) => `pairs-${id}`,
  resultsQueue: (id: string) => `results-${id}`,
};
