/** `thoth picture` as a user runs it (the built CLI): a position as SVG and PNG, a line and a game animated, bad input refused. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stretched } from '../slowness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'thoth-picture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function picture(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'picture', ...args], { encoding: 'utf8', timeout: stretched(120_000) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('thoth picture', () => {
  it('draws a position as SVG and PNG, with the danger map, arrows and marks', () => {
    const svg = join(dir, 'p.svg');
    const r = picture('--setup', 'dynasty', '--danger', '--arrows', 'Gd2d4,Ra8a1', '--marks', 'Ye2', '--out', svg);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^694x566 picture of xv3pvavp>3\/.* written to /);
    const text = readFileSync(svg, 'utf8');
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="694" height="566"')).toBe(true);
    expect(text).toContain('fill="#15781b"'); // the green arrow
    const png = join(dir, 'k1.png');
    expect(picture('--variant', 'khet1', '--beams', 'mover', '--flip', '--size', '32', '--out', png).status).toBe(0);
    expect(Array.from(readFileSync(png).subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  });

  it('animates the --moves of a line, and a game from a record with its notes', () => {
    const apng = join(dir, 'line.apng');
    const r = picture(
      '--setup',
      'classic',
      '--moves',
      'j4i4',
      'a4a3',
      'c1+',
      '--animate',
      '--size',
      '24',
      '--out',
      apng,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('3 moves: 4 frames');
    expect(readFileSync(apng).includes(Buffer.from('acTL'))).toBe(true);
    const rec = join(dir, 'game.pgn');
    writeFileSync(rec, '[Variant "khet2"]\n\n1. j4i4 {[%cal Gj1j8]} a4a3 2. c1+ 1-0\n');
    const gif = join(dir, 'game.gif');
    const g = picture('--game', rec, '--size', '24', '--delay', '500', '--out', gif);
    expect(g.stderr).toBe('');
    expect(g.stdout).toContain('game 1: 4 frames');
    expect(readFileSync(gif).subarray(0, 6).toString()).toBe('GIF89a');
  });

  it('refuses what it cannot draw, with one message and nothing written', () => {
    const cases: [string[], string][] = [
      [['--setup', 'classic'], 'give the file to write with --out'],
      [['--out', join(dir, 'x.bmp')], "written as .svg or .png, not '"],
      [['--arrows', 'Xd2d4', '--out', join(dir, 'a.png')], "--arrows: 'Xd2d4' is not a colour"],
      [['--marks', 'Rk9', '--out', join(dir, 'b.png')], "--marks: 'Rk9' is not a colour"],
      [['--animate', '--out', join(dir, 'c.gif')], '--animate plays the --moves'],
      [['--game', join(dir, 'none.pgn'), '--out', join(dir, 'd.gif')], 'cannot read game record'],
      [
        ['--moves', 'j4i4', '--animate', '--danger', '--out', join(dir, 'e.gif')],
        '--danger is for a picture of a position',
      ],
      [['--beams', 'all', '--out', join(dir, 'f.png')], '--beams takes none, mover or both'],
    ];
    for (const [args, message] of cases) {
      const r = picture(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    for (const f of ['x.bmp', 'a.png', 'b.png', 'c.gif', 'd.gif', 'e.gif', 'f.png'])
      expect(existsSync(join(dir, f)), f).toBe(false);
  });
});
