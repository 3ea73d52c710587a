/**
 * The waits of test/patience.ts: a wait that runs out names its step, the time, the machine's
 * slowness and what the process wrote; a busy machine stretches a wait's bound; the test's own
 * timeout bounds a wait that has none. Real processes: Node programs that hang, and CPU burners.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { Deadline, WaitTimeout, patiently, runProcess, until } from './patience';
import { slownessNow } from './slowness';

const never = new Promise<never>(() => {});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('waiting patiently', () => {
  let inHook: unknown;
  beforeAll(async () => {
    inHook = await patiently('a timer in a hook', 30_000, new Promise((r) => setTimeout(() => r('done'), 50))).catch(
      (e: unknown) => e,
    );
  });

  it('a wait in a hook (no test running) is bounded by its own bound only', () => {
    expect(inHook).toBe('done');
  });

  it('a command that hangs is killed, and the failure names it with its stderr and the slowness', async () => {
    const t0 = performance.now();
    const hang = "process.stderr.write('pid ' + process.pid + ' stuck at step 2\\n'); setInterval(() => {}, 1000)";
    const err = await runProcess([process.execPath, '-e', hang], { idleMs: 1500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeout);
    const message = (err as Error).message;
    expect(message).toMatch(/^waited \d+\.\d s for the end of `\S+ -e "process\.stderr\.write/);
    expect(message).toMatch(/in vain: within 1\.5 s of an idle machine's time; the machine \d+\.\d× slower than idle/);
    expect(message).toMatch(/stderr: pid \d+ stuck at step 2/);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1500);
    // the process was killed: nothing of it is left running
    const pid = Number(/pid (\d+)/.exec(message)?.[1]);
    await until(`process ${pid} to end`, 10_000, () => !alive(pid));
  });

  it('a command that ends is waited for, its output and exit code returned', async () => {
    const r = await runProcess([process.execPath, '-e', "console.log('out'); console.error('err'); process.exit(3)"], {
      idleMs: 30_000,
    });
    expect(r).toEqual({ code: 3, signal: null, out: 'out\n', err: 'err\n' });
  });

  it('a condition is polled until it holds; one that never holds fails with its name and detail', async () => {
    let n = 0;
    await until('n to reach 3', 30_000, () => ++n >= 3);
    expect(n).toBe(3);
    await expect(
      until(
        'a flag never set',
        300,
        () => false,
        () => 'the flag: unset',
      ),
    ).rejects.toThrow(/for a flag never set, in vain: .*\nthe flag: unset$/s);
  });

  it('a machine made slower by CPU burners stretches a wait past its idle bound', async () => {
    // Twice as many busy processes as cores: any one process gets at most half a core.
    const burners: ChildProcess[] = [];
    for (let i = 0; i < 2 * availableParallelism(); i++)
      burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(slownessNow(20)).toBeGreaterThan(1.5);
      const t0 = performance.now();
      await expect(patiently('nothing', 1000, never)).rejects.toThrow(/the machine \d+\.\d× slower than idle/);
      expect(performance.now() - t0).toBeGreaterThan(1400);
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
  });

  it("a wait without a bound ends a little before the test's own timeout, saying so", { timeout: 10_000 }, async () => {
    const d = new Deadline('an event that never comes', Infinity, () => 'stderr: (none)');
    const err = await d.race(never).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /^waited \d+\.\d s for an event that never comes, in vain: the test's own timeout of 10\.0 s is near; .*\nstderr: \(none\)$/s,
    );
  });
});
