/** The fixture engines of other protocols (fixtures/), each bundled once into a plain .mjs that starts fast. */
import { fileURLToPath } from 'node:url';
import { bundledFixture } from '../bundle';

const FIXTURES = {
  uki: 'uki-engine.ts',
  kei: 'kei-engine.ts',
  khet2ai: 'khet2ai-engine.ts',
  khetai: 'khetai-bridge.ts',
} as const;
export type FixtureProto = keyof typeof FIXTURES;

/** The fixture of a protocol as one .mjs file, built once per worker (test/bundle.ts). */
export function fixtureScript(proto: FixtureProto): string {
  return bundledFixture(fileURLToPath(new URL(`./fixtures/${FIXTURES[proto]}`, import.meta.url)), 'foreign');
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
