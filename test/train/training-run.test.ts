/**
 * A training run on its own (src/train/training-run.ts), in this process: the epochs reported,
 * the best network so far written after each one, the data read whole or streamed, and stop()
 * writing the best network so far.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readNetwork } from '../../src/nnue/network';
import type { TrainSettings } from '../../src/train/train';
import { TrainingError, TrainingRun, TrainingStopped, type TrainingRunOptions } from '../../src/train/training-run';

const FIXTURE = fileURLToPath(new URL('../nnue/fixtures/selfplay.bin', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'thoth-training-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings: TrainSettings = {
  hidden: 8,
  epochs: 2,
  batch: 256,
  lr: 0.001,
  lrDrop: 1,
  lrGamma: 0.1,
  lambda: 1,
  seed: 3,
  scale: 400,
};

function start(o: Partial<TrainingRunOptions>, onLine: (s: string, run: TrainingRun) => void = () => {}) {
  const lines: string[] = [];
  const out = join(dir, `${Math.random().toString(36).slice(2)}.nnue`);
  let stoppable = 0;
  const run: TrainingRun = new TrainingRun(
    {
      paths: [FIXTURE],
      out,
      settings,
      valFraction: 0.05,
      threads: 1,
      threadEntry: new URL('../../src/threads/train-worker.ts', import.meta.url),
      chunkPositions: 1_000_000,
      nameTail: '',
      ...o,
    },
    {
      line: (s) => {
        lines.push(s);
        onLine(s, run);
      },
      warn: (s) => lines.push(`warn: ${s}`),
      progress: () => {},
      clearProgress: () => {},
      stoppable: () => {
        stoppable++;
        return () => stoppable--;
      },
    },
  );
  return { run, lines, out, stoppable: () => stoppable };
}

describe('TrainingRun', () => {
  it('reports the data, every epoch and the result, and writes the network (the same one read whole or streamed)', async () => {
    const whole = start({});
    await whole.run.run();
    expect(whole.stoppable()).toBe(0); // stop() was heard during the epochs only
    expect(whole.lines[0]).toMatch(/^Data: 2546 positions of 47 games from 1 file read in /);
    expect(whole.lines.filter((l) => /^epoch \d\/2: /.test(l))).toHaveLength(2);
    expect(whole.lines.at(-1)).toMatch(/^Wrote .* \(\d+ bytes\): data=selfplay\.bin positions=2546 epochs=2 seed=3 /);
    const net = readNetwork(readFileSync(whole.out));
    expect(net.ok && net.value.hidden).toBe(8);

    const streamed = start({ chunkPositions: 1000 });
    await streamed.run.run();
    expect(streamed.lines[0]).toMatch(/streamed in shuffled chunks of at most 1000 positions/);
    expect(streamed.lines.filter((l) => /^epoch \d\/2: .*, 3 chunks$/.test(l))).toHaveLength(2);
    expect(readFileSync(streamed.out).length).toBe(readFileSync(whole.out).length);
  });

  it('writes the best network so far after each epoch, and on stop() ends with it (TrainingStopped)', async () => {
    const checkpoints: Buffer[] = [];
    const t = start({ settings: { ...settings, epochs: 3 } }, (line, run) => {
      if (!line.startsWith('epoch ')) return;
      queueMicrotask(() => checkpoints.push(readFileSync(t.out)));
      if (line.startsWith('epoch 2/')) run.stop();
    });
    const err = await t.run.run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TrainingStopped);
    expect((err as Error).message).toMatch(
      /^interrupted after 2 of 3 epochs: wrote the best network so far to .*epoch/,
    );
    const net = readNetwork(readFileSync(t.out));
    expect(net.ok && net.value.name).toMatch(/ epochs=[12] /);
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const c of checkpoints) expect(readNetwork(c).ok).toBe(true);
  });

  it('refuses a data file it cannot read (usage, exit 2) and one that is not training data (exit 1)', async () => {
    const missing = start({ paths: [join(dir, 'none.bin')] });
    await expect(missing.run.run()).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/^cannot read/),
    });
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes, not training data\n');
    const foreign = start({ paths: [notes] });
    const err = await foreign.run.run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrainingError);
    expect(err).toMatchObject({
      usage: false,
      message: expect.stringMatching(/notes\.txt: not a Thoth training data file/),
    });
  });
});
