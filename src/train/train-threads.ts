/**
 * Each batch's gradient split over threads: this thread computes the first share, worker threads
 * (src/threads/train-worker.ts) the others, each into its own gradient array in shared memory,
 * and the shares are added in a fixed order, so a run repeats exactly for a given thread count.
 * The threads meet through Atomics on a shared control array: no messages per batch.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../process/pool';
import { batchGradient, type GradientSplitter, type Trainer } from './train';

/** Control words: the batch's generation, how many workers finished it, stop, a worker's failure. */
export const CTRL_GENERATION = 0;
export const CTRL_DONE = 1;
export const CTRL_TRAIN_STOP = 2;
export const CTRL_FAILED = 3;
/** Worker w's share of the batch: order[ctrl[CTRL_RANGES + 2w] .. ctrl[CTRL_RANGES + 2w + 1]). */
export const CTRL_RANGES = 4;

export interface TrainWorkerData {
  index: number;
  hidden: number;
  logitScale: number;
  params: Float32Array;
  grads: Float32Array;
  feats: Uint16Array;
  offsets: Uint32Array;
  side: Uint8Array;
  target: Float32Array;
  order: Uint32Array;
  ctrl: Int32Array;
  losses: Float64Array;
}

/**
 * Splits the trainer's batches over `threads` threads: this one and `threads − 1` worker threads on
 * `entry`, as the caller names it (src/threads/train-worker.ts, which imports this folder).
 */
export async function startTrainThreads(trainer: Trainer, threads: number, entry: URL): Promise<GradientSplitter> {
  const helpers = threads - 1;
  const ctrl = new Int32Array(new SharedArrayBuffer(4 * (CTRL_RANGES + 2 * helpers)));
  const losses = new Float64Array(new SharedArrayBuffer(8 * helpers));
  const kernel = trainer.kernelFor(trainer.net.params);
  const { params, target, order } = trainer.shared;
  const d = trainer.data;
  const workers: Worker[] = [];
  const grads: Float32Array[] = [];
  const ready: Promise<void>[] = [];
  for (let w = 0; w < helpers; w++) {
    const g = new Float32Array(new SharedArrayBuffer(4 * params.length));
    const workerData: TrainWorkerData = {
      index: w,
      hidden: kernel.hidden,
      logitScale: kernel.logitScale,
      params,
      grads: g,
      feats: d.feats,
      offsets: d.offsets,
      side: d.side,
      target,
      order,
      ctrl,
      losses,
    };
    const worker = startWorker(entry, workerData);
    ready.push(
      new Promise((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
      }),
    );
    workers.push(worker);
    grads.push(g);
  }
  await Promise.all(ready);
  return {
    gradient(order: Uint32Array, from: number, to: number, sum: Float32Array): number {
      const share = Math.ceil((to - from) / threads);
      Atomics.store(ctrl, CTRL_DONE, 0);
      for (let w = 0; w < helpers; w++) {
        ctrl[CTRL_RANGES + 2 * w] = Math.min(to, from + share * (w + 1));
        ctrl[CTRL_RANGES + 2 * w + 1] = Math.min(to, from + share * (w + 2));
      }
      Atomics.add(ctrl, CTRL_GENERATION, 1);
      Atomics.notify(ctrl, CTRL_GENERATION);
      let loss = batchGradient(kernel, order, from, Math.min(to, from + share), sum);
      for (;;) {
        const done = Atomics.load(ctrl, CTRL_DONE);
        if (done === helpers) break;
        Atomics.wait(ctrl, CTRL_DONE, done);
      }
      if (Atomics.load(ctrl, CTRL_FAILED) !== 0) throw new Error('a training thread failed');
      for (let w = 0; w < helpers; w++) {
        const g = grads[w];
        for (let i = 0; i < sum.length; i++) sum[i] += g[i];
        loss += losses[w];
      }
      return loss;
    },
    async close(): Promise<void> {
      Atomics.store(ctrl, CTRL_TRAIN_STOP, 1);
      Atomics.add(ctrl, CTRL_GENERATION, 1);
      Atomics.notify(ctrl, CTRL_GENERATION);
      await Promise.all(
        workers.map(
          (w) =>
            new Promise((resolve) => {
              w.once('exit', resolve);
              void w.terminate();
            }),
        ),
      );
    },
  };
}
