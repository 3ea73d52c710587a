/**
 * Engine builds: a Thoth build is identified, stored in a real Redis, unpacked into a cache and
 * run from there (its worker threads and packages resolve inside the unpacked folder); other
 * engines are checked by checksum.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BuildError,
  buildProblem,
  fetchBuild,
  fetchNet,
  identifyEngine,
  localEngine,
  packagesLoaded,
  storeBuild,
} from '../../src/distributed/builds';
import { openRedis, parseRedisUrl } from '../../src/distributed/redis';
import type { EngineSpec } from '../../src/match/engine-process';
import { startEngine } from '../../src/match/slot';
import { fakeEngineScript } from '../match/helpers';
import { REDIS_SERVER, ROOT, startRedis, type RedisInstance } from './helpers';

const spec = (command: string[], dir?: string): EngineSpec => ({
  name: 'e',
  nameGiven: true,
  command,
  dir,
  options: [],
  limits: { depth: 1 },
  timeMarginMs: 0,
});
const BUILT = existsSync(path.join(ROOT, 'dist', 'cli.js'));

describe('engine builds', () => {
  it('the packages a bundle loads: static imports and lazy requires, bare packages only, dynamic imports left out', () => {
    const code =
      'import { a } from "piscina";\nimport {\n  b,\n  c\n} from "@scope/pkg/sub";\nimport "side";\nimport x from "./local.js";\nimport { readFileSync } from "node:fs";\nimport fs from "fs";\nconst q = await import("bullmq");\n' +
      'function db() { return createRequire2(import.meta.url)("better-sqlite3"); }\nconst { W } = createRequire(import.meta.url)("ws");\nconst p = createRequire(import.meta.url)("node:path");\n';
    expect(packagesLoaded(code).sort()).toEqual(['@scope/pkg', 'better-sqlite3', 'piscina', 'side', 'ws']);
  });

  it('another engine: its files by checksum; a changed or missing file is refused with a clear message', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'thoth-build-'));
    copyFileSync(fakeEngineScript(), path.join(dir, 'fake.mjs'));
    const s = spec(['node', 'fake.mjs', '--seed', '1'], dir);
    const id = identifyEngine(s);
    expect(id.build).toMatchObject({ kind: 'files', words: [1] });
    const same = await localEngine(undefined as never, s, id.build, dir, [dir]);
    expect(same.ok).toBe(true);
    appendFileSync(path.join(dir, 'fake.mjs'), '\n// changed\n');
    const changed = await localEngine(undefined as never, s, id.build, dir, [dir]);
    expect(changed.ok ? '' : changed.error.message).toMatch(
      /^engine 'e': .*fake\.mjs here has checksum [0-9a-f]{12}, the run wants [0-9a-f]{12}$/,
    );
    expect(() => identifyEngine(spec(['/nonexistent/engine']))).toThrow(
      new BuildError("engine 'e': its program '/nonexistent/engine' is not found"),
    );
  });

  it("no command from the store: a files engine runs only when its program (or its interpreter's script) is allowed here", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'thoth-build-'));
    copyFileSync(fakeEngineScript(), path.join(dir, 'fake.mjs'));
    const empty = createHash('sha256').update('').digest('hex');
    // The attack: `sh -c …` names no file, so its checksum is that of nothing.
    const attack = spec(['sh', '-c', 'id > PWNED; exec node bin/thoth.js']);
    const atk = await localEngine(undefined as never, attack, { kind: 'files', checksum: empty, words: [] }, dir, [
      dir,
    ]);
    expect(atk.ok ? 'ran' : atk.error.message).toBe(
      `engine 'e': 'sh -c "id > PWNED; exec node bin/thoth.js"' is not an engine this worker allows (this worker allows only ${realpathSync(dir)}; thoth worker --allow-engine PATH)`,
    );
    const s = spec(['node', 'fake.mjs'], dir);
    const id = identifyEngine(s);
    const none = await localEngine(undefined as never, s, id.build, dir);
    expect(none.ok ? 'ran' : none.error.message).toMatch(
      /^engine 'e': 'node fake\.mjs' is not an engine this worker allows \(this worker allows no engine but Thoth builds; thoth worker --allow-engine PATH\)$/,
    );
    expect(
      (await localEngine(undefined as never, s, id.build, dir, [realpathSync(path.join(dir, 'fake.mjs'))])).ok,
    ).toBe(true);
    // An interpreter's own options come before the allowed script: refused.
    const req = spec(['node', '--require', 'fake.mjs', 'fake.mjs'], dir);
    const reqId = identifyEngine(req);
    expect((await localEngine(undefined as never, req, reqId.build, dir, [dir])).ok).toBe(false);
    // A Thoth build runs only as `node SCRIPT …`.
    const shThoth = await localEngine(
      undefined as never,
      spec(['sh', '-c', 'id', 'dist/cli.js']),
      { kind: 'thoth', checksum: empty, word: 3, script: 'dist/cli.js', bytes: 1 },
      dir,
    );
    expect(shThoth.ok ? 'ran' : shThoth.error.message).toBe(
      "engine 'e': 'sh -c id dist/cli.js' does not run its Thoth build with node",
    );
  });

  it('checksums of 64 hex digits and scripts inside the build, before any file operation', () => {
    const sum = 'a'.repeat(64);
    expect(buildProblem({ kind: 'thoth', checksum: sum, word: 1, script: 'dist/cli.js', bytes: 1 })).toBeUndefined();
    expect(buildProblem({ kind: 'thoth', checksum: '../victim', word: 1, script: 'dist/cli.js', bytes: 1 })).toBe(
      'the build checksum "../victim" is not 64 hex digits',
    );
    expect(
      buildProblem({ kind: 'thoth', checksum: sum.toUpperCase(), word: 1, script: 'dist/cli.js', bytes: 1 }),
    ).toMatch(/is not 64 hex digits$/);
    for (const script of [
      '../../../tmp/evil.js',
      '/tmp/evil.js',
      'dist/../../evil.js',
      'dist\\..\\evil.js',
      './dist/cli.js',
      '',
    ]) {
      expect(buildProblem({ kind: 'thoth', checksum: sum, word: 1, script, bytes: 1 })).toMatch(
        /is not a relative path inside the build$/,
      );
    }
    expect(buildProblem({ kind: 'files', checksum: sum, words: ['x'] })).toMatch(/bad command words/);
  });

  describe.skipIf(!REDIS_SERVER || !BUILT)('a Thoth build through Redis', () => {
    let redis: RedisInstance;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('is stored once, unpacked into a cache with the same checksum, and runs from there (piscina, worker threads)', async () => {
      const s = spec(['node', 'dist/cli.js'], ROOT);
      const id = identifyEngine(s);
      expect(id.build.kind).toBe('thoth');
      if (id.build.kind !== 'thoth') return;
      const files = id.files!.map((f) => f.rel);
      expect(files).toEqual(
        expect.arrayContaining([
          'package.json',
          'dist/cli.js',
          'dist/search-worker.js',
          'node_modules/piscina/package.json',
          'node_modules/ws/package.json',
          // the network: without it a worker's engine plays the hand-written evaluation
          'nets/default.nnue',
        ]),
      );
      expect(files.some((f) => f.startsWith('node_modules/bullmq/') || f.startsWith('node_modules/ioredis/'))).toBe(
        false,
      );
      const addr = parseRedisUrl(redis.url);
      if (!addr.ok) throw addr.error;
      const conn = await openRedis(addr.value);
      try {
        expect(await storeBuild(conn, id)).toBe(true);
        expect(await storeBuild(conn, id)).toBe(false);
        const cache = mkdtempSync(path.join(tmpdir(), 'thoth-cache-'));
        const dir = await fetchBuild(conn, id.build.checksum, cache, id.build.bytes);
        expect(dir.ok).toBe(true);
        if (!dir.ok) return;
        expect(path.basename(dir.value)).toBe(id.build.checksum);
        // The network is stored once, by its checksum, and the unpacked build plays with it.
        const netSum = createHash('sha256')
          .update(readFileSync(path.join(ROOT, 'nets', 'default.nnue')))
          .digest('hex');
        expect(await conn.exists(`thoth:net:${netSum}`)).toBe(1);
        expect(await conn.hexists(`thoth:build:${id.build.checksum}`, 'nets/default.nnue')).toBe(0);
        const ev = spawnSync(process.execPath, [path.join(dir.value, 'dist', 'cli.js'), 'eval'], {
          cwd: tmpdir(),
          encoding: 'utf8',
        });
        expect(ev.stdout).toMatch(new RegExp(`^info string network default \\(sha256 ${netSum.slice(0, 16)}, `, 'm'));
        expect(ev.stdout).toMatch(/^info string the search uses: the network, /m);
        // The unpacked build, away from the repository: perft on two threads loads piscina and a worker file.
        const r = spawnSync(
          process.execPath,
          [path.join(dir.value, 'dist', 'cli.js'), 'perft', '3', '--threads', '2'],
          { cwd: tmpdir(), encoding: 'utf8' },
        );
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(/^Nodes searched: \d+$/m);
        // As a worker runs it: the command rewritten to the cache, and the handshake done.
        const local = await localEngine(conn, s, id.build, cache);
        expect(local.ok && local.value.command).toEqual([process.execPath, path.join(dir.value, 'dist', 'cli.js')]);
        if (!local.ok) return;
        const e = await startEngine(local.value, { variant: 'khet2', startTimeoutMs: 20_000 });
        expect(e.idName).toMatch(/^Thoth/);
        await e.quit();
        const unknown = await fetchBuild(conn, 'f'.repeat(64), cache, 1000);
        expect(unknown.ok ? '' : unknown.error.message).toBe(
          'Thoth build ffffffffffff is not in Redis (the coordinator stores it when the run starts)',
        );
        // A planted build under a checksum its files do not have is refused after unpacking.
        const planted = 'e'.repeat(64);
        await conn.hset(
          `thoth:build:${planted}`,
          'dist/cli.js',
          gzipSync('require("fs").writeFileSync("PWNED", "")'),
          '\0manifest',
          JSON.stringify({ files: [{ rel: 'dist/cli.js', exec: true }], bytes: 1 }),
        );
        const plantedDir = await fetchBuild(conn, planted, cache, 1000);
        expect(plantedDir.ok ? '' : plantedDir.error.message).toMatch(
          /^Thoth build eeeeeeeeeeee: the unpacked files have checksum [0-9a-f]{12}$/,
        );
        expect(existsSync(path.join(cache, planted))).toBe(false);
      } finally {
        conn.disconnect();
      }
    });

    it('a gzip bomb planted as a build is cut off at the size the signed settings give', async () => {
      // 256 MiB of zeros, gzipped as a stream (the test never holds them): about 250 KB
      const bomb = await new Promise<Buffer>((resolve, reject) => {
        const z = createGzip();
        const parts: Buffer[] = [];
        z.on('data', (d: Buffer) => parts.push(d));
        z.on('end', () => resolve(Buffer.concat(parts)));
        z.on('error', reject);
        const zeros = Buffer.alloc(1 << 20);
        let left = 256;
        const pump = (): void => {
          while (left > 0) {
            left--;
            if (!z.write(zeros)) return void z.once('drain', pump);
          }
          z.end();
        };
        pump();
      });
      const addr = parseRedisUrl(redis.url);
      if (!addr.ok) throw addr.error;
      const conn = await openRedis(addr.value);
      try {
        const sum = 'b'.repeat(64);
        await conn.hset(
          `thoth:build:${sum}`,
          'dist/cli.js',
          bomb,
          '\0manifest',
          JSON.stringify({ files: [{ rel: 'dist/cli.js', exec: true }], bytes: 2e6 }),
        );
        const cache = mkdtempSync(path.join(tmpdir(), 'thoth-cache-'));
        const before = process.memoryUsage().arrayBuffers;
        const r = await fetchBuild(conn, sum, cache, 2_000_000);
        expect(r.ok ? '' : r.error.message).toBe(
          `Thoth build bbbbbbbbbbbb in Redis is damaged (file dist/cli.js unpacks to more than the build's 2000000 bytes)`,
        );
        expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
        expect(readdirSync(cache)).toEqual([]);
      } finally {
        conn.disconnect();
      }
    });

    it('a checksum of ../victim deletes nothing outside the cache (nor does a network checksum write there)', async () => {
      const top = mkdtempSync(path.join(tmpdir(), 'thoth-victim-'));
      const cache = path.join(top, 'cache');
      mkdirSync(cache);
      mkdirSync(path.join(top, 'victim'));
      writeFileSync(path.join(top, 'victim', 'precious.txt'), 'keep me');
      const addr = parseRedisUrl(redis.url);
      if (!addr.ok) throw addr.error;
      const conn = await openRedis(addr.value);
      try {
        const r = await fetchBuild(conn, '../victim', cache, 1000);
        expect(r.ok ? '' : r.error.message).toBe('the build checksum "../victim" is not 64 hex digits');
        expect(readFileSync(path.join(top, 'victim', 'precious.txt'), 'utf8')).toBe('keep me');
        const n = await fetchNet(conn, '../../victim/precious', cache);
        expect(n.ok ? '' : n.error.message).toBe('the network checksum "../../victim/precious" is not 64 hex digits');
      } finally {
        conn.disconnect();
      }
    });
  });
});
