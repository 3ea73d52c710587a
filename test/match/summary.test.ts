import { describe, expect, it } from 'vitest';
import { jsonLine, summarizeEncounter, type EncounterCounts } from '../../src/match/results/summary';
import { pentanomialStats } from '../../src/match/stats/pentanomial';
import { sprtLLR } from '../../src/match/stats/sprt';

const counts = (): EncounterCounts => ({
  total: { wins: 5, losses: 2, draws: 4 },
  asFirst: { wins: 3, losses: 1, draws: 2 },
  asSecond: { wins: 2, losses: 1, draws: 2 },
  firstPlayer: { wins: 4, losses: 3, draws: 4 },
  penta: [0, 1, 2, 1, 1],
});

describe('an encounter summary as data', () => {
  it('pairs: W-L-D, the pentanomial, Elo from the pairs, the SPRT with bounds and decision', () => {
    const sprt = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
    const s = summarizeEncounter(counts(), ['new', 'old'], { pairs: true, sprt });
    expect(s).toMatchObject({
      players: ['new', 'old'],
      games: 11,
      wins: 5,
      losses: 2,
      draws: 4,
      pentanomial: [0, 1, 2, 1, 1],
      model: 'pentanomial',
    });
    expect(s.score).toBeCloseTo(7 / 11, 12);
    const p = pentanomialStats([0, 1, 2, 1, 1]);
    expect(s.elo).toBe(p.elo);
    expect(s.nEloError).toBe(p.nEloError);
    expect(s.sprt!.llr).toBe(sprtLLR([0, 1, 2, 1, 1], 0, 5, 'normalized'));
    expect(s.sprt!.lower).toBeCloseTo(-2.944, 3);
    expect(s.sprt!.upper).toBeCloseTo(2.944, 3);
    expect(s.sprt!.decision).toBeNull();
  });

  it('single games: no pentanomial, per-game model; JSON writes what it cannot hold as null', () => {
    const c = counts();
    c.total = { wins: 3, losses: 0, draws: 0 };
    const s = summarizeEncounter(c, ['a', 'b'], { pairs: false });
    expect(s.pentanomial).toBeNull();
    expect(s.model).toBe('trinomial');
    expect(s.elo).toBe(Infinity);
    const back = JSON.parse(jsonLine(s));
    expect(back.elo).toBeNull();
    expect(back.wins).toBe(3);
    expect(back.sprt).toBeNull();
  });
});
