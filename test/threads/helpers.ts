/**
 * Helpers for the tests of the engine with several search threads (not a test file itself): the
 * built engine (`node dist/cli.js`) as a child process read line by line, and in-process positions
 * to check its moves against.
 */
import { Engine as ProtocolEngine } from '../protocol/spawn-engine';
import { formatMove, legalMoves, parseMove, type Position } from '../../src/core/index';
import { mulberry32 } from '../../src/core/zobrist';

export { CLI, ROOT, assertBuilt, parseInfo, positionOf, type Exit, type Line } from '../protocol/spawn-engine';

/**
 * The protocol tests' engine driver, with their generous waits: a pool of several threads is
 * rebuilt and warmed up before `readyok`, which on a busy machine takes well over 10 s.
 */
export class Engine extends ProtocolEngine {}

export async function startEngine(threads = 1): Promise<Engine> {
  const e = new Engine();
  e.send('uci');
  await e.waitFor(/^uciok$/);
  if (threads !== 1) {
    e.send(`setoption name Threads value ${threads}`);
    expect0(await e.sync(), `setoption name Threads value ${threads}`);
  }
  return e;
}

function expect0(lines: string[], what: string): void {
  if (lines.length > 0) throw new Error(`unexpected output after ${what}: ${JSON.stringify(lines)}`);
}

/** Checks a `bestmove` line against `pos` (the move and its ponder move legal); returns the move. */
export function checkBestmove(line: string, pos: Position): string {
  const b = /^bestmove (\S+)(?: ponder (\S+))?$/.exec(line);
  if (!b) throw new Error(`not a bestmove line: '${line}'`);
  const m = parseMove(pos, b[1]);
  if (!m.ok) throw new Error(`bestmove '${b[1]}' is not legal: ${m.error.message}`);
  if (b[2] !== undefined) {
    pos.make(m.value);
    const p = parseMove(pos, b[2]);
    const over = pos.winner >= 0;
    pos.unmake();
    if (!over && !p.ok) throw new Error(`ponder move '${b[2]}' is not legal after ${b[1]}: ${p.error.message}`);
  }
  return b[1];
}

/** The moves of `pos` split by what they do to the mover's own Pharaoh. */
export function classifyMoves(pos: Position): { safe: string[]; suicide: string[]; win: string[] } {
  const safe: string[] = [];
  const suicide: string[] = [];
  const win: string[] = [];
  const us = pos.side;
  for (const m of legalMoves(pos)) {
    pos.make(m);
    const w = pos.winner;
    pos.unmake();
    (w < 0 ? safe : w === us ? win : suicide).push(formatMove(m));
  }
  return { safe, suicide, win };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() >>> 0) / 4294967296;
}
