/**
 * The record file's writer: each game is in the file, whole, when append returns (the game counts
 * then), while the flush to disk runs in the background; a close that comes while a flush is in
 * flight closes the file once it ends. Real files, read back by the record reader.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords, serializeRecord } from '../../src/core/record';
import { RecordWriter } from '../../src/match/record-file';
import { stretched } from '../slowness';
import { tempDir } from './helpers';

const games = parseRecords(readFileSync(new URL('../core/fixtures/match.pgn', import.meta.url), 'utf8')).games;

/** Whether this process holds a descriptor open on `path`. */
function holds(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed while listed (the directory's own descriptor)
    }
  });
}

describe('the record writer', () => {
  it('has each game whole in the file when append returns; closes the file after the flush in flight', async () => {
    expect(games.length).toBeGreaterThanOrEqual(2);
    const path = join(tempDir(), 'run.pgn');
    const w = new RecordWriter(path);
    for (const [k, g] of games.entries()) {
      w.append(g);
      const back = parseRecords(readFileSync(path, 'utf8'));
      expect(back.incomplete).toBe(false);
      expect(back.games.map((x) => serializeRecord(x))).toEqual(games.slice(0, k + 1).map((x) => serializeRecord(x)));
    }
    // The first append's flush is still in flight (this test has not yielded since): close waits for it.
    w.close();
    expect(holds(path)).toBe(true);
    const until = Date.now() + stretched(10_000);
    while (holds(path) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(holds(path)).toBe(false);
    expect(parseRecords(readFileSync(path, 'utf8')).games).toHaveLength(games.length);
    w.close(); // twice is nothing
  });

  it('writes to a device, which has nothing to flush, without an error', async () => {
    const w = new RecordWriter('/dev/null');
    w.append(games[0]);
    await new Promise((r) => setTimeout(r, 50)); // the flush's EINVAL has come back
    w.append(games[1]);
    expect(() => w.close()).not.toThrow();
  });
});
