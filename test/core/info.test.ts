/** src/core/info.ts: the `info` line written from a search report and read back. */
import { describe, expect, it } from 'vitest';
import { formatInfo, formatInfoError, parseInfo, type SearchInfo } from '../../src/core/info';
import { MATE, scoreOf, scoreValue } from '../../src/core/score';
import { wdlOf } from '../../src/core/win-chance';

const FULL: SearchInfo = {
  depth: 9,
  seldepth: 16,
  multipv: 1,
  score: { kind: 'cp', value: 7 },
  bound: 'exact',
  nodes: 5273735,
  nps: 969080,
  hashfull: 313,
  time: 5442,
  pv: ['f4g5', 'h5i4', 'h2h1'],
};

describe('formatInfo', () => {
  it('writes the fields in the order GUIs expect (protocol.md)', () => {
    expect(formatInfo(FULL)).toBe(
      'info depth 9 seldepth 16 multipv 1 score cp 7 nodes 5273735 nps 969080 hashfull 313 time 5442 pv f4g5 h5i4 h2h1',
    );
    expect(formatInfo({ ...FULL, multipv: 2, score: { kind: 'mate', value: -3 }, bound: 'lower', pv: ['j1-'] })).toBe(
      'info depth 9 seldepth 16 multipv 2 score mate -3 lowerbound nodes 5273735 nps 969080 hashfull 313 time 5442 pv j1-',
    );
    expect(formatInfo({ ...FULL, bound: 'upper' })).toMatch(/ score cp 7 upperbound nodes /);
  });

  it('leaves out the fields it is not given', () => {
    expect(formatInfo({ depth: 3, score: { kind: 'cp', value: -1 } })).toBe('info depth 3 score cp -1');
    expect(formatInfo({})).toBe('info');
  });
});

describe('parseInfo', () => {
  it('reads back what formatInfo writes', () => {
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    for (let i = 0; i < 500; i++) {
      const info: SearchInfo = {
        depth: 1 + rnd(60),
        seldepth: 1 + rnd(90),
        multipv: 1 + rnd(5),
        score: rnd(4) === 0 ? { kind: 'mate', value: rnd(20) - 10 || 1 } : { kind: 'cp', value: rnd(4000) - 2000 },
        bound: (['exact', 'lower', 'upper'] as const)[rnd(3)],
        nodes: rnd(1e9),
        nps: rnd(1e7),
        hashfull: rnd(1001),
        time: rnd(1e6),
        pv: Array.from({ length: rnd(6) }, () => `${'abcdefghij'[rnd(10)]}${1 + rnd(8)}${['+', '-', 'e4'][rnd(3)]}`),
      };
      const r = parseInfo(formatInfo(info));
      expect(r).toEqual({ ok: true, value: info });
    }
  });

  it("reads other engines' lines: any order, extra white space, fields it does not use", () => {
    const r = parseInfo(
      '  info  multipv 2 depth 20 currmove e2e4 currmovenumber 3 wdl 500 300 200 tbhits 0 score cp +15 upperbound time 10 pv a1a2 ',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        multipv: 2,
        depth: 20,
        wdl: [500, 300, 200],
        score: { kind: 'cp', value: 15 },
        bound: 'upper',
        time: 10,
        pv: ['a1a2'],
      },
    });
    expect(parseInfo('info nodes 10 frobnicate score mate 2')).toEqual({
      ok: true,
      value: { nodes: 10, score: { kind: 'mate', value: 2 }, bound: 'exact' },
    });
    expect(parseInfo('info depth 5 currline 1 a1a2 b1b2')).toEqual({ ok: true, value: { depth: 5 } });
    expect(parseInfo('info depth 5 pv')).toEqual({ ok: true, value: { depth: 5, pv: [] } });
  });

  it('gives a typed error for what is not search information', () => {
    const cases: Array<[string, string]> = [
      ['bestmove a1a2', 'info'],
      ['', 'info'],
      ['information depth 3', 'info'],
      ['info string depth 3 score cp 5', 'string'],
      ['info depth x score cp 5', 'depth'],
      ['info depth 3 nodes', 'nodes'],
      ['info depth -3', 'depth'],
      ['info time 1.5', 'time'],
      ['info score 5', 'score'],
      ['info score cp', 'score'],
      ['info score mate x', 'score'],
      // numbers too long to stay exact, or to write into a record as they read
      ['info score cp 1000000000', 'score'],
      ['info nodes 1234567890123456', 'nodes'],
    ];
    for (const [line, field] of cases) {
      const r = parseInfo(line);
      expect(r.ok, line).toBe(false);
      if (!r.ok) {
        expect(r.error.field, line).toBe(field);
        expect(formatInfoError(r.error)).toMatch(new RegExp(`^${field}: \\S`));
      }
    }
  });
});

describe('scores', () => {
  it('mate in N moves as the search counts it (MATE − plies) and back', () => {
    expect(scoreOf(MATE - 1)).toEqual({ kind: 'mate', value: 1 });
    expect(scoreOf(MATE - 3)).toEqual({ kind: 'mate', value: 2 });
    expect(scoreOf(-(MATE - 2))).toEqual({ kind: 'mate', value: -1 });
    expect(scoreOf(-(MATE - 4))).toEqual({ kind: 'mate', value: -2 });
    expect(scoreOf(-250)).toEqual({ kind: 'cp', value: -250 });
    for (const s of [MATE - 1, MATE - 5, MATE - 41, -(MATE - 2), -(MATE - 30), 0, 17, -999])
      expect(scoreValue(scoreOf(s))).toBe(s);
  });
});

describe('wdl', () => {
  it('reads and writes wdl W D L after the score', () => {
    const r = parseInfo('info depth 5 score cp 35 wdl 420 290 290 nodes 10 pv e4d5');
    expect(r.ok && r.value.wdl).toEqual([420, 290, 290]);
    expect(r.ok && formatInfo(r.value)).toBe('info depth 5 score cp 35 wdl 420 290 290 nodes 10 pv e4d5');
    const bad = parseInfo('info score cp 3 wdl 1 2');
    expect(!bad.ok && bad.error.field).toBe('wdl');
  });

  it('wdlOf: per mille from the fitted curve, even at 0, certain for a forced hit (docs/review.md)', () => {
    expect(wdlOf({ kind: 'cp', value: 0 })).toEqual([367, 266, 367]);
    const [w, d, l] = wdlOf({ kind: 'cp', value: 300 });
    expect(w + d + l).toBe(1000);
    expect(w).toBeGreaterThan(l);
    expect(wdlOf({ kind: 'cp', value: -300 })).toEqual([l, d, w]);
    expect(wdlOf({ kind: 'mate', value: 3 })).toEqual([1000, 0, 0]);
    expect(wdlOf({ kind: 'mate', value: -2 })).toEqual([0, 0, 1000]);
  });
});
