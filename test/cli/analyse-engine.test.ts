/**
 * `thoth analyse` searches with the engine: the same evaluation (the shipped network), features
 * and parameters as the protocol's `go`, so at a fixed depth it finds the move, the score and the
 * node count that `thoth "position …" "go depth N"` finds (one thread).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stretched } from '../slowness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');

function thoth(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: stretched(60_000) });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The last `info depth` line's score and nodes, and the bestmove, of `thoth "position …" "go depth N"`. */
function go(position: string, depth: number): { move: string; score: string; nodes: number } {
  const out = thoth(position, `go depth ${depth}`).split('\n');
  const info = out.filter((l) => /^info depth \d+ .* multipv 1 /.test(l)).at(-1)!;
  const best = out.find((l) => l.startsWith('bestmove '))!;
  const m = /score (cp|mate) (-?\d+) nodes (\d+)/.exec(info)!;
  return { move: best.split(' ')[1], score: `${m[1]} ${m[2]}`, nodes: Number(m[3]) };
}

function analyse(args: string[], depth: number): { move: string; score: string; nodes: number } {
  const j = JSON.parse(thoth('analyse', ...args, '--depth', String(depth), '--json', '--quiet'));
  const top = j.lines[0];
  return { move: top.move, score: `${top.score.kind} ${top.score.value}`, nodes: j.nodes };
}

describe('analyse and go agree', () => {
  it('the classic start at depth 6: the same move, score and nodes', () => {
    expect(analyse([], 6)).toEqual(go('position startpos', 6));
  });

  it('a position after moves (dynasty) at depth 5', () => {
    const moves = ['j3i4', 'c5d4'];
    const a = analyse(['--setup', 'dynasty', '--moves', ...moves], 5);
    expect(a).toEqual(go(`position setup dynasty moves ${moves.join(' ')}`, 5));
  });
});
