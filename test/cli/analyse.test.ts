/**
 * `thoth analyse` end to end: runs the built CLI (`node dist/cli.js analyse …`, as `npm test`
 * builds it) at small depths and reads what it prints.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUPS, formatMove, legalMoves, parseKfen, parseMove } from '../../src/core/index';
import { stretched } from '../slowness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');

/** Silver to move hits the Red Pharaoh with j8+ (the j8 Pyramid then sends the beam west along rank 8). */
const SILVER_MATE_IN_1 = 'xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1';
/** Red to move hits the Silver Pharaoh with a1+ (the a1 Pyramid then sends the beam east along rank 1). */
const RED_MATE_IN_1 = 'xv3k5/10/10/10/10/10/10/p<4K3X^ r 0 1';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function analyse(...args: string[]): Run {
  const r = spawnSync(process.execPath, [CLI, 'analyse', ...args], { encoding: 'utf8', timeout: stretched(30_000) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The numbered result lines: `1. j4i4  +0.35  Silver is slightly better  (pv: …)`. */
function resultLines(out: string): { rank: number; move: string; score: string; words: string; pv: string[] }[] {
  const re = /^(\d+)\. (\S+)\s+(\S+)\s+(.*?)\s+\(pv: ([^)]*)\)$/;
  return out
    .split('\n')
    .map((l) => re.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ rank: Number(m[1]), move: m[2], score: m[3], words: m[4], pv: m[5].split(' ') }));
}

