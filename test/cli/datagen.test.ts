/** `thoth datagen` as a user runs it: the entry point in a child process, worker threads and all. */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecords, replayRecord } from '../../src/core/record';
import { DATA_HEADER_BYTES, dataHeader, encodeGameHeader, scanData, type DataSummary } from '../../src/train/data';
import { parseArgs } from '../../src/cli/args';
import { datagenTargets } from '../../src/cli/datagen-command';
import { DATAGEN_SPEC } from '../../src/cli/datagen-spec';
import { CLI_BUILT, ROOT, runThoth } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'thoth-datagen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Small, short games on one thread. */
const SMALL = [
  '--threads',
  '1',
  '--nodes',
  '100',
  '--max-plies',
  '30',
  '--skip-plies',
  '8',
  '--variant',
  'khet2',
  '--quiet',
];

/** What the file holds; it must read without a fault. */
function summary(path: string): DataSummary {
  const s = scanData(readFileSync(path));
  expect(s.error).toBeUndefined();
  return s.summary;
}

describe('thoth datagen', () => {
  it('writes a readable file, goes on from it, and cuts off an unfinished last game', async () => {
    const path = join(dir, 'a.bin');
    const first = await runThoth(['datagen', '--out', path, '--positions', '12', ...SMALL]);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      /^Self-play into .*a\.bin with the shipped network \(nets\/default\.nnue\), 100 nodes a move\nWrote \d+ positions? of \d+ games? to .*a\.bin in [\d.]+ s/,
    );
    const a = summary(path);
    expect(a.positions).toBeGreaterThanOrEqual(12);

    // a run killed halfway through writing a game: the next run drops that game and goes on
    const written = readFileSync(path);
    writeFileSync(path, written.subarray(0, written.length - 5));
    const whole = scanData(readFileSync(path)).summary; // the games before the unfinished one
    expect(whole.games).toBe(a.games - 1);
    const second = await runThoth(['datagen', '--out', path, '--positions', String(whole.positions + 10), ...SMALL]);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/unfinished: the file was cut short; \d+ bytes of it dropped/);
    const b = summary(path);
    expect(b.positions).toBeGreaterThanOrEqual(whole.positions + 10);
    expect(readFileSync(path).subarray(0, whole.validBytes).equals(written.subarray(0, whole.validBytes))).toBe(true); // appended
    expect(b.lastGame).toBeGreaterThan(whole.lastGame); // new games, not the same ones again
  });

  it('--records keeps every game as a record that replays, and goes on with the data file', async () => {
    const out = join(dir, 'r.bin');
    const records = join(dir, 'r.pgn');
    const first = await runThoth(['datagen', '--out', out, '--records', records, '--games', '2', ...SMALL]);
    expect(first.code).toBe(0);
    const second = await runThoth(['datagen', '--out', out, '--records', records, '--games', '3', ...SMALL]);
    expect(second.code).toBe(0);
    const parsed = parseRecords(readFileSync(records, 'utf8'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.games.map((g) => g.tags.get('Round'))).toEqual(['1', '2', '3']);
    for (const g of parsed.games) {
      expect(g.tags.get('Opening')).toMatch(/^(classic|imhotep|dynasty) \+8 plies$/);
      expect(replayRecord(g).ok).toBe(true);
      expect(g.moves.length).toBe(Number(g.tags.get('PlyCount')));
    }
    expect(summary(out).games).toBe(3);
    const clash = await runThoth(['datagen', '--out', out, '--records', out, ...SMALL]);
    expect(clash.code).toBe(2);
  });

  it('--depth 1 stops each search at depth 1 and says so in the records', async () => {
    const out = join(dir, 'd.bin');
    const records = join(dir, 'd.pgn');
    const r = await runThoth(['datagen', '--out', out, '--records', records, '--games', '2', '--depth', '1', ...SMALL]);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/, depth 1 \(at most 100 nodes\) a move\n/);
    expect(r.out).toMatch(/1 thread, depth 1 per move\)/);
    const parsed = parseRecords(readFileSync(records, 'utf8'));
    expect(parsed.games.map((g) => g.tags.get('TimeControl'))).toEqual(['depth=1 nodes=100', 'depth=1 nodes=100']);
    for (const g of parsed.games) expect(replayRecord(g).ok).toBe(true);
    const bad = await runThoth(['datagen', '--out', out, '--depth', '0.5', ...SMALL]);
    expect(bad.code).toBe(2);
  });

  it('refuses bad options (exit 2) and a file it cannot append to (exit 1), leaving it as it was', async () => {
    const foreign = join(dir, 'notes.txt');
    writeFileSync(foreign, 'my notes, not training data\n');
    const full = join(dir, 'full.bin');
    const game = new Uint8Array(8);
    encodeGameHeader(0, 0, 1, 0, game, 0);
    writeFileSync(full, Buffer.concat([dataHeader(), game]));
    const [noOut, badNodes, badVariant, stray, notData, help, done] = await Promise.all([
      runThoth(['datagen']),
      runThoth(['datagen', '--out', join(dir, 'x.bin'), '--nodes', 'lots']),
      runThoth(['datagen', '--out', join(dir, 'x.bin'), '--variant', 'chess']),
      runThoth(['datagen', 'out.bin']),
      runThoth(['datagen', '--out', foreign, ...SMALL]),
      runThoth(['datagen', '--help']),
      runThoth(['datagen', '--out', full, '--games', '1', ...SMALL]),
    ]);
    expect(noOut).toMatchObject({ code: 2, err: expect.stringMatching(/^thoth datagen: --out FILE is needed/) });
    expect(badNodes).toMatchObject({ code: 2, err: "thoth datagen: --nodes must be a whole number, not 'lots'\n" });
    expect(badVariant).toMatchObject({
      code: 2,
      err: "thoth datagen: unknown variant 'chess' (khet2, khet1, deflexion or all)\n",
    });
    expect(stray).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^thoth datagen: unexpected argument 'out.bin'/),
    });
    expect(notData.code).toBe(1);
    expect(notData.err).toMatch(/notes\.txt: not a Thoth training data file .*; not appending to it\n$/);
    expect(readFileSync(foreign, 'utf8')).toBe('my notes, not training data\n');
    expect(done).toMatchObject({
      code: 0,
      out: expect.stringMatching(/full\.bin already holds 0 positions of 1 game: nothing to do/),
    });
    expect(help).toMatchObject({
      code: 0,
      out: expect.stringMatching(
        /^Usage: thoth datagen --out FILE [^]*--positions N +stop at N positions in the file \(default: 1000000; none with --games\)/,
      ),
    });
  });

  it('--first-game starts a new file at that game; --merge appends files, dropping positions already there', async () => {
    const a = join(dir, 'm-a.bin');
    const b = join(dir, 'm-b.bin');
    const out = join(dir, 'm-out.bin');
    const [ra, rb] = await Promise.all([
      runThoth(['datagen', '--out', a, '--games', '3', ...SMALL]),
      runThoth(['datagen', '--out', b, '--games', '2', '--first-game', '100', ...SMALL]),
    ]);
    expect(ra.code).toBe(0);
    expect(rb.code).toBe(0);
    const sa = summary(a);
    const sb = summary(b);
    expect(sa).toMatchObject({ games: 3, lastGame: 2 });
    expect(sb).toMatchObject({ games: 2, lastGame: 101 });

    const merged = await runThoth(['datagen', '--merge', '--out', out, a, b, a]);
    expect(merged.err).toBe('');
    expect(merged.code).toBe(0);
    const lines = merged.out.trim().split('\n');
    expect(lines[0]).toBe(`${a}: 3 games, ${sa.positions} positions merged`);
    expect(lines[2]).toBe(`${a}: 0 games, 0 positions merged`); // every position of it is there already
    const m = summary(out);
    expect(m.games).toBe(5);
    expect(m.lastGame).toBe(101);
    expect(m.positions).toBeLessThanOrEqual(sa.positions + sb.positions);
    expect(m.positions).toBeGreaterThan(sa.positions);
    expect(lines[3]).toBe(
      `Merged ${m.positions} positions of 5 games into ${out} (${sa.positions + (sa.positions + sb.positions - m.positions)} duplicates dropped); it holds ${m.positions} positions of 5 games`,
    );
    // The first input's bytes come first, unchanged.
    expect(readFileSync(out).subarray(0, sa.validBytes).equals(readFileSync(a).subarray(0, sa.validBytes))).toBe(true);

    const [noInputs, playing, badUrl, threads, missing] = await Promise.all([
      runThoth(['datagen', '--merge', '--out', out]),
      runThoth(['datagen', '--merge', '--out', out, a, '--nodes', '5']),
      runThoth(['datagen', '--out', out, '--distributed', 'http://x']),
      runThoth(['datagen', '--out', out, '--distributed', 'redis://127.0.0.1:1', '--threads', '2']),
      runThoth(['datagen', '--merge', '--out', out, join(dir, 'nothing.bin')]),
    ]);
    expect(noInputs).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^thoth datagen: --merge needs the data files to merge/),
    });
    expect(playing).toMatchObject({
      code: 2,
      err: 'thoth datagen: --merge plays no games: --nodes has no use with it\n',
    });
    expect(badUrl).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^thoth datagen: --distributed: 'http:\/\/x' is not a Redis address/),
    });
    expect(threads).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^thoth datagen: --threads is for a local run/),
    });
    expect(missing).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^thoth datagen: cannot read '.*nothing\.bin'/),
    });
    expect(summary(out)).toEqual(m); // refused: left as it was
  });
});

