/**
 * src/cli/exit-codes.ts: the one table from the typed errors the I/O floors throw to the exit codes
 * scripts read (docs/cli.md, "Exit codes"; docs/conventions.md, "Errors"), and the entry point
 * printing such an error as one line with its code.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CommandError, EXIT, UsageError } from '../../src/cli/args';
import { exitCodeOf } from '../../src/cli/exit-codes';
import { DbError } from '../../src/db/database';
import { BuildError } from '../../src/distributed/builds';
import { DatagenRunError, DatagenRunForgotten } from '../../src/distributed/datagen-coordinator';
import { RedisUnreachable } from '../../src/distributed/redis';
import { EngineOptionError, EngineStartError, MatchConfigError, MatchInterrupted } from '../../src/match/errors';
import { DatagenError, WriteFailure } from '../../src/train/data-file';
import { TrainingError, TrainingStopped } from '../../src/train/training-run';
import { ROOT, thothArgv } from './helpers';
import { stretched } from '../slowness';

describe('exit codes of typed errors', () => {
  it('gives each typed error its exit code: 2 a bad setting, 1 a failure, 130 an interruption', () => {
    const cases: Array<[Error, number]> = [
      [new UsageError('bad flag'), EXIT.usage],
      [new CommandError('failed'), EXIT.failure],
      [new CommandError('stopped', EXIT.interrupted), EXIT.interrupted],
      [new MatchConfigError('-anchor x: no such engine'), EXIT.usage],
      // A subclass of EngineStartError, but a bad setting: fastchess refuses it so.
      [new EngineOptionError('a', 'node a.js', 'Hash', '99999', 'out of range'), EXIT.usage],
      [new EngineStartError('a', 'node a.js', 'no uciok'), EXIT.failure],
      [new MatchInterrupted(), EXIT.interrupted],
      [new RedisUnreachable('cannot reach Redis at localhost:1'), EXIT.failure],
      [new DatagenRunForgotten('Redis no longer holds the run'), EXIT.failure],
      [new BuildError('cannot read the engine'), EXIT.failure],
      [new DatagenRunError('a chunk failed'), EXIT.failure],
      [new DbError('games.db: not a database'), EXIT.failure],
      [new DatagenError('cannot write out.bin', true), EXIT.usage],
      [new DatagenError('the workers failed'), EXIT.failure],
      [new WriteFailure('cannot write out.bin: no space left on device'), EXIT.failure],
      [new TrainingError('cannot read data.bin', true), EXIT.usage],
      [new TrainingError('the loss is not a number'), EXIT.failure],
      [new TrainingStopped('stopped; the best network so far is in net.nnue'), EXIT.interrupted],
    ];
    for (const [e, code] of cases) expect([e.constructor.name, exitCodeOf(e)]).toEqual([e.constructor.name, code]);
  });

  it('knows no other error: a bug is an internal error, not a message with a code', () => {
    expect(exitCodeOf(new Error('bug'))).toBeUndefined();
    expect(exitCodeOf(new TypeError('x is undefined'))).toBeUndefined();
    expect(exitCodeOf('a string')).toBeUndefined();
  });

  it('the entry point prints a typed error of a floor below as one line with its code', () => {
    // runMatch throws MatchConfigError for an -openings file that cannot be read; no engine starts.
    const r = spawnSync(
      process.execPath,
      thothArgv([
        'match',
        '-engine',
        'cmd=node',
        'name=a',
        '-engine',
        'cmd=node',
        'name=b',
        '-each',
        'depth=1',
        '-openings',
        'file=/nonexistent/book.kfen',
      ]),
      { cwd: ROOT, encoding: 'utf8', timeout: stretched(60_000) },
    );
    expect(r.status).toBe(EXIT.usage);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^thoth match: .*\/nonexistent\/book\.kfen/);
  });
});
