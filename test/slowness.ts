/**
 * How slow the machine is now, against an idle one: what test/patience.ts scales its waits by, and
 * vitest.config.ts the tests' own timeouts. No vitest import, so that the config can load it.
 */
import { availableParallelism, loadavg } from 'node:os';

let sink = 0;

/**
 * The wall-clock time of a CPU-bound loop over the CPU time it got: 1 when this process has a core
 * to itself, 10 when it gets a tenth of one (the share an engine it starts gets too: children
 * inherit its priority), over `cpuMs` of CPU time.
 */
function probe(cpuMs: number): number {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let x = sink;
  let cpu = 0;
  do {
    for (let i = 0; i < 20_000; i++) x = (x * 31 + i) | 0;
    const c = process.cpuUsage(c0);
    cpu = (c.user + c.system) / 1000;
  } while (cpu < cpuMs && performance.now() - t0 < 2000);
  sink = x;
  return (performance.now() - t0) / Math.max(cpu, 0.001);
}

/**
 * How many times slower than idle the machine is now: the larger of {@link probe} and the load
 * average (one minute) per core; never below 1. The larger of two measures is taken: a larger figure
 * lengthens waits, which only a failing test sees, and makes a judgement of time more lenient, which
 * only a hang (far past any machine's slowness) must fail.
 */
export function slownessNow(cpuMs = 2): number {
  return Math.max(1, loadavg()[0] / availableParallelism(), probe(cpuMs));
}

/** A product's budget (in ms) for a step that takes `idleMs` on an idle machine, scaled to the machine now. */
export function scaledMs(idleMs: number): number {
  return Math.round(idleMs * slownessNow());
}

/**
 * The most slowness the suite is built to bear: its tests' own timeouts and the browsers' waits are
 * this many times what they would be on an idle machine (vitest.config.ts).
 */
export const SLOWNESS_BORNE = 10;

/**
 * The factor of this run's timeouts (vitest.config.ts hands it to every test file in
 * THOTH_TEST_SLOWNESS: SLOWNESS_BORNE unless set); 1 outside a run.
 */
export function runSlowness(): number {
  return Math.max(1, Number(process.env.THOTH_TEST_SLOWNESS) || 1);
}

/** A test's own timeout, or a browser's wait, written for an idle machine, in this run's time. */
export function stretched(idleMs: number): number {
  return Math.round(idleMs * runSlowness());
}
