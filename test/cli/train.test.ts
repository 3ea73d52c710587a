/** `thoth train` as a user runs it: the entry point in a child process, its worker thread and all. */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readNetwork } from '../../src/nnue/network';
import { CLI_BUILT, runThoth } from './helpers';

const FIXTURE = fileURLToPath(new URL('../nnue/fixtures/selfplay.bin', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'thoth-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SMALL = ['--hidden', '8', '--epochs', '2', '--batch', '256', '--seed', '3', '--quiet'];

describe('thoth train', () => {
  it('trains on a data file and writes a network file that reads back; the same command writes the same file', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, `${n}.nnue`));
    const [one, two, single] = await Promise.all([
      runThoth(['train', '--out', a, '--threads', '2', ...SMALL, FIXTURE]),
      runThoth(['train', '--out', b, '--threads', '2', ...SMALL, FIXTURE]),
      runThoth(['train', '--out', c, '--threads', '1', ...SMALL, FIXTURE]),
    ]);
    expect(one.err).toBe('');
    expect(one.code).toBe(0);
    const lines = one.out.trim().split('\n');
    expect(lines[0]).toMatch(
      /^Data: 2546 positions of 47 games from 1 file read in [\d.]+ s: \d+ for training, \d+ for validation/,
    );
    expect(lines[1]).toMatch(/^Network: 8 hidden × 2 perspectives; batch 256, .* seed 3, 2 threads$/);
    expect(lines[1]).toMatch(/ \(× [\d.]+ every epoch\), /); // --lr-drop is 1 here: not "every 1 epochs"
    expect(lines[2]).toMatch(/^Validation loss before training 0\.\d{6} \(predicting the mean target: 0\.\d{6}\)$/);
    expect(lines[3]).toBe(
      `Checkpoint: after each epoch the best network so far is written to ${a} (whole, by rename); after a crash \`--init ${a}\` goes on from it`,
    );
    expect(lines[4]).toMatch(
      /^epoch 1\/2: train loss 0\.\d{6}, val loss 0\.\d{6}, [\d.]+ s, \d+ positions\/s, lr 0\.001$/,
    );
    expect(lines[5]).toMatch(/^epoch 2\/2: /);
    expect(lines[6]).toMatch(/^Quantised: evaluations differ from the float network's by [\d.]+ cp on average/);
    expect(lines[7]).toMatch(
      /^Wrote .*a\.nnue \(\d+ bytes\): data=selfplay\.bin positions=2546 epochs=2 seed=3 hidden=8 /,
    );
    const net = readNetwork(new Uint8Array(readFileSync(a)));
    expect(net.ok && { hidden: net.value.hidden, editions: net.value.editions, scale: net.value.scale }).toEqual({
      hidden: 8,
      editions: 7,
      scale: 400,
    });
    // the same command: the same network, byte for byte
    expect(two.code).toBe(0);
    expect(readFileSync(b).equals(readFileSync(a))).toBe(true);
    // one thread adds the gradient's terms in another order: the same losses but for rounding
    const losses = (out: string): number[] => [...out.matchAll(/loss (0\.\d+)/g)].map((m) => Number(m[1]));
    expect(losses(single.out)).toHaveLength(4);
    losses(single.out).forEach((x, i) => expect(x).toBeCloseTo(losses(one.out)[i], 4));
  });

  it('refuses bad options (exit 2) and files that are not training data (exit 1)', async () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes\n');
    const out = join(dir, 'x.nnue');
    const fifo = join(dir, 'fifo.bin');
    execFileSync('mkfifo', [fifo]);
    const [noOut, noData, badLambda, badLr, foreign, missing, help, zero, pipe] = await Promise.all([
      runThoth(['train', FIXTURE]),
      runThoth(['train', '--out', out]),
      runThoth(['train', '--out', out, '--lambda', '2', FIXTURE]),
      runThoth(['train', '--out', out, '--lr', 'fast', FIXTURE]),
      runThoth(['train', '--out', out, notes]),
      runThoth(['train', '--out', out, join(dir, 'nothing.bin')]),
      runThoth(['train', '--help']),
      runThoth(['train', '--out', out, '/dev/zero']), // a device and a pipe were read without end
      runThoth(['train', '--out', out, fifo]),
    ]);
    expect(noOut).toMatchObject({ code: 2, err: expect.stringMatching(/^thoth train: --out FILE is needed/) });
    expect(noData).toMatchObject({ code: 2, err: expect.stringMatching(/^thoth train: no data files given/) });
    expect(badLambda).toMatchObject({ code: 2, err: 'thoth train: --lambda must be from 0 to 1, not 2\n' });
    expect(badLr).toMatchObject({ code: 2, err: "thoth train: --lr must be a number, not 'fast'\n" });
    expect(foreign).toMatchObject({
      code: 1,
      err: expect.stringMatching(/notes\.txt: not a Thoth training data file/),
    });
    expect(missing).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^thoth train: cannot read '.*nothing\.bin': no such file or directory\n$/),
    });
    expect(help).toMatchObject({
      code: 0,
      out: expect.stringMatching(
        /^Usage: thoth train --out FILE DATA… [^]*--epochs N +passes over the training positions \(0: none, only the --init network's\s+loss\)\s+\(default:\s+10\)/,
      ),
    });
    expect(zero).toMatchObject({
      code: 2,
      err: "thoth train: cannot read '/dev/zero': not a data file (a device or a pipe)\n",
    });
    expect(pipe).toMatchObject({
      code: 2,
      err: `thoth train: cannot read '${fifo}': not a data file (a device or a pipe)\n`,
    });
    expect(() => readFileSync(out)).toThrow(); // nothing was written
  });

  it("--init starts from a network's weights: its loss before training is that network's; a size or file that does not fit is refused", async () => {
    const base = join(dir, 'base.nnue');
    const warm = join(dir, 'warm.nnue');
    // as in docs/nnue.md: a quarter of the games held out, and what they teach learnt in 4 epochs
    const LEARNS = [
      '--epochs',
      '4',
      '--batch',
      '64',
      '--lr',
      '0.002',
      '--lr-drop',
      '3',
      '--lambda',
      '1',
      '--val',
      '0.25',
      '--seed',
      '3',
      '--quiet',
    ];
    const fresh = await runThoth(['train', '--out', base, '--threads', '1', '--hidden', '8', ...LEARNS, FIXTURE]);
    expect(fresh.code).toBe(0);
    const before = (out: string): number => Number(/^Validation loss before training (0\.\d+)/m.exec(out)?.[1]);
    const lastVal = (out: string): number => Number([...out.matchAll(/val loss (0\.\d+)/g)].at(-1)?.[1]);
    const judged = join(dir, 'judged.nnue');
    const [again, wrongSize, notNet, judge] = await Promise.all([
      runThoth(['train', '--out', warm, '--threads', '1', '--init', base, ...LEARNS, FIXTURE]),
      runThoth(['train', '--out', join(dir, 'y.nnue'), '--init', base, '--hidden', '16', FIXTURE]),
      runThoth(['train', '--out', join(dir, 'y.nnue'), '--init', '/dev/zero', FIXTURE]),
      // --epochs 0: the network's loss on these data, nothing trained
      runThoth(['train', '--out', judged, '--threads', '1', '--init', base, ...LEARNS, '--epochs', '0', FIXTURE]),
    ]);
    expect(again.code).toBe(0);
    // the same split (same seed): it begins where the first run ended, up to quantisation
    expect(Math.abs(before(again.out) - lastVal(fresh.out))).toBeLessThan(0.0005);
    expect(before(again.out)).toBeLessThan(before(fresh.out) * 0.7);
    expect(again.out).toMatch(/Network: 8 hidden × 2 perspectives/);
    expect(again.out).toMatch(/Wrote .*warm\.nnue .* init=base\.nnue\n$/);
    expect(judge.code).toBe(0);
    expect(before(judge.out)).toBe(before(again.out));
    expect(judge.out).not.toMatch(/^epoch /m);
    const [b, j] = [base, judged].map((f) => readNetwork(new Uint8Array(readFileSync(f))));
    expect(b.ok && j.ok && [...j.value.ftWeights].every((w, i) => w === b.value.ftWeights[i])).toBe(true);
    expect(wrongSize).toMatchObject({
      code: 2,
      err: 'thoth train: --hidden 16, but the --init network has 8 hidden neurons\n',
    });
    expect(notNet).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^thoth train: --init: cannot read '\/dev\/zero': .*not a network file\n$/),
    });
  });
});

