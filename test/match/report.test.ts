import { describe, expect, it } from 'vitest';
import { readInfo, type EngineReport } from '../../src/match/referee';
import {
  Standings,
  encounterLines,
  formatEloLine,
  formatPentanomialLine,
  formatScoreLine,
  formatSprtLine,
  standingsLines,
} from '../../src/match/results/report';
import { Schedule } from '../../src/match/schedule';
import { sprtBounds } from '../../src/match/stats/sprt';
import { trinomialStats } from '../../src/match/stats/wdl';

/** Feeds `n` games with A scoring `aScore` into an encounter of a schedule, in schedule order. */
function feed(st: Standings, s: Schedule, scores: number[], start = 0): number {
  let i = start;
  for (const a of scores) {
    const g = s.game(i++);
    st.add(g, g.first === 0 ? a : 1 - a);
  }
  return i;
}

describe('standings and summary lines', () => {
  it('per-game statistics reproduce the published vector: W136 L96 D111 → Elo 40.70 ± 30.43, LOS 99.60%', () => {
    const s = new Schedule(2, 'roundrobin', 1, 1000);
    const st = new Standings(['A', 'B'], s.encounters, s.paired);
    feed(st, s, [...Array(136).fill(1), ...Array(96).fill(0), ...Array(111).fill(0.5)]);
    const lines = encounterLines(st, 0, ['Silver', 'Red'], {
      elo0: 0,
      elo1: 5,
      alpha: 0.05,
      beta: 0.05,
      model: 'normalized',
    });
    expect(lines[0]).toBe('Score of A vs B: 136 - 96 - 111  [0.558] 343');
    expect(lines).toContain('Elo difference: 40.7 +/- 30.4, LOS: 99.6 %, DrawRatio: 32.4 %');
    expect(lines).toContain('Normalized Elo: 49.8 +/- 36.8 (per game)');
    expect(lines.some((l) => l.startsWith('Ptnml'))).toBe(false); // single games: no pairs
    expect(lines[lines.length - 1]).toMatch(/^SPRT: llr -?\d+\.\d\d \(-?[\d.]+%\), lbound -2\.94, ubound 2\.94/);
    // Colours alternate across rounds: A had 172 games as Silver, 171 as Red.
    expect(lines[1]).toMatch(/^\.\.\. {6}A playing Silver: \d+ - \d+ - \d+ {2}\[0\.\d{3}\] 172$/);
    expect(lines[3]).toMatch(/^\.\.\. {6}Silver vs Red: /);
  });

  it('game pairs: pentanomial counts, SPRT on pairs', () => {
    const s = new Schedule(2, 'roundrobin', 2, 100);
    const st = new Standings(['A', 'B'], s.encounters, s.paired);
    // Pairs (A's scores): WW, WD, WL, DD, LD, and a half pair (W).
    const i = feed(st, s, [1, 1, 1, 0.5, 1, 0, 0.5, 0.5, 0, 0.5, 1]);
    expect(i).toBe(11);
    expect(st.encounters[0].penta).toEqual([0, 1, 2, 1, 1]);
    expect(st.encounters[0].total).toEqual({ wins: 5, losses: 2, draws: 4 });
    const lines = encounterLines(st, 0, ['Silver', 'Red']);
    expect(lines).toContain('Ptnml(0-2): [0, 1, 2, 1, 1]');
    expect(lines.some((l) => l.endsWith('(pentanomial)'))).toBe(true);
    expect(st.stats().n).toBe(5);
  });

  it('an SPRT hypothesis the results cannot express yet: no decision, not a crash', () => {
    const s = new Schedule(2, 'roundrobin', 2, 100);
    const st = new Standings(['A', 'B'], s.encounters, s.paired);
    feed(st, s, [1, 1, 1, 1, 0.5, 1]);
    const sprt = { elo0: 700, elo1: 800, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
    expect(st.llr(sprt)).toBeNaN();
    expect(st.sprtDecision(sprt)).toBeNull();
    expect(encounterLines(st, 0, ['Silver', 'Red'], sprt).pop()).toBe(
      'SPRT: llr n/a (n/a%), lbound -2.94, ubound 2.94',
    );
  });

  it('more than two engines: points with drawscore, anchored ratings, cross table', () => {
    const s = new Schedule(3, 'roundrobin', 2, 10);
    const st = new Standings(['strong', 'mid', 'weak'], s.encounters, s.paired);
    for (let i = 0; i < s.total; i++) {
      const g = s.game(i);
      // The lower index wins 3 of 4, draws the rest.
      const lowFirst = g.first < g.second;
      const low = i % 4 === 3 ? 0.5 : 1;
      st.add(g, lowFirst ? low : 1 - low);
    }
    const lines = standingsLines(st, 1, 0.4);
    expect(lines[0]).toMatch(/^Rank\s+Name\s+Elo\s+Games\s+Points\s+Score\s+Draws$/);
    expect(lines[1]).toMatch(/^1\s+strong\s+\+\d+\.\d\s+40\s+/);
    expect(lines[2]).toMatch(/^2\s+mid\s+0\.0\*\s+40\s+/);
    expect(lines[3]).toMatch(/^3\s+weak\s+-\d+\.\d\s+40\s+/);
    const r = st.ratings(1);
    expect(r[1]).toBe(0);
    expect(r[0]).toBeGreaterThan(100);
    expect(r[2]).toBeLessThan(-100);
    expect(lines).toContain('Cross table (points of the row engine against the column engine):');
    const strongRow = lines.find((l) => l.startsWith('strong ') && l.includes('/20'))!;
    // strong vs mid: 20 games, 15 wins + 5 draws at 0.4 = 17 points.
    expect(strongRow).toMatch(/^strong\s+-\s+17\/20\s+17\/20$/);
    expect(lines.some((l) => l.includes('draws = 0.4'))).toBe(true);
  });
});

describe('info lines', () => {
  it('keeps the last score and depth', () => {
    const acc: EngineReport = {};
    readInfo('info depth 3 seldepth 5 multipv 1 score cp -25 nodes 100 pv a1a2', acc);
    expect(acc).toMatchObject({ depth: 3, score: { kind: 'cp', value: -25 }, seldepth: 5, nodes: 100, pv: ['a1a2'] });
    // the nodes, selective depth and PV of the last line with a score, even when it has none
    readInfo('info depth 4 score mate -2 lowerbound nodes 5', acc);
    expect(acc).toMatchObject({ depth: 4, score: { kind: 'mate', value: -2 }, nodes: 5 });
    expect(acc.pv).toBeUndefined();
    expect(acc.seldepth).toBeUndefined();
    readInfo('info string score cp 999 depth 99', acc);
    expect(acc.depth).toBe(4);
    readInfo('info nodes 10 score cp 12', acc);
    expect(acc).toMatchObject({ depth: 4, score: { kind: 'cp', value: 12 }, nodes: 10 });
    readInfo('bestmove a1a2', acc);
    readInfo('info depth x score cp y', acc);
    expect(acc).toMatchObject({ depth: 4, score: { kind: 'cp', value: 12 } });
    // the second-best line of a MultiPV search is not the engine's score
    readInfo('info depth 5 seldepth 7 multipv 2 score cp -300 nodes 900 pv b1b2', acc);
    expect(acc).toMatchObject({ depth: 4, score: { kind: 'cp', value: 12 }, nodes: 10 });
    readInfo('info depth 5 seldepth 7 multipv 1 score cp 40 nodes 900 pv a1a2', acc);
    expect(acc).toEqual({ depth: 5, score: { kind: 'cp', value: 40 }, seldepth: 7, nodes: 900, pv: ['a1a2'] });
  });
});

describe('formatting', () => {
  it('score line', () => {
    expect(formatScoreLine('A', 'B', { wins: 120, losses: 98, draws: 182 })).toBe(
      'Score of A vs B: 120 - 98 - 182  [0.527] 400',
    );
    expect(formatScoreLine('Thoth dev', 'Thoth base', { wins: 0, losses: 0, draws: 0 })).toBe(
      'Score of Thoth dev vs Thoth base: 0 - 0 - 0  [0.000] 0',
    );
  });

  it('Elo line', () => {
    expect(formatEloLine({ elo: 19.1, eloError: 24.0, los: 94.0, drawRatio: 45.5 })).toBe(
      'Elo difference: 19.1 +/- 24.0, LOS: 94.0 %, DrawRatio: 45.5 %',
    );
    const s = trinomialStats({ wins: 136, losses: 96, draws: 111 });
    expect(formatEloLine(s)).toBe('Elo difference: 40.7 +/- 30.4, LOS: 99.6 %, DrawRatio: 32.4 %');
  });

  it('SPRT line', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(formatSprtLine(2.95, b)).toBe('SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted');
    expect(formatSprtLine(-2.95, b)).toBe('SPRT: llr -2.95 (-100.2%), lbound -2.94, ubound 2.94 - H0 was accepted');
    expect(formatSprtLine(1.23, b)).toBe('SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94');
  });

  it('pentanomial line', () => {
    expect(formatPentanomialLine([12, 345, 678, 901, 23])).toBe('Ptnml(0-2): [12, 345, 678, 901, 23]');
  });
});

