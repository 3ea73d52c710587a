/** The plain data of distributed datagen: its status in words and in the shape the status page draws. */
import { describe, expect, it } from 'vitest';
import {
  datagenAsRunStatus,
  datagenStatusLines,
  isDatagenStatus,
  type DatagenRunSettings,
  type DatagenStatus,
} from '../../src/distributed/datagen-jobs';
import { datagenProblem } from '../../src/distributed/worker-datagen';
import { DEFAULT_DATAGEN, datagenArgs } from '../../src/train/datagen';

const status = (): DatagenStatus => ({
  kind: 'datagen',
  run: '0123456789ab',
  state: 'running',
  out: '/data/gen3.bin',
  games: 40,
  positions: 2100,
  targetPositions: 1_000_000,
  targetGames: null,
  chunksQueued: 5,
  chunksActive: 2,
  rate: 35.25,
  tallies: [
    { id: 'a:1', chunks: 3, positions: 1500, rate: 20.5 },
    { id: 'b:2', chunks: 2, positions: 600, rate: 14.75 },
  ],
  refusals: { 'c:3': 'network 0123 is not in Redis' },
  workers: [
    { id: 'a:1', concurrency: 1, busy: 1, run: '0123456789ab', pairs: 3 },
    { id: 'b:2', concurrency: 2, busy: 1, run: '0123456789ab', pairs: 2 },
  ],
  started: 0,
  updated: Date.now(),
});

describe('distributed datagen status', () => {
  it('in words: positions against the target, positions/s of the run and of each worker', () => {
    expect(isDatagenStatus(status())).toBe(true);
    expect(isDatagenStatus({ run: 'x', names: [] })).toBe(false);
    expect(datagenStatusLines(status())).toEqual([
      'Datagen run 0123456789ab: /data/gen3.bin | running',
      'Positions 2,100/1,000,000, games 40, 35.3 positions/s | chunks queued 5, in progress 2 | updated 0 s ago',
      'Workers: 2 (2/3 slots busy): a:1 1/1, b:2 1/2',
      '  a:1: 3 chunks, 1,500 positions, 20.5 positions/s',
      '  b:2: 2 chunks, 600 positions, 14.8 positions/s',
      'Refused by c:3: network 0123 is not in Redis',
    ]);
  });

  it('as a match status for the page: every field the page reads, no encounters, the words as the summary', () => {
    const s = status();
    const r = datagenAsRunStatus(s);
    expect(r).toMatchObject({
      run: '0123456789ab',
      state: 'running',
      names: ['datagen gen3.bin'],
      variant: 'datagen',
      timeControl: '35.3 positions/s',
      games: 40,
      total: null,
      pairsQueued: 5,
      pairsActive: 2,
      encounters: [],
      ratings: [],
      sprt: null,
      workers: s.workers,
      refusals: s.refusals,
    });
    expect(r.lines).toEqual(datagenStatusLines(s));
  });
});

describe("a datagen run's settings, as a worker checks them", () => {
  const settings = (args: string[], net: string | null): DatagenRunSettings => ({
    kind: 'datagen',
    args,
    chunk: 8,
    build: { kind: 'thoth', checksum: 'a'.repeat(64), script: 'dist/cli.js', word: 0 } as DatagenRunSettings['build'],
    net,
  });

  it('takes `--net none` (the hand-written evaluation) from a run without a network, and no other --net', () => {
    const flags = datagenArgs('khet2', 1, { ...DEFAULT_DATAGEN });
    expect(flags.slice(-2)).toEqual(['--net', 'none']);
    expect(datagenProblem(settings(flags, null))).toBeUndefined();
    expect(datagenProblem(settings(flags, 'b'.repeat(64)))).toBe('its datagen flags are not ones a worker passes on');
    expect(datagenProblem(settings(['--net', 'x.nnue'], null))).toBe(
      'its datagen flags are not ones a worker passes on',
    );
    expect(datagenProblem(settings(['--threads', '2'], null))).toBe(
      'its datagen flags are not ones a worker passes on',
    );
    const withNet = datagenArgs('khet2', 1, { ...DEFAULT_DATAGEN, network: new SharedArrayBuffer(8) });
    expect(withNet).not.toContain('--net');
    expect(datagenProblem(settings(withNet, 'b'.repeat(64)))).toBeUndefined();
  });
});
