/**
 * Engine builds of a distributed run: every worker must play with exactly the builds the
 * coordinator named, identified by a checksum of their files.
 *
 * - A **Thoth build** (a command running `dist/cli.js` or `bin/thoth.js` of a package named
 *   `thoth`) is stored in Redis by the coordinator: package.json, bin/, dist/*.js and the
 *   packages its code loads (piscina, ws and what they depend on), file by file, gzipped. A
 *   worker unpacks it into its cache under the checksum, checks the checksum of what it wrote, and
 *   runs `node <cache>/<checksum>/dist/cli.js`.
 * - Any other engine is **files**: the command's words that name files (the program, a script),
 *   which must exist on each worker at the same path (relative paths against `dir=` or the
 *   worker's working directory) with the same checksum. Interpreters found on the PATH (`node`,
 *   `python3`) are not part of it.
 *
 * The checksum is SHA-256 over the sorted `path, executable bit, SHA-256 of the content` of each
 * file (paths relative to the package root; for files, the command word's position instead).
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { err, ok, type Result } from '../core/result';
import type { EngineSpec } from '../match/engine-process';
import { keys } from './redis';

/** How a worker gets an engine, and the checksum it must match. */
export type EngineBuild =
  | {
      kind: 'thoth';
      checksum: string /** The command word that names the script, and the script relative to the package root. */;
      word: number;
      script: string;
      bytes: number;
    }
  | { kind: 'files'; checksum: string /** The command words that name files. */; words: number[] };

/** An engine whose build cannot be identified or obtained. */
export class BuildError extends Error {
  override name = 'BuildError';
}

const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*|pypy3?|java|sh|bash)$/;

export const shortSum = (checksum: string): string => checksum.slice(0, 12);

/** A checksum as builds and networks are named by: 64 lowercase hex digits (nothing else reaches a path). */
export const CHECKSUM = /^[0-9a-f]{64}$/;

/** A checksum for messages: its first 12 digits, or the text cut short and escaped when it is not one. */
export function sumText(checksum: unknown): string {
  if (typeof checksum === 'string' && CHECKSUM.test(checksum)) return shortSum(checksum);
  return JSON.stringify(String(checksum).slice(0, 40));
}

/** A relative path inside a folder: no `..`, not absolute, no empty or `.` parts, no backslash or control character. */
function isSafeRelPath(p: unknown): p is string {
  if (typeof p !== 'string' || p === '' || p.length > 1000 || /[\\\0-\x1f]/.test(p) || p.startsWith('/')) return false;
  return p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * Why a build as it comes from Redis is malformed (one line), or undefined: a checksum of 64 hex
 * digits, a Thoth build's script a safe relative path, a files build's words indices.
 */
export function buildProblem(b: unknown): string | undefined {
  if (typeof b !== 'object' || b === null) return 'a build that is not an object';
  const x = b as Record<string, unknown>;
  if (typeof x.checksum !== 'string' || !CHECKSUM.test(x.checksum))
    return `the build checksum ${sumText(x.checksum)} is not 64 hex digits`;
  if (x.kind === 'thoth') {
    if (!isSafeRelPath(x.script))
      return `Thoth build ${shortSum(x.checksum)}: its script ${JSON.stringify(String(x.script).slice(0, 80))} is not a relative path inside the build`;
    if (!Number.isInteger(x.word) || (x.word as number) < 0 || (x.word as number) > 1000)
      return `Thoth build ${shortSum(x.checksum)}: a bad command word`;
    return undefined;
  }
  if (x.kind === 'files') {
    if (!Array.isArray(x.words) || !x.words.every((w) => Number.isInteger(w) && w >= 0 && w <= 1000))
      return `files ${shortSum(x.checksum)}: bad command words`;
    return undefined;
  }
  return `a build of unknown kind ${JSON.stringify(String(x.kind).slice(0, 20))}`;
}

/** The SHA-256 of bytes (or of text's UTF-8), in hex: how builds and networks are named. */
function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A run's id: the first 12 hex digits of the SHA-256 of what makes it that run, as JSON. */
export function runHash(what: unknown): string {
  return sha256(JSON.stringify(what)).slice(0, 12);
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A program name looked up on the PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const p = path.join(dir, name);
    if (isFile(p)) return p;
  }
  return undefined;
}

