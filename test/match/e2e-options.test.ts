/**
 * Engine options are checked against what the engine declares before the first game (as fastchess
 * does), and a search without a clock (depth=, nodes=) has a deadline: real fake-engine processes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordReason } from '../../src/core/record';
import { parseOptionLine } from '../../src/match/engine-options';
import { EngineOptionError } from '../../src/match/errors';
import { runBuilt } from '../cli/helpers';
import { fake, run, tempDir } from './helpers';

describe('option.X is checked before the first game', () => {
  const cases: [string, RegExp][] = [
    [
      'option.Hashh=16',
      /^engine 'A': option\.Hashh=16 refused: the engine has no option 'Hashh' \(did you mean 'Hash'\?\)$/,
    ],
    [
      'option.Contempt=5',
      /^engine 'A': option\.Contempt=5 refused: the engine has no option 'Contempt' \(it declares Hash, UCI_Variant, Style\)$/,
    ],
    ['option.Hash=5000', /^engine 'A': option\.Hash=5000 refused: option 'Hash' must be from 1 to 1024, not 5000$/],
    ['option.Hash=big', /^engine 'A': option\.Hash=big refused: option 'Hash' takes a whole number, not 'big'$/],
    [
      'option.UCI_Variant=khet9',
      /^engine 'A': option\.UCI_Variant=khet9 refused: option 'UCI_Variant' must be one of khet2, khet1, deflexion, not 'khet9'$/,
    ],
    // Declared, and in range as far as the runner can tell, but the engine answers an error.
    [
      'option.Style=bogus',
      /^engine 'A': option\.Style=bogus refused: the engine answers 'info string error: setoption: Style must be normal or wild, not 'bogus''$/,
    ],
  ];
  for (const [word, message] of cases) {
    it(`${word}: the run stops before any game, naming the engine and the option`, async () => {
      const dir = tempDir();
      const pgn = join(dir, 'g.pgn');
      const p = run([...fake('A', '', [word]), ...fake('B'), '-each', 'tc=10+0.1', '-pgnout', pgn]);
      await expect(p).rejects.toThrow(EngineOptionError);
      await expect(p).rejects.toThrow(message);
      expect(existsSync(pgn) ? readFileSync(pgn, 'utf8') : '').toBe('');
    });
  }

  it('options the engine accepts (any case of the name) play', async () => {
    const { summary } = await run([
      ...fake('A', '', ['option.hash=64', 'option.Style=wild']),
      ...fake('B'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '1',
    ]);
    expect(summary.stop).toBe('done');
    expect(summary.finished).toHaveLength(2);
  });

  it('thoth match: one line on stderr and exit code 2', async () => {
    const r = await runBuilt(['match', ...fake('A', '', ['option.Hashh=16']), ...fake('B'), '-each', 'tc=10+0.1']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "thoth match: engine 'A': option.Hashh=16 refused: the engine has no option 'Hashh' (did you mean 'Hash'?)\n",
    );
  });

  it('option lines: values up to the next keyword', () => {
    expect(parseOptionLine('option name Skill Level type spin default 20 min 0 max 20')).toEqual({
      name: 'Skill Level',
      type: 'spin',
      default: '20',
      min: 0,
      max: 20,
      vars: [],
    });
    expect(parseOptionLine('option name Style type combo default Very Wild var Normal var Very Wild')?.vars).toEqual([
      'Normal',
      'Very Wild',
    ]);
    expect(parseOptionLine('option name Clear Hash type button')).toEqual({
      name: 'Clear Hash',
      type: 'button',
      vars: [],
    });
    expect(parseOptionLine('info string option name x type spin')).toBeUndefined();
  });
});

describe('-searchtimeout: a search without a clock has a deadline', () => {
  it('an engine that does not end a depth= search loses on time once told stop', async () => {
    const { summary } = await run([
      ...fake('slow', '--mode slow --at 2'),
      ...fake('ok'),
      '-each',
      'depth=3',
      '-searchtimeout',
      '2',
      '-rounds',
      '1',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    expect(summary.stop).toBe('done');
    const tf = summary.finished.filter((f) => f.record.tags.get('Termination') === 'time forfeit');
    expect(tf).toHaveLength(1);
    expect(tf[0].record.result).toBe(tf[0].record.tags.get('White') === 'slow' ? '0-1' : '1-0');
    expect(recordReason(tf[0].record)).toMatch(
      /loses on time \(slow: no 'bestmove' within the search timeout of 2 s \(-searchtimeout\)\)/,
    );
  });

  it('a hung engine under nodes= is stalled and, with -recover, restarted: the run ends', async () => {
    const { summary } = await run([
      ...fake('hanger', '--mode hang --at 2'),
      ...fake('ok'),
      '-each',
      'nodes=1000',
      '-searchtimeout',
      '2',
      '-pingtimeout',
      '2000',
      '-rounds',
      '1',
      '-recover',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    expect(summary.stop).toBe('done');
    expect(summary.finished).toHaveLength(2);
    const stalled = summary.finished.filter((f) => f.record.tags.get('Termination') === 'stalled');
    expect(stalled.length).toBeGreaterThanOrEqual(1);
    for (const s of stalled) expect(recordReason(s.record)).toMatch(/hanger stalls: .*\(search timeout of 2 s\)/);
  });

  it('-searchtimeout must be a positive number of seconds', async () => {
    await expect(run([...fake('A'), ...fake('B'), '-each', 'depth=2', '-searchtimeout', 'soon'])).rejects.toThrow(
      /-searchtimeout must be a number, not 'soon'/,
    );
  });
});
