/**
 * The record reader never loops and never runs away: record-fuzz-child.ts feeds it random bytes,
 * random mutations of real records and long adversarial texts in a child process, which is
 * stopped when one input holds it far longer than any record of its size needs (a loop in this
 * process could not be stopped). Deep and long movetext is read in this process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_VARIATION_DEPTH, parseRecords, serializeRecord, type MoveRecord } from '../../src/core/record';
import { scaledMs, stretched } from '../slowness';

/**
 * How long one input may hold the reader on an idle machine, stretched by the slowness as each wait
 * starts (test/slowness.ts; a fixed 20 s ran out at a load of 22, 2026-12-07): generous (each takes
 * milliseconds), only a loop or runaway work reaches it.
 */
const STALL_MS = 20_000;

function runChild(cases: number): Promise<{ code: number | null; last: string; out: string; stalled: boolean }> {
  return new Promise((resolve) => {
    const script = fileURLToPath(new URL('./record-fuzz-child.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, String(cases)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let stalled = false;
    let timer: NodeJS.Timeout | undefined;
    // the slowness is measured (a 2 ms probe) at most once a second, not at every chunk of output
    let bound = 0;
    let measuredAt = Number.NEGATIVE_INFINITY;
    const arm = (): void => {
      clearTimeout(timer);
      const now = performance.now();
      if (now - measuredAt >= 1000) {
        bound = scaledMs(STALL_MS);
        measuredAt = now;
      }
      timer = setTimeout(() => {
        stalled = true;
        child.kill('SIGKILL');
      }, bound);
    };
    arm();
    child.stdout.on('data', (d) => {
      out += d;
      arm();
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      const lines = out.trimEnd().split('\n');
      resolve({ code, last: lines[lines.length - 1] ?? '', out, stalled });
    });
  });
}

describe('the record reader on any text', () => {
  it(
    'returns games or typed errors for random bytes, mutated real records and long texts, and reads any white space as a space',
    async () => {
      const r = await runChild(1500);
      expect(r.stalled, `the reader did not return on ${r.last} (no progress for ${STALL_MS / 1000} s)`).toBe(false);
      expect(r.last, r.out.slice(-2000)).toBe('ok 1500');
      expect(r.code).toBe(0);
    },
    stretched(300_000),
  );

  it(`skips variations nested deeper than ${MAX_VARIATION_DEPTH} with an error, and writes what it read`, () => {
    const deep = `[Event "x"]\n\n1. j4i4 ${'( a4a3 '.repeat(20_000)}${')'.repeat(20_000)} a4a3 1-0\n`;
    const p = parseRecords(deep);
    expect(p.games).toHaveLength(1);
    expect(p.games[0].moves.map((m) => m.move)).toEqual(['j4i4', 'a4a3']);
    expect(p.errors.map((e) => e.message)).toEqual([
      `variations nested more than ${MAX_VARIATION_DEPTH} deep (skipped)`,
    ]);
    let depth = 0;
    for (let line: MoveRecord[] | undefined = p.games[0].moves; line; line = line[0]?.variations?.[0]) depth++;
    expect(depth).toBe(MAX_VARIATION_DEPTH + 1);
    expect(parseRecords(serializeRecord(p.games[0])).games[0].moves).toHaveLength(2);
  });

  it('reads and writes a 300,000-move line, as the main line and as a variation', () => {
    const moves = 'j4i4 a4a3 i4j4 a3a4 '.repeat(75_000);
    const p = parseRecords(`[Event "x"]\n\n1. ${moves}1-0\n`);
    expect(p.games[0].moves).toHaveLength(300_000);
    const v = parseRecords(`[Event "x"]\n\n1. j4i4 (1. ${moves}) 1-0\n`);
    expect(v.games[0].moves[0].variations![0]).toHaveLength(300_000);
    const text = serializeRecord(v.games[0]);
    expect(parseRecords(text).games[0].moves[0].variations![0]).toHaveLength(300_000);
  });
});
