/**
 * Forged results: anyone with the `worker` Redis user can hand the coordinator a "game". A game
 * counts only as the game the coordinator's own plan scheduled there (players, opening, limits:
 * the record is written from the plan, not from the report), with moves that replay legally by the
 * referee's rules and the result those moves give (src/match/rejudge.ts); a fault, which the moves
 * cannot show, only as a loss of the side to move. These are the judge's cases; the end-to-end
 * replays of every forgery on a real redis-server are in forgeries.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { formatMove, gameStatus, legalMoves, mulberry32, parseKfen, setupKfen } from '../../src/core/index';
import type { MoveRecord } from '../../src/core/record';
import { judgeResult, type ReportedGame } from '../../src/distributed/jobs';
import type { MatchConfig } from '../../src/match/config';
import type { GameSettings } from '../../src/match/slot';
import { gameSheet } from '../../src/match/slot';
import { Schedule } from '../../src/match/schedule';

const CLASSIC = setupKfen('khet2', 'classic')!;
const IMHOTEP = setupKfen('khet2', 'imhotep')!;

const settings = {
  engines: [
    { name: 'A', nameGiven: true, command: ['a'], options: [], limits: { nodes: 100 }, timeMarginMs: 0 },
    { name: 'B', nameGiven: true, command: ['b'], options: [], limits: { nodes: 100 }, timeMarginMs: 0 },
  ],
  variant: 'khet2',
  noRemovalLimit: 100,
  adjudication: { maxPlies: 0 },
  pingTimeoutMs: 1000,
  startTimeoutMs: 1000,
  event: 'Thoth match',
  recover: false,
} as unknown as GameSettings;
const schedule = new Schedule(2, 'round-robin' as MatchConfig['tournament'], 2, 1);
const setupOf = (i: number) => gameSheet(settings, ['A', 'B'], schedule.game(i), { kfen: CLASSIC, label: 'classic' });

/** A game played to its end by the rules with random legal moves from `kfen`: its moves and how it ended. */
function playOut(kfen: string, seed: number): { moves: MoveRecord[]; score: number } {
  const pos = parseKfen(kfen, 'khet2');
  if (!pos.ok) throw new Error(pos.error.message);
  const rand = mulberry32(seed);
  const moves: MoveRecord[] = [];
  for (;;) {
    const st = gameStatus(pos.value, { noRemovalLimit: 100 });
    if (st.result === 'win') return { moves, score: st.winner === 0 ? 1 : 0 };
    if (st.result === 'draw') return { moves, score: 0.5 };
    const ms = legalMoves(pos.value);
    const m = ms[(rand() >>> 0) % ms.length];
    moves.push({ move: formatMove(m), timeMs: 3, depth: 2, scoreCp: 10 });
    pos.value.make(m);
  }
}

const honestGame = playOut(CLASSIC, 7);
const reported = (index: number, over: Partial<ReportedGame> = {}): ReportedGame => ({
  index,
  score: honestGame.score,
  termination: 'normal',
  reason: 'whatever the worker says',
  faultSide: -1,
  engineLost: false,
  record: { tags: [], moves: honestGame.moves, result: '*' },
  ...over,
});
const judge = (games: unknown[], scheduled = [0, 1]) => judgeResult({ pair: 'pair-1', games }, scheduled, setupOf);

