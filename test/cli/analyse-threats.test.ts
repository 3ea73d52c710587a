/**
 * `thoth analyse --threats`: the danger map printed by the built CLI (no search), in text and JSON,
 * checked against the rules core's map and against the beams the rules trace.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETUPS, parseKfen, squareName, threatMap } from '../../src/core/index';
import { stretched } from '../slowness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');

function analyse(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'analyse', ...args], { encoding: 'utf8', timeout: stretched(30_000) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Red's Pyramid on a3 takes Red's own beam now; turned to face N it sends it onto the Silver Pharaoh on e3. */
const DANGER = 'xv9/10/10/10/10/p>3K5/10/5k3X^ s 0 1';

describe('thoth analyse --threats', () => {
  it('says which move of the opponent could hit the Pharaoh, and how the beam runs', () => {
    const r = analyse('--threats', '--kfen', DANGER);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Danger to Silver: what Red could hit with one move, were it Red's turn:");
    expect(r.stdout).toContain(
      '  !! the Silver Pharaoh on e3: a3- (turns the Pyramid on a3 counter-clockwise (mirror SE → NE))',
    );
    expect(r.stdout).toContain(
      "      the beam bounces off Red's Pyramid on a3, and hits Silver's Pharaoh on e3: Red wins",
    );
    // the diagram: the Pharaoh marked in danger, a square the beam can cross marked *
    expect(r.stdout).toMatch(/^ 3 {3}p>! \.\* {2}\.\* {2}\.\* {2}K! /m);
    // the other direction: Silver's Sphinx turned west hits the Red Pharaoh on f1
    expect(r.stdout).toContain('What Silver can hit now (Silver to move):');
    expect(r.stdout).toContain('  !! the Red Pharaoh on f1: j1- (turns the Sphinx on j1 to fire west)');
  });

  it('gives the same map as JSON, every reached square as the rules core has it', () => {
    const r = analyse('--threats', '--setup', 'dynasty', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const pos = parseKfen(SETUPS.khet2.dynasty!, 'khet2');
    if (!pos.ok) throw new Error('dynasty');
    expect(out.beams.map((b: { attacker: string }) => b.attacker)).toEqual(['Red', 'Silver']);
    for (const [i, attacker] of [1, 0].entries()) {
      const map = threatMap(pos.value, attacker);
      const reach: string[] = [];
      for (let s = 0; s < 80; s++) if ((map.reach[s >> 5] >>> (s & 31)) & 1) reach.push(squareName(s));
      expect(out.beams[i].reach).toEqual(reach);
      const moves = out.beams[i].shots.reduce((n: number, s: { count: number }) => n + s.count, 0);
      expect(moves).toBe(map.shots.reduce((n, s) => n + s.moves.length, 0));
    }
    // j3j2 makes Silver's beam hit its own Pharaoh on e2 (docs/rules.md §7.1)
    const own = out.beams[1].shots.find((s: { moves: string[] | null }) => s.moves?.includes('j3j2'));
    expect(own.hit).toBe('e2');
    expect(own.sentence).toBe(
      "the beam bounces off Silver's Pyramid on j2, and hits Silver's own Pharaoh on e2: Red wins",
    );
  });

  it('refuses what needs a search, with one message', () => {
    const r = analyse('--threats', '--depth', '4');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--depth does not go with --threats');
  });
});
