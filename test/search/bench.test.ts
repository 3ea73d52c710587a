/**
 * `bench [depth] [threads]`: the parallel bench measures throughput (its node count varies);
 * the one-thread bench stays the build's deterministic signature.
 */
import { describe, expect, it } from 'vitest';
import { parseKfen, parseMove } from '../../src/core/index';
import { BENCH_POSITIONS } from '../../src/search/bench';
import { runProcess } from '../patience';
import { CLI, ROOT, assertBuilt } from '../protocol/spawn-engine';

interface Run {
  code: number | null;
  stdout: string[];
  stderr: string;
}

/**
 * `node dist/cli.js <args…>` to its end (command-line arguments run as commands, then quit), within
 * 40 s of an idle machine's time (test/patience.ts).
 */
async function run(args: string[], idleMs = 40_000): Promise<Run> {
  const r = await runProcess([process.execPath, CLI, ...args], { cwd: ROOT, idleMs });
  return { code: r.code, stdout: r.out.split('\n').filter((l) => l !== ''), stderr: r.err };
}

function field(lines: string[], name: string): number {
  const re = new RegExp(`^${name}\\s*:\\s*(\\d+)$`);
  const hits = lines.map((l) => re.exec(l)).filter((m) => m !== null);
  expect(hits.length, `one '${name}' line in ${JSON.stringify(lines.slice(-6))}`).toBe(1);
  return Number(hits[0]![1]);
}

describe('bench with threads', () => {
  it('bench 3 2: Nodes searched and Nodes/second, every position searched with a legal move', async () => {
    assertBuilt();
    const r = await run(['bench', '3', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.filter((l) => l.startsWith('info string error'))).toEqual([]);
    const nodes = field(r.stdout, 'Nodes searched');
    const nps = field(r.stdout, 'Nodes/second');
    const ms = field(r.stdout, 'Total time \\(ms\\)');
    expect(nodes).toBeGreaterThan(0);
    expect(nps).toBeGreaterThan(0);
    expect(ms).toBeGreaterThan(0);
    // Nodes/second is Nodes searched over the total time
    expect(Math.abs(nps - (nodes * 1000) / ms)).toBeLessThanOrEqual(Math.max(2, nps * 0.01));
    // one line per bench position, with its nodes and a legal move, the nodes adding up
    const per = r.stdout
      .map((l) => /^info string bench (\d+)\/(\d+) (\S+) nodes (\d+) bestmove (\S+)$/.exec(l))
      .filter((m) => m !== null);
    expect(per.length).toBe(BENCH_POSITIONS.length);
    let sum = 0;
    per.forEach((m, i) => {
      expect(Number(m![1])).toBe(i + 1);
      const { edition, kfen } = BENCH_POSITIONS[i];
      expect(m![3]).toBe(edition);
      const p = parseKfen(kfen, edition);
      if (!p.ok) throw new Error(`bench position ${i + 1} rejected`);
      expect(parseMove(p.value, m![5]).ok, `bench ${i + 1}: ${m![5]}`).toBe(true);
      sum += Number(m![4]);
    });
    expect(sum).toBe(nodes);
  });

  it('bench 3 (one thread) is deterministic: the same node count twice', async () => {
    assertBuilt();
    const [a, b] = await Promise.all([run(['bench', '3']), run(['bench 3'])]);
    for (const r of [a, b]) expect(r.code, r.stderr).toBe(0);
    const na = field(a.stdout, 'Nodes searched');
    const nb = field(b.stdout, 'Nodes searched');
    expect(na).toBeGreaterThan(0);
    expect(nb).toBe(na);
    field(a.stdout, 'Nodes/second');
  });

  it('bench rejects a bad thread count', async () => {
    const r = await run(['bench', '3', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^thoth: bench: threads must be a whole number from 1 to \d+, not '0'\n$/);
    expect(r.stdout.some((l) => /^info string error: bench: threads/.test(l))).toBe(true);
    expect(r.stdout.some((l) => l.startsWith('Nodes searched'))).toBe(false);
  });
});
