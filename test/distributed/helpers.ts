/**
 * Shared helpers for the distributed tests: a real redis-server of their own (a free loopback
 * port, a temporary folder, no persistence), and `thoth` commands run as child processes.
 */
import { keys, openRedis, parseRedisUrl } from '../../src/distributed/redis';
import type { RunStatus } from '../../src/distributed/status';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedFolder } from '../../scripts/suite-owned.mjs';
import { BUILD_IS_FRESH, CLI_BUILT, CLI_SOURCE, ROOT } from '../cli/helpers';
import { fakeEngineScript } from '../match/helpers';
import { patiently, tail } from '../patience';

/**
 * An Ed25519 key pair in PEM files (a coordinator's signing key and the public key its workers
 * trust), in a new folder under `parent`.
 */
export function makeKeys(parent = tmpdir()): { private: string; public: string } {
  const dir = mkdtempSync(path.join(parent, 'thoth-keys-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keys = { private: path.join(dir, 'coordinator.key'), public: path.join(dir, 'coordinator.pub') };
  writeFileSync(keys.private, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(keys.public, publicKey.export({ type: 'spki', format: 'pem' }));
  return keys;
}

/**
 * The key every `thoth` child of these tests signs runs with (THOTH_SIGN_KEY) and trusts
 * (THOTH_TRUST); the trust tests (trust.test.ts) give other keys on the command line.
 */
export const TEST_KEYS = makeKeys(sharedFolder('keys'));

/** redis-server from Debian (/usr/bin) or the PATH, or undefined. */
export function findRedisServer(): string | undefined {
  if (existsSync('/usr/bin/redis-server')) return '/usr/bin/redis-server';
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p !== '' ? p : undefined;
}

/** Control characters other than the line break: terminal escapes, carriage returns (none may reach a terminal raw). */
export const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

export const REDIS_SERVER = findRedisServer();
if (!REDIS_SERVER) {
  process.stderr.write(
    'distributed tests skipped: redis-server is not installed (apt-get install redis-server; .ci/run installs it)\n',
  );
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisInstance {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a redis-server on a free loopback port (or on `port`: a restart) with a temporary folder
 * and no persistence; stop() ends it and removes the folder.
 */
export async function startRedis(
  port?: number,
  opts: { extra?: string[]; tls?: TlsFiles } = {},
): Promise<RedisInstance> {
  port ??= await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'thoth-redis-'));
  const listen = opts.tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        opts.tls.cert,
        '--tls-key-file',
        opts.tls.key,
        '--tls-ca-cert-file',
        opts.tls.ca,
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(port)];
  const args = [
    ...listen,
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'yes',
    ...(opts.extra ?? []),
  ];
  const proc = spawn(REDIS_SERVER!, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its log says when it listens (or why it cannot); the log keeps being read so that the pipe never fills.
  let log = '';
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      reject(new Error(`redis-server on port ${port} ${why}; its log:\n${log}`));
    };
    const timer = setTimeout(() => fail('is not ready after 20 s'), 20_000);
    const read = (d: Buffer): void => {
      if (settled) return;
      log += d.toString();
      if (/Ready to accept connections/.test(log)) {
        settled = true;
        clearTimeout(timer);
        proc.off('exit', ended);
        resolve();
      }
    };
    const ended = (code: number | null, signal: string | null): void =>
      fail(`ended (${signal ?? `exit code ${code}`}) before it was ready`);
    proc.stdout!.on('data', read);
    proc.stderr!.on('data', read);
    proc.once('exit', ended);
    proc.once('error', (e) => fail(`cannot start: ${e.message}`));
  });
  return {
    port,
    url: `${opts.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGKILL');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A throwaway CA and a server certificate for 127.0.0.1 signed by it (PEM files). */
export interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/** Makes a throwaway CA and a certificate for 127.0.0.1 and localhost with openssl, in a temporary folder. */
export function makeTls(): TlsFiles {
  const dir = mkdtempSync(path.join(tmpdir(), 'thoth-tls-'));
  const f = (n: string): string => path.join(dir, n);
  writeFileSync(f('ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const steps = [
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      f('ca.key'),
      '-out',
      f('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=Thoth test CA',
    ],
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      f('server.key'),
      '-out',
      f('server.csr'),
      '-subj',
      '/CN=localhost',
    ],
    [
      'x509',
      '-req',
      '-in',
      f('server.csr'),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f('server.pem'),
      '-days',
      '2',
      '-extfile',
      f('ext'),
    ],
  ];
  for (const a of steps) {
    const r = spawnSync('openssl', a, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${a[0]} failed: ${r.stderr}`);
  }
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
/**
 * The built CLI when it is newer than src/ (`npm test` builds it first): it starts in a fraction of
 * the time tsx needs, and these tests start many processes. Otherwise the sources through tsx.
 */
const COMMAND = BUILD_IS_FRESH ? [CLI_BUILT] : ['--import', TSX, CLI_SOURCE];

/** The ThothProcesses still running (endProcesses ends them). */
const running = new Set<ThothProcess>();

/**
 * Ends every ThothProcess still running (SIGKILL) and waits for each: a test file's last
 * afterAll, so that a test that failed half-way leaves no coordinator or worker behind.
 */
export async function endProcesses(): Promise<void> {
  const left = [...running];
  for (const p of left) p.kill('SIGKILL');
  await Promise.all(left.map((p) => p.exited));
}

