/** `node:os` for the static build: the engine's options ask how many threads the machine has. */
export function availableParallelism(): number {
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency || 1;
}