describe('thoth train: its output', () => {
  it('refuses an --out that is one of the data files, or that cannot be written, before reading the data: exit 2, one line', async () => {
    const sub = mkdtempSync(join(dir, 'out-'));
    const data = join(sub, 'data.bin');
    copyFileSync(FIXTURE, data);
    symlinkSync(data, join(sub, 'link.bin'));
    const [same, viaLink, noFolder] = await Promise.all([
      runThoth(['train', '--out', data, ...SMALL, data]),
      runThoth(['train', '--out', join(sub, 'link.bin'), ...SMALL, FIXTURE, data]),
      runThoth(['train', '--out', join(sub, 'no', 'net.nnue'), ...SMALL, data]),
    ]);
    expect(same).toMatchObject({
      code: 2,
      out: '',
      err: `thoth train: the output '${data}' is the input '${data}': writing it would destroy what is read; give another file\n`,
    });
    expect(viaLink).toMatchObject({
      code: 2,
      out: '',
      err: expect.stringMatching(/^thoth train: the output '.*link\.bin' is the input '.*data\.bin'/),
    });
    expect(noFolder).toMatchObject({
      code: 2,
      out: '',
      err: `thoth train: cannot write '${join(sub, 'no', 'net.nnue')}': no such file or directory\n`,
    });
    expect(readFileSync(data).equals(readFileSync(FIXTURE))).toBe(true);
    expect(readdirSync(sub).sort()).toEqual(['data.bin', 'link.bin']);
  });

  it('Ctrl-C writes the best network so far (whole) and exits 130', async () => {
    const runs = ['1', '2'].map(async (threads) => {
      const out = join(dir, `interrupted-${threads}.nnue`);
      const child = spawn(
        process.execPath,
        [
          CLI_BUILT,
          'train',
          '--out',
          out,
          '--hidden',
          '8',
          '--epochs',
          '10000',
          '--batch',
          '256',
          '--threads',
          threads,
          '--quiet',
          FIXTURE,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => {
        child.stdout.on('data', (d) => {
          stdout += d;
          if (!sent && /^epoch 3\//m.test(stdout)) {
            sent = true;
            child.kill('SIGINT');
          }
        });
        child.on('exit', (c) => resolve(c));
      });
      return { out, code, stdout, stderr };
    });
    for (const r of await Promise.all(runs)) {
      expect(r.code, r.stderr).toBe(130);
      const said =
        /^thoth train: interrupted after (\d+) of 10000 epochs: wrote the best network so far to .*\.nnue \((?:epoch (\d+)'s|the weights as they stood), validation loss (0\.\d{6})\)\n$/.exec(
          r.stderr,
        );
      expect(said, r.stderr).not.toBeNull();
      // the epochs done are the epochs finished (each printed a line), not the best one's number
      const losses = [...r.stdout.matchAll(/^epoch (\d+)\/10000: .*val loss (0\.\d+)/gm)].map((m) => ({
        epoch: Number(m[1]),
        loss: m[2],
      }));
      expect(Number(said![1])).toBe(losses.length);
      // the network written is the finished epoch with the lowest validation loss (or the weights of the stopped epoch, lower still)
      const lowest = losses.reduce((a, b) => (Number(b.loss) < Number(a.loss) ? b : a));
      expect(Number(said![3])).toBeLessThanOrEqual(Number(lowest.loss));
      if (said![2] !== undefined) {
        expect(said![3]).toBe(lowest.loss);
        expect(losses.filter((l) => l.loss === lowest.loss).map((l) => l.epoch)).toContain(Number(said![2]));
      }
      const net = readNetwork(new Uint8Array(readFileSync(r.out)));
      expect(net.ok && net.value.hidden).toBe(8);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    }
  });
});

describe('thoth train: work kept safe', () => {
  it('writes a checkpoint after each epoch: killed with SIGKILL, the network of the epochs done is there, whole, and --init goes on from it', async () => {
    const out = join(dir, 'killed.nnue');
    const child = spawn(
      process.execPath,
      [
        CLI_BUILT,
        'train',
        '--out',
        out,
        '--hidden',
        '8',
        '--epochs',
        '10000',
        '--batch',
        '256',
        '--threads',
        '1',
        '--quiet',
        FIXTURE,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (/^epoch 2\//m.test(stdout)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((r) => child.on('exit', r));
    expect(stdout).toMatch(/^Checkpoint: after each epoch the best network so far is written to .*killed\.nnue/m);
    const net = readNetwork(new Uint8Array(readFileSync(out)));
    expect(net.ok && net.value.hidden).toBe(8);
    expect(net.ok && net.value.name).toMatch(/ epochs=[12] /);
    const again = await runThoth([
      'train',
      '--out',
      join(dir, 'resumed.nnue'),
      '--init',
      out,
      '--epochs',
      '1',
      '--batch',
      '256',
      '--threads',
      '1',
      '--quiet',
      FIXTURE,
    ]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/init=killed\.nnue\n$/);
  });

  it('the same data file twice is refused; a game in two files (a merged file and a shard of it) is trained once; a .gz file gets a hint', async () => {
    const sub = mkdtempSync(join(dir, 'dup-'));
    const link = join(sub, 'link.bin');
    symlinkSync(FIXTURE, link);
    // A "merged" file: the fixture's games again under other game indices (datagen --merge keeps them as they are).
    const copy = join(sub, 'merged.bin');
    copyFileSync(FIXTURE, copy);
    const gz = join(sub, 'shard.bin.gz');
    writeFileSync(gz, gzipSync(readFileSync(FIXTURE)));
    const [twice, viaLink, merged, single, zipped] = await Promise.all([
      runThoth(['train', '--out', join(sub, 'a.nnue'), ...SMALL, FIXTURE, FIXTURE]),
      runThoth(['train', '--out', join(sub, 'b.nnue'), ...SMALL, FIXTURE, link]),
      runThoth(['train', '--out', join(sub, 'c.nnue'), ...SMALL, FIXTURE, copy]),
      runThoth(['train', '--out', join(sub, 'd.nnue'), ...SMALL, FIXTURE]),
      runThoth(['train', '--out', join(sub, 'e.nnue'), ...SMALL, gz]),
    ]);
    expect(twice).toMatchObject({
      code: 2,
      err: `thoth train: '${FIXTURE}' is '${FIXTURE}' again: give each data file once\n`,
    });
    expect(viaLink).toMatchObject({
      code: 2,
      err: `thoth train: '${link}' is '${FIXTURE}' again: give each data file once\n`,
    });
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toMatch(/^Note: 47 repeated games dropped /m);
    expect(merged.out).toMatch(/^Data: 2546 positions of 47 games from 2 files/m);
    // trained once: the same losses as the file alone
    const losses = (o: string): string[] => [...o.matchAll(/loss (0\.\d+)/g)].map((m) => m[1]);
    expect(losses(merged.out)).toEqual(losses(single.out));
    expect(zipped).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /shard\.bin\.gz: not a Thoth training data file but a gzip-compressed one: gunzip it first \(gunzip -k FILE\)\n$/,
      ),
    });
  });
});
