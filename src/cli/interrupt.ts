/** Ctrl-C for the long-running commands: the first stops the command gently, the second at once. */
import { EXIT } from './args';

/** On SIGINT or SIGTERM calls `first` once; a second signal exits 130 at once. Returns the undo. */
export function onInterrupt(first: () => void): () => void {
  let signals = 0;
  const handler = (): void => {
    signals++;
    if (signals > 1) process.exit(EXIT.interrupted);
    first();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/**
 * Started by a worker with an IPC channel (src/distributed/worker-datagen.ts, worker-review.ts):
 * end with it, so that a worker killed with -9 leaves nothing running. The channel's end is an
 * event; work that holds the event loop (a review's searches on the main thread) calls the check
 * returned between its steps, which ends the process once the worker is gone (this process has
 * then another parent).
 */
export function endWithParent(): () => void {
  if (typeof process.send !== 'function') return () => {};
  process.on('disconnect', () => process.exit(1));
  if (!process.connected) process.exit(1); // the worker died while this process was starting
  process.channel?.unref(); // the channel must not keep this process alive once the games are written
  // The worker's pid as it gave it (THOTH_PARENT): it may have died before this process got here.
  const parent = Number(process.env.THOTH_PARENT) || process.ppid;
  return () => {
    if (process.ppid !== parent) process.exit(1);
  };
}
