/**
 * The child of bench/gc-check.mjs, bundled by it and run as
 *   node --trace-gc --expose-gc <bundle> <bulkRounds> <fullRounds>
 *
 * After a warm-up it runs two timed loops over perft(4) of Khet 2.0 Classic, each loop framed by
 * a forced full GC (`gc()`, which --trace-gc reports with the reason "testing"):
 *
 *   gc()  [marker 0]   baseline: the loop with 0 rounds (what the measuring itself allocates)
 *   gc()  [marker 1]   perft(4) from the core, bulk-counted (generate + make/unmake + countMoves)
 *   gc()  [marker 2]   perft(4) that makes and unmakes every move, leaves included
 *   gc()  [marker 3]   control: perft(4) that copies each node's moves into a new array (must show GCs)
 *   gc()  [marker 4]
 *
 * Any GC that --trace-gc prints between two markers happened inside a timed loop. V8 prints
 * its trace on stdout with its own buffering, so this program says nothing on stdout: its result
 * is one JSON line on stderr, prefixed `GC-CHECK-RESULT `. It also counts GCs a second way, with a
 * PerformanceObserver for 'gc' entries whose start falls inside a loop.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { MAX_MOVES, SETUPS, parseKfen, perft, type Position } from '../src/core/index';

const PERFT4 = 34_065_081;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('gc-entry: run with --expose-gc\n');
  process.exit(2);
}

const bulkRounds = Number(process.argv[2] ?? 8);
const fullRounds = Number(process.argv[3] ?? 2);

const r = parseKfen(SETUPS.khet2.classic!, 'khet2');
if (!r.ok) throw new Error(r.error.message);
const pos = r.value;

/** Preallocated move lists, one MAX_MOVES slice per ply. */
const stack = new Int32Array(MAX_MOVES * 8);
let makes = 0;

/** Perft without bulk counting: every move at every ply is made and unmade. */
function perftFull(p: Position, depth: number, base: number): number {
  const end = p.generate(stack, base);
  makes += end - base;
  if (depth === 1) {
    for (let i = base; i < end; i++) {
      p.make(stack[i]);
      p.unmake();
    }
    return end - base;
  }
  let nodes = 0;
  for (let i = base; i < end; i++) {
    p.make(stack[i]);
    if (p.winner < 0) nodes += perftFull(p, depth - 1, end);
    p.unmake();
  }
  return nodes;
}

const gcStarts: number[] = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcStarts.push(e.startTime);
});
obs.observe({ entryTypes: ['gc'] });

function check(name: string, n: number): void {
  if (n !== PERFT4) {
    process.stderr.write(
      `GC-CHECK-RESULT ${JSON.stringify({ error: `${name}: perft(4) gave ${n}, expected ${PERFT4}` })}\n`,
    );
    process.exit(1);
  }
}

/**
 * Control: perft(4) bulk-counted, but copying each node's moves into a fresh JS array (the kind
 * of allocation this check is meant to catch: a few hundred bytes per node, all on the V8 heap).
 */
function perftAllocating(p: Position, depth: number, base: number): number {
  const end = p.generate(stack, base);
  const list: number[] = [];
  for (let i = base; i < end; i++) list.push(stack[i]);
  let nodes = 0;
  for (const m of list) {
    p.make(m);
    if (p.winner < 0) nodes += depth === 2 ? p.countMoves() : perftAllocating(p, depth - 1, end);
    p.unmake();
  }
  return nodes;
}

interface Phase {
  name: string;
  control: boolean;
  rounds: number;
  nodes: number;
  makes: number;
  t0: number;
  t1: number;
  heapBefore: number;
  heapAfter: number;
}

/** Perft(4) with bulk counting makes the moves of plies 1..3: 77 + 5,920 + 451,859 per round. */
const BULK_MAKES = 77 + 5_920 + 451_859;

/**
 * One timed loop. The same function runs in the warm-up, so the timed run executes code that V8
 * has already compiled and optimised (no on-stack replacement of a fresh top-level loop).
 */
function timedLoop(mode: 'bulk' | 'full' | 'control', rounds: number): Phase {
  let nodes = 0;
  let totalMakes = 0;
  const heapBefore = getHeapStatistics().used_heap_size;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) {
    if (mode === 'full') {
      makes = 0;
      nodes += perftFull(pos, 4, 0);
      totalMakes += makes;
    } else if (mode === 'control') {
      nodes += perftAllocating(pos, 4, 0);
      totalMakes += BULK_MAKES;
    } else {
      nodes += perft(pos, 4);
      totalMakes += BULK_MAKES;
    }
  }
  const t1 = performance.now();
  const heapAfter = getHeapStatistics().used_heap_size;
  const name = {
    bulk: "perft(4), bulk-counted (the core's perft)",
    full: 'perft(4), make/unmake at every ply',
    control: "control: perft(4) copying each node's moves into a new JS array",
  }[mode];
  return { name, control: mode === 'control', rounds, nodes, makes: totalMakes, t0, t1, heapBefore, heapAfter };
}

// Warm-up: let V8 optimise generate, make, unmake, countMoves, both perfts and the loop itself.
for (let i = 0; i < 2; i++) check('warm-up perft', timedLoop('bulk', 1).nodes);
check('warm-up perftFull', timedLoop('full', 1).nodes);
check('warm-up control', timedLoop('control', 1).nodes);

const phases: Phase[] = [];
gc(); // marker 0
const baseline = timedLoop('bulk', 0); // what the measuring itself allocates
baseline.name = 'baseline: the same loop with 0 rounds';
phases.push(baseline);
gc(); // marker 1
phases.push(timedLoop('bulk', bulkRounds));
gc(); // marker 2
phases.push(timedLoop('full', fullRounds));
gc(); // marker 3
phases.push(timedLoop('control', 1)); // must show GCs, or the check is blind
gc(); // marker 4

for (const ph of phases) if (ph.rounds > 0) check(ph.name, ph.nodes / ph.rounds);

// Let the observer deliver its entries, then report.
setTimeout(() => {
  obs.disconnect();
  const result = {
    phases: phases.map((ph) => ({
      name: ph.name,
      control: ph.control,
      rounds: ph.rounds,
      nodes: ph.nodes,
      makes: ph.makes,
      seconds: (ph.t1 - ph.t0) / 1000,
      heapDelta: ph.heapAfter - ph.heapBefore,
      observedGcs: gcStarts.filter((t) => t >= ph.t0 && t <= ph.t1).length,
    })),
    observedTotal: gcStarts.length,
  };
  process.stderr.write(`GC-CHECK-RESULT ${JSON.stringify(result)}\n`);
}, 100);
