/**
 * tools/rating-list.ts: one table per time control, each fitted from that control's games only
 * (docs/rating-list.md), from small record files written as the runner writes them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRecord, type ResultToken, serializeRecord } from '../../src/core/record';
import { runProcess } from '../patience';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KFEN = 'xv3avkav3/2pv4p>2/3Pv6/p^1Pv1s^s>1p>1P</p>1P<1S>S^p^2Pv/6p>3/7P^2/2P<A^K1A^2X^ s 4 3';
const dir = mkdtempSync(join(tmpdir(), 'thoth-rating-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let round = 0;
/** A file of games: [first, second, result, time control (one, or one per player)]. */
function records(file: string, games: [string, string, ResultToken, string | [string, string]][]): string {
  const text = games
    .map(([a, b, result, tc]) =>
      serializeRecord(
        makeRecord({
          event: 'test',
          date: '2026.12.07',
          round: String(++round),
          players: [a, b],
          result,
          variant: 'khet2',
          kfen: KFEN,
          timeControl: tc,
          termination: 'normal',
          moves: [],
        }),
      ),
    )
    .join('\n');
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

/** The tool's tables by control: each engine's row as its cells. */
async function tables(files: string[]): Promise<Map<string, Map<string, string[]>>> {
  const r = await runProcess(
    [process.execPath, '--import', 'tsx', 'tools/rating-list.ts', '--bootstrap', '20', ...files],
    { cwd: ROOT, idleMs: 60_000 },
  );
  expect(r.code, r.err).toBe(0);
  const out = new Map<string, Map<string, string[]>>();
  let rows = new Map<string, string[]>();
  for (const line of r.out.split('\n')) {
    if (line.startsWith('## ')) out.set(line.slice(3), (rows = new Map()));
    else if (/^\| \d+ \|/.test(line)) {
      const cells = line.split('|').map((c) => c.trim());
      rows.set(cells[2], cells.slice(3, -1));
    }
  }
  return out;
}

describe('tools/rating-list.ts', () => {
  it('prints a table per time control, each from its own games only', async () => {
    // X scores 3 of 4 against Thoth at 1+0.01 and 1 of 4 at 4+0.04; Y plays at 4+0.04 only
    const fast = records('fast.pgn', [
      ['X', 'Thoth', '1-0', '1+0.01'],
      ['Thoth', 'X', '0-1', '1+0.01'],
      ['X', 'Thoth', '1-0', '1+0.01'],
      ['Thoth', 'X', '1-0', '1+0.01'],
    ]);
    const slow = records('slow.pgn', [
      ['X', 'Thoth', '0-1', '4+0.04'],
      ['Thoth', 'X', '1-0', '4+0.04'],
      ['X', 'Thoth', '1-0', '4+0.04'],
      ['Thoth', 'X', '1-0', '4+0.04'],
      ['Y', 'Thoth', '1/2-1/2', '4+0.04'],
      ['Thoth', 'Y', '0-1', '4+0.04'],
      ['Y', 'Thoth', '0-1', ['4+0.04', 'depth=4']],
    ]);
    const t = await tables([fast, slow]);
    expect([...t.keys()]).toEqual(['1+0.01', '4+0.04', '4+0.04 / depth=4']);
    const [x1, x2] = [t.get('1+0.01')!.get('X')!, t.get('4+0.04')!.get('X')!];
    // Elo, interval, ±, games, score: 3 of 4 is about +190 (the prior's tenth of a draw aside)
    expect(Number(x1[0])).toBeGreaterThan(150);
    expect(Number(x1[0])).toBeLessThan(200);
    expect(Number(x2[0])).toBeLessThan(-150);
    expect(Number(x2[0])).toBeGreaterThan(-200);
    expect(x1.slice(3, 5)).toEqual(['4', '75.0%']);
    expect(x2.slice(3, 5)).toEqual(['4', '25.0%']);
    expect(t.get('1+0.01')!.has('Y')).toBe(false);
    expect(t.get('4+0.04')!.get('Y')!.slice(3, 5)).toEqual(['2', '75.0%']);
    expect(t.get('4+0.04')!.get('Thoth')!.slice(1, 5)).toEqual(['anchor', '', '6', '58.3%']);
    // the game of two controls is a table of its own: Y lost its one game there
    expect(t.get('4+0.04 / depth=4')!.get('Y')!.slice(1, 5)).toEqual([
      'no point scored: below any bound',
      '',
      '1',
      '0.0%',
    ]);
  });
});
