/** Shared helpers for the command tests (not a test file itself). */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The entry point as source: run through tsx, it needs no build. */
export const CLI_SOURCE = join(ROOT, 'src/cli.ts');

export interface CommandRun {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `thoth <args>` from the sources in a child process; resolves to its exit code and output. */
export function runThoth(args: string[]): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI_SOURCE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