describe('summary lines never show inf or nan', () => {
  it('a value the results cannot give yet is n/a', () => {
    expect(formatEloLine({ elo: Infinity, eloError: NaN, los: 100, drawRatio: 0 })).toBe(
      'Elo difference: n/a +/- n/a, LOS: 100.0 %, DrawRatio: 0.0 %',
    );
    expect(formatEloLine({ elo: -Infinity, eloError: Infinity, los: 0, drawRatio: 0 })).toBe(
      'Elo difference: n/a +/- n/a, LOS: 0.0 %, DrawRatio: 0.0 %',
    );
    expect(formatEloLine({ elo: 19.06, eloError: 24.04, los: 94, drawRatio: 45.5 })).toBe(
      'Elo difference: 19.1 +/- 24.0, LOS: 94.0 %, DrawRatio: 45.5 %',
    );
  });

  it('the whole summary of one-sided, drawn and single results, with an SPRT and standings', () => {
    const sprt = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
    for (const scores of [[1], [0], [0.5], [1, 1], [0, 0], [0.5, 0.5], [1, 0], [1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5]]) {
      const s = new Schedule(2, 'roundrobin', 2, 100);
      const st = new Standings(['A', 'B'], s.encounters, s.paired);
      scores.forEach((x, i) => st.add(s.game(i), x));
      const text = [...encounterLines(st, 0, ['Silver', 'Red'], sprt), ...standingsLines(st, 0, 0.5)].join('\n');
      expect(text, JSON.stringify(scores)).not.toMatch(/\b(inf|nan|Infinity|NaN)\b/i);
    }
  });
});
