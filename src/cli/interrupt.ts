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
