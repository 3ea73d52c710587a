/**
 * Distributed batch review: `thoth db review --distributed` on a real redis-server with two `thoth
 * worker` processes (the built CLI, as a user runs them). The coordinator is killed with SIGKILL
 * after its first stored review and run again: no stored review is done again, every game ends
 * reviewed, and each review equals the one the local worker threads store for the same game. A
 * worker killed with SIGKILL mid-chunk leaves no search running and its chunk is scored again; a
 * forged result put in the results queue is refused and the game reviewed by a real worker. The
 * unit part: scores from a worker are believed only when they fit the game and a move searched
 * again here gives the same triple.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGame } from '../../src/analysis/annotate-game';
import { reviewSearcher, scoreGame } from '../../src/analysis/batch-review';
import { checkScores, scorePly } from '../../src/analysis/review-scores';
import { MATE } from '../../src/core/score';
import { QUEUE_PREFIX, keys } from '../../src/distributed/redis';
import { loadNetworkFile } from '../../src/node/network-file';
import { selfPlayRecords } from '../db/helpers';
import { tempDir } from '../match/helpers';
import { REDIS_SERVER, ThothProcess, endLock, startRedis, worker, type RedisInstance } from './helpers';
import { stretched } from '../slowness';
import { Deadline, until } from '../patience';

const games = (count: number, seed: number): string => selfPlayRecords(count, seed, 20);

describe('review scores from a worker', () => {
  const game = loadGame(games(1, 11), 1);
  const searcher = reviewSearcher(1);
  const depth = 2;
  const honest = scoreGame(searcher, game, depth);
  const again = (plies: number[]) => ({ plies, score: (k: number) => scorePly(searcher, game, k, depth) });

  it('honest scores pass; searched again, any move gives the same triple', () => {
    expect(honest.length).toBe(game.moves.length);
    expect(checkScores(game, honest, again(honest.map((_, k) => k)))).toEqual(honest);
  });

  it('a changed score, a short list, an illegal choice, a mis-scored own move are refused', () => {
    const k = 0;
    const changed = honest.map((p, i) => (i === k ? [p[0], p[1] + 7, p[2] + 7] : p));
    expect(checkScores(game, changed, again([k]))).toMatch(new RegExp(`^move ${k + 1} .* searched again gives`));
    // Not searched again, the changed score passes the shape checks: only a search finds it.
    expect(checkScores(game, changed, again([]))).toEqual(changed);
    expect(checkScores(game, honest.slice(1), again([]))).toMatch(/moves scored, the game has/);
    expect(checkScores(game, 'x', again([]))).toBe('its scores are not a list');
    const illegal = honest.map((p, i) => (i === 0 ? ['z9z9', p[1], p[2]] : p));
    expect(checkScores(game, illegal, again([]))).toMatch(/^move 1 .*is not a legal move there/);
    const own = honest.map((p, i) => (i === 0 ? [game.texts[0], p[1], p[1] + 1] : p));
    expect(checkScores(game, own, again([]))).toMatch(/^move 1 .*the engine's own move, scored/);
    const hugeScore = honest.map((p, i) => (i === 0 ? [p[0], MATE + 1, p[2]] : p));
    expect(checkScores(game, hugeScore, again([]))).toMatch(/not \[move, score, score\]/);
  });
});

/** Whether process `pid` runs (a zombie, exited but not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until worker `pid` scores a chunk: its `thoth db score` child's pid. */
async function scoreChild(pid: number): Promise<number> {
  const deadline = new Deadline(`worker ${pid} scoring a chunk (its 'thoth db score' child)`, 60_000);
  for (;;) {
    const late = deadline.expired();
    if (late) throw late;
    let kids: string[] = [];
    try {
      kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      // not started yet
    }
    for (const k of kids) {
      try {
        const cmd = readFileSync(`/proc/${k}/cmdline`, 'utf8').split('\0');
        if (cmd.includes('score') && cmd.includes('db')) return Number(k);
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const REVIEW_COLUMNS =
  'game, depth, accuracy_white, accuracy_black, inaccuracies_white, mistakes_white, blunders_white, ' +
  'inaccuracies_black, mistakes_black, blunders_black, cp_loss_white, cp_loss_black, marks, scores';

function rows(db: string, columns = REVIEW_COLUMNS): Record<string, unknown>[] {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare(`SELECT ${columns} FROM reviews ORDER BY game`).all() as Record<string, unknown>[];
  } finally {
    d.close();
  }
}

describe.skipIf(!REDIS_SERVER)('thoth db review --distributed', () => {
  let redis: RedisInstance;
  const workers: ThothProcess[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const w of workers) w.kill('SIGINT');
    await Promise.all(workers.map((w) => w.exited));
    await redis?.stop();
  });

  // First, while no worker runs: the forged result is the only answer the coordinator has.
  it(
    'a forged result (every score moved by 7) is refused; a real worker then reviews the game',
    async () => {
      const dir = tempDir();
      const text = games(2, 13);
      const file = join(dir, 'games.pgn');
      writeFileSync(file, text);
      const db = join(dir, 'games.db');
      const imp = new ThothProcess(['db', 'import', '--db', db, file, '--quiet']);
      expect(await imp.exited, imp.err).toBe(0);
      const coord = new ThothProcess([
        'db',
        'review',
        '--depth',
        '2',
        '--quiet',
        '--db',
        db,
        '--distributed',
        redis.url,
        '--chunk',
        '1',
      ]);
      await coord.waitFor(/^Review run ([0-9a-f]{12}) on /m, 120_000);
      const run = /^Review run ([0-9a-f]{12}) on /m.exec(coord.out)![1];
      const net = loadNetworkFile('default');
      if (!net.ok) throw new Error(net.error);
      const searcher = reviewSearcher(16);
      searcher.setNetwork(net.value.net);
      // Every score 7 nearer zero (0 moves to 7): still scores a search can give, mate scores too.
      const moved = (x: number): number => (x > 0 ? x - 7 : x + 7);
      const forged = scoreGame(searcher, loadGame(text, 1), 2).map(([m, b, p]) => [m, moved(b), moved(p)]);
      const { Queue } = await import('bullmq');
      const results = new Queue(keys.resultsQueue(run), {
        connection: { host: '127.0.0.1', port: redis.port },
        prefix: QUEUE_PREFIX,
      });
      await results.add('result', { job: 'review-1', worker: 'forger', games: [{ id: 1, scores: forged }], ms: 1 });
      await results.close();
      await coord.waitFor(
        /^Note: the scores of game 1 from worker forger are refused \((move \d+ .* searched again gives .*|.*hits the Pharaoh.*)\); it is reviewed again$/m,
      );
      expect(rows(db, 'game')).toEqual([]);
      // Its own worker, stopped at the end: the next test's victim must get a chunk.
      const w = worker(redis.url, ['--cache', join(dir, 'cache')]);
      try {
        expect(await coord.exited, coord.out + coord.err).toBe(0);
      } finally {
        w.kill('SIGINT');
        await w.exited;
      }
      expect(rows(db, 'game')).toEqual([{ game: 1 }, { game: 2 }]);
    },
    stretched(300_000),
  );

  it(
    'a worker killed with SIGKILL mid-chunk leaves no db score running; its chunk is scored again',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'games.pgn');
      writeFileSync(file, games(8, 9));
      const db = join(dir, 'games.db');
      const imp = new ThothProcess(['db', 'import', '--db', db, file, '--quiet']);
      expect(await imp.exited, imp.err).toBe(0);
      const cache = ['--cache', join(dir, 'cache')];
      const victim = worker(redis.url, cache);
      const other = worker(redis.url, cache);
      workers.push(other);
      // Ids 1-7 in one chunk at depth 4: many seconds of searches for the victim's child.
      const coord = new ThothProcess([
        'db',
        'review',
        '--depth',
        '4',
        '--quiet',
        '--db',
        db,
        '--distributed',
        redis.url,
        '--chunk',
        '8',
      ]);
      const child = await scoreChild(victim.proc.pid!);
      await new Promise((r) => setTimeout(r, 1500));
      victim.kill('SIGKILL');
      // The child ends before its next move's searches once its parent is gone (on a loaded machine
      // it may still be starting: Node, the build and the network load first).
      await until(`the killed worker's scoring child ${child} ending`, 10_000, () => !running(child)).catch(
        () => undefined,
      );
      expect(running(child)).toBe(false);
      expect(await coord.exited, coord.out + coord.err).toBe(0);
      expect(rows(db, 'game')).toHaveLength(8);
    },
    stretched(300_000),
  );

  it(
    'two workers; the coordinator killed and run again repeats no stored review; the reviews equal local ones',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'games.pgn');
      writeFileSync(file, games(8, 5));
      const local = join(dir, 'local.db');
      const dist = join(dir, 'dist.db');
      for (const db of [local, dist]) {
        const imp = new ThothProcess(['db', 'import', '--db', db, file, '--quiet']);
        expect(await imp.exited, imp.err).toBe(0);
      }
      const review = ['db', 'review', '--depth', '2', '--quiet'];
      const threads = new ThothProcess([...review, '--db', local, '--threads', '1']);
      const cache = ['--cache', join(dir, 'cache')];
      workers.push(worker(redis.url, cache), worker(redis.url, cache));
      const distributed = [...review, '--db', dist, '--distributed', redis.url, '--chunk', '1'];
      const first = new ThothProcess(distributed);
      await first.waitFor(/^Review run ([0-9a-f]{12}) on /m, 120_000);
      const run = /^Review run ([0-9a-f]{12}) on /m.exec(first.out)![1];
      await until('a first review stored', 120_000, () => rows(dist, 'game').length > 0).catch(() => undefined);
      first.kill('SIGKILL');
      await first.exited;
      const before = rows(dist, 'game, done');
      expect(before.length, first.out + first.err).toBeGreaterThan(0);
      expect(before.length).toBeLessThan(8);
      // The dead coordinator's lock would end by itself 15 s after its last renewal.
      await endLock(redis.url, run);
      const second = new ThothProcess(distributed);
      expect(await second.exited, second.out + second.err).toBe(0);
      expect(second.out).toContain(`(${before.length} of 8 already reviewed)`);
      expect(second.out).toContain(`Review run ${run} on `);
      expect(second.out).toMatch(/^Worker \S+: \d+ games?, [\d.]+ games\/minute$/m);
      expect(second.out).toMatch(/^Thoth +16 +\d/m);
      const after = rows(dist, 'game, done');
      expect(after).toHaveLength(8);
      for (const b of before) expect(after.find((a) => a.game === b.game)?.done).toBe(b.done);
      expect(await threads.exited, threads.err).toBe(0);
      expect(rows(dist)).toEqual(rows(local));
      // The workers ran the coordinator's build from Redis, each chunk in a `thoth db score` process.
      const said = workers.map((w) => w.out).join('');
      expect(said).toMatch(
        new RegExp(`^Serving review run ${run}: Thoth build [0-9a-f]+, network [0-9a-f]+, depth 2$`, 'm'),
      );
      expect(said).toMatch(new RegExp(`^Reviewed review-\\d+ of run ${run} \\(1 game, ids \\d+-\\d+\\)`, 'm'));
    },
    stretched(300_000),
  );
});
