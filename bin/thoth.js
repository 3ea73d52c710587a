#!/usr/bin/env node
// The `thoth` command: runs the built CLI (npm run build makes dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('thoth: dist/cli.js is missing; run `npm run build` first\n');
  process.exit(2);
}
await import(cli);