/** The file a command word names (the program through the PATH), or undefined when it names none. */
function wordFile(spec: EngineSpec, i: number, cwd: string): string | undefined {
  const w = spec.command[i];
  if (i === 0 && !w.includes('/')) {
    if (INTERPRETERS.test(w)) return undefined;
    return onPath(w);
  }
  if (i === 0 && INTERPRETERS.test(path.basename(w))) return undefined;
  const p = path.resolve(spec.dir ?? cwd, w);
  return isFile(p) ? p : undefined;
}

/** The root of the Thoth package a file belongs to (package.json named thoth with dist/cli.js), or undefined. */
function thothRoot(file: string): string | undefined {
  let d = path.dirname(realpathSync(file));
  for (let k = 0; k < 3; k++) {
    const pj = path.join(d, 'package.json');
    if (isFile(pj)) {
      try {
        const name = (JSON.parse(readFileSync(pj, 'utf8')) as { name?: unknown }).name;
        if (
          name === 'thoth' &&
          isFile(path.join(d, 'dist', 'cli.js')) &&
          isFile(path.join(d, 'dist', 'search-worker.js'))
        )
          return d;
      } catch {
        // not a package.json we can read: not a Thoth build
      }
      return undefined;
    }
    d = path.dirname(d);
  }
  return undefined;
}

interface PackageFile {
  rel: string;
  exec: boolean;
  data: Buffer;
}

function readPackageFile(root: string, rel: string): PackageFile {
  const full = path.join(root, rel);
  return { rel, exec: (statSync(full).mode & 0o111) !== 0, data: readFileSync(full) };
}

/** Every file under `dir` (relative to `root`), except nested node_modules. */
function walk(root: string, dir: string, out: string[]): void {
  for (const ent of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, ent.name);
    if (ent.isDirectory()) {
      if (ent.name !== 'node_modules') walk(root, rel, out);
    } else if (ent.isFile()) {
      out.push(rel);
    }
  }
}

/**
 * Bare package names a bundle loads as Thoth's own code: those it imports statically (`import …
 * from "piscina"`) and those it requires where first used (`createRequire(import.meta.url)("ws")`:
 * the CLI starts without them). Dynamic imports (`await import("bullmq")`: the distributed run's
 * own machinery) are not part of a build.
 */
export function packagesLoaded(code: string): string[] {
  const names = new Set<string>();
  const re =
    /(?:^|\n)import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|createRequire\d*\(import\.meta\.url\)\(\s*["']([^"']+)["']\s*\)/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    if (builtinModules.includes(name)) continue;
    names.add(name);
  }
  return [...names];
}

/** The folder of package `name` as Node would find it from `fromDir` (walking up to `root`). */
function packageDir(root: string, fromDir: string, name: string): string | undefined {
  let d = fromDir;
  for (;;) {
    const p = path.join(d, 'node_modules', name);
    if (isFile(path.join(p, 'package.json'))) return p;
    if (d === root || path.dirname(d) === d) return undefined;
    d = path.dirname(d);
  }
}

