/**
 * How games ended, per engine (src/match/results/endings.ts), from records as the referee writes
 * them; and in a run's summary, as text and in the JSON report (src/match/accounts.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETUPS } from '../../src/core/index';
import { makeRecord, type GameRecord, type ResultToken, type Termination } from '../../src/core/record';
import { countEndings, endingLines, endingOf } from '../../src/match/results/endings';
import { fake, run, tempDir } from './helpers';

function rec(result: ResultToken, termination: Termination, reason: string, plies: number): GameRecord {
  return makeRecord({
    event: 'e',
    date: '2026.12.07',
    round: '1',
    players: ['A', 'B'],
    result,
    variant: 'khet2',
    kfen: SETUPS.khet2.classic,
    timeControl: '1+0.01',
    termination,
    reason,
    moves: Array.from({ length: plies }, () => ({ move: 'e4+' })),
  });
}

describe('endings', () => {
  it('sorts each game into one ending; a Pharaoh hit by the last mover on its own Pharaoh is its own shot', () => {
    // Silver moves first: after 3 plies Silver moved last
    expect(endingOf(rec('1-0', 'normal', 'Silver wins: the Red Pharaoh was hit', 3))).toBe('shot');
    expect(endingOf(rec('0-1', 'normal', 'Red wins: the Silver Pharaoh was hit', 3))).toBe('own shot');
    expect(endingOf(rec('0-1', 'normal', 'Red wins: the Silver Pharaoh was hit', 4))).toBe('shot');
    expect(endingOf(rec('1/2-1/2', 'normal', 'Draw by threefold repetition', 9))).toBe('repetition');
    expect(endingOf(rec('1/2-1/2', 'normal', 'Draw: no piece removed in 100 plies', 9))).toBe('no removal');
    expect(endingOf(rec('1/2-1/2', 'normal', 'Draw by the 300-ply limit', 300))).toBe('ply limit');
    expect(endingOf(rec('1-0', 'normal', 'Red resigns (X sees its game lost and makes no move)', 8))).toBe('resign');
    expect(endingOf(rec('1/2-1/2', 'adjudication', 'Draw by adjudication: 200 plies played', 200))).toBe(
      'adjudication max plies',
    );
    expect(endingOf(rec('1-0', 'adjudication', 'Red resigns by adjudication: score at or below -600 cp', 8))).toBe(
      'adjudication resign',
    );
    expect(endingOf(rec('1/2-1/2', 'adjudication', 'Draw by adjudication: scores within 20 cp', 8))).toBe(
      'adjudication draw',
    );
    expect(endingOf(rec('0-1', 'time forfeit', 'Silver loses on time (A)', 8))).toBe('time forfeit');
    expect(endingOf(rec('0-1', 'illegal move', 'Silver makes an illegal move', 8))).toBe('illegal move');
    expect(endingOf(rec('0-1', 'abandoned', "Silver's engine A disconnects", 8))).toBe('crash');
    expect(endingOf(rec('0-1', 'stalled', "Silver's engine A stalls", 8))).toBe('stall');
  });

  it('counts each engine’s wins, losses and draws by ending, and writes a line per engine', () => {
    const games = [
      rec('1-0', 'normal', 'Silver wins: the Red Pharaoh was hit', 3),
      rec('0-1', 'normal', 'Red wins: the Silver Pharaoh was hit', 3),
      rec('0-1', 'time forfeit', 'Silver loses on time (A)', 8),
      rec('1/2-1/2', 'normal', 'Draw by threefold repetition', 9),
    ];
    const c = countEndings(games);
    expect(c.A).toEqual({
      shot: { wins: 1, losses: 0, draws: 0 },
      'own shot': { wins: 0, losses: 1, draws: 0 },
      'time forfeit': { wins: 0, losses: 1, draws: 0 },
      repetition: { wins: 0, losses: 0, draws: 1 },
    });
    expect(endingLines(c, ['A', 'B'])).toEqual([
      'Endings of A (W-L-D): shot 1-0-0, own shot 0-1-0, repetition 0-0-1, time forfeit 0-1-0',
      'Endings of B (W-L-D): shot 0-1-0, own shot 1-0-0, repetition 0-0-1, time forfeit 1-0-0',
    ]);
  });
});

describe("endings in a run's summary", () => {
  it('a line per engine after the standings, and the same counts in the JSON report', async () => {
    const dir = tempDir();
    const json = join(dir, 'run.jsonl');
    const { summary, lines } = await run([
      ...fake('A', '--seed 1 --deterministic'),
      ...fake('B', '--seed 2 --play random --deterministic'),
      ...fake('C', '--mode illegal --at 3'),
      ...'-each tc=10+0.1 -rounds 1 -openings setups=classic plies=2 -maxplies 60 -ratinginterval 0 -recover'.split(
        ' ',
      ),
      ...['-report', `json=${json}`],
    ]);
    const counts = countEndings(summary.finished.map((f) => f.record));
    const wanted = endingLines(counts, ['A', 'B', 'C']);
    expect(wanted).toHaveLength(3);
    // the final summary ends with them (before `Finished match`)
    expect(lines.slice(-wanted.length - 1, -1)).toEqual(wanted);
    // after the standings and their cross table (three engines)
    const cross = lines.map((l) => l.startsWith('Cross table')).lastIndexOf(true);
    expect(cross).toBeGreaterThanOrEqual(0);
    expect(cross).toBeLessThan(lines.indexOf(wanted[0]));
    // C's illegal moves are counted as such
    expect(counts.C['illegal move']?.losses ?? 0).toBeGreaterThan(0);
    const last = readFileSync(json, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; final?: boolean; endings?: unknown })
      .filter((l) => l.type === 'summary')
      .at(-1);
    expect(last?.final).toBe(true);
    expect(last?.endings).toEqual(counts);
    // every game counted once for each of its two players
    for (const name of ['A', 'B', 'C']) {
      const n = Object.values(counts[name]).reduce(
        (k, c) => k + (c?.wins ?? 0) + (c?.losses ?? 0) + (c?.draws ?? 0),
        0,
      );
      const i = ['A', 'B', 'C'].indexOf(name);
      expect(n, name).toBe(summary.finished.filter((f) => f.game.first === i || f.game.second === i).length);
    }
  });
});
