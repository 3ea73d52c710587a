/**
 * The built engine and its network (NNUE): `setoption name EvalFile value <path>` loads a network
 * file; a missing, foreign or damaged file gives `info string error: …` and the engine keeps the
 * network it had; `UseNNUE` chooses between the network and the hand-written evaluation, and
 * `eval` shows both.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/index';
import { NUM_FEATURES } from '../../src/nnue/features';
import { writeNetwork } from '../../src/nnue/network';
import { floatNetwork, quantise } from '../../src/train/float-network';
import { extremeNetwork } from '../nnue/helpers';
import { type Engine, assertBuilt, startEngine } from './spawn-engine';

describe('EvalFile and UseNNUE', () => {
  let e: Engine;
  let dir: string;
  let good: string;
  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-evalfile-'));
    // a small network of random weights
    const rand = mulberry32(9);
    const f = floatNetwork(8);
    for (let i = 0; i < NUM_FEATURES * 8; i++) f.ftWeights[i] = ((rand() >>> 0) / 4294967296 - 0.5) * 0.5;
    for (let j = 0; j < 16; j++) f.outWeights[j] = ((rand() >>> 0) / 4294967296 - 0.5) * 4;
    const bytes = writeNetwork(quantise(f, { scale: 400, editions: 7, name: 'eval-file test' }));
    good = path.join(dir, 'random.nnue');
    writeFileSync(good, bytes);
    writeFileSync(path.join(dir, 'cut.nnue'), bytes.subarray(0, bytes.length - 100));
    writeFileSync(path.join(dir, 'foreign.nnue'), 'not a network\n');
    // a good header with a byte too many, and with 3 GB too many (sparse: no disk used)
    writeFileSync(path.join(dir, 'long.nnue'), bytes);
    appendFileSync(path.join(dir, 'long.nnue'), Buffer.from([0]));
    writeFileSync(path.join(dir, 'huge.nnue'), bytes);
    truncateSync(path.join(dir, 'huge.nnue'), 3 * 2 ** 30);
    // a huge file that is not a network: refused by its first bytes
    writeFileSync(path.join(dir, 'huge-foreign.nnue'), 'x');
    truncateSync(path.join(dir, 'huge-foreign.nnue'), 3 * 2 ** 30);
    // a FIFO with no writer: opening it for reading would wait for ever
    execFileSync('mkfifo', [path.join(dir, 'fifo.nnue')]);
    e = await startEngine();
  });
  afterAll(() => {
    e?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const evalLines = async (): Promise<string[]> => e.command('eval', /^info string the search uses: /);

  it('a good file: loaded silently, eval shows it, and the search uses it', async () => {
    e.send(`setoption name EvalFile value ${good}`);
    expect(await e.sync()).toEqual([]);
    e.send('setoption name UseNNUE value true');
    expect(await e.sync()).toEqual([]);
    e.send('position startpos');
    const out = await evalLines();
    expect(out.find((l) => l.startsWith('info string network'))).toMatch(
      new RegExp(
        `network ${good.replace(/[.\\/]/g, '\\$&')} \\(sha256 ${createHash('sha256').update(readFileSync(good)).digest('hex').slice(0, 16)}, 8 hidden, in use\\): -?\\d+`,
      ),
    );
    expect(out[out.length - 1]).toMatch(/^info string the search uses: the network, -?\d+$/);
    e.send('go depth 3');
    const ls = (await e.collect(/^bestmove /, 10_000)).map((l) => l.text);
    expect(ls.filter((l) => l.startsWith('info string error'))).toEqual([]);
    expect(ls[ls.length - 1]).toMatch(/^bestmove \S+/);
  });

  it.each([
    ['a missing file', 'nope.nnue', /cannot read .*nope\.nnue.*no such file/],
    ['a foreign file', 'foreign.nnue', /not a network file Thoth can use/],
    ['a file cut short', 'cut.nnue', /not a network file Thoth can use/],
    [
      'a good header, a byte too long',
      'long.nnue',
      /not a network file Thoth can use: \d+ bytes, its header says a network of \d+ bytes/,
    ],
    ['a good header, 3 GB long', 'huge.nnue', /not a network file Thoth can use: 3221225472 bytes, its header says/],
    [
      'a 3 GB file of something else',
      'huge-foreign.nnue',
      /not a network file Thoth can use: .*does not start with THOTHNN1/,
    ],
    ['a FIFO', 'fifo.nnue', /cannot read .*fifo\.nnue.*a pipe/],
    ['a folder', '.', /cannot read .*a folder/],
    ['/dev/zero', '/dev/zero', /cannot read '\/dev\/zero': a device/],
  ])('%s: an error, and the network in use is kept', async (_what, name, why) => {
    e.send(`setoption name EvalFile value ${path.resolve(dir, name)}`);
    // (each is refused after a look at the file; before, a FIFO hung the engine and /dev/zero
    // filled its memory, so this sync timed out)
    const out = await e.sync(10_000);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^info string error: setoption: EvalFile /);
    expect(out[0]).toMatch(why);
    expect(out[0]).toMatch(/the network in use is unchanged$/);
    const ev = await evalLines();
    expect(ev.find((l) => l.startsWith('info string network'))).toContain(good);
  });

  it('UseNNUE false: the search uses the hand-written evaluation; the network is still shown', async () => {
    e.send('setoption name UseNNUE value false');
    expect(await e.sync()).toEqual([]);
    const out = await evalLines();
    expect(out.find((l) => l.startsWith('info string network'))).toMatch(/not in use: UseNNUE is false/);
    expect(out[out.length - 1]).toMatch(/^info string the search uses: the hand-written evaluation, -?\d+$/);
  });

  it('a network of extreme weights: its evaluation stays below a won game, and go, stop and quit are answered', async () => {
    // every weight at the int16 limit, the largest output bias and scale: a raw output of millions
    const extreme = path.join(dir, 'extreme.nnue');
    const outWeights = new Int16Array(2 * 16).map((_, i) => (i % 2 === 1 ? 32767 : -32768));
    writeFileSync(extreme, writeNetwork(extremeNetwork(outWeights, 2 ** 31 - 1)));
    e.send('setoption name UseNNUE value true');
    e.send(`setoption name EvalFile value ${extreme}`);
    expect(await e.sync()).toEqual([]);
    e.send('position startpos');
    const out = await evalLines();
    expect(out[out.length - 1]).toMatch(/^info string the search uses: the network, -?30999$/);
    await e.command('go depth 5', /^bestmove \S+/);
    e.send('go infinite');
    await e.waitFor(/^info depth 1 /);
    await e.command('stop', /^bestmove \S+/);
    expect((await e.quit()).code).toBe(0);
  });
});
