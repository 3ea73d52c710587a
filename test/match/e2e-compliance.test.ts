/**
 * `thoth match --compliance`: Thoth (the built engine) passes every step of protocol.md's check,
 * and each broken fake engine fails at the step its fault belongs to. Real processes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPLIANCE_STEPS, checkCompliance } from '../../src/match/compliance';
import { runBuilt } from '../cli/helpers';
import { ROOT, fakeEngineScript } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');

describe('compliance', () => {
  it.skipIf(!existsSync(CLI))('Thoth passes every step', async () => {
    const lines: string[] = [];
    const r = await checkCompliance([process.execPath, CLI], (l) => lines.push(l));
    expect(r.failed).toBeUndefined();
    expect(r.passed).toEqual(COMPLIANCE_STEPS.map((s) => s.name));
    expect(lines).toHaveLength(COMPLIANCE_STEPS.length);
  });

  it.each([
    ['--mode nouci', 'uci', /^no 'uciok' within 2 s$/],
    ['--mode die', 'uci', /^the process ended \(exit code 1\) waiting for 'uciok'$/],
    ['--mode illegal --at 1', 'go clock', /^'bestmove \w+\+': \w+\+: the piece on \w+ is not Silver's$/],
    ['--mode crash --at 1', 'go clock', /^the process ended \(exit code 3\) waiting for 'bestmove'$/],
    ['--mode malformed --at 2', 'go btime', /^'bestmove xyzzy': 'xyzzy' is not a move/],
    ['--mode hang --at 3', 'go depth', /^no 'bestmove' within 2 s$/],
    ['--mode slow --at 5', 'go movetime', /^no 'bestmove' within 2.2 s$/],
    // the fake engine answers go infinite at once: it breaks protocol.md there
    ['', 'go infinite', /^'bestmove \S+' before 'stop'$/],
  ])('a fake engine %s fails at step %s', async (args, step, why) => {
    const r = await checkCompliance(
      [process.execPath, fakeEngineScript(), ...args.split(' ').filter(Boolean)],
      () => {},
      2000,
    );
    expect(r.failed?.step).toBe(step);
    expect(r.failed?.why).toMatch(why);
    expect(r.passed).toEqual(COMPLIANCE_STEPS.slice(0, r.passed.length).map((s) => s.name));
  });

  it.skipIf(!existsSync(CLI))(
    "the check's own wait, too short, is named with the flag that makes it longer; the protocol's are not",
    async () => {
      const fake = `node ${fakeEngineScript()}`;
      const [slow, hang, bad] = await Promise.all([
        runBuilt(['match', '--compliance', `${fake} --mode nouci`, '--timeout', '1500']),
        // go clock's limit is the protocol's (the clock and 2 s): no flag changes it
        runBuilt(['match', '--compliance', `${fake} --mode hang --at 1`, '--timeout', '1500']),
        runBuilt(['match', '--compliance', fake, '--timeout', 'soon']),
      ]);
      expect(slow).toMatchObject({
        code: 1,
        err: "thoth match: not compliant: step 1 (uci) fails: no 'uciok' within 1.5 s; --timeout MS gives it longer (now 1500)\n",
      });
      expect(hang).toMatchObject({
        code: 1,
        err: "thoth match: not compliant: step 7 (go clock) fails: no 'bestmove' within 3 s\n",
      });
      expect(bad).toMatchObject({
        code: 2,
        err: "thoth match: --timeout must be a whole number of ms from 1 to 9999999, not 'soon'\n",
      });
    },
  );
});
