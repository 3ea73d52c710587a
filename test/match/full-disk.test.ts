/**
 * A match whose record file fills the disk: the game that does not fit is cut off again and not
 * counted, so the stop summary counts exactly the games the file holds (it counted 11 while the
 * file held 9 and a piece of a 10th), and -resume finishes the run. A file-size limit (`ulimit -f`
 * of /bin/sh, 512-byte blocks) gives what a full disk gives: a short write, then an error.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords } from '../../src/core/record';
import { CLI_BUILT } from '../cli/helpers';
import { fake, tempDir } from './helpers';
import { stretched } from '../slowness';

function thoth(args: string[], fileBlocks?: number): Promise<{ code: number | null; out: string; err: string }> {
  const line = [process.execPath, CLI_BUILT, ...args];
  const child =
    fileBlocks === undefined
      ? spawn(line[0], line.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', 'ulimit -f "$0" && exec "$@"', String(fileBlocks), ...line], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe('a match on a full disk', () => {
  it('the stop summary counts the games the record file holds, whole; -resume finishes the run', {
    timeout: stretched(120_000),
  }, async () => {
    const dir = tempDir();
    const flags = [
      ...fake('A', '--seed 1 --deterministic'),
      ...fake('B', '--seed 2 --play random --deterministic'),
      '-each',
      'depth=1',
      '-maxplies',
      '40',
      '-rounds',
      '12',
      '-srand',
      '5',
      '-concurrency',
      '2',
      '-ratinginterval',
      '0',
    ];
    const whole = join(dir, 'whole.pgn');
    expect((await thoth(['match', ...flags, '-pgnout', whole])).code).toBe(0);
    const pgn = join(dir, 'full.pgn');
    const r = await thoth(['match', ...flags, '-pgnout', pgn], Math.floor(statSync(whole).size / 2 / 512));
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(
      /^thoth match: the run stopped: cannot write the record file '.*full\.pgn': .*; stopping the run\n$/,
    );
    const parsed = parseRecords(readFileSync(pgn, 'utf8'));
    expect(parsed.incomplete).toBe(false);
    expect(parsed.errors).toEqual([]);
    const held = parsed.games.length;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(24);
    const score = [...r.out.matchAll(/^Score of A vs B: \d+ - \d+ - \d+ +\[[\d.]+\] (\d+)$/gm)].at(-1);
    expect(score && Number(score[1]), r.out).toBe(held);
    expect(r.out.split('\n').filter((l) => l.startsWith('Finished game ')).length).toBe(held);
    const again = await thoth(['match', ...flags, '-pgnout', pgn, '-resume', pgn]);
    expect(again.code, again.err).toBe(0);
    expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(24);
  });
});
