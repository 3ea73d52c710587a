import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readNetwork, writeNetwork } from '../../src/nnue/network';
import { quantise } from '../../src/train/float-network';
import {
  LOGISTIC_K,
  Trainer,
  batchGradient,
  loadTrainingData,
  quantisationError,
  targets,
  type TrainSettings,
  type TrainingData,
} from '../../src/train/train';
import { startTrainThreads } from '../../src/train/train-threads';

/** 2546 positions of 47 games of `thoth datagen` at its default settings (all three editions). */
const FIXTURE = new Uint8Array(readFileSync(new URL('../nnue/fixtures/selfplay.bin', import.meta.url)));

function load(val: number, seed = 1): TrainingData {
  const r = loadTrainingData([{ name: 'selfplay.bin', bytes: FIXTURE }], val, seed);
  if (!r.ok) throw new Error(r.error.error.message);
  return r.value.data;
}

// λ = 1: the search scores are what 47 games can teach (their results are few and noisy; the
// network soon learns the training games' results by heart).
const SETTINGS: TrainSettings = {
  hidden: 16,
  epochs: 4,
  batch: 64,
  lr: 0.002,
  lrDrop: 3,
  lrGamma: 0.1,
  lambda: 1,
  seed: 7,
  scale: 400,
};

describe('NNUE trainer', () => {
  it('packs the data: every position, whole games in the validation split, the targets blended', () => {
    const data = load(0.25);
    expect(data.count).toBe(2546);
    expect(data.editions).toBe(7);
    let val = 0;
    for (let i = 0; i < data.count; i++) val += data.validation[i];
    expect(val).toBeGreaterThan(0.1 * data.count);
    expect(val).toBeLessThan(0.4 * data.count);
    const t = targets(data, 0.8);
    for (const i of [0, 100, 2000]) {
      const want = 0.8 / (1 + Math.exp(-data.score[i] / LOGISTIC_K)) + 0.2 * (data.result[i] / 2);
      expect(t[i]).toBeCloseTo(want, 6);
    }
  });

  it('computes the gradient the loss has (finite differences)', () => {
    const data = load(0);
    const trainer = new Trainer(data, SETTINGS);
    const k = trainer.kernelFor(trainer.net.params);
    const order = trainer.trainIdx.subarray(0, 60);
    const grads = new Float32Array(trainer.net.params.length);
    batchGradient(k, order, 0, order.length, grads);
    const p = trainer.net.params;
    // the parameters with the largest gradients, from every part of the network
    const H = SETTINGS.hidden;
    const ftEnd = 2951 * H;
    const parts: [number, number][] = [
      [0, ftEnd],
      [ftEnd, ftEnd + H],
      [ftEnd + H, ftEnd + 3 * H],
      [ftEnd + 3 * H, ftEnd + 3 * H + 1],
    ];
    for (const [a, b] of parts) {
      let best = a;
      for (let i = a; i < b; i++) if (Math.abs(grads[i]) > Math.abs(grads[best])) best = i;
      const x = p[best];
      const h = 1e-3;
      p[best] = x + h;
      const up = batchGradient(k, order, 0, order.length, null);
      p[best] = x - h;
      const down = batchGradient(k, order, 0, order.length, null);
      p[best] = x;
      const numeric = (up - down) / (2 * h);
      expect(Math.abs(grads[best])).toBeGreaterThan(1e-4);
      expect(Math.abs(numeric - grads[best]) / Math.abs(grads[best])).toBeLessThan(0.02);
    }
  });

  it('reduces the validation loss below its start and below predicting the mean; the same seed repeats exactly', async () => {
    const data = load(0.25);
    const trainer = new Trainer(data, SETTINGS);
    const start = trainer.validationLoss();
    const constant = trainer.constantLoss();
    const losses: number[] = [];
    for (let e = 0; e < SETTINGS.epochs; e++) losses.push((await trainer.runEpoch()).valLoss);
    expect(losses[losses.length - 1]).toBeLessThan(start * 0.8);
    expect(losses[losses.length - 1]).toBeLessThan(constant * 0.8);

    const again = new Trainer(data, SETTINGS);
    for (let e = 0; e < SETTINGS.epochs; e++) await again.runEpoch();
    expect(Buffer.from(again.net.params.buffer).equals(Buffer.from(trainer.net.params.buffer))).toBe(true);

    // and the quantised network written to a file reads back, evaluating as the float one does
    const q = quantise(trainer.net, { scale: 400, editions: data.editions, name: 'test' });
    const back = readNetwork(writeNetwork(q));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const err = quantisationError(trainer.net, back.value, data, trainer.valIdx);
    expect(err.meanAbsEval).toBeGreaterThan(30);
    expect(err.mean).toBeLessThan(0.05 * err.meanAbsEval);
  });

  it('splits a batch over threads with the gradient of one thread', async () => {
    const data = load(0);
    const trainer = new Trainer(data, SETTINGS);
    const k = trainer.kernelFor(trainer.net.params);
    const one = new Float32Array(trainer.net.params.length);
    const lossOne = batchGradient(k, trainer.trainIdx, 10, 1010, one);
    const splitter = await startTrainThreads(trainer, 3, new URL('../../src/threads/train-worker.ts', import.meta.url));
    try {
      const three = new Float32Array(one.length);
      const lossThree = await splitter.gradient(trainer.trainIdx, 10, 1010, three);
      expect(lossThree).toBeCloseTo(lossOne, 6);
      let scale = 0;
      let diff = 0;
      for (let i = 0; i < one.length; i++) {
        scale = Math.max(scale, Math.abs(one[i]));
        diff = Math.max(diff, Math.abs(one[i] - three[i]));
      }
      expect(scale).toBeGreaterThan(0);
      expect(diff).toBeLessThan(1e-5 * scale);
    } finally {
      await splitter.close();
    }
  });
});
