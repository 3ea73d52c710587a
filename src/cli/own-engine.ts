/**
 * This Thoth's own files, found from where this code is (dist/ when bundled, src/cli under tsx),
 * not from the working folder: a command run outside the clone (`thoth tune` in another folder)
 * still finds its engine and its page.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of this code: dist/ when bundled, src/cli/ under tsx. */
export const CODE_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The package's root: the nearest folder above this code holding package.json. */
export function packageRoot(): string {
  let d = CODE_DIR;
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(d, 'package.json'))) return d;
    d = path.dirname(d);
  }
  return process.cwd();
}

/** This Thoth as an engine: node and the package's dist/cli.js. */
export function ownEngineCommand(): string[] {
  const beside = path.join(CODE_DIR, 'cli.js');
  const cli = existsSync(beside) ? beside : path.join(packageRoot(), 'dist', 'cli.js');
  return [process.execPath, cli];
}
