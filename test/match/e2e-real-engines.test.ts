/**
 * The real engines of other protocols, where they are here (sh scripts/fetch-engines.sh, then
 * built as each one's README says; docs/match.md, "Other engines"): each is fingerprinted as its
 * sources say it plays, and plays a short match against Thoth through its own protocol. Each is
 * skipped with a message when it is absent.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayRecord } from '../../src/core/record';
import { ROOT, run } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');
const DDKET = join(ROOT, 'engines/6.172/project4/khetplayer.dailey');
const KHET2AI = join(ROOT, 'engines/Khet2-AI/build/bin/khet');
const BRIDGE = join(ROOT, 'scripts/khetai-bridge.rb');
// khetai installed as a gem, or into engines/khetai/gems (GEM_HOME)
const LOCAL_GEMS = join(ROOT, 'engines/khetai/gems');
if (existsSync(LOCAL_GEMS)) process.env.GEM_HOME = LOCAL_GEMS;
const HAVE_KHETAI = spawnSync('ruby', ['-rkhetai', '-e', '0']).status === 0;
const HAVE_THOTH = existsSync(CLI);

const ENGINES = [
  { name: 'ddket', have: existsSync(DDKET), cmd: DDKET, proto: 'uki', words: 'Pharaoh rotation, two Scarab rotations' },
  {
    name: 'Khet2-AI',
    have: existsSync(KHET2AI),
    cmd: KHET2AI,
    proto: 'khet2ai',
    words: 'one Scarab rotation, swaps onto reserved squares',
  },
  {
    name: 'khetai',
    have: HAVE_KHETAI,
    cmd: `ruby ${BRIDGE}`,
    proto: 'khetai',
    words: 'two Scarab rotations, swaps onto reserved squares, swaps with the Sphinx',
  },
];

for (const e of ENGINES) {
  if (!e.have) console.log(`skipped: ${e.name} is not here (docs/match.md, "Other engines")`);
}

describe.each(ENGINES)('$name', (e) => {
  it.skipIf(!e.have || !HAVE_THOTH)(
    'is fingerprinted as its sources say, and plays Thoth through its protocol',
    async () => {
      const { summary, lines } = await run([
        '-engine',
        `cmd=${e.cmd}`,
        `proto=${e.proto}`,
        `name=${e.name}`,
        '-engine',
        `cmd=node ${CLI}`,
        'name=thoth',
        '-each',
        'depth=2',
        '-rounds',
        '1',
      ]);
      expect(lines.find((l) => l.startsWith(`Rules of ${e.name}: `))).toMatch(
        new RegExp(`^Rules of ${e.name}: ${e.words} \\(`),
      );
      expect(summary.finished).toHaveLength(2);
      for (const f of summary.finished) {
        expect(['normal', 'adjudication']).toContain(f.record.tags.get('Termination'));
        expect(replayRecord(f.record).ok).toBe(true);
      }
    },
  );
});
