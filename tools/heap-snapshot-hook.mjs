/**
 * Loaded into an engine process (`node --import ./tools/heap-snapshot-hook.mjs dist/cli.js`, as
 * test/protocol/gui-soak.test.ts does when THOTH_HEAP_DIR is set): on SIGUSR2 it writes a heap snapshot of the main thread and of every
 * worker thread (the search threads) through the process's own inspector (`node:inspector`, the
 * NodeWorker domain), into THOTH_HEAP_DIR as `<label>-main.heapsnapshot`, `<label>-worker-<n>…`,
 * the label read from THOTH_HEAP_DIR/label. Nothing of the engine changes; a line on stderr says
 * when the snapshots are written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.THOTH_HEAP_DIR ?? '.';
const session = new Session();
session.connect();
/** Attached worker threads: the inspector session id of each, by worker id. */
const workers = new Map();
const post = (method, params = {}) =>
  new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
session.on('NodeWorker.attachedToWorker', ({ params }) => workers.set(params.workerInfo.workerId, params.sessionId));
session.on('NodeWorker.detachedFromWorker', ({ params }) => {
  for (const [id, s] of workers) if (s === params.sessionId) workers.delete(id);
});
/** Replies and snapshot chunks from the workers, by session id. */
const pending = new Map();
session.on('NodeWorker.receivedMessageFromWorker', ({ params }) =>
  pending.get(params.sessionId)?.(JSON.parse(params.message)),
);
await post('NodeWorker.enable', { waitForDebuggerOnStart: false });

async function mainSnapshot(file) {
  const chunks = [];
  const onChunk = (m) => chunks.push(m.params.chunk);
  session.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await post('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  session.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  writeFileSync(file, chunks.join(''));
}

function workerSnapshot(sessionId, file) {
  return new Promise((resolve) => {
    const chunks = [];
    pending.set(sessionId, (m) => {
      if (m.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(m.params.chunk);
      else if (m.id === 1) {
        pending.delete(sessionId);
        writeFileSync(file, chunks.join(''));
        resolve();
      }
    });
    post('NodeWorker.sendMessageToWorker', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'HeapProfiler.takeHeapSnapshot', params: { reportProgress: false } }),
    });
  });
}

process.on('SIGUSR2', async () => {
  const label = readFileSync(path.join(dir, 'label'), 'utf8').trim();
  await mainSnapshot(path.join(dir, `${label}-main.heapsnapshot`));
  const attached = [...workers];
  for (const [id, s] of attached) await workerSnapshot(s, path.join(dir, `${label}-worker-${id}.heapsnapshot`));
  process.stderr.write(`heap snapshots written: ${label}, main and ${attached.length} workers\n`);
});
