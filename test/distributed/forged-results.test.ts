/**
 * Forged results: anyone who can write to a run's results queue can hand the coordinator a
 * "game". The coordinator counts and writes only games that replay legally from their start and
 * whose tag names, move texts and result write as they read; a refused pair is played again by a
 * real worker. The unit part checks checkResult and serializeRecord; the end-to-end part puts a
 * forged result job into a real redis-server before any worker plays, and the record file then
 * holds exactly the games the coordinator counted, none of them the forger's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecords, serializeRecord, type GameRecord } from '../../src/core/record';
import { checkResult, type PairResult, type ReportedGame } from '../../src/distributed/jobs';
import { QUEUE_PREFIX, keys } from '../../src/distributed/redis';
import { fake, tempDir } from '../match/helpers';
import { REDIS_SERVER, ThothProcess, startRedis, worker, endProcesses } from './helpers';

const honest = (index: number): ReportedGame => ({
  index,
  score: 1,
  termination: 'normal' as ReportedGame['termination'],
  reason: 'Pharaoh hit',
  faultSide: -1,
  engineLost: false,
  record: {
    tags: [
      ['Event', 'x'],
      ['White', 'A'],
      ['Black', 'B'],
      ['Result', '1-0'],
    ],
    moves: [{ move: 'e1e2' }],
    result: '1-0',
  },
});

function forged(index: number): ReportedGame[] {
  const g = honest(index);
  const inject = '1-0\n\n[Event "forged"]\n[White "X"]\n[Black "Y"]\n[Result "0-1"]\n\n0-1';
  return [
    { ...g, record: { ...g.record, tags: [...g.record.tags, [`X "1"]\n\n[Event "forged"]\n[Y`, 'v']] } },
    { ...g, record: { ...g.record, moves: [{ move: `e1e2 ${inject}` }] } },
    { ...g, record: { ...g.record, result: inject as ReportedGame['record']['result'] } },
    { ...g, record: { ...g.record, moves: [{ move: 'e1e2', nags: ['1\n\n[Event "forged"]' as unknown as number] }] } },
    // Well-formed but not a legal game: a move from an empty square.
    { ...g, record: { ...g.record, moves: [{ move: 'e4e5' }] } },
  ];
}

// a test that failed half-way leaves no coordinator or worker running (registered first: runs last)
afterAll(endProcesses);

describe('forged pair results', () => {
  it('the well-formed but illegal, the tag-name, move-text, NAG and result injections are refused', () => {
    const legal = checkResult({ pair: 'pair-1', worker: 'w', ms: 1, games: [honest(0)] }, [0]);
    // The honest game must replay: its first move is legal from the classic start.
    expect(legal).toHaveLength(1);
    for (const g of forged(0)) expect(checkResult({ pair: 'pair-1', worker: 'w', ms: 1, games: [g] }, [0])).toEqual([]);
    // One game per index.
    expect(checkResult({ pair: 'pair-1', worker: 'w', ms: 1, games: [honest(0), honest(0)] }, [0])).toHaveLength(1);
  });

  it('serializeRecord refuses what no escaping makes safe, so a record never reads back as two', () => {
    for (const g of forged(0).slice(0, 4)) {
      const rec: GameRecord = { tags: new Map(g.record.tags), moves: g.record.moves, result: g.record.result };
      expect(() => serializeRecord(rec)).toThrow(/^cannot write this game record: /);
    }
    const h = honest(0).record;
    const text = serializeRecord({
      tags: new Map([...h.tags, ['Annotator', 'a"]\n\n[Event "x']]),
      moves: [{ move: 'e1e2', comment: '} 1-0 {' }],
      result: '1-0',
    });
    expect(parseRecords(text).games).toHaveLength(1);
  });
});

describe.skipIf(!REDIS_SERVER)('a forged result job on a real Redis', () => {
  it('is refused and not written; the pair is played by a worker; the file holds the counted games only', {
    timeout: 120_000,
  }, async () => {
    const redis = await startRedis();
    const pgn = join(tempDir(), 'forged.pgn');
    const flags = [
      ...fake('A', '--seed 1 --deterministic --delay 5'),
      ...fake('B', '--seed 2 --play random --deterministic --delay 5'),
      '-each',
      'tc=10+0.1',
      '-ratinginterval',
      '0',
      '-maxplies',
      '30',
      '-rounds',
      '2',
      '-srand',
      '3',
    ];
    const coord = new ThothProcess(['match', ...flags, '-distributed', redis.url, '-pgnout', pgn]);
    let wk: ThothProcess | undefined;
    try {
      await coord.waitFor(/\(run ([0-9a-f]{12})\)/);
      const run = /\(run ([0-9a-f]{12})\)/.exec(coord.out)![1];
      const { Queue } = await import('bullmq');
      const results = new Queue(keys.resultsQueue(run), {
        connection: { host: '127.0.0.1', port: redis.port },
        prefix: QUEUE_PREFIX,
      });
      const forgery: PairResult = {
        pair: 'pair-1',
        worker: 'forger',
        ms: 1,
        games: forged(0).slice(0, 1).concat(forged(1).slice(1, 2)),
      };
      await results.add('result', forgery, { jobId: 'pair-1' });
      await results.close();
      await coord.waitFor(/^Note: the result of pair-1 from worker forger is refused/m);
      wk = worker(redis.url);
      const code = await coord.exited;
      expect(code, coord.err + coord.out).toBe(0);
      const text = readFileSync(pgn, 'utf8');
      expect(text).not.toContain('forged');
      const games = parseRecords(text).games;
      const finished = coord.out.split('\n').filter((l) => l.startsWith('Finished game ')).length;
      expect(finished).toBe(4);
      expect(games).toHaveLength(4);
    } finally {
      coord.kill('SIGKILL');
      wk?.kill('SIGINT');
      await wk?.exited;
      await redis.stop();
    }
  });
});
