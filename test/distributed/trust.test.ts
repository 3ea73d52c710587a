/**
 * The trust model of distributed runs (docs/distributed.md, "Trust"), against real redis-servers
 * and real `thoth worker` processes: the attacks of someone who can write to Redis (a run whose
 * engine is `sh -c …`, a planted build, a datagen script with `..`) are refused, in one line, and
 * nothing runs; a Redis with a password, ACL users and TLS (a throwaway CA made with openssl)
 * carries a signed match end to end, and the worker user cannot write runs, builds or networks.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_PREFIX, keys, openRedis, redisAddress } from '../../src/distributed/redis';
import { pairJobProblem } from '../../src/distributed/worker';
import { keyId, loadSigner, loadTrustedKeys, refuseUnsigned, signRun, type Signer } from '../../src/distributed/trust';
import { fake, fakeEngineScript } from '../match/helpers';
import {
  REDIS_SERVER,
  ROOT,
  TEST_KEYS,
  ThothProcess,
  makeKeys,
  makeTls,
  sampleStatus,
  startRedis,
  worker,
  type RedisInstance,
  endProcesses,
} from './helpers';
import { stretched } from '../slowness';
import { Stopwatch } from '../patience';

const sha256 = (d: string | Buffer): string => createHash('sha256').update(d).digest('hex');
const signerOf = (file: string): Signer => {
  const s = loadSigner(file);
  if (!s.ok) throw s.error;
  return s.value;
};

async function connect(url: string, secrets: Parameters<typeof redisAddress>[1] = {}): Promise<Redis> {
  const a = redisAddress(url, secrets);
  if (!a.ok) throw a.error;
  return openRedis(a.value);
}

// a test that failed half-way leaves no coordinator or worker running (registered first: runs last)
afterAll(endProcesses);

describe('keys', () => {
  it('a signature holds for its run, field and text only; unsigned and other keys are refused in one line', () => {
    const s = signerOf(TEST_KEYS.private);
    const pubs = loadTrustedKeys(TEST_KEYS.public);
    if (!pubs.ok) throw pubs.error;
    const pub = { value: pubs.value[0] };
    expect(pubs.value).toHaveLength(1);
    expect(pub.value.id).toBe(s.id);
    expect(keyId(pub.value.key)).toMatch(/^[0-9a-f]{16}$/);
    const sig = signRun(s, 'run1', 'settings', '{"a":1}');
    expect(refuseUnsigned([pub.value], 'run1', 'settings', '{"a":1}', sig.sig, sig.signer)).toBeUndefined();
    expect(refuseUnsigned([pub.value], 'run1', 'settings', '{"a":2}', sig.sig, sig.signer)).toBe(
      `the run's settings do not match their signature by key ${s.id} (changed in Redis after the coordinator signed them)`,
    );
    expect(refuseUnsigned([pub.value], 'run2', 'settings', '{"a":1}', sig.sig, sig.signer)).toMatch(
      /do not match their signature/,
    );
    expect(refuseUnsigned([pub.value], 'run1', 'settings', '{"a":1}', null, null)).toBe(
      `the run is not signed; this worker takes only runs signed by key ${s.id} (--trust)`,
    );
    const other = signRun(signerOf(makeKeys().private), 'run1', 'settings', '{"a":1}');
    expect(refuseUnsigned([pub.value], 'run1', 'settings', '{"a":1}', other.sig, other.signer)).toBe(
      `the run is signed by key ${other.signer}, not by a key this worker trusts (${s.id})`,
    );
    // The public key inline (its PEM's base64 line), and the mistakes a user can make.
    const inline = loadTrustedKeys(pub.value.key.export({ type: 'spki', format: 'der' }).toString('base64'));
    expect(inline.ok && inline.value.map((k) => k.id)).toEqual([s.id]);
    const priv = loadTrustedKeys(TEST_KEYS.private);
    expect(priv.ok ? '' : priv.error.message).toMatch(/is a private key; give the workers only the public key/);
    expect(loadTrustedKeys('not-a-key').ok).toBe(false);
    const signPub = loadSigner(TEST_KEYS.public);
    expect(signPub.ok ? '' : signPub.error.message).toMatch(/is not a private key/);
  });
});

describe('key and secret files', () => {
  it('a --trust file of two public keys trusts both (as while keys are changed); a private key among them refuses it', () => {
    const other = makeKeys();
    const both = join(mkdtempSync(join(tmpdir(), 'thoth-trust-')), 'both.pub');
    writeFileSync(both, `${readFileSync(TEST_KEYS.public, 'utf8')}\n${readFileSync(other.public, 'utf8')}`);
    const k = loadTrustedKeys(both);
    if (!k.ok) throw k.error;
    const [a, b] = [signerOf(TEST_KEYS.private), signerOf(other.private)];
    expect(k.value.map((x) => x.id)).toEqual([a.id, b.id]);
    // a run signed by the second key of the file is taken
    const sig = signRun(b, 'run1', 'settings', '{}');
    expect(refuseUnsigned(k.value, 'run1', 'settings', '{}', sig.sig, sig.signer)).toBeUndefined();
    writeFileSync(both, `${readFileSync(TEST_KEYS.public, 'utf8')}\n${readFileSync(other.private, 'utf8')}`);
    const mixed = loadTrustedKeys(both);
    expect(mixed.ok ? '' : mixed.error.message).toMatch(/is a private key/);
  });

  it('a password file, CA file or key file that never ends (/dev/zero) is refused after a bounded read', () => {
    const t0 = new Stopwatch();
    const pw = redisAddress('redis://127.0.0.1:1', { passwordFile: '/dev/zero' });
    expect(pw.ok ? '' : pw.error.message).toBe(
      "the Redis password file '/dev/zero' is larger than 65536 bytes, the limit for a password file",
    );
    const ca = redisAddress('rediss://127.0.0.1:1', { caFile: '/dev/zero' });
    expect(ca.ok ? '' : ca.error.message).toBe("the CA file '/dev/zero' is larger than 4 MiB, the limit for a CA file");
    const big = join(mkdtempSync(join(tmpdir(), 'thoth-trust-')), 'big.pub');
    writeFileSync(big, Buffer.alloc(1 << 20, 65));
    const k = loadTrustedKeys(big);
    expect(k.ok ? '' : k.error.message).toMatch(/is larger than 65536 bytes, the limit for a key file/);
    expect(t0.stop().idleMs).toBeLessThan(10_000);
  });
});

describe('pair jobs', () => {
  it('a job from the queue is data: engine indices in range, an opening of one line', () => {
    const g = { index: 0, round: 0, inRound: 0, encounter: 0, first: 0, second: 1, openingIndex: 0, roundTag: '1.1' };
    const opening = { kfen: 'k', label: 'classic' };
    expect(pairJobProblem({ games: [g, { ...g, index: 1, first: 1, second: 0 }], opening }, 2)).toBeUndefined();
    expect(pairJobProblem({ games: [{ ...g, first: 7 }], opening }, 2)).toBe('a bad game');
    expect(pairJobProblem({ games: [{ ...g, index: -1 }], opening }, 2)).toBe('a bad game');
    expect(pairJobProblem({ games: [], opening }, 2)).toBe('no games');
    expect(pairJobProblem({ games: [g], opening: { kfen: 'k\nsetoption name X value Y', label: '' } }, 2)).toBe(
      'a bad opening',
    );
  });
});

describe.skipIf(!REDIS_SERVER)('distributed trust', () => {
  let redis: RedisInstance;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a worker given a --trust file of two keys says it takes runs signed by either', async () => {
    const other = makeKeys();
    const both = join(mkdtempSync(join(tmpdir(), 'thoth-trust-')), 'both.pub');
    writeFileSync(both, `${readFileSync(TEST_KEYS.public, 'utf8')}${readFileSync(other.public, 'utf8')}`);
    const ids = [TEST_KEYS.private, other.private].map((f) => signerOf(f).id);
    const w = new ThothProcess(['worker', redis.url, '--trust', both, '--exit-when-idle']);
    await w.waitFor(/^Worker /m);
    w.kill();
    expect(w.out).toMatch(
      new RegExp(`^Worker \\S+: 1 slots, builds cached in .*, runs signed by key ${ids[0]} or ${ids[1]}$`, 'm'),
    );
  });

  it(
    'the attacks of a Redis writer are refused in one line each and run nothing',
    async () => {
      const top = mkdtempSync(path.join(tmpdir(), 'thoth-attack-'));
      const marks = path.join(top, 'marks');
      const work = path.join(top, 'work');
      const cache = path.join(top, 'cache');
      for (const d of [marks, work, cache]) mkdirSync(d);
      const conn = await connect(redis.url);
      const q = (run: string): Queue => new Queue(keys.pairsQueue(run), { connection: conn, prefix: QUEUE_PREFIX });
      const opening = { kfen: 'x', label: 'x' };
      const pairJob = { games: [{ index: 0, first: 0, second: 1, roundTag: '1.1', openingIndex: 0 }], opening };
      const plant = async (run: string, fields: Record<string, string>, job: object): Promise<void> => {
        await conn.hset(keys.run(run), { state: 'running', ...fields });
        await conn.zadd(keys.runs, Date.now(), run);
        const queue = q(run);
        await queue.add('job', job, { jobId: 'job-1' });
        await queue.close();
      };
      const engine = (command: string[]): object => ({
        name: 'x',
        nameGiven: true,
        command,
        options: [],
        limits: { depth: 1 },
        timeMarginMs: 0,
      });
      const matchSettings = (command: string[], build: object): string =>
        JSON.stringify({
          engines: [engine(command), engine(command)],
          variant: 'khet2',
          noRemovalLimit: 100,
          adjudication: {},
          pingTimeoutMs: 5000,
          startTimeoutMs: 5000,
          searchTimeoutMs: 5000,
          recover: false,
          names: ['x', 'y'],
          builds: [build, build],
        });
      try {
        // 1. The issue's engine: sh -c, and a files build with no file words (the checksum of nothing).
        const shell = matchSettings(['sh', '-c', `id > ${marks}/PWNED-sh; exec node bin/thoth.js`], {
          kind: 'files',
          checksum: sha256(''),
          words: [],
        });
        await plant('a00000000001', { settings: shell }, pairJob);
        const other = signRun(signerOf(makeKeys().private), 'a00000000002', 'settings', shell);
        await plant('a00000000002', { settings: shell, ...other }, pairJob);
        await plant(
          'a00000000003',
          { settings: shell, ...signRun(signerOf(TEST_KEYS.private), 'a00000000003', 'settings', shell) },
          pairJob,
        );
        // 2. A planted thoth:build:<sum> whose files do have that checksum.
        const code = `require('fs').writeFileSync(${JSON.stringify(`${marks}/PWNED-build`)}, 'x');\n`;
        const sum = sha256(`dist/cli.js\0x\0${sha256(code)}\n`);
        await conn.hset(
          keys.build(sum),
          'dist/cli.js',
          gzipSync(code),
          '\0manifest',
          JSON.stringify({ files: [{ rel: 'dist/cli.js', exec: true }], bytes: code.length }),
        );
        const planted = matchSettings(['node', 'dist/cli.js'], {
          kind: 'thoth',
          checksum: sum,
          word: 1,
          script: 'dist/cli.js',
          bytes: code.length,
        });
        await plant('a00000000004', { settings: planted }, pairJob);
        // 3. A datagen run whose script leaves the build with `..`, unsigned and signed.
        writeFileSync(
          path.join(cache, 'evil.js'),
          `require('fs').writeFileSync(${JSON.stringify(`${marks}/PWNED-datagen`)}, 'x');\n`,
        );
        const datagen = JSON.stringify({
          kind: 'datagen',
          args: [],
          chunk: 1,
          build: { kind: 'thoth', checksum: sum, word: 1, script: '../evil.js', bytes: 1 },
          net: null,
        });
        const chunk = { chunk: 0, first: 0, games: 1 };
        await plant('a00000000005', { kind: 'datagen', datagen }, chunk);
        await plant(
          'a00000000006',
          { kind: 'datagen', datagen, ...signRun(signerOf(TEST_KEYS.private), 'a00000000006', 'datagen', datagen) },
          chunk,
        );
        // 4. A checksum of ../victim, signed: nothing outside the cache is touched.
        mkdirSync(path.join(top, 'victim'));
        writeFileSync(path.join(top, 'victim', 'precious.txt'), 'keep');
        const victim = JSON.stringify({
          kind: 'datagen',
          args: [],
          chunk: 1,
          build: { kind: 'thoth', checksum: '../victim', word: 1, script: 'dist/cli.js', bytes: 1 },
          net: null,
        });
        await plant(
          'a00000000007',
          {
            kind: 'datagen',
            datagen: victim,
            ...signRun(signerOf(TEST_KEYS.private), 'a00000000007', 'datagen', victim),
          },
          chunk,
        );

        const w = worker(redis.url, ['--exit-when-idle', '--cache', cache], work);
        expect(await w.exited, w.err).toBe(0);
        const id = signerOf(TEST_KEYS.private).id;
        const refusals = w.out.split('\n').filter((l) => l.startsWith('Refusing run '));
        expect(refusals).toEqual([
          `Refusing run a00000000001: the run is not signed; this worker takes only runs signed by key ${id} (--trust)`,
          `Refusing run a00000000002: the run is signed by key ${other.signer}, not by a key this worker trusts (${id})`,
          `Refusing run a00000000003: engine 'x': 'sh -c "id > ${marks}/PWNED-sh; exec node bin/thoth.js"' is not an engine this worker allows (this worker allows only ${realpathSync(path.dirname(fakeEngineScript()))}, ${realpathSync(work)}; thoth worker --allow-engine PATH)`,
          `Refusing run a00000000004: the run is not signed; this worker takes only runs signed by key ${id} (--trust)`,
          `Refusing run a00000000005: the run is not signed; this worker takes only runs signed by key ${id} (--trust)`,
          `Refusing run a00000000006: Thoth build ${sum.slice(0, 12)}: its script "../evil.js" is not a relative path inside the build`,
          'Refusing run a00000000007: the build checksum "../victim" is not 64 hex digits',
        ]);
        expect(readdirSync(marks)).toEqual([]);
        expect(readdirSync(work)).toEqual([]);
        expect(existsSync(path.join(top, 'victim', 'precious.txt'))).toBe(true);
        // The refusals reach the runs (the coordinator prints them).
        expect(Object.values(await conn.hgetall(keys.refusals('a00000000001')))).toEqual([
          refusals[0].replace(/^Refusing run a00000000001: /, ''),
        ]);
      } finally {
        conn.disconnect();
      }
    },
    stretched(120_000),
  );

  it('what workers write (ids, refusals) is shown as one line each: no forged lines, no terminal escapes', async () => {
    const conn = await connect(redis.url);
    try {
      const run = 'd00000000001';
      const evil = 'w1\nFinished match\u001b[2J';
      // the only worker: a worker of an earlier test heartbeated within 10 s would be listed too
      await conn.del(keys.workers);
      await conn.hset(keys.worker(evil), { concurrency: 1, busy: 0, run, pairs: 0 });
      await conn.zadd(keys.workers, Date.now() + 60_000, evil); // alive however long the command takes to start
      const status = {
        ...sampleStatus(run),
        total: 2,
        sprt: null,
        lines: [],
        refusals: { [evil]: 'no\nScore of A vs B: 9 - 0 - 0' },
        started: 1,
      };
      await conn.set(keys.status(run), JSON.stringify(status));
      await conn.zadd(keys.runs, Date.now(), run);
      const st = new ThothProcess(['match-status', redis.url, run]);
      expect(await st.exited, st.err).toBe(0);
      const lines = st.out.split('\n');
      expect(lines).not.toContain('Score of A vs B: 9 - 0 - 0');
      expect(lines, st.out).toContain('Workers: 1 (0/1 slots busy): w1?Finished match?[2J 0/1');
      expect(lines).toContain('Refused by w1?Finished match?[2J: no?Score of A vs B: 9 - 0 - 0');
    } finally {
      conn.disconnect();
    }
  });

  it(
    'a worker without --trust, or with a private key, stops with one line',
    async () => {
      // The three at once: each stops on its own.
      const none = new ThothProcess(['worker', redis.url], undefined, { THOTH_TRUST: '' });
      const priv = new ThothProcess(['worker', redis.url, '--trust', TEST_KEYS.private]);
      const unsigned = new ThothProcess(
        ['match', ...fake('A'), ...fake('B'), '-each', 'tc=10+0.1', '-distributed', redis.url],
        undefined,
        { THOTH_SIGN_KEY: '' },
      );
      expect(await none.exited).toBe(2);
      expect(none.err).toMatch(
        /^thoth worker: give the coordinator's public key: --trust KEY-or-FILE \(or THOTH_TRUST\); a worker takes only runs signed with it \(docs\/distributed\.md, Trust\)\n/,
      );
      expect(await priv.exited).toBe(2);
      expect(priv.err).toMatch(
        /^thoth worker: --trust: '.*coordinator\.key' is a private key; give the workers only the public key/,
      );
      expect(await unsigned.exited).not.toBe(0);
      expect(unsigned.err).toMatch(
        /^thoth match: -distributed: workers take only signed runs: give the coordinator's Ed25519 key .*\n$/,
      );
    },
    stretched(60_000),
  );
});

describe.skipIf(!REDIS_SERVER)('a Redis with a password, ACL users and TLS', () => {
  it(
    'requirepass: the password from the address, a file or THOTH_REDIS_PASSWORD, never printed; a wrong one fails at once',
    async () => {
      const r = await startRedis(undefined, { extra: ['--requirepass', 'pw-Secret'] });
      try {
        const dir = mkdtempSync(path.join(tmpdir(), 'thoth-pass-'));
        writeFileSync(path.join(dir, 'pass'), 'pw-Secret\n');
        const url = `redis://:pw-Secret@127.0.0.1:${r.port}`;
        // All five at once: none of them writes what another reads.
        const st = new ThothProcess(['match-status', url]);
        const fromFile = new ThothProcess(['match-status', r.url, '--redis-password-file', path.join(dir, 'pass')]);
        const fromEnv = worker(r.url, ['--exit-when-idle'], undefined, { THOTH_REDIS_PASSWORD: 'pw-Secret' });
        const none = worker(r.url, ['--exit-when-idle']);
        const wrong = new ThothProcess(['match-status', `redis://:Wrong-pw@127.0.0.1:${r.port}`]);
        expect(await st.exited).toBe(1);
        expect(st.err).toBe(`thoth match-status: no distributed run in Redis at redis://:***@127.0.0.1:${r.port}\n`);
        expect(await fromFile.exited).toBe(1);
        expect(fromFile.err).toMatch(/no distributed run in Redis/);
        expect(await fromEnv.exited, fromEnv.err).toBe(0);
        expect(await none.exited).toBe(1);
        expect(none.err).toMatch(
          /^thoth worker: cannot use Redis at redis:\/\/127\.0\.0\.1:\d+: it wants a password \(NOAUTH\) \(give the user and password in the address, --redis-password-file FILE or THOTH_REDIS_PASSWORD\)\n$/,
        );
        expect(await wrong.exited).toBe(1);
        expect(wrong.err).toMatch(
          /^thoth match-status: cannot use Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: the user or password is wrong, or the user is disabled \(WRONGPASS\) /,
        );
        expect(wrong.err).not.toMatch(/Wrong-pw/);
      } finally {
        await r.stop();
      }
    },
    stretched(60_000),
  );

  it(
    'TLS with a throwaway CA and ACL users: a signed match end to end; the worker user cannot write runs, builds or networks',
    async () => {
      const tls = makeTls();
      const dir = mkdtempSync(path.join(tmpdir(), 'thoth-acl-'));
      const acl = path.join(dir, 'users.acl');
      // The ACL lines of docs/distributed.md, "Trust", as they are there (the passwords replaced).
      const doc = readFileSync(path.join(ROOT, 'docs', 'distributed.md'), 'utf8');
      const lines = doc.split('\n').filter((l) => /^user (default|coordinator|worker|viewer) /.test(l));
      expect(lines.map((l) => l.split(' ')[1])).toEqual(['default', 'coordinator', 'worker', 'viewer']);
      const passwords: Record<string, string> = {
        'COORDINATOR-PASSWORD': 'coord-Secret',
        'WORKER-PASSWORD': 'worker-Secret',
        'VIEWER-PASSWORD': 'viewer-Secret',
      };
      writeFileSync(
        acl,
        lines.map((l) => l.replace(/>([A-Z-]+)/, (_, p: string) => `>${passwords[p]}`)).join('\n') + '\n',
      );
      writeFileSync(path.join(dir, 'coord.pass'), 'coord-Secret\n');
      const r = await startRedis(undefined, { tls, extra: ['--aclfile', acl] });
      try {
        const host = `127.0.0.1:${r.port}`;
        const w = worker(`rediss://worker@${host}`, ['--redis-ca', tls.ca], undefined, {
          THOTH_REDIS_PASSWORD: 'worker-Secret',
        });
        const coord = new ThothProcess([
          'match',
          ...fake('A', '--seed 1 --deterministic'),
          ...fake('B', '--seed 2 --play random --deterministic'),
          '-each',
          'tc=10+0.1',
          '-rounds',
          '2',
          '-maxplies',
          '40',
          '-ratinginterval',
          '0',
          '-distributed',
          `rediss://coordinator@${host}`,
          `ca=${tls.ca}`,
          `passwordfile=${path.join(dir, 'coord.pass')}`,
        ]);
        expect(await coord.exited, coord.err).toBe(0);
        expect(coord.out).toMatch(/^Finished match$/m);
        expect(coord.out).toContain(`distributed rediss://coordinator@${host} (run `);
        await w.waitFor(/^Played pair-/m);
        w.kill('SIGINT');
        await w.exited;

        // The worker user: reads runs and builds, writes no run, build or network.
        const asWorker = await connect(`rediss://worker:worker-Secret@${host}`, { caFile: tls.ca });
        try {
          const run = (await asWorker.zrange(keys.runs, '0', '-1'))[0];
          expect(await asWorker.hget(keys.run(run), 'state')).toBe('finished');
          await expect(asWorker.hset(keys.run(run), 'settings', '{}')).rejects.toThrow(/^NOPERM/);
          await expect(asWorker.hset(keys.build('0'.repeat(64)), 'x', 'y')).rejects.toThrow(/^NOPERM/);
          await expect(asWorker.set(`thoth:net:${'0'.repeat(64)}`, 'x')).rejects.toThrow(/^NOPERM/);
          await expect(asWorker.zadd(keys.runs, 1, 'b00000000001')).rejects.toThrow(/^NOPERM/);
        } finally {
          asWorker.disconnect();
        }
        const view = new ThothProcess(['match-status', `rediss://viewer:viewer-Secret@${host}`, '--redis-ca', tls.ca]);
        expect(await view.exited, view.err).toBe(0);
        expect(view.out).toMatch(/^Run [0-9a-f]{12}: A vs B \| khet2 \| 10\+0\.1 \| finished$/m);

        // Without the CA, or without TLS: one line, exit code 1.
        const noCa = new ThothProcess(['match-status', `rediss://viewer:viewer-Secret@${host}`]);
        expect(await noCa.exited).toBe(1);
        expect(noCa.err).toMatch(
          /^thoth match-status: cannot use Redis at rediss:\/\/viewer:\*\*\*@127\.0\.0\.1:\d+: its TLS certificate is not trusted: .*\(give the CA that signed it with --redis-ca FILE, or ca=FILE after -distributed\)\n$/,
        );
        const caOnPlain = new ThothProcess(['match-status', `redis://viewer@${host}`, '--redis-ca', tls.ca]);
        expect(await caOnPlain.exited).toBe(2);
        expect(caOnPlain.err).toMatch(/a CA file is for a TLS address \(rediss:\/\/\), not redis:\/\/viewer@/);
      } finally {
        await r.stop();
      }
    },
    stretched(120_000),
  );
});
