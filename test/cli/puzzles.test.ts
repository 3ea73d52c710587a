/**
 * `thoth puzzles` as a user runs it (the built entry point in a child process): self-play
 * mining writes a file that follows the schema and goes on when run again; mining a record
 * file finds what the miner finds in the same game in this process; bad usage exits 2 with one
 * line.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatMove, makeRecord, serializeRecord } from '../../src/core/index';
import { parsePuzzleFile } from '../../src/puzzles/format';
import { Miner } from '../../src/puzzles/miner';
import { PuzzleGames } from '../../src/puzzles/mined-games';
import { DEFAULT_SELFPLAY } from '../../src/search/selfplay';
import { runBuilt } from './helpers';
import { Stopwatch } from '../patience';

const dir = mkdtempSync(join(tmpdir(), 'thoth-puzzles-'));

describe('thoth puzzles', () => {
  it('mines self-play games into a file that follows the schema, goes on when run again, and says when no game is left', async () => {
    const out = join(dir, 'self.json');
    const args = ['puzzles', '--out', out, '--seed', '1', '--nodes', '1000', '--variant', 'khet2'];
    const first = await runBuilt([...args, '--selfplay', '3']);
    expect(first.code).toBe(0);
    expect(first.err).toBe('');
    expect(first.out).toMatch(
      /^Wrote \d+ puzzles from 3 games to .* per 1,000 games, .* s per puzzle\); the file holds \d+\n/,
    );
    const a = parsePuzzleFile(readFileSync(out, 'utf8'));
    if (!a.ok) throw new Error(a.error);
    expect(a.value.length).toBeGreaterThan(0);
    expect(a.value.every((p) => p.variant === 'khet2' && p.source.startsWith('selfplay:1:'))).toBe(true);
    const second = await runBuilt([...args, '--selfplay', '5']);
    expect(second.code).toBe(0);
    const b = parsePuzzleFile(readFileSync(out, 'utf8'));
    if (!b.ok) throw new Error(b.error);
    expect(b.value.slice(0, a.value.length)).toEqual(a.value);
    expect(new Set(b.value.map((p) => p.id)).size).toBe(b.value.length);
    // --selfplay N when the file holds puzzles of game N or later of the seed: no game is left to
    // play, and it says so
    const last = Math.max(...b.value.map((p) => Number(p.source.split(':')[2])));
    const again = await runBuilt([...args, '--selfplay', String(last), '--quiet']);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Wrote 0 puzzles from 0 games /);
    expect(again.err).toBe(
      `thoth puzzles: ${out} holds puzzles of self-play games up to game ${last} of seed 1 (games count from 0): --selfplay ${last} counts the games of earlier runs too, so none is left to play (give a larger N, or another --seed)\n`,
    );
  });

  it('mines a record file as the miner mines the same game', async () => {
    const game = new PuzzleGames({ ...DEFAULT_SELFPLAY, nodes: 1000 }).play(2, 5, ['khet2', 'khet1', 'deflexion']);
    if (!game) throw new Error('no game');
    const want = new Miner().mine({ ...game, mateFor: undefined, source: 'g.pgn#1' });
    expect(want.length).toBeGreaterThan(0);
    const rec = makeRecord({
      event: 'test',
      date: '2026.12.03',
      round: '1',
      players: ['a', 'b'],
      result: game.winner === 0 ? '1-0' : game.winner === 1 ? '0-1' : '*',
      variant: game.variant,
      kfen: game.start,
      timeControl: '-',
      termination: 'normal',
      moves: game.moves.map((m) => ({ move: formatMove(m) })),
    });
    const pgn = join(dir, 'g.pgn');
    writeFileSync(pgn, serializeRecord(rec));
    const out = join(dir, 'rec.json');
    const r = await runBuilt(['puzzles', '--out', out, '--from', pgn]);
    expect(r.code).toBe(0);
    const got = parsePuzzleFile(readFileSync(out, 'utf8'));
    if (!got.ok) throw new Error(got.error);
    expect(got.value).toEqual(want);
  });

  it('--out through a symbolic link writes its file and keeps the link (a rename replaced it, and a device with it)', async () => {
    // `--out /dev/null` renamed a plain file over the device; a link shows the same fault safely.
    const sub = mkdtempSync(join(dir, 'link-'));
    const real = join(sub, 'real.json');
    const link = join(sub, 'link.json');
    writeFileSync(real, '');
    symlinkSync(real, link);
    const r = await runBuilt(['puzzles', '--out', link, '--seed', '1', '--nodes', '300', '--selfplay', '1']);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(parsePuzzleFile(readFileSync(real, 'utf8')).ok).toBe(true);
    expect(readdirSync(sub).sort()).toEqual(['link.json', 'real.json']); // no temporary file left
  });

  it('bad usage: one line, exit 2', async () => {
    const runs = await Promise.all([
      runBuilt(['puzzles', '--out', join(dir, 'x.json')]),
      runBuilt(['puzzles', '--out', join(dir, 'x.json'), '--selfplay', '2', '--from', 'a.pgn']),
      runBuilt(['puzzles', '--out', join(dir, 'x.json'), '--selfplay', '2', '--max-moves', '9']),
      runBuilt(['puzzles', '--out', join(dir, 'x.json'), '--selfpaly', '2']),
      runBuilt(['puzzles', '--out', join(dir, 'x.json'), '--from', join(dir, 'missing.pgn')]),
      runBuilt(['puzzles', '--out', join(dir, 'x.json'), '--selfplay', '2', '--kinds', 'mate']),
      runBuilt(['puzzles', '--out', join(dir, 'x.json'), '--from', '/dev/zero']), // was read without end
      // an --out that cannot be written: said before any game is played (it was exit 1, after the first game)
      runBuilt(['puzzles', '--out', join(dir, 'no-such-folder', 'x.json'), '--selfplay', '1', '--nodes', '300']),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.err.split('\n').length).toBe(2);
      expect(r.err).toMatch(/^thoth puzzles: /);
    }
    expect(runs[3].err).toContain("did you mean '--selfplay'");
    expect(runs[6].err).toBe("thoth puzzles: '/dev/zero' is not a record file (it holds binary data)\n");
    expect(runs[7].err).toMatch(
      /^thoth puzzles: cannot write '.*no-such-folder\/x\.json': no such file or directory\n$/,
    );
    const help = await runBuilt(['puzzles', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--selfplay N');
  });
});

describe('thoth puzzles: outputs that are not files', () => {
  it('--out /dev/full: one line, exit 1, at once (it was read without end); /dev/zero and /dev/null take the file and are not read', async () => {
    const t0 = new Stopwatch();
    const [full, zero, nul] = await Promise.all(
      ['/dev/full', '/dev/zero', '/dev/null'].map((d) =>
        runBuilt(['puzzles', '--out', d, '--seed', '1', '--nodes', '300', '--selfplay', '1', '--quiet']),
      ),
    );
    expect(t0.stop().idleMs).toBeLessThan(60_000);
    expect(full).toMatchObject({
      code: 1,
      err: "thoth puzzles: cannot write '/dev/full': no space left on the device\n",
    });
    expect(zero.code, zero.err).toBe(0);
    expect(nul.code, nul.err).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});
