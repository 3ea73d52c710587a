import { describe, expect, it } from 'vitest';
import { readInfo, type InfoScore } from '../../src/match/referee';
import { Standings, encounterLines, standingsLines } from '../../src/match/report';
import { Schedule } from '../../src/match/schedule';

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
    const lines = encounterLines(st, 0, ['Silver', 'Red'], { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' });
    expect(lines[0]).toBe('Score of A vs B: 136 - 96 - 111  [0.558] 343');
    expect(lines).toContain('Elo difference: 40.7 +/- 30.4, LOS: 99.6 %, DrawRatio: 32.4 %');
    expect(lines).toContain('Normalized Elo: 49.8 +/- 36.8 (per game)');
    expect(lines.some((l) => l.startsWith('Ptnml'))).toBe(false); // single games: no pairs
    expect(lines[lines.length - 1]).toMatch(/^SPRT: llr -?\d+\.\d\d \(-?[\d.]+%\), lbound -2\.94, ubound 2\.94/);
    // Colours alternate across rounds: A had 172 games as Silver, 171 as Red.
    expect(lines[1]).toMatch(/^\.\.\.      A playing Silver: \d+ - \d+ - \d+  \[0\.\d{3}\] 172$/);
    expect(lines[3]).toMatch(/^\.\.\.      Silver vs Red: /);
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
    expect(encounterLines(st, 0, ['Silver', 'Red'], sprt).pop()).toBe('SPRT: llr n/a (n/a%), lbound -2.94, ubound 2.94');
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
    const acc: InfoScore = {};
    readInfo('info depth 3 seldepth 5 multipv 1 score cp -25 nodes 100 pv a1a2', acc);
    expect(acc).toEqual({ depth: 3, cp: -25 });
    readInfo('info depth 4 score mate -2 lowerbound nodes 5', acc);
    expect(acc).toEqual({ depth: 4, cp: undefined, mate: -2 });
    readInfo('info string score cp 999 depth 99', acc);
    expect(acc.depth).toBe(4);
    readInfo('info nodes 10 score cp 12', acc);
    expect(acc).toMatchObject({ cp: 12, mate: undefined, depth: 4 });
    readInfo('bestmove a1a2', acc);
    readInfo('info depth x score cp y', acc);
    expect(acc).toMatchObject({ cp: 12, depth: 4 });
    // the second-best line of a MultiPV search is not the engine's score
    readInfo('info depth 5 seldepth 7 multipv 2 score cp -300 nodes 900 pv b1b2', acc);
    expect(acc).toMatchObject({ cp: 12, depth: 4 });
    readInfo('info depth 5 seldepth 7 multipv 1 score cp 40 nodes 900 pv a1a2', acc);
    expect(acc).toMatchObject({ cp: 40, depth: 5 });
  });
});
