/**
 * Game review through the built CLI (`node dist/cli.js analyse --game …`): the annotated record
 * (NAGs, the better line as a variation) read back by Thoth and by a PGN parser others wrote, the
 * SVG graph checked by an XML validator, the JSON parsed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, split } from '@mliebelt/pgn-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUPS } from '../../src/core/index';
import { parseRecord, parseRecords, recordPlayers, recordReason, serializeRecord } from '../../src/core/record';
import { stretched } from '../slowness';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** Silver to move hits the Red Pharaoh with j8+; e1d1 misses it. */
const SILVER_MATE_IN_1 = 'xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1';

function thoth(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: stretched(60_000) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The games of a PGN text as @mliebelt/pgn-parser splits them, and each one's tags as it parses them. */
function otherTags(text: string): Record<string, unknown>[] {
  return split(text, { startRule: 'games' }).map(
    (g) => (parse(g.tags, { startRule: 'tags' }) as { tags: Record<string, unknown> }).tags,
  );
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'thoth-review-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('thoth analyse --game: the review as files and data', () => {
  it('--out, --graph and --json: the blunder marked ?? ($4) with the better line, a well-formed SVG, JSON that parses', () => {
    const game = join(dir, 'blunder.pgn');
    writeFileSync(
      game,
      [
        '[Event "review test"]',
        '[White "alice"]',
        '[Black "bob"]',
        '[Result "1-0"]',
        '[SetUp "1"]',
        `[FEN "${SILVER_MATE_IN_1}"]`,
        '[Termination "normal"]',
        '',
        '1. e1d1 f8f7 2. j8i7 {Silver resigns? no: the record just ends} *',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'annotated.pgn');
    const svg = join(dir, 'eval.svg');
    const r = thoth('analyse', '--game', game, '--depth', '3', '--out', out, '--graph', svg, '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);

    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ white: 'alice', black: 'bob', variant: 'khet2', result: '*', limits: { depth: 3 } });
    expect(json.plies).toHaveLength(3);
    expect(json.plies[0]).toMatchObject({
      move: 'e1d1',
      best: 'j8+',
      bestScore: { kind: 'mate', value: 1 },
      judgement: 'blunder',
      mark: '??',
      nag: 4,
      winBefore: 1,
    });
    expect(json.sides[0]).toMatchObject({ color: 'Silver', player: 'alice', moves: 2, blunders: 1 });
    expect(json.sides[0].accuracy).toBeLessThan(json.sides[1].accuracy);

    const text = readFileSync(out, 'utf8');
    const rec = parseRecord(text);
    if (!rec.ok) throw new Error(rec.error.message);
    const a = rec.value;
    expect(recordPlayers(a)).toEqual(['alice', 'bob']);
    expect(a.tags.get('Annotator')).toBe('Thoth 0.1.0 (depth 3)');
    // the review's words, and why by the beam: the shot the move passed up
    const why =
      "Silver missed the shot j8+: the beam bounces off Silver's Pyramid on j8, and hits Red's Pharaoh on f8: Silver wins";
    expect(a.moves[0]).toMatchObject({ move: 'e1d1', nags: [4], depth: 3, comment: `Blunder: j8+ was best; ${why}` });
    expect(a.moves[0].variations?.[0][0]).toMatchObject({ move: 'j8+', mate: 1, depth: 3 });
    // the record's comment is kept (after the review's own words when the move is marked)
    expect(a.moves[2].comment).toMatch(/(^|; )Silver resigns\? no: the record just ends$/);
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /1\. e1d1 \$4 \{\+\d\.\d\d\/3 Blunder: j8\+ was best; Silver missed the shot j8\+: [^}]*\} \(1\. j8\+ \{\+M1\/3\}\) 1\.\.\. f8f7/,
    );
    // Round trip: what Thoth wrote, Thoth reads back to the same text, and reviews again.
    expect(serializeRecord(a)).toBe(text);
    const again = thoth('analyse', '--game', out, '--depth', '2', '--quiet');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Silver: alice, Red: bob');

    // A PGN parser others wrote finds the game and reads its tags (its move grammar is chess's: a-h only).
    expect(otherTags(text)).toMatchObject([
      { White: 'alice', Black: 'bob', Result: '*', SetUp: '1', FEN: SILVER_MATE_IN_1 },
    ]);
    const svgText = readFileSync(svg, 'utf8');
    expect(XMLValidator.validate(svgText)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(svgText);
    expect(doc.svg['@_xmlns']).toBe('http://www.w3.org/2000/svg');
    const dots = [doc.svg.circle].flat().filter((c: { title?: string }) => c.title);
    // a dot per marked move: the blunder first (the network also marks 2. j8i7?! at depth 3)
    const titles = dots.map((c: { title: string }) => c.title);
    expect(titles[0]).toBe('1. e1d1?? (better j8+)');
    for (const t of titles) expect(t).toMatch(/^\d+\.(\.\.)? \S+?(\?!|\?\?|\?) \(better \S+\)$/);
    expect(String(doc.svg.polyline['@_points']).split(' ')).toHaveLength(4);
  });

  it('reads what other tools write: NAGs, !? suffixes, variations, ; comments and % lines', () => {
    const game = join(dir, 'foreign.pgn');
    writeFileSync(
      game,
      [
        '% written by some other tool',
        '[Event "?"]',
        '[White "x"]',
        '[Black "y"]',
        '[Result "*"]',
        '',
        '1. f4g5!? $1 {a comment} (1. j4i4 c7c6 (1... a4a3) 2. c5+) 1... c7c6?! ; to the end of the line',
        '2. c5+ *',
        '',
      ].join('\n'),
    );
    const r = thoth('analyse', '--game', game, '--depth', '1', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Khet 2.0 (khet2), 2 moves (3 plies), result *');
    expect(r.stdout).toMatch(/^ +1\. f4g5/m);
    expect(r.stdout).toMatch(/^ *1\.\.\. c7c6/m);
    expect(r.stdout).toMatch(/^ +2\. c5\+/m);
  });
});