/** The same, asynchronous, so that many short runs can go in parallel. */
function analyseAsync(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'analyse', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill(), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

let dir: string;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npm run build' first (npm test does)`);
  if (!readFileSync(CLI, 'utf8').includes('analyseCommand')) {
    throw new Error(`${CLI} has no analyse subcommand: it is an old build, run 'npm run build'`);
  }
  dir = mkdtempSync(join(tmpdir(), 'thoth-analyse-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('thoth analyse: one position', () => {
  it('lists K distinct legal moves with scores, PVs, words, a board and the KFEN', () => {
    const r = analyse('--depth', '3', '--multipv', '4');
    expect(r.status).toBe(0);
    const lines = resultLines(r.stdout);
    expect(lines.map((l) => l.rank)).toEqual([1, 2, 3, 4]);
    const moves = lines.map((l) => l.move);
    expect(new Set(moves).size).toBe(4);
    const pos = parseKfen(SETUPS.khet2.classic!, 'khet2');
    if (!pos.ok) throw new Error('classic setup');
    const legal = new Set(legalMoves(pos.value).map(formatMove));
    for (const l of lines) {
      expect(legal.has(l.move)).toBe(true);
      expect(l.pv[0]).toBe(l.move);
      expect(l.score).toMatch(/^[+-]?\d+\.\d\d$|^[+-]M\d+$/);
      // the whole PV is a legal line
      const p = pos.value.clone();
      for (const t of l.pv) {
        const m = parseMove(p, t);
        expect(m.ok, `${t} in pv ${l.pv.join(' ')}`).toBe(true);
        if (m.ok) p.make(m.value);
        if (p.winner >= 0) break;
      }
    }
    // a plain-words line under each move
    expect(r.stdout).toMatch(/^ {3}Silver (steps|turns|swaps) .*; the shot (removes|hits) .*\.$/m);
    // the board: coordinates, side to move, KFEN
    expect(r.stdout).toMatch(/^\s+a\s+b\s+c\s+d\s+e\s+f\s+g\s+h\s+i\s+j$/m);
    expect(r.stdout).toMatch(/^ 8 {3}xv .* 8$/m);
    expect(r.stdout).toContain('Silver to move');
    expect(r.stdout).toContain(`KFEN: ${SETUPS.khet2.classic}`);
    expect(r.stdout).toContain("from Silver's (the first player's) point of view");
    // the progress line is for terminals only: a pipe gets the results alone
    expect(r.stdout).not.toContain('thinking');
    expect(r.stderr).toBe('');
  });

  it('reports a mate in 1 in plain words', () => {
    const r = analyse('--kfen', SILVER_MATE_IN_1, '--depth', '3', '--quiet');
    expect(r.status).toBe(0);
    const [top] = resultLines(r.stdout);
    expect(top.move).toBe('j8+');
    expect(top.score).toBe('+M1');
    expect(top.words).toBe('Silver wins: hits the Red Pharaoh in 1 move');
    expect(r.stdout).toContain(
      'Silver turns the Pyramid on j8 clockwise (mirror SE → SW); the shot hits the Red Pharaoh on f8: Silver wins.',
    );
    expect(r.stderr).toBe('');
  });

  it("shows Red's win from Silver's point of view", () => {
    const r = analyse('--kfen', RED_MATE_IN_1, '--depth', '3', '--quiet');
    expect(r.status).toBe(0);
    const [top] = resultLines(r.stdout);
    expect(top.move).toBe('a1+');
    expect(top.score).toBe('-M1');
    expect(top.words).toBe('Red wins: hits the Silver Pharaoh in 1 move');
    expect(r.stdout).toContain('Red to move');
  });

  it('takes --setup and --moves, --time, and the analyze spelling', () => {
    const r = spawnSync(
      process.execPath,
      [CLI, 'analyze', '--setup', 'imhotep', '--moves', 'j1-', 'a8-', '--time', '0.3', '--quiet'],
      {
        encoding: 'utf8',
        timeout: stretched(30_000),
      },
    );
    expect(r.status).toBe(0);
    expect(resultLines(r.stdout)).toHaveLength(1);
    expect(r.stdout).toMatch(/Analysis: depth \d+/);
    expect(r.stdout).toContain('Silver to move, move 2');
  });

  it('says when the game is already over', () => {
    const r = analyse('--kfen', SILVER_MATE_IN_1, '--moves', 'j8+', '--quiet');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('The game is over: Silver wins: the Red Pharaoh was hit.');
  });

  it('exits 2 with a one-line message on a bad KFEN and other bad arguments', async () => {
    const cases = [
      ['--kfen', 'xv3avkavp>2/2pv7 s 0 1'],
      ['--kfen', SILVER_MATE_IN_1.replace(' s ', ' x ')],
      ['--depth', '0'],
      ['--depth', '3', '--time', '1'],
      ['--time', 'soon'],
      ['--multipv', 'two'],
      ['--variant', 'khet3'],
      ['--moves', 'e4e9'],
      ['--frobnicate'],
      ['extra'],
    ];
    const runs = await Promise.all(cases.map((args) => analyseAsync(...args)));
    runs.forEach((r, i) => {
      const what = cases[i].join(' ');
      expect(r.status, what).toBe(2);
      expect(r.stdout, what).toBe('');
      expect(r.stderr, what).toMatch(/^thoth analyse: \S.*\n$/);
    });
    expect((await analyseAsync('--kfen', 'nonsense')).stderr).toMatch(/^thoth analyse: bad KFEN: /);
  });
});

describe('thoth analyse --game', () => {
  it('annotates every move of a record and sums up', () => {
    const file = join(dir, 'six.pgn');
    writeFileSync(
      file,
      [
        '[Event "analyse test"]',
        '[Silver "alice"]',
        '[Red "bob"]',
        '[Result "*"]',
        '[Variant "khet2"]',
        `[KFEN "${SETUPS.khet2.classic}"]`,
        '',
        '1. f4g5 {+0.10/5 0.100s} c7c6 2. c5+ a4- {a comment}',
        '3. g5h5 h8g7 *',
        '',
      ].join('\n'),
    );
    const r = analyse('--game', file, '--depth', '2', '--quiet');
    expect(r.status).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^\s*\d+\.(\.\.)? +[a-j][1-8]\S* +(Silver|Red) /.test(l));
    expect(rows).toHaveLength(6);
    const labels = rows.map((l) => l.trim().split(/\s+/)[0]);
    expect(labels).toEqual(['1.', '1...', '2.', '2...', '3.', '3...']);
    const played = rows.map((l) =>
      l
        .trim()
        .split(/\s+/)[1]
        .replace(/[?!]+$/, ''),
    );
    expect(played).toEqual(['f4g5', 'c7c6', 'c5+', 'a4-', 'g5h5', 'h8g7']);
    for (const l of rows) {
      // before -> after, then the verdict
      expect(l).toMatch(
        / [+-]?(\d+\.\d\d|M\d+) +-> +[+-]?(\d+\.\d\d|M\d+) +\d+% -> +\d+% {2}(best|as good as \S+|.*better \S+ \()/,
      );
    }
    // the swap on move 5 removes a piece: said in words
    expect(r.stdout).toContain(
      'Silver swaps the Scarab on g5 with the Red Pyramid on h5; the shot removes the Red Pyramid on g3.',
    );
    expect(r.stdout).toContain('Summary (depth 2):');
    expect(r.stdout).toMatch(
      /^ {2}Silver \(alice\): accuracy \d+\.\d%, 3 moves, \d+ inaccurac(y|ies) \(\?!\), \d+ mistakes? \(\?\), \d+ blunders? \(\?\?\), average loss \d+\.\d\d$/m,
    );
    expect(r.stdout).toMatch(/^ {2}Red \(bob\): accuracy \d+\.\d%, 3 moves, /m);
    expect(r.stdout).toMatch(/Final position: Silver to move/);
    expect(r.stdout).toContain('KFEN: ');
  });

  it('marks blunders with ?? and the better move', () => {
    const file = join(dir, 'blunder.pgn');
    writeFileSync(file, `[Variant "khet2"]\n[KFEN "${SILVER_MATE_IN_1}"]\n\n1. e1d1 f8f7 2. j8i7 1-0\n`);
    const r = analyse('--game', file, '--depth', '3', '--quiet');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ +1\. e1d1\?\? +Silver +\+M1 -> .*misses the win; better j8\+ \(\+M1/m);
    expect(r.stdout).toMatch(/Silver: accuracy [\d.]+%, 2 moves, .*1 blunder \(\?\?\)/);
    expect(r.stdout).toMatch(/^ +1\. e1d1\?\? +Silver +\+M1 -> +\+\d\.\d\d +100% -> +\d+%/m);
    expect(r.stdout).toContain('1.e1d1?? (better j8+)');
    // why, by the beam: the shot the move passed up
    expect(r.stdout).toContain(
      "     Why: Silver missed the shot j8+: the beam bounces off Silver's Pyramid on j8, and hits Red's Pharaoh on f8: Silver wins.",
    );
  });

  it('reads a record without tags or result token, and --threshold changes the marks', () => {
    const file = join(dir, 'bare.pgn');
    writeFileSync(file, '1. f4g5 c7c6 2. c5+\n');
    const r = analyse('--game', file, '--depth', '2', '--threshold', '1', '--quiet');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Khet 2.0 (khet2), 2 moves (3 plies), result *'); // 1. f4g5 c7c6 2. c5+: two move numbers
    // a game that starts with the second player: 1... a1+ is one move of one ply
    const red = join(dir, 'red.pgn');
    writeFileSync(red, `[Variant "khet2"]\n[KFEN "${RED_MATE_IN_1}"]\n\n1... a1+ 0-1\n`);
    const rr = analyse('--game', red, '--depth', '1', '--quiet');
    expect(rr.stderr).toBe('');
    expect(rr.stdout).toContain('Khet 2.0 (khet2), 1 move (1 ply), result 0-1');
    expect(r.stdout).toContain('?! inaccuracy 1 point or more, ? mistake 2 or more, ?? blunder 3 or more');
    const old = analyse('--game', file, '--depth', '2', '--threshold', '100');
    expect(old.status).toBe(2);
    expect(old.stderr).toBe('thoth analyse: --threshold must be from 1 to 33, not 100\n');
  });

  it('exits 2 with a clear message for a missing or malformed record', async () => {
    const missing = analyseAsync('--game', join(dir, 'nope.pgn'), '--depth', '2');
    const cases: [string, RegExp][] = [
      ['[Event "x"\n1. f4g5 *\n', /malformed record: bad tag line/],
      ['[Variant "khet2"]\n\n1. f4g5 e4e5 *\n', /move 2 \(1\.\.\. e4e5\): .*not Red's/],
      ['[Variant "khet9"]\n\n1. f4g5 *\n', /unknown Variant "khet9"/],
      ['[Variant "khet2"]\n[KFEN "xv3 s 0 1"]\n\n*\n', /bad KFEN tag/],
      ['', /no game found/],
    ];
    const bad = cases.map(([text], i) => {
      const f = join(dir, `bad${i}.pgn`);
      writeFileSync(f, text);
      return analyseAsync('--game', f, '--depth', '2');
    });
    const ok = join(dir, 'ok.pgn');
    writeFileSync(ok, '1. f4g5 *\n');
    const misuse = [
      analyseAsync('--game', ok, '--kfen', SILVER_MATE_IN_1),
      analyseAsync('--game', ok, '--multipv', '2'),
      analyseAsync('--game', ok, '--index', '2'),
    ];

    const m = await missing;
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(/^thoth analyse: cannot read game record '.*nope\.pgn': no such file or directory\n$/);
    const badRuns = await Promise.all(bad);
    badRuns.forEach((r, i) => {
      const [text, re] = cases[i];
      expect(r.status, text).toBe(2);
      expect(r.stdout, text).toBe('');
      expect(r.stderr, text).toMatch(re);
      expect(r.stderr.trim().split('\n'), text).toHaveLength(1);
    });
    const [withKfen, withMultipv, badIndex] = await Promise.all(misuse);
    expect(withKfen.status).toBe(2);
    expect(withMultipv.status).toBe(2);
    expect(badIndex.status).toBe(2);
    expect(badIndex.stderr).toMatch(/holds 1 game, not 2/);
  });

  it('--round picks the game by its Round tag and the review says which game it was', async () => {
    // As a match with -concurrency 2 writes them: the game of round 2 ended first.
    const f = join(dir, 'rounds.pgn');
    writeFileSync(
      f,
      '[Round "2"]\n[White "Ann"]\n[Black "Bob"]\n\n1. f4g5 *\n\n[Round "1"]\n[White "Cy"]\n[Black "Di"]\n\n1. c1d2 *\n',
    );
    const [text, json, both, none] = await Promise.all([
      analyseAsync('--game', f, '--round', '1', '--depth', '1', '--quiet'),
      analyseAsync('--game', f, '--round', '2', '--depth', '1', '--quiet', '--json'),
      analyseAsync('--game', f, '--round', '1', '--index', '1', '--depth', '1'),
      analyseAsync('--game', f, '--round', '7', '--depth', '1'),
    ]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([`Game 2 of 2 in ${f}, Round 1`, 'Silver: Cy, Red: Di']);
    expect(text.stdout).toMatch(/c1d2/);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ index: 1, round: '2', white: 'Ann', black: 'Bob' });
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--index or --round, not both/);
    expect(none.status).toBe(2);
    expect(none.stderr.trim()).toMatch(/^thoth analyse: .*no game has Round "7" \(the file holds 2 games\)$/);
  });

  it("--round 7 on a match's record (rounds 7.1, 7.2, …) picks round 7's first game", async () => {
    // as -concurrency writes them: 7.2 before 7.1, and another round's games around them
    const f = join(dir, 'match-rounds.pgn');
    const game = (round: string, white: string, black: string, move: string): string =>
      `[Round "${round}"]\n[White "${white}"]\n[Black "${black}"]\n\n1. ${move} *\n`;
    writeFileSync(
      f,
      [game('7.2', 'B', 'A', 'f4g5'), game('6.1', 'A', 'B', 'j4i4'), game('7.1', 'A', 'B', 'c1d2')].join('\n'),
    );
    const [seven, eight] = await Promise.all([
      analyseAsync('--game', f, '--round', '7', '--depth', '1'),
      analyseAsync('--game', f, '--round', '8', '--depth', '1'),
    ]);
    expect(seven.status, seven.stderr).toBe(0);
    expect(seven.stdout.split('\n')[0]).toBe(`Game 3 of 3 in ${f}, Round 7.1`);
    expect(seven.stdout).toMatch(/c1d2/);
    expect(eight.status).toBe(2);
    expect(eight.stderr.trim()).toMatch(/^thoth analyse: .*no game has Round "8" \(the file holds 3 games\)$/);
  });
});