/** The files of a Thoth build: package.json, bin/, dist/*.js, and the closure of the packages dist imports. */
function thothPackageFiles(root: string): string[] {
  const rels = ['package.json'];
  if (existsSync(path.join(root, 'bin'))) walk(root, 'bin', rels);
  // The networks (nets/default.nnue, EvalFile's default): without them the build plays the hand-written evaluation.
  if (existsSync(path.join(root, 'nets')))
    rels.push(
      ...readdirSync(path.join(root, 'nets'))
        .filter((f) => f.endsWith('.nnue') && isFile(path.join(root, 'nets', f)))
        .map((f) => path.join('nets', f)),
    );
  const dist = readdirSync(path.join(root, 'dist'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join('dist', f));
  rels.push(...dist);
  const wanted = new Set<string>();
  for (const f of dist) for (const n of packagesLoaded(readFileSync(path.join(root, f), 'utf8'))) wanted.add(n);
  const seen = new Set<string>();
  const queue = [...wanted].map((name) => ({ name, from: root, optional: false }));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift()!;
    const dir = packageDir(root, from, name);
    if (!dir) {
      if (optional) continue;
      throw new BuildError(`the Thoth build at ${root} imports '${name}', which is not installed there (run npm ci)`);
    }
    if (seen.has(dir)) continue;
    seen.add(dir);
    walk(root, path.relative(root, dir), rels);
    const pj = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    for (const d of Object.keys(pj.dependencies ?? {})) queue.push({ name: d, from: dir, optional: false });
    for (const d of Object.keys(pj.optionalDependencies ?? {})) queue.push({ name: d, from: dir, optional: true });
  }
  return rels.sort();
}

/** The checksum of a set of package files. */
function packageChecksum(files: readonly PackageFile[]): string {
  const lines = [...files]
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    .map((f) => `${f.rel}\0${f.exec ? 'x' : '-'}\0${sha256(f.data)}\n`);
  return sha256(lines.join(''));
}

function filesChecksum(paths: readonly { word: number; file: string }[]): string {
  return sha256(paths.map((p) => `${p.word}\0${sha256(readFileSync(p.file))}\n`).join(''));
}

/** A build identified on the coordinator, with the files to store for a Thoth build. */
export interface IdentifiedBuild {
  build: EngineBuild;
  /** What the build is, in words (for messages). */
  text: string;
  files?: PackageFile[];
  /** A Thoth build's script here (its real path): what the coordinator runs of it itself. */
  entry?: string;
}

/**
 * Identifies an engine's build from its command (relative paths against `dir=` or `cwd`); throws a
 * BuildError when its program is not there or its files cannot be read.
 */
export function identifyEngine(spec: EngineSpec, cwd = process.cwd()): IdentifiedBuild {
  try {
    const words: { word: number; file: string }[] = [];
    spec.command.forEach((_, i) => {
      const f = wordFile(spec, i, cwd);
      if (f !== undefined) words.push({ word: i, file: f });
    });
    for (const w of words) {
      const root = thothRoot(w.file);
      if (root === undefined) continue;
      const files = thothPackageFiles(root).map((rel) => readPackageFile(root, rel));
      const checksum = packageChecksum(files);
      const bytes = files.reduce((n, f) => n + f.data.length, 0);
      const entry = realpathSync(w.file);
      const script = path.relative(root, entry);
      return {
        build: { kind: 'thoth', checksum, word: w.word, script, bytes },
        text: `Thoth build ${shortSum(checksum)} (${root}, ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB)`,
        files,
        entry,
      };
    }
    if (words.length === 0 && !INTERPRETERS.test(path.basename(spec.command[0] ?? ''))) {
      throw new BuildError(`engine '${spec.name}': its program '${spec.command[0] ?? ''}' is not found`);
    }
    const checksum = filesChecksum(words);
    return {
      build: { kind: 'files', checksum, words: words.map((w) => w.word) },
      text: `files ${shortSum(checksum)} (${words.map((w) => w.file).join(', ') || 'no files'})`,
    };
  } catch (e) {
    if (e instanceof BuildError) throw e;
    throw new BuildError(`engine '${spec.name}': cannot read its files: ${(e as Error).message}`);
  }
}

const MANIFEST = '\0manifest';

interface Manifest {
  /** The files; a network (nets/*.nnue) is stored once for every build as `thoth:net:<net>`. */
  files: { rel: string; exec: boolean; net?: string }[];
  bytes: number;
}

const isNetwork = (rel: string): boolean => rel.startsWith(`nets${path.sep}`) && rel.endsWith('.nnue');