describe('a reported game judged against the plan', () => {
  it('an honest game counts, with the record written from the plan (players, opening, tags), not the report', () => {
    const forgedTags: [string, string][] = [
      ['White', 'B'],
      ['Black', 'A'],
      ['FEN', IMHOTEP],
      ['Result', '0-1'],
      ['Event', 'forged'],
    ];
    const r = judge([reported(0, { record: { tags: forgedTags, moves: honestGame.moves, result: '0-1' } })]);
    expect(r.refused).toEqual([]);
    expect(r.games).toHaveLength(1);
    const rec = r.games[0].outcome.record;
    expect([rec.tags.get('White'), rec.tags.get('Black'), rec.tags.get('FEN'), rec.tags.get('Event')]).toEqual([
      'A',
      'B',
      CLASSIC,
      'Thoth match',
    ]);
    expect(rec.result).toBe(honestGame.score === 1 ? '1-0' : honestGame.score === 0 ? '0-1' : '1/2-1/2');
    expect(rec.moves.map((m) => m.move)).toEqual(honestGame.moves.map((m) => m.move));
    // its reason is the rules' words, not the worker's
    expect(r.games[0].outcome.reason).not.toBe('whatever the worker says');
  });

  it('refuses each forgery with its reason', () => {
    const flipped = honestGame.score === 1 ? 0 : 1;
    const cases: [string, unknown, RegExp][] = [
      [
        'a game of no moves scored 1-0',
        reported(0, { score: 1, record: { tags: [], moves: [], result: '1-0' } }),
        /the moves do not end the game, and 'normal' is not an engine's fault/,
      ],
      ['a score the moves contradict', reported(0, { score: flipped }), /^game 1: the moves give /],
      [
        'a draw claimed by adjudication the moves do not make',
        reported(0, { score: 0.5, termination: 'adjudication' }),
        /the moves give /,
      ],
      [
        'moves of another opening',
        reported(0, { record: { tags: [['FEN', IMHOTEP]], moves: playOut(IMHOTEP, 3).moves, result: '*' } }),
        /is not legal$/,
      ],
      [
        'moves after the end',
        reported(0, { record: { tags: [], moves: [...honestGame.moves, { move: 'a1a2' }], result: '*' } }),
        /the game is over after \d+ moves .*, but 1 more follow/,
      ],
      [
        'a fault of the side that is not to move',
        reported(0, {
          score: 1,
          termination: 'time forfeit',
          reason: 'Red loses on time (B)',
          record: { tags: [], moves: honestGame.moves.slice(0, 4), result: '1-0' },
        }),
        /a time forfeit of Red, who is not to move/,
      ],
      [
        'a fault whose words name the other side',
        reported(0, {
          score: 0,
          termination: 'time forfeit',
          reason: 'Red loses on time (B)',
          record: { tags: [], moves: honestGame.moves.slice(0, 4), result: '0-1' },
        }),
        /a time forfeit whose reason is not about Silver/,
      ],
      [
        'a fault scored as a draw',
        reported(0, {
          score: 0.5,
          termination: 'stalled',
          reason: 'Silver stalls',
          record: { tags: [], moves: [], result: '*' },
        }),
        /a fault scored as a draw/,
      ],
      ['a game of another pair', reported(5), /a game at 5, not a game of this pair/],
      ['junk', 'not a game', /a game at undefined, not a game of this pair/],
    ];
    for (const [what, g, why] of cases) {
      const r = judge([g]);
      expect(r.games, what).toEqual([]);
      expect(r.refused.join('; '), what).toMatch(why);
    }
    expect(judge([reported(0), reported(0)]).games).toHaveLength(1); // one game per place
    expect(judgeResult(null, [0], setupOf).refused).toEqual(['not a result (no games)']);
    expect(judgeResult({ games: 'x' }, [0], setupOf).refused).toEqual(['not a result (no games)']);
  });

  it("a fault counts as a loss of the side to move (either side before the first move), with the worker's words as one line", () => {
    const four = honestGame.moves.slice(0, 4); // Silver to move after four plies
    const r = judge([
      reported(0, {
        score: 0,
        termination: 'time forfeit',
        reason: 'Silver loses on time (A)\u001b[2J\nFinished game 9 (A vs B): 1-0',
        record: { tags: [], moves: four, result: '0-1' },
      }),
      reported(1, {
        score: 0,
        termination: 'stalled',
        reason: "Silver's engine B stalls",
        record: { tags: [], moves: [], result: '0-1' },
      }),
    ]);
    expect(r.refused).toEqual([]);
    expect(r.games.map((g) => [g.outcome.score, g.outcome.termination, g.outcome.engineLost])).toEqual([
      [0, 'time forfeit', false],
      [0, 'stalled', true],
    ]);
    expect(r.games[0].outcome.reason).toBe('Silver loses on time (A)?[2J?Finished game 9 (A vs B): 1-0');
    // the players of game 2 (B has Silver there) come from the plan
    expect(r.games[1].outcome.record.tags.get('White')).toBe('B');
  });
});
