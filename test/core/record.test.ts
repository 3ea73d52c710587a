import { describe, expect, it } from 'vitest';
import { SETUPS, toKfen } from '../../src/core/index';
import {
  formatRecordSyntaxError,
  formatReplayError,
  formatScore,
  makeRecord,
  moveComment,
  parseMoveComment,
  parseRecord,
  parseRecords,
  recordPlayers,
  recordReason,
  recordStart,
  recordTimeControls,
  recordVariant,
  replayRecord,
  serializeRecord,
  standardRecord,
  type GameRecord,
  type MoveRecord,
} from '../../src/core/record';
import { unwrap as value } from './helpers';

const CLASSIC = SETUPS.khet2.classic!;

function sample(overrides: Partial<Parameters<typeof makeRecord>[0]> = {}): GameRecord {
  return makeRecord({
    event: 'Test "quoted" \\ event',
    date: '2025.02.03',
    round: '3.2',
    players: ['thoth-new', 'thoth old'],
    result: '1-0',
    variant: 'khet2',
    kfen: CLASSIC,
    timeControl: '10+0.1',
    termination: 'normal',
    reason: 'Silver wins: the Red Pharaoh was hit',
    opening: 'classic +0 plies',
    moves: [
      { move: 'j4i4', scoreCp: 35, depth: 12, timeMs: 520 },
      { move: 'a4a3', scoreCp: -20, depth: 11, timeMs: 480 },
      { move: 'c1+', mate: 3, depth: 9, timeMs: 100 },
      { move: 'a3a4', mate: -2, timeMs: 90 },
      { move: 'c1-', scoreCp: 0, depth: 1 },
      { move: 'a4a3', timeMs: 1, comment: 'book' },
      { move: 'j1-' },
    ],
    ...overrides,
  });
}