describe('thoth analyse --game: a game won by a Pharaoh hit', () => {
  /** Red to move could hit the Silver Pharaoh on d1 with a1+ once Silver steps there. */
  const RED_HITS = 'xv4k4/10/10/10/10/10/10/p<3K4X^ s 0 1';
  it.each([
    ['Silver', SILVER_MATE_IN_1, '1. j8+ 1-0', '1-0'],
    ['Red', RED_HITS, '1. e1d1 a1+ 0-1', '0-1'],
  ])('%s hits the Pharaoh: the winning move is not marked, the winner has no ?!/?/??', (winner, fen, moves, result) => {
    const game = join(dir, `${winner}-hits.pgn`);
    writeFileSync(
      game,
      ['[White "alice"]', '[Black "bob"]', `[Result "${result}"]`, '[SetUp "1"]', `[FEN "${fen}"]`, '', moves, ''].join(
        '\n',
      ),
    );
    const r = thoth('analyse', '--game', game, '--depth', '3', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    const last = json.plies[json.plies.length - 1];
    expect(last).toMatchObject({ mark: null, nag: null, judgement: null, winAfter: 1 });
    expect(json.final.status).toBe('win');
    const side = json.sides.find((x: { color: string }) => x.color === winner);
    expect(side).toMatchObject({ inaccuracies: 0, mistakes: 0, blunders: 0 });
    const text = thoth('analyse', '--game', game, '--depth', '3').stdout;
    expect(text).toMatch(/\+ +\w+ +\+M1 -> +\+M1 +100% -> 100% +best/);
  });
});

describe('thoth analyse --json for a position', () => {
  it('one object: the K best lines with scores as {kind, value}, PVs and words', () => {
    const r = thoth('analyse', '--kfen', SILVER_MATE_IN_1, '--depth', '2', '--multipv', '2', '--json');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      variant: 'khet2',
      kfen: SILVER_MATE_IN_1,
      sideToMove: 'Silver',
      status: 'ongoing',
      depth: 2,
    });
    expect(j.lines).toHaveLength(2);
    expect(j.lines[0]).toMatchObject({ move: 'j8+', score: { kind: 'mate', value: 1 }, bound: 'exact', pv: ['j8+'] });
    expect(j.lines[0].words).toMatch(/the shot hits the Red Pharaoh on f8: Silver wins/);
    expect(['cp', 'mate']).toContain(j.lines[1].score.kind);
    expect(typeof j.lines[1].score.value).toBe('number');
  });
});

describe('records read by a PGN parser others wrote', () => {
  it('@mliebelt/pgn-parser sees the Seven Tag Roster and SetUp/FEN of every game Thoth writes', () => {
    const games = [1, 2]
      .map((i) =>
        serializeRecord({
          tags: new Map([
            ['Event', 'e'],
            ['Site', '?'],
            ['Date', '2026.01.02'],
            ['Round', `${i}`],
            ['White', `w${i}`],
            ['Black', `b${i}`],
            ['Result', '1-0'],
            ['SetUp', '1'],
            ['FEN', SETUPS.khet2.classic!],
            ['Variant', 'khet2'],
            ['Termination', 'normal'],
          ]),
          moves: [
            { move: 'j4i4', scoreCp: 35, depth: 5, nags: [1], variations: [[{ move: 'f4g5' }]] },
            { move: 'a4a3' },
          ],
          result: '1-0',
          ending: 'Silver wins: the Red Pharaoh was hit',
        }),
      )
      .join('');
    const ours = parseRecords(games);
    expect(ours.games.map(recordReason)).toEqual([
      'Silver wins: the Red Pharaoh was hit',
      'Silver wins: the Red Pharaoh was hit',
    ]);
    expect(otherTags(games)).toMatchObject(
      [1, 2].map((i) => ({ White: `w${i}`, Black: `b${i}`, Result: '1-0', SetUp: '1', FEN: SETUPS.khet2.classic })),
    );
  });
});
