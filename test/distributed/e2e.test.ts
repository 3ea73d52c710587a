/**
 * Distributed matches end to end: a real redis-server, a coordinator and worker processes (the
 * entry point through tsx, as a user runs them), fast deterministic fake engines. A worker killed
 * with SIGKILL mid-pair, a coordinator killed and resumed, an SPRT stop, a worker that cannot get
 * the build, a crashing engine, engines of other protocols (their rules settled by the
 * coordinator), Redis unreachable or lost.
 */
import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecords, replayRecord } from '../../src/core/record';
import { fixtureScript, foreign } from '../foreign/helpers';
import { fake, fakeEngineScript, run, tempDir } from '../match/helpers';
import {
  REDIS_SERVER,
  ThothProcess,
  freePort,
  normalisedGames,
  startRedis,
  worker,
  type RedisInstance,
  endLock,
  endProcesses,
} from './helpers';

/** The summary block at the end of a run's output (from its last `Score of` line). */
function lastSummary(lines: string[]): string[] {
  const i = lines.map((l) => l.startsWith('Score of')).lastIndexOf(true);
  return lines.slice(i);
}

const outLines = (p: ThothProcess): string[] => p.out.split('\n').filter((l) => l !== '');
const gameLines = (lines: string[]): string[] => lines.filter((l) => l.startsWith('Finished game ')).sort();

// a test that failed half-way leaves no coordinator or worker running (registered first: runs last)
afterAll(endProcesses);

