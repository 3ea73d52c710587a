// What a test run owns, so that nothing of it outlives it: the processes it started, marked by an
// environment variable they inherit (a child gets its parent's environment; /proc/PID/environ
// holds the environment a process was started with), and a temporary folder of its own (TMPDIR,
// which os.tmpdir() and most programs follow). scripts/suite-global.mjs (vitest's globalSetup)
// makes the run's folder and mark when vitest runs alone; test/setup.ts gives each test file its
// own mark and folder and ends both with the file; scripts/check-and-test.mjs checks the whole run
// after vitest has ended.
// Linux only: elsewhere no process is found (the folders are still checked).
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/** The variable that marks every process of a test run (its value: the run's id). */
export const RUN_MARK = 'THOTH_SUITE_RUN';
/** The variable that marks every process a test file started (its value: the file's id). */
export const FILE_MARK = 'THOTH_SUITE_FILE';
/** The run's temporary folder, under which each test file gets its own. */
export const RUN_TMP = 'THOTH_SUITE_TMP';
/** The machine's temporary folder, as it was before the run set TMPDIR (tsx's cache stays there). */
export const SYSTEM_TMP = 'THOTH_SUITE_SYSTEM_TMP';

/** tsx keeps its compile cache in TMPDIR/tsx-<euid>; every run shares the machine's. */
function tsxCacheName() {
  return `tsx-${process.geteuid ? process.geteuid() : userInfo().username}`;
}

/**
 * Makes `dir` a temporary folder whose programs still share tsx's cache with the machine's
 * (a link to it), so that a run does not compile the sources afresh. Returns the link's name.
 */
export function shareTsxCache(dir, systemTmp) {
  const name = tsxCacheName();
  const target = path.join(systemTmp, name);
  mkdirSync(target, { recursive: true });
  if (!existsSync(path.join(dir, name))) symlinkSync(target, path.join(dir, name));
  return name;
}

/**
 * What is left in a temporary folder, less the link to tsx's cache and the folders test/setup.ts
 * made for files whose every test was skipped (vitest runs no hook of such a file, so its folder,
 * holding nothing but that link, is not removed by the file: nothing of a test is in it).
 */
export function leftInFolder(dir) {
  if (!existsSync(dir)) return [];
  const link = tsxCacheName();
  const unused = (n) => {
    if (!n.startsWith('f-')) return false;
    try {
      return readdirSync(path.join(dir, n)).every((m) => m === link);
    } catch {
      return false;
    }
  };
  return readdirSync(dir).filter((n) => n !== link && !unused(n));
}

/** The working folder of process `pid` ('' when it cannot be read), a removed one's without " (deleted)". */
function cwdOf(pid) {
  try {
    return readlinkSync(`/proc/${pid}/cwd`).replace(/ \(deleted\)$/, '');
  } catch {
    return '';
  }
}

/**
 * The running processes (not zombies) whose environment holds `name=value`, or, given `dir`,
 * whose working folder is in `dir`: [{ pid, command }]. The folder finds a process whose
 * /proc/PID/environ does not hold the mark: one that wrote over it (redis-server's process title
 * does) or one started with an environment of its own.
 */
export function processesMarked(name, value, dir) {
  if (process.platform !== 'linux') return [];
  const want = `${name}=${value}`;
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const marked = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(want);
      const cwd = dir === undefined || marked ? '' : cwdOf(pid);
      if (!marked && !(cwd !== '' && (cwd === dir || cwd.startsWith(dir + path.sep)))) continue;
      // state is the field after the command's parenthesis: Z (zombie) and X (dead) have ended
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
      out.push({ pid, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

/**
 * Waits until no process is marked `name=value` (or works in `dir`: see processesMarked), at most
 * `ms` (a process being ended may take a moment on a busy machine); returns those still running then.
 */
export async function stillRunning(name, value, ms, dir) {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = processesMarked(name, value, dir);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Ends the processes found (SIGKILL, each by its id). */
export function killAll(found) {
  for (const p of found) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** A list of processes in words, one a line. */
export function describeProcesses(found) {
  return found.map((p) => `  pid ${p.pid}: ${p.command.length > 300 ? `${p.command.slice(0, 300)} …` : p.command}`);
}

/**
 * How long the processes of a file (or a run) may take to end after its last hook: only one that
 * leaves a process running waits this long, so it is generous (a process told to stop may take
 * seconds on a busy machine). THOTH_SUITE_GRACE_MS changes it (the test of this check).
 */
export function graceMs() {
  const n = Number(process.env.THOTH_SUITE_GRACE_MS);
  return Number.isFinite(n) && n >= 0 && process.env.THOTH_SUITE_GRACE_MS !== '' ? n : 30_000;
}

/** The machine's temporary folder before any run changed TMPDIR. */
export function systemTmp() {
  return process.env[SYSTEM_TMP] ?? tmpdir();
}

/**
 * A folder the run's test files share (a bundle built once, keys made once): `name` in the run's
 * folder, not a file's, so that it outlives the file that made it; the run removes it at its end
 * (scripts/suite-global.mjs).
 */
export function sharedFolder(name) {
  const dir = path.join(process.env[RUN_TMP] ?? systemTmp(), 'shared', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** How old a run's folder must be before a later run may take it for one that was killed. */
export const STALE_RUN_MS = 10 * 60_000;

/**
 * Removes the folders of earlier runs that were killed before they could remove their own (a run's
 * folder is `thoth-run-*` in `parent`): those older than STALE_RUN_MS (last changed) that no running
 * process holds as its run's folder (RUN_TMP). Linux only, where the processes can be read; returns
 * the names removed.
 */
export function removeStaleRuns(parent, now = Date.now()) {
  if (process.platform !== 'linux' || !existsSync(parent)) return [];
  const removed = [];
  for (const name of readdirSync(parent)) {
    if (!name.startsWith('thoth-run-')) continue;
    const dir = path.join(parent, name);
    try {
      if (now - statSync(dir).mtimeMs < STALE_RUN_MS) continue;
      if (processesMarked(RUN_TMP, dir).length > 0) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return removed;
}
