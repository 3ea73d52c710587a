/** `thoth genfens` as a user runs it: the entry point (src/cli.ts, through tsx) in a child process. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genfens } from '../../src/match/openings';
import { unwrap } from '../core/helpers';
import { runThoth, type CommandRun } from './helpers';

const thothGenfens = (args: string[]): Promise<CommandRun> => runThoth(['genfens', ...args]);

describe('thoth genfens', () => {
  it('prints the lines genfens makes; bad arguments exit 2 with one line', async () => {
    const [good, notN, badSetup, noDynasty] = await Promise.all([
      thothGenfens(['5', '--seed', '9', '--plies', '4', '--variant', 'khet1', '--setup', 'all']),
      thothGenfens(['x']),
      thothGenfens(['3', '--setup', 'castle']),
      thothGenfens(['3', '--variant', 'deflexion', '--setup', 'dynasty']),
    ]);
    const lines = unwrap(
      genfens(5, { seed: 9, plies: 4, edition: 'khet1', setups: ['classic', 'imhotep', 'dynasty'] }),
    );
    expect(good).toEqual({ code: 0, out: lines.join('\n') + '\n', err: '' });
    expect(notN.code).toBe(2);
    expect(notN.err).toMatch(/^thoth genfens: usage: thoth genfens <N> .*\n$/);
    expect(badSetup).toMatchObject({
      code: 2,
      err: "thoth genfens: unknown setup 'castle' (classic, imhotep, dynasty, mercury, sophie or all)\n",
    });
    expect(noDynasty).toMatchObject({
      code: 2,
      err: 'thoth genfens: deflexion has no dynasty setup (it has classic, imhotep)\n',
    });
  });
});

describe('thoth genfens: when it cannot, and its output', () => {
  it('stops with a message when there are not N distinct openings (exit 2), and writes --out whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thoth-genfens-'));
    const out = join(dir, 'book.kfen');
    const [few, ok, noFolder] = await Promise.all([
      thothGenfens(['5', '--plies', '0', '--setup', 'classic', '--out', out]),
      thothGenfens(['3', '--plies', '2', '--setup', 'classic', '--out', join(dir, 'ok.kfen')]),
      thothGenfens(['3', '--out', join(dir, 'no', 'b.kfen')]),
    ]);
    expect(few).toEqual({
      code: 2,
      out: '',
      err: 'thoth genfens: found only 1 distinct openings of the 5 asked for (0 random plies from classic; 1000 tries in a row gave none new): ask for fewer, or give more plies or setups\n',
    });
    expect(ok).toMatchObject({ code: 0, err: '' });
    expect(readFileSync(join(dir, 'ok.kfen'), 'utf8').trim().split('\n')).toHaveLength(3);
    expect(noFolder).toMatchObject({
      code: 2,
      out: '',
      err: `thoth genfens: cannot write '${join(dir, 'no', 'b.kfen')}': no such file or directory\n`,
    });
    expect(readdirSync(dir)).toEqual(['ok.kfen']); // nothing made for the run that failed, no temporary file
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("OpenBench's call form", () => {
  it('thoth "genfens N seed S book None" quit: the same openings as info string genfens lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thoth-genfens-'));
    const book = join(dir, 'book.kfen');
    const lines = unwrap(
      genfens(4, {
        seed: 7,
        plies: 4,
        edition: 'khet2',
        setups: ['classic', 'imhotep', 'dynasty', 'mercury', 'sophie'],
      }),
    );
    writeFileSync(book, `# a book\n${lines.slice(0, 2).join('\n')}\n`);
    const [none, fromBook, bad, after] = await Promise.all([
      runThoth(['genfens 4 seed 7 book None', 'quit']),
      runThoth([`genfens 5 seed 3 book ${book}`, 'quit']),
      runThoth(['genfens 4 seed x book None', 'quit']),
      runThoth(['genfens 4 seed 7 book None', 'go']),
    ]);
    expect(none).toEqual({ code: 0, out: lines.map((l) => `info string genfens ${l}\n`).join(''), err: '' });
    const drawn = fromBook.out.trim().split('\n');
    expect(drawn).toHaveLength(5);
    for (const l of drawn) expect(lines.slice(0, 2).map((k) => `info string genfens ${k}`)).toContain(l);
    expect(bad).toMatchObject({
      code: 2,
      err: "thoth genfens: expected genfens <N> seed <S> book <None|FILE>, not 'seed x'\n",
    });
    expect(after.code).toBe(2);
    rmSync(dir, { recursive: true, force: true });
  });
});
