/** Worker of `thoth train`: computes its share of each batch's gradient (see src/train/train-threads.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { MAX_ACTIVE } from '../nnue/features';
import { batchGradient, type Kernel } from '../train/train';
import {
  CTRL_DONE,
  CTRL_FAILED,
  CTRL_GENERATION,
  CTRL_RANGES,
  CTRL_TRAIN_STOP,
  type TrainWorkerData,
} from '../train/train-threads';

const data = workerData as TrainWorkerData;
const kernel: Kernel = {
  hidden: data.hidden,
  params: data.params,
  feats: data.feats,
  offsets: data.offsets,
  side: data.side,
  target: data.target,
  logitScale: data.logitScale,
  scratch: new Float32Array(4 * data.hidden),
  rows: new Int32Array(2 * MAX_ACTIVE),
};
const ctrl = data.ctrl;
let generation = Atomics.load(ctrl, CTRL_GENERATION);
parentPort?.postMessage('ready');
for (;;) {
  Atomics.wait(ctrl, CTRL_GENERATION, generation);
  generation = Atomics.load(ctrl, CTRL_GENERATION);
  if (Atomics.load(ctrl, CTRL_TRAIN_STOP) !== 0) break;
  try {
    data.grads.fill(0);
    const from = ctrl[CTRL_RANGES + 2 * data.index];
    const to = ctrl[CTRL_RANGES + 2 * data.index + 1];
    data.losses[data.index] = from < to ? batchGradient(kernel, data.order, from, to, data.grads) : 0;
  } catch {
    Atomics.store(ctrl, CTRL_FAILED, 1);
  }
  Atomics.add(ctrl, CTRL_DONE, 1);
  Atomics.notify(ctrl, CTRL_DONE);
}
