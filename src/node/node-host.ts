/**
 * The engine's host in Node (EngineHost, src/engine/host.ts): the machine's cores from node:os,
 * network files from disk (network-file.ts), search threads in a piscina pool (search-pool.ts).
 */
import { availableParallelism } from 'node:os';
import type { EngineHost } from '../engine/host';
import { loadNetworkFile } from './network-file';
import { SearchPool } from './search-pool';

export const nodeHost: EngineHost = {
  cores: availableParallelism(),
  loadNetworkFile,
  startSearchThreads: (threads, hashMb, network) => new SearchPool(threads, hashMb, network),
};