/** A `thoth` command in a child process, with its output collected and waitable; endProcesses ends it. */
export class ThothProcess {
  readonly proc: ChildProcess;
  out = '';
  err = '';
  readonly exited: Promise<number | null>;
  private waiters: { re: RegExp; resolve: () => void }[] = [];
  /** The subcommand (`worker`, `datagen` …), for a failed wait's message. */
  private readonly verb: string;

  /** `fileBlocks`: the largest file the process may write, in 512-byte blocks (`ulimit -f` of /bin/sh): a full disk. */
  constructor(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}, fileBlocks?: number) {
    this.verb = args[0] ?? '';
    // tsx by its path: the child may run in a folder without node_modules.
    const line = [process.execPath, ...COMMAND, ...args];
    const [file, argv] =
      fileBlocks === undefined
        ? [line[0], line.slice(1)]
        : ['/bin/sh', ['-c', 'ulimit -f "$0" && exec "$@"', String(fileBlocks), ...line]];
    this.proc = spawn(file, argv, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, THOTH_SIGN_KEY: TEST_KEYS.private, THOTH_TRUST: TEST_KEYS.public, ...env },
    });
    this.proc.stdout!.on('data', (d) => {
      this.out += d;
      this.check();
    });
    this.proc.stderr!.on('data', (d) => (this.err += d));
    running.add(this);
    this.exited = new Promise((resolve) =>
      this.proc.on('exit', (code) => {
        running.delete(this);
        resolve(code);
      }),
    );
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.re.test(this.out)) return true;
      w.resolve();
      return false;
    });
  }

  /**
   * Resolves once the output matches `re`; fails after `idleMs` of an idle machine's time
   * (test/patience.ts: a loaded machine waits longer), naming what it waited for and the output.
   */
  waitFor(re: RegExp, idleMs = 60_000): Promise<void> {
    if (re.test(this.out)) return Promise.resolve();
    let waiter: { re: RegExp; resolve: () => void } | undefined;
    const matched = new Promise<void>((resolve) => {
      waiter = { re, resolve };
      this.waiters.push(waiter);
    });
    return patiently(`${re} in the output of thoth ${this.verb}`, idleMs, matched, () =>
      [`its output:\n${tail(this.out)}`, `its stderr:\n${tail(this.err)}`].join('\n'),
    ).finally(() => {
      this.waiters = this.waiters.filter((w) => w !== waiter);
    });
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.proc.kill(signal);
  }
}

/**
 * A worker with short lock and stall intervals (so that a killed one's pair is taken again in
 * about a second), allowed to run the fake engine (and engines in `cwd`).
 */
export function worker(url: string, extra: string[] = [], cwd?: string, env?: NodeJS.ProcessEnv): ThothProcess {
  const allow = [
    '--allow-engine',
    path.dirname(fakeEngineScript()),
    ...(cwd !== undefined ? ['--allow-engine', cwd] : []),
  ];
  return new ThothProcess(
    ['worker', url, '--lock-duration', '1500', '--stalled-interval', '500', ...allow, ...extra],
    cwd,
    env,
  );
}

/** Games of a record text, each without its move times and date, sorted by Round (workers finish in any order). */
export function normalisedGames(text: string): string[] {
  return (
    text
      .split(/\n\n(?=\[Event )/)
      // the Date tag too: a run that crosses midnight plays its later games on the next day
      .map((g) =>
        g
          .trim()
          .replace(/ \d+\.\d{3}s\}/g, '}')
          .replace(/^\[Date "[^"]*"\]$/m, '[Date "?"]'),
      )
      .filter((g) => g !== '')
      .sort()
  );
}

export { ROOT };

/** Small fast datagen games of one edition; `seed` tells one test's datagen processes from another's. */
export const small = (seed: number): string[] => [
  '--nodes',
  '100',
  '--max-plies',
  '30',
  '--skip-plies',
  '8',
  '--variant',
  'khet2',
  '--seed',
  String(seed),
  '--quiet',
];

/**
 * Ends a run's coordinator lock now, as its expiry would (15 s after a dead coordinator's last
 * renewal). On a loaded machine it may have ended by itself already: then there is nothing to end.
 */
export async function endLock(url: string, run: string): Promise<void> {
  const a = parseRedisUrl(url);
  if (!a.ok) throw a.error;
  const r = await openRedis(a.value);
  try {
    await r.pexpire(keys.lock(run), 1);
  } finally {
    r.disconnect();
  }
}

/** A status as a coordinator writes it (the fields the words and the page read). */
export function sampleStatus(run: string): RunStatus {
  return {
    run,
    state: 'running',
    names: ['A', 'B'],
    variant: 'khet2',
    timeControl: '10+0.1',
    games: 0,
    total: null,
    pairsQueued: 1,
    pairsActive: 0,
    encounters: [],
    sprt: {
      elo0: 0,
      elo1: 5,
      alpha: 0.05,
      beta: 0.05,
      model: 'normalized',
      llr: 0,
      lower: -2.94,
      upper: 2.94,
      decision: null,
    },
    ratings: [],
    lines: ['Score of A vs B: 0 - 0 - 0  [0.500] 0'],
    refusals: {},
    workers: [],
    started: Date.now(),
    updated: Date.now(),
  };
}
