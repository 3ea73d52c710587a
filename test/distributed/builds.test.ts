/**
 * Engine builds: a Thoth build is identified, stored in a real Redis, unpacked into a cache and
 * run from there (its worker threads and packages resolve inside the unpacked folder); other
 * engines are checked by checksum.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBuild, identifyEngine, localEngine, staticImports, storeBuild } from '../../src/distributed/builds';
import { openRedis, parseRedisUrl } from '../../src/distributed/redis';
import type { EngineSpec } from '../../src/match/engine-process';
import { startEngine } from '../../src/match/slot';
import { fakeEngineScript } from '../match/helpers';
import { REDIS_SERVER, ROOT, startRedis, type RedisInstance } from './helpers';

const spec = (command: string[], dir?: string): EngineSpec => ({ name: 'e', nameGiven: true, command, dir, options: [], limits: { depth: 1 }, timeMarginMs: 0 });
const BUILT = existsSync(path.join(ROOT, 'dist', 'cli.js'));

describe('engine builds', () => {
  it('static imports of a bundle: bare packages only, dynamic imports left out', () => {
    const code = 'import { a } from "piscina";\nimport {\n  b,\n  c\n} from "@scope/pkg/sub";\nimport "side";\nimport x from "./local.js";\nimport { readFileSync } from "node:fs";\nimport fs from "fs";\nconst q = await import("bullmq");\n';
    expect(staticImports(code).sort()).toEqual(['@scope/pkg', 'piscina', 'side']);
  });

  it('another engine: its files by checksum; a changed or missing file is refused with a clear message', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'thoth-build-'));
    copyFileSync(fakeEngineScript(), path.join(dir, 'fake.mjs'));
    const s = spec(['node', 'fake.mjs', '--seed', '1'], dir);
    const id = identifyEngine(s);
    expect(id.ok && id.value.build.kind).toBe('files');
    if (!id.ok) return;
    expect(id.value.build).toMatchObject({ kind: 'files', words: [1] });
    const same = await localEngine(undefined as never, s, id.value.build, dir);
    expect(same.ok).toBe(true);
    appendFileSync(path.join(dir, 'fake.mjs'), '\n// changed\n');
    const changed = await localEngine(undefined as never, s, id.value.build, dir);
    expect(changed.ok ? '' : changed.error.message).toMatch(/^engine 'e': .*fake\.mjs here has checksum [0-9a-f]{12}, the run wants [0-9a-f]{12}$/);
    const missing = identifyEngine(spec(['/nonexistent/engine']));
    expect(missing.ok ? '' : missing.error.message).toBe("engine 'e': its program '/nonexistent/engine' is not found");
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
      expect(id.ok).toBe(true);
      if (!id.ok || id.value.build.kind !== 'thoth') return;
      const files = id.value.files!.map((f) => f.rel);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'dist/cli.js', 'dist/search-worker.js', 'node_modules/piscina/package.json', 'node_modules/ws/package.json']));
      expect(files.some((f) => f.startsWith('node_modules/bullmq/') || f.startsWith('node_modules/ioredis/'))).toBe(false);
      const addr = parseRedisUrl(redis.url);
      if (!addr.ok) throw addr.error;
      const conn = await openRedis(addr.value);
      try {
        expect(await storeBuild(conn, id.value)).toBe(true);
        expect(await storeBuild(conn, id.value)).toBe(false);
        const cache = mkdtempSync(path.join(tmpdir(), 'thoth-cache-'));
        const dir = await fetchBuild(conn, id.value.build.checksum, cache);
        expect(dir.ok).toBe(true);
        if (!dir.ok) return;
        expect(path.basename(dir.value)).toBe(id.value.build.checksum);
        // The unpacked build, away from the repository: perft on two threads loads piscina and a worker file.
        const r = spawnSync(process.execPath, [path.join(dir.value, 'dist', 'cli.js'), 'perft', '3', '--threads', '2'], { cwd: tmpdir(), encoding: 'utf8' });
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(/^Nodes searched: \d+$/m);
        // As a worker runs it: the command rewritten to the cache, and the handshake done.
        const local = await localEngine(conn, s, id.value.build, cache);
        expect(local.ok && local.value.command).toEqual(['node', path.join(dir.value, 'dist', 'cli.js')]);
        if (!local.ok) return;
        const e = await startEngine(local.value, { variant: 'khet2', startTimeoutMs: 20_000 });
        expect(e.idName).toMatch(/^Thoth/);
        await e.quit();
        const unknown = await fetchBuild(conn, 'f'.repeat(64), cache);
        expect(unknown.ok ? '' : unknown.error.message).toBe('Thoth build ffffffffffff is not in Redis (the coordinator stores it when the run starts)');
      } finally {
        conn.disconnect();
      }
    });
  });
});