describe('thoth analyse --game: its outputs', () => {
  it('never writes over the record it reads (the same path, a relative one, a link): exit 2 before any work, the file as it was', async () => {
    const sub = mkdtempSync(join(dir, 'same-'));
    const file = join(sub, 'game.pgn');
    const text = '[Event "x"]\n\n1. f4g5 c7c6 *\n';
    writeFileSync(file, text);
    symlinkSync(file, join(sub, 'link.pgn'));
    linkSync(file, join(sub, 'hard.pgn'));
    const runs = await Promise.all([
      analyseAsync('--game', file, '--out', file, '--depth', '1'),
      analyseAsync('--game', file, '--out', join(sub, '..', sub.split('/').pop()!, 'game.pgn'), '--depth', '1'),
      analyseAsync('--game', join(sub, 'link.pgn'), '--out', file, '--depth', '1'),
      analyseAsync('--game', file, '--graph', join(sub, 'hard.pgn'), '--depth', '1'),
      analyseAsync('--game', file, '--out', join(sub, 'a.pgn'), '--graph', join(sub, 'a.pgn'), '--depth', '1'),
    ]);
    for (const r of runs.slice(0, 4)) {
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /^thoth analyse: the output '.*' is the input '.*': writing it would destroy what is read; give another file\n$/,
      );
      expect(r.stdout).toBe('');
    }
    expect(runs[4]).toMatchObject({
      status: 2,
      stdout: '',
      stderr: `thoth analyse: --out and --graph are the same file '${join(sub, 'a.pgn')}'\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(sub).sort()).toEqual(['game.pgn', 'hard.pgn', 'link.pgn']);
  });

  it('writes --out whole (no temporary file left), over an older file too; a folder that is not there is exit 2 before the work', async () => {
    const sub = mkdtempSync(join(dir, 'out-'));
    const file = join(sub, 'game.pgn');
    writeFileSync(file, '[Event "x"]\n\n1. f4g5 c7c6 *\n');
    const out = join(sub, 'reviewed.pgn');
    writeFileSync(out, 'an older file, longer than the review will be '.repeat(200));
    const r = await analyseAsync('--game', file, '--out', out, '--depth', '1', '--quiet');
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^\[Event "x"\][\s\S]*1\. f4g5 .* \*\n\n$/);
    expect(readdirSync(sub).sort()).toEqual(['game.pgn', 'reviewed.pgn']);
    const missing = await analyseAsync('--game', file, '--out', join(sub, 'no', 'r.pgn'), '--depth', '1');
    expect(missing).toMatchObject({ status: 2, stdout: '' });
    expect(missing.stderr).toBe(
      `thoth analyse: cannot write the annotated record '${join(sub, 'no', 'r.pgn')}': no such file or directory\n`,
    );
    const zero = await analyseAsync('--game', '/dev/zero', '--depth', '1');
    expect(zero).toEqual({
      status: 2,
      stdout: '',
      stderr: "thoth analyse: game record '/dev/zero' is not a record file (it holds binary data)\n",
    });
  });
});
