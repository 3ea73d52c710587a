/** Shared helpers for the command tests (not a test file itself). */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The entry point as source: run through tsx, it needs no build. */
export const CLI_SOURCE = join(ROOT, 'src/cli.ts');
/** The built entry point (`npm test` builds it first): starts in a fraction of tsx's time. */
export const CLI_BUILT = join(ROOT, 'dist/cli.js');

export interface CommandRun {
  code: number | null;
  out: string;
  err: string;
}

/** The newest modification time of the files (and folders) under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    t = Math.max(t, statSync(join(dir, f)).mtimeMs);
  return t;
}

/**
 * True when dist/cli.js is newer than every file under src/ (`npm test` builds first): the built
 * entry point is then the sources' own, and it starts (its worker threads too) in a fraction of
 * tsx's time.
 */
export const BUILD_IS_FRESH = existsSync(CLI_BUILT) && statSync(CLI_BUILT).mtimeMs >= newest(join(ROOT, 'src'));

/**
 * Node's arguments for `thoth <args>`: the built entry point when it is fresh, otherwise the
 * sources through tsx (a test run after an edit without a build).
 */
export function thothArgv(args: string[]): string[] {
  return BUILD_IS_FRESH ? [CLI_BUILT, ...args] : ['--import', 'tsx', CLI_SOURCE, ...args];
}

/** Runs `thoth <args>` ({@link thothArgv}) in a child process; resolves to its exit code and output. */
export function runThoth(args: string[]): Promise<CommandRun> {
  return runNode(thothArgv(args));
}

/** Runs the built `thoth <args>` (dist/cli.js), as `node bin/thoth.js` does, in the folder `cwd` (the clone's by default). */
export function runBuilt(args: string[], cwd = ROOT): Promise<CommandRun> {
  if (!existsSync(CLI_BUILT)) throw new Error(`${CLI_BUILT} is missing: run 'npm run build' first (npm test does)`);
  return runNode([CLI_BUILT, ...args], cwd);
}

function runNode(argv: string[], cwd = ROOT): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
