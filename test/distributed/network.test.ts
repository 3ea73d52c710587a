/**
 * Workers play the real engine: a distributed match of Thoth builds (dist/cli.js, with the shipped
 * network) on a real redis-server and a worker that unpacks the build from Redis gives the games of
 * a local run with the same flags, game for game, at a node count (deterministic); and they are not
 * the games of the hand-written evaluation (UseNNUE=false), which is what the workers played while
 * the build they were shipped had no nets/ folder. A worker whose engine evaluates otherwise than
 * the coordinator's (another network at the same EvalFile path) refuses the run in one line.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/index';
import { parseRecords } from '../../src/core/record';
import { NUM_FEATURES } from '../../src/nnue/features';
import { writeNetwork } from '../../src/nnue/network';
import { floatNetwork, quantise } from '../../src/train/float-network';
import { run, tempDir } from '../match/helpers';
import { REDIS_SERVER, ROOT, ThothProcess, normalisedGames, startRedis, worker } from './helpers';
import { stretched } from '../slowness';

const CLI = join(ROOT, 'dist', 'cli.js');

/** Two Thoth engines of this build (the second without late-move reductions), a node count a move. */
const thoth = (extra: string[] = []): string[] => [
  '-engine',
  'cmd=node',
  `args=${CLI}`,
  'name=new',
  ...extra,
  '-engine',
  'cmd=node',
  `args=${CLI}`,
  'name=old',
  'option.LMR=false',
  ...extra,
  '-each',
  'nodes=400',
  'option.Hash=1',
  '-openings',
  'setups=classic,imhotep',
  'plies=4',
  '-rounds',
  '2',
  '-srand',
  '5',
  '-maxplies',
  '60',
  '-ratinginterval',
  '0',
];

describe.skipIf(!REDIS_SERVER || !existsSync(CLI))('Thoth builds on workers', () => {
  it('a distributed match gives the games of a local run, with the network in use', {
    timeout: stretched(300_000),
  }, async () => {
    const redis = await startRedis();
    const dir = tempDir();
    const pgn = join(dir, 'dist.pgn');
    // an empty cache: the worker unpacks the build from Redis
    const wk = worker(redis.url, ['--cache', join(dir, 'cache')]);
    try {
      const coord = new ThothProcess(['match', ...thoth(), '-distributed', redis.url, '-pgnout', pgn]);
      const [code] = await Promise.all([
        coord.exited,
        run([...thoth(), '-pgnout', join(dir, 'local.pgn')]),
        run([...thoth(['option.UseNNUE=false']), '-pgnout', join(dir, 'handwritten.pgn')]),
      ]);
      expect(code, coord.err + coord.out).toBe(0);
      const games = normalisedGames(readFileSync(pgn, 'utf8'));
      expect(games).toHaveLength(4);
      expect(games).toEqual(normalisedGames(readFileSync(join(dir, 'local.pgn'), 'utf8')));
      // the network made the games: the hand-written evaluation plays others
      const movesOf = (file: string): string[] =>
        parseRecords(readFileSync(file, 'utf8')).games.map((g) => g.moves.map((m) => m.move).join(' '));
      const hand = movesOf(join(dir, 'handwritten.pgn'));
      expect(hand).toHaveLength(4);
      expect(movesOf(pgn).filter((m) => hand.includes(m))).toEqual([]);
      expect(wk.out).toMatch(/^Serving run [0-9a-f]{12}: new vs old /m);
    } finally {
      wk.kill('SIGINT');
      await wk.exited;
      await redis.stop();
    }
  });

  it('a worker whose engine evaluates otherwise (another network at the same path) refuses the run', {
    timeout: stretched(180_000),
  }, async () => {
    const redis = await startRedis();
    const dir = tempDir();
    const net = join(dir, 'net.nnue');
    copyFileSync(join(ROOT, 'nets', 'default.nnue'), net);
    const coord = new ThothProcess(['match', ...thoth([`option.EvalFile=${net}`]), '-distributed', redis.url]);
    let wk: ThothProcess | undefined;
    try {
      await coord.waitFor(/\(run [0-9a-f]{12}\)/);
      // the coordinator has asked its engines; now the file at that path is another network
      const rand = mulberry32(4);
      const f = floatNetwork(16);
      for (let i = 0; i < NUM_FEATURES * 16; i++) f.ftWeights[i] = ((rand() >>> 0) / 4294967296 - 0.5) * 0.5;
      for (let j = 0; j < 32; j++) f.outWeights[j] = ((rand() >>> 0) / 4294967296 - 0.5) * 4;
      writeFileSync(net, writeNetwork(quantise(f, { scale: 400, editions: 7, name: 'another' })));
      wk = worker(redis.url, ['--exit-when-idle']);
      await coord.waitFor(/^Note: worker \S+ refuses this run: /m);
      const note = coord.out.split('\n').find((l) => l.includes('refuses this run'))!;
      expect(note).toMatch(
        /^Note: worker \S+ refuses this run: engine '(new|old)' evaluates otherwise here than on the coordinator \(here: network \(sha256 [0-9a-f]{16}, 16 hidden, in use\): -?\d+; the search uses: the network, -?\d+; the coordinator: network \(sha256 [0-9a-f]{16}, 256 hidden, in use\): -?\d+; the search uses: the network, -?\d+\)$/,
      );
      expect(wk.out).not.toMatch(/^Played /m);
    } finally {
      coord.kill('SIGKILL');
      wk?.kill('SIGINT');
      await wk?.exited;
      await redis.stop();
    }
  });
});
