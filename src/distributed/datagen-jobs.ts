/**
 * Distributed datagen (`thoth datagen … --distributed redis://…`): what travels through Redis, in
 * plain JSON. A datagen run lives on the same queues as a match (`pairs-<run>` for the jobs,
 * `results-<run>` for what comes back) and in the same run list; its run hash says `kind
 * datagen` and holds the settings under `datagen` (not `settings`, which is a match's). A job is a
 * **chunk**: `chunk` consecutive games, chunk k being games k·chunk … k·chunk + chunk − 1, each
 * seeded by its index, so a chunk plays the same games on any worker. The worker returns the
 * chunk's **shard**: a data file (src/train/data.ts's format) of exactly those games, undeduped.
 * Networks are stored once per checksum (`thoth:net:<sha256>`), like builds.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { plural } from '../core/plural';
import type { EngineSpec } from '../match/engine-process';
import { BuildError, type EngineBuild, type IdentifiedBuild, identifyEngine } from './builds';
import { oneLine } from '../core/quote';
import { queueWords, type RunState, type RunStatus, type WorkerStatus } from './status';

/** A datagen run as its workers see it. */
export interface DatagenRunSettings {
  kind: 'datagen';
  /** `thoth datagen` flags that fix the games (variant, seed, nodes, …), passed on to each worker's datagen. */
  args: string[];
  /** Games per job. */
  chunk: number;
  /** The Thoth build that plays the games. */
  build: EngineBuild;
  /** SHA-256 of the network file the searches use, or null (the hand-written evaluation). */
  net: string | null;
}

/** A job: one chunk of games. */
export interface ChunkJob {
  chunk: number;
  first: number;
  games: number;
}

/** A worker's result for a chunk. */
export interface ChunkResult {
  chunk: number;
  worker: string;
  /** The shard (a data file of the chunk's games), base64. */
  shard: string;
  /** Time the chunk took on the worker. */
  ms: number;
}

/** The job id of chunk k (BullMQ: not a number, no ':'). */
export const chunkId = (k: number): string => `chunk-${k}`;

/**
 * The Thoth build this process runs from (dist/cli.js beside the bundle, or the repository's when
 * running from the sources), identified as a match identifies an engine's build; a BuildError when
 * there is none.
 */
export function ownBuild(): IdentifiedBuild {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const cli = [path.join(here, 'cli.js'), path.join(here, '..', '..', 'dist', 'cli.js')].find((p) => existsSync(p));
  if (cli === undefined) throw new BuildError('there is no built dist/cli.js to give the workers (run npm run build)');
  // identifyEngine reads only the command, its folder and the name.
  const spec = { name: 'thoth datagen', nameGiven: true, command: ['node', cli], options: [] } as unknown as EngineSpec;
  const b = identifyEngine(spec);
  if (b.build.kind !== 'thoth') throw new BuildError(`${cli} is not part of a Thoth build the workers can fetch`);
  return b;
}

/** One worker's share of a datagen run, as the coordinator counts it. */
export interface DatagenWorkerTally {
  id: string;
  chunks: number;
  /** Positions in its shards (before dedup). */
  positions: number;
  /** Positions per second, from the start of its first chunk to the end of its last. */
  rate: number;
}

/** The live summary of a datagen run (the status key of the run, `kind` tells it from a match's). */
export interface DatagenStatus {
  kind: 'datagen';
  run: string;
  state: RunState;
  message?: string;
  out: string;
  games: number;
  positions: number;
  /** Position and game targets (null: none). */
  targetPositions: number | null;
  targetGames: number | null;
  chunksQueued: number;
  chunksActive: number;
  /** Positions written per second since the coordinator started. */
  rate: number;
  tallies: DatagenWorkerTally[];
  refusals: Record<string, string>;
  workers: WorkerStatus[];
  started: number;
  updated: number;
}

export function isDatagenStatus(s: unknown): s is DatagenStatus {
  return typeof s === 'object' && s !== null && (s as { kind?: unknown }).kind === 'datagen';
}

/** The status in words, for `thoth match-status`. */
export function datagenStatusLines(s: DatagenStatus): string[] {
  const age = Math.round((Date.now() - s.updated) / 1000);
  const of = (n: number, t: number | null): string =>
    `${n.toLocaleString('en')}${t !== null ? `/${t.toLocaleString('en')}` : ''}`;
  // A run that is over: its final counts, and the workers that played it (not who is alive now).
  const over = s.state !== 'running';
  const queue = queueWords(s.state, s.chunksQueued, s.chunksActive, 'chunks');
  const lines = [
    `Datagen run ${s.run}: ${oneLine(s.out)} | ${s.state}${s.message ? ` (${oneLine(s.message)})` : ''}`,
    `Positions ${of(s.positions, s.targetPositions)}, games ${of(s.games, s.targetGames)}, ${s.rate.toFixed(1)} positions/s | ` +
      `${queue} | updated ${age} s ago`,
  ];
  if (over) {
    lines.push(
      s.tallies.length > 0
        ? `Workers that played it: ${s.tallies.length}`
        : 'No worker played a chunk of it (as this coordinator counted)',
    );
  } else {
    const busy = s.workers.reduce((n, w) => n + w.busy, 0);
    const slots = s.workers.reduce((n, w) => n + w.concurrency, 0);
    lines.push(
      `Workers: ${s.workers.length} (${busy}/${slots} slots busy)${s.workers.length > 0 ? ': ' + s.workers.map((w) => `${oneLine(w.id)} ${w.busy}/${w.concurrency}`).join(', ') : ''}`,
    );
  }
  for (const t of s.tallies) {
    lines.push(
      `  ${oneLine(t.id)}: ${plural(t.chunks, 'chunk')}, ${plural(t.positions, 'position', 'positions', t.positions.toLocaleString('en'))}, ${t.rate.toFixed(1)} positions/s`,
    );
  }
  for (const [w, why] of Object.entries(s.refusals)) lines.push(`Refused by ${oneLine(w)}: ${oneLine(why)}`);
  return lines;
}

/**
 * A datagen run's status in the shape of a match's (for the status page, which draws matches):
 * no encounters, the words of datagenStatusLines as its summary.
 */
export function datagenAsRunStatus(s: DatagenStatus): RunStatus {
  return {
    run: s.run,
    state: s.state,
    message: s.message,
    names: [`datagen ${path.basename(s.out)}`],
    variant: 'datagen',
    timeControl: `${s.rate.toFixed(1)} positions/s`,
    games: s.games,
    total: s.targetGames,
    pairsQueued: s.chunksQueued,
    pairsActive: s.chunksActive,
    encounters: [],
    sprt: null,
    ratings: [],
    lines: datagenStatusLines(s),
    refusals: s.refusals,
    workers: s.workers,
    started: s.started,
    updated: s.updated,
  };
}