describe('record format', () => {
  it('writes the Seven Tag Roster, the start as SetUp/FEN, and the movetext with {score/depth time} comments', () => {
    const text = serializeRecord(sample());
    expect(text).toMatch(
      /^\[Event "Test \\"quoted\\" \\\\ event"\]\n\[Site "\?"\]\n\[Date "2025.02.03"\]\n\[Round "3.2"\]\n\[White "thoth-new"\]\n\[Black "thoth old"\]\n\[Result "1-0"\]\n\[SetUp "1"\]\n\[FEN "/,
    );
    expect(text).toContain(
      `[FEN "${CLASSIC}"]\n[Variant "khet2"]\n[KFEN "${CLASSIC}"]\n[TimeControl "10+0.1"]\n[Termination "normal"]\n[PlyCount "7"]`,
    );
    expect(text).not.toContain('[Reason');
    expect(text).toContain('1. j4i4 {+0.35/12 0.520s} a4a3 {-0.20/11 0.480s} 2. c1+ {+M3/9 0.100s}');
    expect(text).toContain('a3a4 {-M2 0.090s}');
    expect(text).toContain('c1- {0.00/1}');
    expect(text).toContain('a4a3 {0.001s book}');
    expect(text).toMatch(/4\. j1-\s\{Silver wins: the Red Pharaoh was hit\} 1-0\n\n$/);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('time controls per side where they differ', () => {
    const text = serializeRecord(sample({ timeControl: ['10+0.1', '5+0.05'] }));
    expect(text).toContain('[WhiteTimeControl "10+0.1"]\n[BlackTimeControl "5+0.05"]');
    expect(text).not.toContain('[TimeControl');
    expect(recordTimeControls(value(parseRecord(text)))).toEqual(['10+0.1', '5+0.05']);
    expect(serializeRecord(sample({ timeControl: ['depth=3', 'depth=3'] }))).toContain('[TimeControl "depth=3"]');
  });

  it('round-trips: parse(serialize(r)) equals r', () => {
    const r = sample();
    const back = value(parseRecord(serializeRecord(r)));
    expect([...back.tags]).toEqual([...r.tags]);
    expect(back.moves).toEqual(r.moves);
    expect(back.result).toBe(r.result);
    expect(back.ending).toBe('Silver wins: the Red Pharaoh was hit');
    expect(recordReason(back)).toBe('Silver wins: the Red Pharaoh was hit');
    expect(serializeRecord(back)).toBe(serializeRecord(r));
  });

  it('round-trips NAGs, variations (nested), comments before moves, and suffixes read as NAGs', () => {
    const moves: MoveRecord[] = [
      { move: 'j4i4', before: 'a quiet start', scoreCp: 35, depth: 12, nags: [1] },
      {
        move: 'a4a3',
        nags: [4],
        scoreCp: -300,
        depth: 12,
        comment: 'loses a Pyramid',
        variations: [
          [
            { move: 'a4b4', scoreCp: 20, depth: 12, nags: [3] },
            { move: 'c1+', variations: [[{ move: 'c1-', before: 'or' }]] },
            { move: 'b4b5' },
          ],
          [{ move: 'f8f7' }],
        ],
      },
      { move: 'c1+', nags: [6, 14] },
      { move: 'a3a4' },
    ];
    const r = sample({ moves });
    const text = serializeRecord(r);
    expect(text.replace(/\s+/g, ' ')).toContain(
      '{a quiet start} 1. j4i4 $1 {+0.35/12} a4a3 $4 {-3.00/12 loses a Pyramid} (1... a4b4 $3 {+0.20/12} 2. c1+ ' +
        '({or} 2. c1-) 2... b4b5) (1... f8f7) 2. c1+ $6 $14 a3a4 {Silver wins: the Red Pharaoh was hit} 1-0',
    );
    const back = value(parseRecord(text));
    expect(back.moves).toEqual(moves);
    expect(serializeRecord(back)).toBe(text);
    // What other tools write: suffixes, symbols, `;` and `%` lines, numbers glued to moves, `...`.
    const foreign = value(
      parseRecord(
        '% an escape line\n[White "x"]\n[Black "y"]\n\n1.j4i4!? a4a3?? ; to the end of the line\n2. c1+ +- 2... ... a3a4 {a} {b} (2... f8f7!) 1/2-1/2\n',
      ),
    );
    expect(foreign.moves.map((m) => [m.move, m.nags])).toEqual([
      ['j4i4', [5]],
      ['a4a3', [4]],
      ['c1+', [18]],
      ['a3a4', undefined],
    ]);
    expect(foreign.moves[3].comment).toBe('a b');
    expect(foreign.moves[3].variations).toEqual([[{ move: 'f8f7', nags: [1] }]]);
    expect(recordPlayers(foreign)).toEqual(['x', 'y']);
  });

  it('reads the records Thoth wrote before: players under the colours, KFEN, a Reason tag', () => {
    const old = [
      '[Event "Thoth match"]',
      '[Date "2026.12.01"]',
      '[Round "1.1"]',
      '[Silver "on"]',
      '[Red "off"]',
      '[Result "0-1"]',
      '[Variant "khet2"]',
      `[KFEN "${CLASSIC}"]`,
      '[TimeControl "2+0.02"]',
      '[Termination "normal"]',
      '[Reason "Red wins: the Silver Pharaoh was hit"]',
      '[PlyCount "2"]',
      '',
      '1. j4i4 {+0.32/5 0.072s} a4a3 {+0.19/4 0.063s} 0-1',
      '',
      '',
    ].join('\n');
    const rec = value(parseRecord(old));
    expect(recordPlayers(rec)).toEqual(['on', 'off']);
    expect(recordStart(rec)).toBe(CLASSIC);
    expect(recordReason(rec)).toBe('Red wins: the Silver Pharaoh was hit');
    expect(rec.moves[1]).toEqual({ move: 'a4a3', scoreCp: 19, depth: 4, timeMs: 63 });
    expect(value(replayRecord(rec)).moves).toHaveLength(2);
    const std = serializeRecord(standardRecord(rec));
    expect(std).toMatch(
      /^\[Event "Thoth match"\]\n\[Site "\?"\]\n\[Date "2026.12.01"\]\n\[Round "1.1"\]\n\[White "on"\]\n\[Black "off"\]\n\[Result "0-1"\]\n\[SetUp "1"\]\n/,
    );
    expect(std).not.toMatch(/\[(Silver|Red|Reason) /);
    expect(std.replace(/\s+/g, ' ')).toContain('a4a3 {+0.19/4 0.063s} {Red wins: the Silver Pharaoh was hit} 0-1');
  });

  it("a comment alone after the last move stays the move's, unless it repeats the Reason tag", () => {
    expect(value(parseRecord('1. j4i4 {only words} 1-0')).ending).toBeUndefined();
    expect(value(parseRecord('1. j4i4 {only words} 1-0')).moves[0].comment).toBe('only words');
    expect(value(parseRecord('{no moves at all} 1-0')).ending).toBe('no moves at all');
  });

  it('round-trips many games in one file, and long games wrap', () => {
    const moves: MoveRecord[] = [];
    for (let i = 0; i < 60; i++)
      moves.push({ move: i % 2 ? 'a4a3' : 'j4i4', scoreCp: i * 7 - 200, depth: i, timeMs: i * 13 });
    const games = [sample(), sample({ result: '1/2-1/2', round: '4.1', moves }), sample({ result: '*', moves: [] })];
    const text = games.map(serializeRecord).join('');
    const parsed = parseRecords(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.incomplete).toBe(false);
    expect(parsed.end).toBe(text.length);
    expect(parsed.games.map((g) => g.result)).toEqual(['1-0', '1/2-1/2', '*']);
    expect(parsed.games[1].moves).toEqual(moves);
    expect(
      text
        .split('\n')
        .filter((l) => !l.startsWith('['))
        .every((l) => l.length <= 80),
    ).toBe(true);
  });

  it('second player first: 12... numbering', () => {
    const kfen = CLASSIC.replace(' s 0 1', ' r 3 12');
    const text = serializeRecord(sample({ kfen, moves: [{ move: 'a4a3' }, { move: 'j4i4' }, { move: 'a3a4' }] }));
    expect(text).toContain('12... a4a3 13. j4i4 a3a4 {Silver wins: the Red Pharaoh was hit} 1-0');
  });

  it("Deflexion: White is Gold, the first player; older records' Gold and Silver tags are read", () => {
    const r = sample({ variant: 'deflexion', kfen: SETUPS.deflexion.classic!, moves: [] });
    const text = serializeRecord(r);
    expect(text).toContain('[White "thoth-new"]\n[Black "thoth old"]');
    expect(recordPlayers(value(parseRecord('[Variant "deflexion"]\n[Gold "g"]\n[Silver "s"]\n\n*')))).toEqual([
      'g',
      's',
    ]);
    const back = value(parseRecord(text));
    expect(recordVariant(back)).toBe('deflexion');
    expect(recordPlayers(back)).toEqual(['thoth-new', 'thoth old']);
  });

  it('reads White/Black and a missing Variant', () => {
    const back = value(parseRecord('[White "a"]\n[Black "b"]\n\n1. j4i4 0-1\n'));
    expect(recordVariant(back)).toBe('khet2');
    expect(recordPlayers(back)).toEqual(['a', 'b']);
    expect(back.moves).toEqual([{ move: 'j4i4' }]);
    expect(back.result).toBe('0-1');
    expect(value(parseRecord('[FEN "x y"]\n\n*')).tags.get('FEN')).toBe('x y');
    expect(recordStart(value(parseRecord('[FEN "a"]\n[KFEN "b"]\n\n*')))).toBe('a');
  });

  it('an interrupted write: the unfinished last game is reported, not returned', () => {
    const full = serializeRecord(sample()) + serializeRecord(sample({ round: '3.3' }));
    const cut = full.slice(0, full.length - 30);
    const p = parseRecords(cut);
    expect(p.games).toHaveLength(1);
    expect(p.incomplete).toBe(true);
    expect(cut.slice(0, p.end)).toBe(serializeRecord(sample()));
    const p2 = parseRecords(serializeRecord(sample()) + '[Event "x"]\n[Round "1.');
    expect(p2.games).toHaveLength(1);
    expect(p2.incomplete).toBe(true);
  });

  it('comments: score forms, free text, and ; comments', () => {
    const m: MoveRecord = { move: 'x' };
    parseMoveComment('-1.5/7 2.25s some words', m);
    expect(m).toEqual({ move: 'x', scoreCp: -150, depth: 7, timeMs: 2250, comment: 'some words' });
    const m2: MoveRecord = { move: 'y' };
    parseMoveComment('book', m2);
    expect(m2).toEqual({ move: 'y', comment: 'book' });
    expect(formatScore({ scoreCp: -5 })).toBe('-0.05');
    expect(formatScore({ mate: 0 })).toBe('+M0');
    const g = value(parseRecord('; a comment line\n[Event "e"]\n\n1. j4i4 {+0.10/2 0.5s} ; trailing\n a4a3 1/2-1/2\n'));
    expect(g.moves).toEqual([{ move: 'j4i4', scoreCp: 10, depth: 2, timeMs: 500 }, { move: 'a4a3' }]);
  });

  it("notes: lichess's arrows and marked squares round-trip beside the score and the words, on any move", () => {
    const moves: MoveRecord[] = [
      {
        move: 'j4i4',
        scoreCp: 35,
        depth: 12,
        comment: 'opens the file',
        nags: [1],
        arrows: [
          { color: 'G', from: 'j1', to: 'j8' },
          { color: 'R', from: 'a8', to: 'a1' },
        ],
        squareMarks: [{ color: 'R', square: 'e1' }],
      },
      {
        move: 'a4a3',
        variations: [[{ move: 'f8f7', arrows: [{ color: 'B', from: 'f7', to: 'e6' }] }]],
        squareMarks: [
          { color: 'Y', square: 'i4' },
          { color: 'G', square: 'j1' },
        ],
      },
    ];
    const text = serializeRecord(sample({ moves }));
    expect(text.replace(/\s+/g, ' ')).toContain(
      '1. j4i4 $1 {+0.35/12 opens the file [%csl Re1] [%cal Gj1j8,Ra8a1]} a4a3 {[%csl Yi4,Gj1]} (1... f8f7 {[%cal Bf7e6]})',
    );
    const back = value(parseRecord(text));
    expect(back.moves).toEqual(moves);
    // as lichess writes them: first, glued, inside other words; a move with drawings only keeps them
    const m: MoveRecord = { move: 'x' };
    parseMoveComment('[%csl Gd5][%cal Ge2e4,Rd2d4] +0.50/3 a plan', m);
    expect(m.arrows).toEqual([
      { color: 'G', from: 'e2', to: 'e4' },
      { color: 'R', from: 'd2', to: 'd4' },
    ]);
    expect(m.squareMarks).toEqual([{ color: 'G', square: 'd5' }]);
    expect([m.scoreCp, m.depth, m.comment]).toEqual([50, 3, 'a plan']);
    const last = value(parseRecord('[Termination "normal"]\n\n1. j4i4 {[%cal Gj1j8]} 1-0\n'));
    expect(last.moves[0].arrows).toEqual([{ color: 'G', from: 'j1', to: 'j8' }]);
    expect(last.ending).toBeUndefined();
    // a command with an entry that is none stays text; a clock command stays text
    const bad: MoveRecord = { move: 'y' };
    parseMoveComment('[%cal Gk1k2] [%clk 0:01:00]', bad);
    expect(bad).toEqual({ move: 'y', comment: '[%cal Gk1k2] [%clk 0:01:00]' });
    // a drawing that is none is never written
    expect(() =>
      serializeRecord(sample({ moves: [{ move: 'j4i4', arrows: [{ color: 'X' as 'G', from: 'a1', to: 'a2' }] }] })),
    ).toThrow(/an arrow of move j4i4/);
  });

  it('replays a record with the rules core', () => {
    const r = sample({ moves: [{ move: 'j4i4' }, { move: 'a4a3' }, { move: 'c1L' }] });
    const rep = value(replayRecord(r));
    expect(rep.moves).toHaveLength(3);
    expect(toKfen(rep.position)).not.toBe(CLASSIC);
    const bad = replayRecord(sample({ moves: [{ move: 'j4i4' }, { move: 'j4i3' }] }));
    expect(bad).toMatchObject({ ok: false, error: { kind: 'move', ply: 1, move: 'j4i3' } });
    if (!bad.ok) expect(formatReplayError(bad.error)).toMatch(/^move 2 \(j4i3\): ./);
    const badKfen = replayRecord(sample({ kfen: 'nonsense', moves: [] }));
    expect(badKfen).toMatchObject({ ok: false, error: { kind: 'kfen', ply: 0 } });
    if (!badKfen.ok) expect(formatReplayError(badKfen.error)).toMatch(/^bad KFEN tag: ./);
  });

  it('errors are values: garbage is skipped and reported, no game is an error', () => {
    const p = parseRecords('[Event "a"]\n[Bad tag\n\n1. j4i4 *\n');
    expect(p.games).toHaveLength(1);
    expect(p.errors).toEqual([{ kind: 'tag', index: 12, message: 'bad tag line' }]);
    expect(formatRecordSyntaxError(p.errors[0])).toBe('bad tag line at character 13');
    const q = parseRecords('1. j4i4\n[Event "b"]\n\n*\n');
    expect(q.errors.map(formatRecordSyntaxError)).toEqual(['game 1 has no result token']);
    expect(parseRecord('')).toEqual({ ok: false, error: { kind: 'no game', index: -1, message: 'no game found' } });
    expect(parseRecord('[Oops\n')).toMatchObject({ ok: false, error: { kind: 'tag', index: 0 } });
    const v = parseRecords('1. j4i4 ) (a4a3 1-0\n\n1. j4i4 *\n');
    expect(v.errors.map(formatRecordSyntaxError)).toEqual([
      "a ')' without its '(' at character 9",
      'a variation not closed before the result at character 17',
    ]);
    expect(v.games.map((g) => g.moves)).toEqual([
      [{ move: 'j4i4', variations: [[{ move: 'a4a3' }]] }],
      [{ move: 'j4i4' }],
    ]);
    expect(parseRecords('( 1. j4i4 ) *').errors.map(formatRecordSyntaxError)).toEqual([
      'a variation before any move at character 1',
    ]);
  });
});

describe('the moves’ nodes, selective depth and principal variation', () => {
  it('writes n= sd= pv= after the time and reads them back; another word stays free text', () => {
    const m = {
      move: 'e4d5',
      scoreCp: 35,
      depth: 12,
      timeMs: 520,
      nodes: 123456,
      seldepth: 18,
      pv: ['e4d5', 'h5i4', 'j1-'],
    };
    expect(moveComment(m)).toBe('+0.35/12 0.520s n=123456 sd=18 pv=e4d5,h5i4,j1-');
    const back: MoveRecord = { move: 'e4d5' };
    parseMoveComment(moveComment(m)!, back);
    expect(back).toEqual(m);
    const odd: MoveRecord = { move: 'e4d5' };
    parseMoveComment('+0.35/12 0.520s pv=notamove n=5', odd);
    expect(odd).toMatchObject({ scoreCp: 35, comment: 'pv=notamove n=5' });
  });
});
