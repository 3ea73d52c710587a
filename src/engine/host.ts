/**
 * What the engine needs from the machine it runs on, declared once here: how many cores it has,
 * how to read a network file, and how to start search threads. Each host provides it: the Node
 * engine (src/node/node-host.ts: piscina worker threads, files, node:os) and the static page
 * (src/web/page-host.ts: Web Workers, the network inside the page, navigator). The engine
 * (engine.ts, options.ts) and the protocol above it take a host and import nothing of Node or of
 * the browser themselves.
 */
import type { Result } from '../core/result';
import type { SearchInfo, SearchResult } from '../core/score';
import type { Network } from '../nnue/network';

/** EvalFile's value for the network shipped with the engine. */
export const DEFAULT_EVAL_FILE = 'default';

/** A network as the engine holds it: parsed, and its file's bytes to hand to the threads. */
export interface LoadedNetwork {
  net: Network;
  bytes: SharedArrayBuffer;
  /** Where it came from (a path, or "default"). */
  source: string;
  /** The SHA-256 of its file (hex), where the host computes it: what tells one network from another. */
  checksum?: string;
}

import type { GoRequest } from './pool-core';
export type { GoRequest };

/** The search threads (Lazy SMP over one shared table where the host can share memory). */
export interface SearchThreads {
  /** Resolves when the threads are started (and warmed up, where the host warms them). */
  readonly ready: Promise<void>;
  readonly threads: number;
  readonly busy: boolean;
  /** The evaluation changed: warm up again with `network` (undefined: the hand-written one). Only while idle. */
  warmWith(network: SharedArrayBuffer | undefined): Promise<void>;
  /** Ends the warm-up searches now (a `go` is waiting: its clock is running). */
  interruptWarmup(): void;
  /** `n` threads from now on (only while idle). */
  setThreads(n: number): Promise<void>;
  /** A new, empty table of `mb` megabytes; resolves when it is ready for a search. */
  resize(mb: number): Promise<void>;
  /** Empties the table and the history tables. */
  clear(): Promise<void>;
  /** Starts a search; resolves when it has stopped, with the move to play. */
  start(go: GoRequest, ponder: boolean, onInfo: (info: SearchInfo) => void): Promise<SearchResult>;
  stop(): void;
  ponderhit(): void;
  destroy(): Promise<void>;
}

export interface EngineHost {
  /** Threads the machine runs at once (`Threads` goes up to twice this). */
  readonly cores: number;
  /** Reads and checks a network file; DEFAULT_EVAL_FILE is the shipped network. */
  loadNetworkFile(file: string): Result<LoadedNetwork, string>;
  /** Starts `threads` search threads on a table of `hashMb` MB, warmed up with `network`. */
  startSearchThreads(threads: number, hashMb: number, network?: SharedArrayBuffer): SearchThreads;
}
