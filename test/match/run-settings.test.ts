/** The MatchSettings tags: PGN's 255-character limit on a tag value, and what -resume reads back. */
import { describe, expect, it } from 'vitest';
import { parseRecords, serializeRecord } from '../../src/core/record';
import {
  TAG_VALUE_MAX,
  recordedSettings,
  settingsDifferences,
  settingsTags,
  settingsText,
} from '../../src/match/run-settings';

/** Settings as `runSettings` makes them for two engines, one with a long command line. */
const items = (cmd: string, hash = '16'): [string, string][] => [
  ['variant', 'khet2'],
  ['openings', 'setups=classic,imhotep,dynasty plies=4'],
  ['srand', '951356066'],
  ['games', '2'],
  ['tournament', 'round-robin'],
  ['noremoval', '100'],
  ['draw', 'off'],
  ['resign', 'movecount=3 score=1000 twosided=false'],
  ['maxplies', '0'],
  ['engine lmr cmd', cmd],
  ['engine lmr options', `hash=${hash}`],
  ['engine lmr limits', '2+0.02'],
  ['engine lmr timemargin', '100'],
  ['engine nolmr cmd', 'node dist/cli.js'],
  ['engine nolmr options', `hash=${hash} lmr=false`],
  ['engine nolmr limits', '2+0.02'],
  ['engine nolmr timemargin', '100'],
];

describe('MatchSettings tags', () => {
  for (const [what, cmd] of [
    ['a short command', 'node dist/cli.js'],
    ['a command longer than a tag', `node /home/someone/${'very-long-folder/'.repeat(30)}dist/cli.js`],
  ]) {
    it(`${what}: every value at most 255 characters, read back as written`, () => {
      const tags = settingsTags(items(cmd));
      expect(settingsText(items(cmd)).length).toBeGreaterThan(TAG_VALUE_MAX); // one tag would be too long
      expect(tags.length).toBeGreaterThan(1);
      expect(tags.map(([t]) => t)).toEqual(tags.map((_, i) => (i === 0 ? 'MatchSettings' : `MatchSettings${i + 1}`)));
      for (const [, v] of tags) expect(v.length).toBeLessThanOrEqual(TAG_VALUE_MAX);
      // through a record file and back
      const rec = parseRecords('[Round "1"]\n\n1. f4g5 *\n').games[0];
      for (const [t, v] of tags) rec.tags.set(t, v);
      const back = parseRecords(serializeRecord(rec)).games[0];
      const text = recordedSettings(back.tags)!;
      expect(settingsDifferences(text, items(cmd))).toEqual([]);
      expect(settingsDifferences(text, items(cmd, '32'))).toEqual([
        'engine lmr options: hash=16 in the record, hash=32 now',
        'engine nolmr options: hash=16 lmr=false in the record, hash=32 lmr=false now',
      ]);
      expect(settingsDifferences(text, items(`${cmd} --x`))).toEqual([
        `engine lmr cmd: ${cmd} in the record, ${cmd} --x now`,
      ]);
    });
  }

  it('a record with one MatchSettings tag (written before the split) reads as before', () => {
    const m = new Map([['MatchSettings', settingsText(items('node dist/cli.js'))]]);
    expect(settingsDifferences(recordedSettings(m)!, items('node dist/cli.js'))).toEqual([]);
    expect(recordedSettings(new Map())).toBeUndefined();
  });
});
