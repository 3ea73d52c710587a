/** The fixture engines of other protocols (fixtures/), each bundled once into a plain .mjs that starts fast. */
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = {
  uki: 'uki-engine.ts',
  kei: 'kei-engine.ts',
  khet2ai: 'khet2ai-engine.ts',
  khetai: 'khetai-bridge.ts',
} as const;
export type FixtureProto = keyof typeof FIXTURES;

const bundled = new Map<string, string>();

/** The fixture of a protocol as one .mjs file. */
export function fixtureScript(proto: FixtureProto): string {
  const have = bundled.get(proto);
  if (have) return have;
  const dir = mkdtempSync(join(tmpdir(), 'thoth-foreign-'));
  const out = join(dir, `${proto}.mjs`);
  buildSync({
    entryPoints: [fileURLToPath(new URL(`./fixtures/${FIXTURES[proto]}`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  });
  bundled.set(proto, out);
  return out;
}

/** `-engine` words for a fixture: `foreign('uki', 'ddk', '--break notation')`. */
export function foreign(proto: FixtureProto, name: string, args = '', extra: string[] = []): string[] {
  return [
    '-engine',
    'cmd=node',
    `args=${fixtureScript(proto)} ${args}`.trim(),
    `name=${name}`,
    `proto=${proto}`,
    ...extra,
  ];
}
