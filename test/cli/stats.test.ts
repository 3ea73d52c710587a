/** `thoth stats` as a user runs it: the summary of record files equals the run's own, split or merged. */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fake, run, tempDir } from '../match/helpers';
import { CLI_BUILT, runThoth } from './helpers';

describe('thoth stats', () => {
  it("recomputes a run's summary from its records, also split over two files; bad input exits 2", async () => {
    const dir = tempDir();
    const pgn = join(dir, 'all.pgn');
    const { lines } = await run([
      ...fake('A', '--seed 1 --deterministic'),
      ...fake('B', '--seed 2 --play random --deterministic'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '6',
      '-sprt',
      'elo0=0',
      'elo1=50',
      '-ratinginterval',
      '0',
      '-pgnout',
      pgn,
    ]);
    const summary = lines.slice(
      lines.findIndex((l) => l.startsWith('Score of')),
      -1,
    );
    const whole = await runThoth(['stats', pgn, '-sprt', 'elo0=0', 'elo1=50']);
    expect(whole.code, whole.err).toBe(0);
    expect(whole.out.split('\n').filter(Boolean)).toEqual(['Games: 12 from 1 file (6 pairs) | khet2', ...summary]);
    // Two places, each with some of the rounds (and one file given twice: counted once).
    const games = readFileSync(pgn, 'utf8').split(/\n\n(?=\[Event )/);
    writeFileSync(join(dir, 'a.pgn'), games.filter((_, i) => i % 4 < 2).join('\n\n') + '\n\n');
    writeFileSync(join(dir, 'b.pgn'), games.filter((_, i) => i % 4 >= 2).join('\n\n'));
    const split = await runThoth([
      'stats',
      join(dir, 'a.pgn'),
      join(dir, 'b.pgn'),
      join(dir, 'b.pgn'),
      '-sprt',
      'elo0=0',
      'elo1=50',
    ]);
    expect(split.code, split.err).toBe(0);
    const out = split.out.split('\n').filter(Boolean);
    expect(out[0]).toBe('Note: 6 records that appear twice counted once');
    expect(out.slice(2)).toEqual(summary);
    const [missing, badSprt, empty] = await Promise.all([
      runThoth(['stats', join(dir, 'nope.pgn')]),
      runThoth(['stats', pgn, '-sprt', 'elo0=5', 'elo1=0']),
      runThoth(['stats']),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^thoth stats: cannot read '.*nope\.pgn': no such file or directory\n$/);
    expect(badSprt).toMatchObject({ code: 2, err: 'thoth stats: -sprt: elo1 must be greater than elo0\n' });
    expect(empty.code).toBe(2);
  });
});

describe('thoth stats on files that are not what it reads', () => {
  /** `thoth stats` from the build, stopped after a generous while (a reader that loops never ends). */
  function stats(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI_BUILT, 'stats', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out, err });
      });
    });
  }

  it('reads a record whose spaces are form feeds, vertical tabs, U+00A0 or U+2028 as the plain one', async () => {
    const dir = tempDir();
    const plainFile = fileURLToPath(new URL('../core/fixtures/match.pgn', import.meta.url));
    const text = readFileSync(plainFile, 'utf8');
    const movetext = (sp: string): string =>
      text.replace(/\n\n([^[][\s\S]*?)\n\n/g, (_, m: string) => `\n\n${m.replace(/ /g, sp)}\n\n`);
    const plain = await stats([plainFile]);
    expect(plain.code, plain.err).toBe(0);
    const runs = await Promise.all(
      ['\f', '\v', '\u00a0', '\u2028'].map((sp, i) => {
        const f = join(dir, `spaces${i}.pgn`);
        writeFileSync(f, movetext(sp));
        expect(readFileSync(f, 'utf8')).toContain(sp);
        return stats([f]);
      }),
    );
    for (const r of runs)
      expect({ code: r.code, out: r.out.replace(/spaces\d\.pgn/g, '') }).toEqual({ code: 0, out: plain.out });
  });

  it('a file without game records (prose with results in it, a quoted record with … for moves, binary, /dev/zero, empty, a folder) says so: exit 2, one line', async () => {
    const dir = tempDir();
    const files: [string, string | Buffer, RegExp][] = [
      [
        'README.md',
        '# Notes\n\nThe game ended 1-0 (Silver won) after e4+ and j4i4; see [the rules](rules.md).\n\n1/2-1/2 is a draw.\n',
        /^thoth stats: '.*README\.md' holds no game records \(a record is \[Tag "value"\] lines, moves and a result such as 1-0\)\n$/,
      ],
      [
        'quoted.md',
        '# Records\n\n```\n[Event "Thoth match"]\n[White "new"]\n[Black "old"]\n\n1. j4i4 {+0.35/12 0.520s} f8f7 2. … 29. e4+\n{Silver wins} 1-0\n```\n',
        /^thoth stats: '.*quoted\.md' holds no game records/,
      ],
      [
        'data.bin',
        Buffer.from([0x5b, 0x45, 0, 1, 2, 255, 0x31, 0x2d, 0x30]),
        /^thoth stats: '.*data\.bin' is not a record file \(it holds binary data\)\n$/,
      ],
      ['empty.pgn', '', /^thoth stats: '.*empty\.pgn' holds no game records/],
    ];
    const runs = files.map(([name, body]) => {
      writeFileSync(join(dir, name), body);
      return stats([join(dir, name)]);
    });
    runs.push(stats(['/dev/zero']), stats([dir]));
    const at = files.length;
    const res = await Promise.all(runs);
    files.forEach(([name, , re], i) => {
      expect(res[i].code, name).toBe(2);
      expect(res[i].err, name).toMatch(re);
      expect(res[i].out, name).toBe('');
    });
    expect(res[at]).toEqual({
      code: 2,
      out: '',
      err: "thoth stats: '/dev/zero' is not a record file (it holds binary data)\n",
    });
    expect(res[at + 1]).toEqual({ code: 2, out: '', err: `thoth stats: cannot read '${dir}': it is a directory\n` });
    // a record with many problems: ten notes, then their count
    const noisy = join(dir, 'noisy.pgn');
    writeFileSync(
      noisy,
      readFileSync(fileURLToPath(new URL('../core/fixtures/match.pgn', import.meta.url)), 'utf8') + ')'.repeat(5000),
    );
    const r = await stats([noisy]);
    expect(r.code, r.err).toBe(0);
    const notes = r.out.split('\n').filter((l) => l.startsWith('Note: '));
    expect(notes).toHaveLength(12);
    expect(notes[10]).toBe(`Note: ${noisy}: 4990 more problems like these`);
    expect(notes[11]).toBe(`Note: ${noisy} ends with an unfinished game record (not counted)`);
  });
});