describe('scripts/datagen-host.sh (docs/nnue.md, "Datagen on other machines")', () => {
  it("makes the shard's folder, as a fresh clone has no data/", async () => {
    const shard = join(mkdtempSync(join(dir, 'host-')), 'data', 'host-a.bin');
    const child = spawn('sh', [join(ROOT, 'scripts', 'datagen-host.sh'), shard, '20', ...SMALL.slice(4)], {
      env: { ...process.env, THREADS: '1', NODES: '100', NET: 'none' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, err).toBe(0);
    expect(summary(shard).positions).toBeGreaterThanOrEqual(20);
  });
});

describe('scripts/build-db.sh (docs/db.md, "Building a database")', () => {
  it('makes the folder, the games, the database and the page index in one command, and goes on from them', async () => {
    const out = join(mkdtempSync(join(dir, 'db-')), 'collection');
    const run = async (games: string): Promise<string> => {
      const child = spawn('sh', [join(ROOT, 'scripts', 'build-db.sh'), out, games], {
        env: { ...process.env, THREADS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, text).toBe(0);
      return text;
    };
    await run('4');
    const first = parseRecords(readFileSync(join(out, 'selfplay.pgn'), 'utf8')).games;
    expect(first).toHaveLength(4);
    expect(first.every((g) => g.tags.get('TimeControl')?.startsWith('depth=1'))).toBe(true);
    const text = await run('6'); // two more games; the four stored are duplicates
    expect(parseRecords(readFileSync(join(out, 'selfplay.pgn'), 'utf8')).games).toHaveLength(6);
    expect(text).toMatch(/\b6 games\b/);
    expect(JSON.parse(readFileSync(join(out, 'explorer.json'), 'utf8'))).toBeTypeOf('object');
  });
});

describe('thoth datagen: targets', () => {
  const targets = (...argv: string[]) => datagenTargets(parseArgs(['--out', 'x.bin', ...argv], DATAGEN_SPEC));
  it('--games alone is not cut short by the positions default; either target stops a run given both', () => {
    expect(targets()).toEqual({ positions: 1_000_000, games: Infinity });
    expect(targets('--games', '150000').positions).toBe(Infinity);
    expect(targets('--games', '150000', '--positions', '5000')).toEqual({ positions: 5000, games: 150_000 });
  });
});

describe('thoth datagen: the evaluation', () => {
  it('without --net searches with the shipped network, as --net default does, and says so; --net none is the hand-written evaluation', async () => {
    const [plain, net, none] = ['plain', 'default', 'none'].map((n) => join(dir, `eval-${n}.bin`));
    const flags = ['--games', '2', '--seed', '11', ...SMALL];
    const runs = await Promise.all([
      runThoth(['datagen', '--out', plain, ...flags]),
      runThoth(['datagen', '--out', net, '--net', 'default', ...flags]),
      runThoth(['datagen', '--out', none, '--net', 'none', ...flags]),
    ]);
    for (const r of runs) expect(r, r.err).toMatchObject({ code: 0, err: '' });
    const start = runs.map((r) => r.out.split('\n')[0]);
    expect(start[0]).toBe(`Self-play into ${plain} with the shipped network (nets/default.nnue), 100 nodes a move`);
    expect(start[1]).toBe(`Self-play into ${net} with the shipped network (nets/default.nnue), 100 nodes a move`);
    expect(start[2]).toBe(`Self-play into ${none} with the hand-written evaluation (--net none), 100 nodes a move`);
    expect(readFileSync(plain).equals(readFileSync(net))).toBe(true);
    expect(readFileSync(plain).equals(readFileSync(none))).toBe(false);
  });
});

describe('thoth datagen: files and Ctrl-C', () => {
  it('a file that cannot be written or read (no folder, a folder, a missing --net) or --out = --net is exit 2 with one line', async () => {
    const net = join(dir, 'net.nnue');
    copyFileSync(join(ROOT, 'nets', 'default.nnue'), net);
    const [noFolder, folder, noNet, sameNet] = await Promise.all([
      runThoth(['datagen', '--out', join(dir, 'no', 'x.bin'), ...SMALL]),
      runThoth(['datagen', '--out', dir, ...SMALL]),
      runThoth(['datagen', '--out', join(dir, 'y.bin'), '--net', join(dir, 'none.nnue'), ...SMALL]),
      runThoth(['datagen', '--out', join(dir, 'net.nnue'), '--net', join(dir, 'net.nnue'), ...SMALL]),
    ]);
    expect(noFolder).toMatchObject({
      code: 2,
      out: '',
      err: `thoth datagen: cannot write '${join(dir, 'no', 'x.bin')}': no such file or directory\n`,
    });
    expect(folder).toMatchObject({
      code: 2,
      out: '',
      err: `thoth datagen: cannot write '${dir}': it is a directory\n`,
    });
    expect(noNet).toMatchObject({
      code: 2,
      out: '',
      err: `thoth datagen: --net: cannot read '${join(dir, 'none.nnue')}': no such file or directory\n`,
    });
    expect(sameNet).toMatchObject({
      code: 2,
      out: '',
      err: `thoth datagen: --out and --net are the same file '${net}': the network would be written over\n`,
    });
    expect(readFileSync(net).equals(readFileSync(join(ROOT, 'nets', 'default.nnue')))).toBe(true);
  });

  it('Ctrl-C keeps the games written, the file whole, and exits 130', async () => {
    const path = join(dir, 'interrupted.bin');
    const child = spawn(process.execPath, [CLI_BUILT, 'datagen', '--out', path, '--positions', '1000000', ...SMALL], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    // the first game appended (the file past its header): then Ctrl-C
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (existsSync(path) && statSync(path).size > DATA_HEADER_BYTES) {
          watcher.close();
          resolve();
        }
      };
      const watcher = watch(dir, check);
      check();
    });
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/Interrupted: the games in progress are dropped; run the same command again to go on\n/);
    const n = Number(
      /^thoth datagen: interrupted: .*interrupted\.bin holds (\d+) positions?; the same command goes on\n$/m.exec(
        stderr,
      )?.[1],
    );
    expect(stdout).toMatch(/^Wrote \d+ positions? of \d+ games? to /m);
    expect(summary(path).positions).toBe(n);
  });
});

describe('thoth datagen: a full disk', () => {
  it('one line, exit 1, no stack trace; the file holds whole games, counted right; with room the same command finishes it as a run without the fault', async () => {
    const path = join(dir, 'disk-full.bin');
    const whole = join(dir, 'disk-whole.bin');
    const flags = ['--games', '12', '--seed', '7401', ...SMALL];
    expect((await runThoth(['datagen', '--out', whole, ...flags])).code).toBe(0);
    // A file-size limit (`ulimit -f`, 512-byte blocks in /bin/sh) gives what a full disk gives: a short write, then an error.
    const limited = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const blocks = Math.floor(statSync(whole).size / 2 / 512);
      const child = spawn(
        '/bin/sh',
        [
          '-c',
          'ulimit -f "$0" && exec "$@"',
          String(blocks),
          process.execPath,
          CLI_BUILT,
          'datagen',
          '--out',
          path,
          ...flags,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
    expect(limited.code, limited.err).toBe(1);
    const m =
      /^thoth datagen: cannot write '.*disk-full\.bin': the file would be larger than this process may write \(ulimit -f\); the file holds (\d+) positions? of (\d+) whole games?: free space and run the same command again\n$/.exec(
        limited.err,
      );
    expect(m, limited.err).not.toBeNull();
    const s = summary(path);
    expect([s.positions, s.games]).toEqual([Number(m![1]), Number(m![2])]);
    expect(s.games).toBeGreaterThan(0);
    const again = await runThoth(['datagen', '--out', path, ...flags]);
    expect(again.code, again.err).toBe(0);
    expect(readFileSync(path).equals(readFileSync(whole))).toBe(true);
  });
});