/** Stores a Thoth build in Redis (once: a build already there is left alone), its networks by checksum. */
export async function storeBuild(redis: Redis, b: IdentifiedBuild): Promise<boolean> {
  if (b.build.kind !== 'thoth' || !b.files) return false;
  const key = keys.build(b.build.checksum);
  if ((await redis.exists(key)) === 1) return false;
  const nets = new Map<string, string>();
  for (const f of b.files) if (isNetwork(f.rel)) nets.set(f.rel, await storeNet(redis, f.data));
  const tmp = `${key}:upload:${process.pid}`;
  const manifest: Manifest = {
    files: b.files.map((f) => ({ rel: f.rel, exec: f.exec, ...(nets.has(f.rel) ? { net: nets.get(f.rel) } : {}) })),
    bytes: b.build.bytes,
  };
  const m = redis.multi();
  m.del(tmp);
  for (const f of b.files) if (!nets.has(f.rel)) m.hset(tmp, f.rel, gzipSync(f.data));
  m.hset(tmp, MANIFEST, JSON.stringify(manifest));
  m.rename(tmp, key);
  await m.exec();
  return true;
}

/** The largest network file (a network of MAX_HIDDEN 4096 neurons is about 24 MB). */
const MAX_NETWORK_BYTES = 64 * 1024 * 1024;

/** Stores a network file's bytes under their checksum (once); returns the checksum. */
export async function storeNet(redis: Redis, bytes: Uint8Array): Promise<string> {
  const sum = sha256(Buffer.from(bytes));
  await redis.set(keys.net(sum), Buffer.from(bytes), 'NX');
  return sum;
}

/** A network's bytes from Redis, checked by checksum (and size, before it is read). */
async function netBytes(redis: Redis, checksum: string): Promise<Result<Buffer, BuildError>> {
  const size = await redis.strlen(keys.net(checksum));
  if (size === 0)
    return err(
      new BuildError(`network ${shortSum(checksum)} is not in Redis (the coordinator stores it when the run starts)`),
    );
  if (size > MAX_NETWORK_BYTES) return err(new BuildError(`network ${shortSum(checksum)} in Redis is too large`));
  const data = await redis.getBuffer(keys.net(checksum));
  if (data === null || sha256(data) !== checksum)
    return err(new BuildError(`network ${shortSum(checksum)} in Redis is damaged`));
  return ok(data);
}

/** A network in the worker's cache (`<cache>/nets/<sha256>.nnue`), fetched from Redis when missing; its path. */
export async function fetchNet(redis: Redis, checksum: string, cacheDir: string): Promise<Result<string, BuildError>> {
  if (typeof checksum !== 'string' || !CHECKSUM.test(checksum))
    return err(new BuildError(`the network checksum ${sumText(checksum)} is not 64 hex digits`));
  const dir = path.join(cacheDir, 'nets');
  const file = path.join(dir, `${checksum}.nnue`);
  if (existsSync(file) && sha256(readFileSync(file)) === checksum) return ok(file);
  const data = await netBytes(redis, checksum);
  if (!data.ok) return data;
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data.value);
  renameSync(tmp, file);
  return ok(file);
}

/** The folder of cached builds: --cache, else $XDG_CACHE_HOME/thoth/builds or ~/.cache/thoth/builds. */
export function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(base, 'thoth', 'builds');
}

/** The checksum of an unpacked build folder (every file in it). */
function folderChecksum(dir: string): string {
  const rels: string[] = [];
  const all = (d: string): void => {
    for (const ent of readdirSync(path.join(dir, d), { withFileTypes: true })) {
      const rel = path.join(d, ent.name);
      if (ent.isDirectory()) all(rel);
      else if (ent.isFile()) rels.push(rel);
    }
  };
  all('');
  return packageChecksum(rels.map((rel) => readPackageFile(dir, rel)));
}

/**
 * A Thoth build in the worker's cache: checked when found, else fetched from Redis file by file,
 * unpacked, checked and moved into place. Returns its folder. `bytes` is the build's size as the
 * signed settings give it: the files are unpacked within it, each gzip stream cut off past what is
 * left, so that a build planted in Redis (a gzip bomb) costs at most that, never gigabytes.
 */
