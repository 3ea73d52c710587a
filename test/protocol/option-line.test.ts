/**
 * The handshake's option line has one formatter and one parser (src/core/option-line.ts): every
 * option Thoth declares reads back as it was declared, which is what the GUI page and the match
 * runner see of it.
 */
import { describe, expect, it } from 'vitest';
import { formatOptionLine, parseOptionLine, type DeclaredOption, type OptionSpec } from '../../src/core/option-line';
import { ok } from '../../src/core/result';
import { createOptions, maxThreads } from '../../src/engine/options';

/** Every option Thoth declares, with and without a network file (EvalFile's default differs). */
function declared(hasNetwork: boolean): OptionSpec[] {
  return createOptions(
    {
      resizeHash: () => {},
      clearHash: () => {},
      setThreads: () => {},
      variantChanged: () => {},
      rulesChanged: () => {},
      loadNetwork: () => ok(undefined),
      evaluationChanged: () => {},
      hasNetwork: () => hasNetwork,
    },
    maxThreads(4),
  ).all.map((o) => o.spec);
}

/** What a client should read of `o` (written out field by field, not with the parser). */
function expected(o: OptionSpec): DeclaredOption {
  const d: DeclaredOption = { name: o.name, type: o.type, vars: [...(o.vars ?? [])] };
  if (o.default !== undefined) d.default = String(o.default);
  if (o.min !== undefined) d.min = o.min;
  if (o.max !== undefined) d.max = o.max;
  return d;
}

describe('the option line', () => {
  for (const hasNetwork of [false, true]) {
    it(`reads back every option Thoth declares (${hasNetwork ? 'with' : 'without'} a network)`, () => {
      const specs = declared(hasNetwork);
      expect(specs.length).toBeGreaterThan(10);
      for (const o of specs) expect(parseOptionLine(formatOptionLine(o)), o.name).toEqual(expected(o));
      // Each kind is there, so the round trip covers ranges, vars, checks, buttons and strings.
      expect(new Set(specs.map((o) => o.type))).toEqual(new Set(['spin', 'check', 'combo', 'button', 'string']));
    });
  }

  it('keeps spaces in names and values, and reads only option lines', () => {
    const o: OptionSpec = { name: 'Move Overhead', type: 'combo', default: 'Very Wild', vars: ['Normal', 'Very Wild'] };
    expect(parseOptionLine(formatOptionLine(o))).toEqual({
      name: 'Move Overhead',
      type: 'combo',
      default: 'Very Wild',
      vars: ['Normal', 'Very Wild'],
    });
    expect(parseOptionLine('option name Clear Hash type button')).toEqual({
      name: 'Clear Hash',
      type: 'button',
      vars: [],
    });
    expect(parseOptionLine('info string option name x type spin')).toBeUndefined();
    expect(parseOptionLine('id name Thoth')).toBeUndefined();
  });
});
