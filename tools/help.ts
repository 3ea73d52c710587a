/**
 * `--help` (or `-h`) for the scripts of tools/: prints the script's opening doc comment (what it
 * does and how it is run) and exits 0, before the script does any work.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Call first thing with the script's `import.meta.url`. */
export function helpIfAsked(scriptUrl: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  const source = readFileSync(fileURLToPath(scriptUrl), 'utf8');
  const doc = /\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? '';
  const text = doc
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
  process.stdout.write(`${text}\n`);
  process.exit(0);
}