export async function fetchBuild(
  redis: Redis,
  checksum: string,
  cacheDir: string,
  bytes: number,
): Promise<Result<string, BuildError>> {
  // Before any file operation: the checksum names a folder right inside the cache, or nothing.
  if (typeof checksum !== 'string' || !CHECKSUM.test(checksum))
    return err(new BuildError(`the build checksum ${sumText(checksum)} is not 64 hex digits`));
  const cache = path.resolve(cacheDir);
  const dir = path.join(cache, checksum);
  if (path.dirname(dir) !== cache)
    return err(new BuildError(`the build checksum ${sumText(checksum)} is not 64 hex digits`));
  try {
    if (existsSync(dir)) {
      if (folderChecksum(dir) === checksum) return ok(dir);
      rmSync(dir, { recursive: true, force: true }); // damaged: fetch it again
    }
  } catch (e) {
    return err(
      new BuildError(
        `Thoth build ${shortSum(checksum)} in the cache ${dir} cannot be checked: ${(e as Error).message}`,
      ),
    );
  }
  const key = keys.build(checksum);
  const damaged = (what: string): Result<string, BuildError> =>
    err(new BuildError(`Thoth build ${shortSum(checksum)} in Redis is damaged (${what})`));
  const manifestText = (await redis.hgetBuffer(key, MANIFEST))?.toString('utf8');
  if (manifestText === undefined) {
    return err(
      new BuildError(
        `Thoth build ${shortSum(checksum)} is not in Redis (the coordinator stores it when the run starts)`,
      ),
    );
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
    if (!Array.isArray(manifest.files)) throw new Error('no file list');
  } catch {
    return damaged('its manifest');
  }
  if (!Number.isSafeInteger(bytes) || bytes < 0) return damaged('its size');
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(path.join(cache, `.unpack-${shortSum(checksum)}-`));
  try {
    let left = bytes;
    for (const f of manifest.files) {
      const rel = isSafeRelPath(f?.rel) && f.rel !== MANIFEST ? f.rel : undefined;
      if (rel === undefined) return damaged(`file ${JSON.stringify(String(f?.rel).slice(0, 80))}`);
      let data: Buffer;
      if (f.net !== undefined) {
        if (typeof f.net !== 'string' || !CHECKSUM.test(f.net)) return damaged(`file ${rel}`);
        const n = await netBytes(redis, f.net);
        if (!n.ok) return err(new BuildError(`Thoth build ${shortSum(checksum)}: ${n.error.message}`));
        data = n.value;
      } else {
        const packed = await redis.hgetBuffer(key, rel);
        if (packed === null) return damaged(`file ${rel}`);
        try {
          data = gunzipSync(packed, { maxOutputLength: Math.max(1, left) });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
            return damaged(`file ${rel} unpacks to more than the build's ${bytes} bytes`);
          return damaged(`file ${rel}: ${(e as Error).message}`);
        }
      }
      left -= data.length;
      if (left < 0) return damaged(`its files are more than the build's ${bytes} bytes`);
      const out = path.join(tmp, rel);
      try {
        mkdirSync(path.dirname(out), { recursive: true });
        writeFileSync(out, data);
        chmodSync(out, f.exec ? 0o755 : 0o644);
      } catch (e) {
        return damaged(`file ${rel}: ${(e as Error).message}`);
      }
    }
    const got = folderChecksum(tmp);
    if (got !== checksum)
      return err(
        new BuildError(`Thoth build ${shortSum(checksum)}: the unpacked files have checksum ${shortSum(got)}`),
      );
    try {
      renameSync(tmp, dir);
    } catch (e) {
      if (!existsSync(dir)) throw e; // else another worker on this machine was quicker
    }
    return ok(dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A folder or file the worker allows as an engine (`--allow-engine PATH`), resolved. */
export function allowedPath(p: string): Result<string, BuildError> {
  try {
    return ok(realpathSync(p));
  } catch (e) {
    return err(
      new BuildError(
        `--allow-engine: '${p}' does not exist here (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      ),
    );
  }
}

/** True when `file` is one of the allowed files or lies under one of the allowed folders. */
function isAllowed(file: string, allowed: readonly string[]): boolean {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return false;
  }
  return allowed.some((a) => real === a || real.startsWith(a.endsWith(path.sep) ? a : a + path.sep));
}

const NODE = /^node(js)?$/;

/**
 * The engine as this worker runs it: a Thoth build from the cache (fetched when missing), run by
 * this worker's own node; or, for any other engine, the files the command names, which must be
 * here with the same checksum, and whose program (or the script an interpreter runs) must be
 * allowed by `allowed` (the worker's `--allow-engine`). A BuildError says why not.
 */
export async function localEngine(
  redis: Redis,
  spec: EngineSpec,
  build: EngineBuild,
  cacheDir: string,
  allowed: readonly string[] = [],
): Promise<Result<EngineSpec, BuildError>> {
  const problem = buildProblem(build);
  if (problem !== undefined) return err(new BuildError(`engine '${spec.name}': ${problem}`));
  if (!Array.isArray(spec.command) || spec.command.length === 0 || !spec.command.every((w) => typeof w === 'string')) {
    return err(new BuildError(`engine '${spec.name}': no command`));
  }
  if (spec.dir !== undefined && (typeof spec.dir !== 'string' || !existsSync(spec.dir)))
    return err(new BuildError(`engine '${spec.name}': its folder dir=${spec.dir} does not exist here`));
  const shown = (): string =>
    spec.command
      .map((w) => (/^[\w./:=@+-]+$/.test(w) ? w : JSON.stringify(w)))
      .join(' ')
      .slice(0, 200);
  if (build.kind === 'thoth') {
    // Only the build itself, run by node: `node SCRIPT ARGS…` or `SCRIPT ARGS…`.
    if (
      build.word >= spec.command.length ||
      !(build.word === 0 || (build.word === 1 && NODE.test(path.basename(spec.command[0]))))
    ) {
      return err(new BuildError(`engine '${spec.name}': '${shown()}' does not run its Thoth build with node`));
    }
    const dir = await fetchBuild(redis, build.checksum, cacheDir, build.bytes);
    if (!dir.ok) return err(new BuildError(`engine '${spec.name}': ${dir.error.message}`));
    const script = path.join(dir.value, build.script);
    if (!script.startsWith(dir.value + path.sep) || !isFile(script))
      return err(
        new BuildError(`engine '${spec.name}': Thoth build ${shortSum(build.checksum)} has no file ${build.script}`),
      );
    return ok({ ...spec, command: [process.execPath, script, ...spec.command.slice(build.word + 1)] });
  }
  // Another engine: its program, or the script its interpreter runs, must be allowed here.
  const interp = !spec.command[0].includes('/')
    ? INTERPRETERS.test(spec.command[0])
    : INTERPRETERS.test(path.basename(spec.command[0]));
  const main = interp ? 1 : 0;
  const mainFile =
    main < spec.command.length && !spec.command[main].startsWith('-') ? wordFile(spec, main, process.cwd()) : undefined;
  if (mainFile === undefined || !build.words.includes(main) || !isAllowed(mainFile, allowed)) {
    const how =
      allowed.length === 0
        ? 'this worker allows no engine but Thoth builds'
        : `this worker allows only ${allowed.join(', ')}`;
    return err(
      new BuildError(
        `engine '${spec.name}': '${shown()}' is not an engine this worker allows (${how}; thoth worker --allow-engine PATH)`,
      ),
    );
  }
  const words: { word: number; file: string }[] = [];
  for (const i of build.words) {
    const f = i < spec.command.length ? wordFile(spec, i, process.cwd()) : undefined;
    if (f === undefined)
      return err(new BuildError(`engine '${spec.name}': '${spec.command[i] ?? ''}' is not found here`));
    words.push({ word: i, file: f });
  }
  const here = filesChecksum(words);
  if (here !== build.checksum) {
    return err(
      new BuildError(
        `engine '${spec.name}': ${words.map((w) => w.file).join(', ')} here has checksum ${shortSum(here)}, the run wants ${shortSum(build.checksum)}`,
      ),
    );
  }
  return ok(spec);
}