describe.skipIf(!REDIS_SERVER)('distributed matches', () => {
  let redis: RedisInstance;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const engines = (delay: number): string[] => [
    ...fake('A', `--seed 1 --deterministic --delay ${delay}`),
    ...fake('B', `--seed 2 --play random --deterministic --delay ${delay}`),
    '-each',
    'tc=10+0.1',
    '-ratinginterval',
    '0',
    '-maxplies',
    '40',
  ];

  it('two workers, one killed with SIGKILL mid-pair: every pair counted once, the same records and summary as a local run', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'dist.pgn');
    const flags = [...engines(10), '-rounds', '6', '-srand', '7'];
    const workers = [worker(redis.url), worker(redis.url)];
    const coord = new ThothProcess(['match', ...flags, '-distributed', redis.url, '-pgnout', pgn]);
    const victim = workers[0];
    await victim.waitFor(/^Played pair-/m);
    victim.kill('SIGKILL');
    const code = await coord.exited;
    for (const w of workers.slice(1)) w.kill('SIGINT');
    await Promise.all(workers.map((w) => w.exited));
    expect(code, coord.err).toBe(0);
    const lines = outLines(coord);
    expect(lines).toContainEqual(
      expect.stringMatching(/^Note: pair-\d+ stalled \(its worker stopped answering\); it goes back to the queue$/),
    );
    expect(lines[lines.length - 1]).toBe('Finished match');

    const local = await run([...flags, '-concurrency', '2', '-pgnout', join(dir, 'local.pgn')]);
    const dist = parseRecords(readFileSync(pgn, 'utf8')).games;
    expect(dist.map((g) => g.tags.get('Round')).sort()).toEqual(
      local.summary.finished.map((f) => f.record.tags.get('Round')).sort(),
    );
    expect(new Set(dist.map((g) => g.tags.get('Round'))).size).toBe(12);
    expect(normalisedGames(readFileSync(pgn, 'utf8'))).toEqual(
      normalisedGames(readFileSync(join(dir, 'local.pgn'), 'utf8')),
    );
    expect(gameLines(lines)).toEqual(gameLines(local.lines));
    expect(lastSummary(lines)).toEqual(lastSummary(local.lines));
  });

  it('a coordinator killed with SIGKILL: -resume picks the run up from Redis and the record file', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'dist.pgn');
    const flags = [...engines(10), '-rounds', '6', '-srand', '8', '-distributed', redis.url];
    const workers = [worker(redis.url), worker(redis.url)];
    const first = new ThothProcess(['match', ...flags, '-pgnout', pgn]);
    await first.waitFor(/^Finished game /m);
    const runId = /\(run ([0-9a-f]{12})\)$/m.exec(first.out)![1];
    first.kill('SIGKILL');
    await first.exited;
    // The workers go on meanwhile; the results wait in Redis.
    await workers[0].waitFor(/^Played pair-(?:.|\n)*^Played pair-/m);
    const second = new ThothProcess(['match', ...flags, '-resume', pgn]);
    // The dead coordinator's lock still holds the run: the second one waits for it to end. The
    // test ends it at once rather than waiting out its 15 s. On a loaded machine the lock may have
    // ended before the second started (the workers' two pairs took longer than that): then the
    // second takes the run at once, its plan line naming it, and no lock is ended (it is the
    // second's own).
    const locked = new RegExp(
      `^Note: run ${runId} is locked by coordinator \\S+ \\(a coordinator that died: the lock ends within \\d+ s\\); waiting$`,
      'm',
    );
    await second.waitFor(new RegExp(`${locked.source}|\\(run ${runId}\\)$`, 'm'), 30_000);
    if (locked.test(second.out)) await endLock(redis.url, runId);
    const code = await second.exited;
    for (const w of workers) w.kill('SIGINT');
    await Promise.all(workers.map((w) => w.exited));
    expect(code, second.err).toBe(0);
    expect(second.out).toMatch(/^Resumed \d+ (finished games? from|more games from the workers' results in Redis)/m);
    const local = await run([...flags.slice(0, -2), '-concurrency', '2', '-pgnout', join(dir, 'local.pgn')]);
    expect(normalisedGames(readFileSync(pgn, 'utf8'))).toEqual(
      normalisedGames(readFileSync(join(dir, 'local.pgn'), 'utf8')),
    );
    expect(lastSummary(outLines(second))).toEqual(lastSummary(local.lines));
  });

  it('SPRT: the run stops when the test decides; queued pairs removed, those in progress cancelled; a worker without the build refuses', async () => {
    const dir = tempDir();
    const other = tempDir();
    // The engine given by a relative path: a worker in another folder finds another file there.
    copyFileSync(fakeEngineScript(), join(dir, 'fake.mjs'));
    copyFileSync(fakeEngineScript(), join(other, 'fake.mjs'));
    appendFileSync(join(other, 'fake.mjs'), '\n// another build\n');
    const pgn = join(dir, 'sprt.pgn');
    const eng = (name: string, args: string): string[] => [
      '-engine',
      'cmd=node',
      `args=fake.mjs ${args}`,
      `name=${name}`,
    ];
    const refuser = worker(redis.url, [], other);
    const workers = [worker(redis.url, [], dir), worker(redis.url, ['--concurrency', '2'], dir)];
    const coord = new ThothProcess(
      [
        'match',
        ...eng('good', '--seed 3 --deterministic --delay 5'),
        ...eng('bad', '--seed 4 --play random --deterministic --delay 5'),
        '-each',
        'tc=10+0.1',
        '-sprt',
        'elo0=0',
        'elo1=100',
        '-ratinginterval',
        '0',
        '-distributed',
        redis.url,
        '-pgnout',
        pgn,
      ],
      dir,
    );
    const code = await coord.exited;
    for (const w of [refuser, ...workers]) w.kill('SIGINT');
    await Promise.all([refuser, ...workers].map((w) => w.exited));
    expect(code, coord.err).toBe(0);
    const lines = outLines(coord);
    expect(lines[lines.length - 1]).toMatch(
      /^Finished match \(SPRT: H1 was accepted; \d+ queued pairs? removed, \d+ pairs? in progress cancelled\)$/,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^SPRT: llr [\d.]+ \([\d.]+%\), lbound -2\.94, ubound 2\.94 - H1 was accepted$/),
    );
    const n = gameLines(lines).length;
    const games = parseRecords(readFileSync(pgn, 'utf8')).games;
    expect(games).toHaveLength(n);
    expect(new Set(games.map((g) => g.tags.get('Round'))).size).toBe(n);
    expect(n).toBeLessThan(60);
    expect(refuser.out).toMatch(
      /^Refusing run [0-9a-f]{12}: engine 'good': .*fake\.mjs here has checksum [0-9a-f]{12}, the run wants [0-9a-f]{12}$/m,
    );
    expect(refuser.out).not.toMatch(/^Played /m);
    expect(lines).toContainEqual(
      expect.stringMatching(/^Note: worker \S+ refuses this run: engine 'good': .*here has checksum/),
    );
    // The run's status, as match-status prints it.
    const runId = /\(run ([0-9a-f]{12})\)$/m.exec(coord.out)?.[1] ?? '';
    const status = new ThothProcess(['match-status', redis.url, runId]);
    expect(await status.exited).toBe(0);
    const st = outLines(status);
    expect(st[0]).toMatch(/^Run [0-9a-f]{12}: good vs bad \| khet2 \| 10\+0\.1 \| finished \(SPRT: H1 was accepted\)$/);
    expect(st[1]).toMatch(
      new RegExp(`^Games ${n} \\| finished: nothing queued or in progress \\| updated \\d+ s ago$`),
    );
    expect(st).toContainEqual(expect.stringMatching(/^Refused by \S+: engine 'good': /));
    expect(st.slice(st.findIndex((l) => l.startsWith('Score of')))).toEqual(lastSummary(lines).slice(0, -1));
  });

  it('a crashing engine on a worker is a fault result, and without -recover the run stops as a local one does', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'crash.pgn');
    const w = worker(redis.url);
    const coord = new ThothProcess([
      'match',
      ...fake('crasher', '--mode crash --at 4'),
      ...fake('ok'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '3',
      '-openings',
      'setups=classic',
      'plies=0',
      '-distributed',
      redis.url,
      '-pgnout',
      pgn,
    ]);
    const code = await coord.exited;
    w.kill('SIGINT');
    await w.exited;
    // A run stopped by a fault exits 1, after its records and summary, as a local one does.
    expect(code, coord.err).toBe(1);
    expect(coord.err).toMatch(/^thoth match: the run stopped: engine crasher: abandoned /m);
    expect(coord.out).toMatch(
      /^Finished game \d+ \((crasher vs ok|ok vs crasher)\): (1-0|0-1) \{.*engine crasher disconnects \(exit code 3\)\}$/m,
    );
    expect(coord.out).toMatch(
      /^Match stopped: engine crasher: abandoned \(.*\); stopping the run \(-recover restarts engines that fail\)$/m,
    );
    const games = parseRecords(readFileSync(pgn, 'utf8')).games;
    expect(games.some((g) => g.tags.get('Termination') === 'abandoned')).toBe(true);
  });

  it('engines of other protocols: the coordinator fingerprints them, workers play under the rules found', async () => {
    // Two UKI fixture engines (ddket's dialect: Pharaoh rotation, two Scarab rotations). The worker
    // builds each game's record, so a Rules tag other than `thoth` came with the run's settings.
    const dir = tempDir();
    const pgn = join(dir, 'foreign.pgn');
    const w = worker(redis.url, ['--allow-engine', dirname(fixtureScript('uki'))]);
    const coord = new ThothProcess([
      'match',
      ...foreign('uki', 'ddk1'),
      ...foreign('uki', 'ddk2', '--seed 2'),
      ...'-each depth=1 -rounds 2 -openings setups=classic,dynasty plies=2 -ratinginterval 0'.split(' '),
      ...['-distributed', redis.url, '-pgnout', pgn],
    ]);
    const code = await coord.exited;
    w.kill('SIGINT');
    await w.exited;
    expect(code, coord.err).toBe(0);
    const lines = outLines(coord);
    const rules = lines.filter((l) => l.startsWith('Rules of '));
    expect(rules).toEqual([
      expect.stringMatching(/^Rules of ddk1: Pharaoh rotation, two Scarab rotations \(/),
      expect.stringMatching(/^Rules of ddk2: Pharaoh rotation, two Scarab rotations \(/),
      'Rules of the games: Pharaoh rotation, two Scarab rotations (pharaoh-rotation+two-scarab-rotations)',
    ]);
    // printed before the first game
    expect(lines.findIndex((l) => l.startsWith('Rules of the games: '))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('Finished game ')),
    );
    const games = parseRecords(readFileSync(pgn, 'utf8')).games;
    expect(games).toHaveLength(4);
    for (const g of games) {
      expect(g.tags.get('Rules')).toBe('pharaoh-rotation+two-scarab-rotations');
      expect(g.tags.get('Termination')).toBe('normal');
      expect(replayRecord(g).ok).toBe(true);
    }
  });

  it('Redis unreachable: a clear error and exit code 1; Redis lost mid-run: the records so far are kept', async () => {
    const nobody = await freePort();
    // The three failures at once: each waits on its own connection attempts.
    const bad = new ThothProcess([
      'match',
      ...fake('A'),
      ...fake('B'),
      '-each',
      'tc=10+0.1',
      '-distributed',
      `redis://127.0.0.1:${nobody}`,
    ]);
    const badWorker = new ThothProcess(['worker', `redis://127.0.0.1:${nobody}`]);
    const usage = new ThothProcess(['worker', 'http://127.0.0.1:1']);
    expect(await bad.exited).toBe(1);
    expect(bad.err).toMatch(
      new RegExp(`^thoth match: cannot reach Redis at redis://127\\.0\\.0\\.1:${nobody}: .*\\n$`),
    );
    expect(await badWorker.exited).toBe(1);
    expect(badWorker.err).toMatch(/^thoth worker: cannot reach Redis at /);
    expect(await usage.exited).toBe(2);

    const own = await startRedis();
    try {
      const dir = tempDir();
      const pgn = join(dir, 'lost.pgn');
      const wk = worker(own.url);
      const coord = new ThothProcess([
        'match',
        ...engines(20),
        '-rounds',
        '200',
        '-distributed',
        own.url,
        'timeout=1',
        '-pgnout',
        pgn,
      ]);
      await coord.waitFor(/^Finished game (?:.|\n)*^Finished game /m);
      await own.stop();
      const code = await coord.exited;
      wk.kill('SIGKILL');
      await wk.exited;
      expect(code).toBe(1);
      expect(coord.err).toMatch(/^thoth match: lost Redis at redis:\/\/127\.0\.0\.1:\d+ \(unreachable for \d+ s\)\n$/);
      expect(coord.out).toMatch(/^Match stopped: lost Redis at .*; the records so far are in .*lost\.pgn$/m);
      const n = gameLines(outLines(coord)).length;
      expect(n).toBeGreaterThanOrEqual(2);
      expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(n);
    } finally {
      await own.stop();
    }
  });
});
