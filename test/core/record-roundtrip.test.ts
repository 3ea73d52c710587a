/**
 * A record written reads back as the same record. Two kinds of records, from a seeded generator
 * (the same cases on every run): records as programs make them (tags, moves with engine data,
 * free comments that look like engine data, comments before moves, NAGs, nested variations, an
 * ending, lichess's arrows and marked squares), with adversarial text in every free field; and records as the reader makes them from
 * real records mutated at random. Every record the writer accepts (unwritableRecord) must read
 * back equal: the programs' records after the writer's documented normalisation (white space in
 * comments as single spaces, no `}` in a comment, a line break in a tag's value as a space), the
 * reader's records exactly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type GameRecord,
  type MoveRecord,
  parseRecords,
  RESULT_TOKENS,
  SHAPE_COLORS,
  serializeRecord,
  unwritableRecord,
} from '../../src/core/record';
import { plainRecord } from './helpers';

// xorshift32
function generator(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n: number): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

/** Words that mean something to the reader, in a comment or a tag. */
const WORDS = [
  'best',
  'Inaccuracy:',
  '+0.35',
  '-1.20',
  '0.00',
  '+M3',
  '-M0',
  '/12',
  '0.5s',
  '1.250s',
  '+0.35/12',
  '{',
  '}',
  '{+1.00}',
  '(',
  ')',
  '[Event "x"]',
  '"',
  '\\',
  '1-0',
  '*',
  '$4',
  ';',
  '%',
  '!?',
  'Silver wins',
  '\u00a0',
  '\t',
  '\n',
  '\r',
  '\u2028',
  '\ufeff',
  '\u3000',
  'ü',
  '\ud83d\ude00',
  '[%cal X]',
  'n=5',
  'sd=12',
  'pv=j4i4,e4+',
  'n=x',
];
const MOVES = ['j4i4', 'e4+', 'd1e2u', 'a4a3', 'e4e5', 'b2-', 'i8h8'];
const TOKEN_CHARS = 'abcdefghij0123456789+-^<>!?.%"\'=/*#@';

function text(r: (n: number) => number, max = 6): string {
  const out: string[] = [];
  for (let k = r(max + 1); k > 0; k--) out.push(WORDS[r(WORDS.length)]);
  return out.join(r(3) === 0 ? '' : ' ');
}

function moveText(r: (n: number) => number): string {
  if (r(4) > 0) return MOVES[r(MOVES.length)];
  let t = '';
  for (let k = 1 + r(6); k > 0; k--) t += TOKEN_CHARS[r(TOKEN_CHARS.length)];
  return t;
}

function number(r: (n: number) => number, big: number): number {
  const n = r(4) === 0 ? r(big) : r(1000);
  return n;
}

function line(r: (n: number) => number, depth: number): MoveRecord[] {
  const out: MoveRecord[] = [];
  for (let k = r(depth === 0 ? 9 : 4); k > 0; k--) {
    const m: MoveRecord = { move: moveText(r) };
    if (out.length === 0 && r(4) === 0) m.before = text(r);
    switch (r(4)) {
      case 0:
        m.scoreCp = (r(2) === 0 ? -1 : 1) * number(r, 99_999_999_999 + 1) + 0; // + 0: no -0 (no score reads so)
        break;
      case 1:
        m.mate = (r(2) === 0 ? -1 : 1) * number(r, 999_999_999) + 0;
        break;
      default:
    }
    if (r(2) === 0) m.depth = number(r, 999_999_999);
    if (r(2) === 0) m.timeMs = number(r, 2 ** 40);
    if (r(4) === 0) m.nodes = number(r, 10 ** 15);
    if (r(4) === 0) m.seldepth = number(r, 999_999_999);
    if (r(4) === 0) m.pv = Array.from({ length: r(4) }, () => MOVES[r(MOVES.length)]);
    if (r(2) === 0) m.comment = text(r);
    if (r(5) === 0) m.nags = Array.from({ length: 1 + r(2) }, () => r(256));
    const square = (): string => `${'abcdefghij'[r(10)]}${1 + r(8)}`;
    if (r(6) === 0)
      m.arrows = Array.from({ length: 1 + r(2) }, () => ({ color: SHAPE_COLORS[r(4)], from: square(), to: square() }));
    if (r(6) === 0)
      m.squareMarks = Array.from({ length: 1 + r(2) }, () => ({ color: SHAPE_COLORS[r(4)], square: square() }));
    if (depth < 3 && r(6) === 0) m.variations = Array.from({ length: 1 + r(2) }, () => line(r, depth + 1));
    out.push(m);
  }
  return out;
}

function randomRecord(r: (n: number) => number): GameRecord {
  const tags = new Map<string, string>([
    ['Event', text(r, 3)],
    ['Round', `${1 + r(9)}.${1 + r(9)}`],
  ]);
  if (r(2) === 0) tags.set('Termination', 'normal');
  const moves = line(r, 0);
  const last = moves[moves.length - 1];
  // An older record's Reason tag equal to the last move's comment: the reader takes that comment as the ending.
  if (r(6) === 0 && last?.comment !== undefined) tags.set('Reason', last.comment);
  for (let k = r(3); k > 0; k--) tags.set(`X${r(100)}_${r(10)}`, text(r));
  const rec: GameRecord = { tags, moves, result: RESULT_TOKENS[r(RESULT_TOKENS.length)] };
  if (r(2) === 0) rec.ending = text(r);
  return rec;
}

/** Comment text as written: no `}`, white space as single spaces, none at the ends; undefined when empty. */
function comment(t: string | undefined): string | undefined {
  if (t === undefined) return undefined;
  const c = t
    .replace(/}/g, '')
    .replace(/[\s\uFEFF]+/g, ' ')
    .trim();
  return c === '' ? undefined : c;
}

/** What the writer promises to keep of a program's record. */
function normalised(rec: GameRecord): GameRecord {
  const norm = (ms: MoveRecord[]): MoveRecord[] =>
    ms.map((m) => {
      const n: MoveRecord = { move: m.move };
      if (m.mate !== undefined) n.mate = m.mate;
      else if (m.scoreCp !== undefined) n.scoreCp = m.scoreCp;
      for (const f of ['depth', 'timeMs', 'nodes', 'seldepth'] as const) if (m[f] !== undefined) n[f] = m[f];
      if (m.pv !== undefined && m.pv.length > 0) n.pv = [...m.pv];
      const c = comment(m.comment);
      if (c !== undefined) n.comment = c;
      const b = comment(m.before);
      if (b !== undefined) n.before = b;
      if (m.nags && m.nags.length > 0) n.nags = [...m.nags];
      if (m.arrows && m.arrows.length > 0) n.arrows = m.arrows.map((a) => ({ ...a }));
      if (m.squareMarks && m.squareMarks.length > 0) n.squareMarks = m.squareMarks.map((q) => ({ ...q }));
      if (m.variations) n.variations = m.variations.map(norm);
      return n;
    });
  const tags = new Map([...rec.tags].map(([k, v]) => [k, v.replace(/[\r\n]/g, ' ')]));
  const out: GameRecord = { tags, moves: norm(rec.moves), result: rec.result };
  const e = comment(rec.ending);
  if (e !== undefined) out.ending = e;
  return out;
}

/** The record written and read back, as text to compare (with the reader's complaints, if any). */
function readBack(rec: GameRecord): string {
  const p = parseRecords(serializeRecord(rec));
  if (p.errors.length > 0 || p.games.length !== 1) return `${p.games.length} games, errors ${JSON.stringify(p.errors)}`;
  return plainRecord(p.games[0]);
}

/** The cases that read back otherwise: the written text, what it read as, what was expected (none: all read back). */
function mismatches(cases: [GameRecord, GameRecord][]): string[] {
  const out: string[] = [];
  for (const [rec, expected] of cases) {
    const got = readBack(rec);
    const want = plainRecord(expected);
    if (got !== want) out.push(`${serializeRecord(rec)}\nread back as ${got}\nexpected ${want}`);
  }
  return out;
}

describe('a record written reads back as the same record', () => {
  it("programs' records, with comments that look like engine data and adversarial text everywhere", () => {
    const r = generator(20261207);
    const cases: [GameRecord, GameRecord][] = [];
    for (let k = 0; k < 1500; k++) {
      const rec = randomRecord(r);
      if (unwritableRecord(rec) === undefined) cases.push([rec, normalised(rec)]);
    }
    // the generator's odd move texts are refused; most records are written
    expect(cases.length).toBeGreaterThan(750);
    expect(mismatches(cases).slice(0, 3)).toEqual([]);
  });

  it("the reader's records, from real records mutated at random, read back exactly", () => {
    const fixtures = ['match.pgn', 'annotated.pgn'].map((f) =>
      readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8'),
    );
    const r = generator(7);
    const pieces = [
      ...WORDS,
      '\n\n',
      '12.',
      '...',
      '$300',
      '(',
      ')',
      '{}',
      'toString',
      'constructor',
      '{[%csl Rd5]}',
      '[%cal Gd2d4,Re1e2]',
    ];
    const cases: [GameRecord, GameRecord][] = [];
    for (let k = 0; k < 250; k++) {
      let t = fixtures[k % fixtures.length];
      for (let j = 1 + r(10); j > 0; j--) {
        const at = r(t.length + 1);
        t =
          r(3) === 0
            ? t.slice(0, at) + t.slice(at + 1 + r(100))
            : t.slice(0, at) + pieces[r(pieces.length)] + t.slice(at);
      }
      for (const g of parseRecords(t).games) if (unwritableRecord(g) === undefined) cases.push([g, g]);
    }
    expect(cases.length).toBeGreaterThan(400);
    expect(mismatches(cases).slice(0, 3)).toEqual([]);
  });

  it('a free comment that reads as engine data is written apart from the data, an ending apart from the last comment', () => {
    const tags = new Map([
      ['Event', 'x'],
      ['Termination', 'normal'],
    ]);
    const cases: GameRecord[] = [
      { tags, moves: [{ move: 'j4i4', comment: '+1.5 is fine' }], result: '1-0' },
      { tags, moves: [{ move: 'j4i4', scoreCp: 35, comment: '0.5s later' }], result: '1-0' },
      { tags, moves: [{ move: 'j4i4', comment: 'Inaccuracy: e3e2 was best' }], result: '1-0' },
      { tags, moves: [{ move: 'j4i4' }], result: '*', ending: 'abandoned by the user' },
      { tags, moves: [{ move: 'j4i4', mate: 0 }], result: '*', ending: '+0.35' },
    ];
    expect(mismatches(cases.map((c) => [c, normalised(c)]))).toEqual([]);
    expect(serializeRecord(cases[0])).toContain('1. j4i4 {} {+1.5 is fine} {} 1-0');
  });

  it('refuses move texts and numbers that would read back as something else', () => {
    const tags = new Map([['Event', 'x']]);
    const rec = (m: MoveRecord): GameRecord => ({ tags, moves: [m], result: '*' });
    for (const move of ['1.e4', '12', '...', 'e4!', '+-', '%e4', '<e4', '1-0', 'toString!']) {
      expect(unwritableRecord(rec({ move })), move).toMatch(/is not a move/);
    }
    expect(unwritableRecord(rec({ move: 'toString' }))).toBeUndefined();
    expect(unwritableRecord(rec({ move: 'e4', scoreCp: 35.5 }))).toMatch(/scoreCp/);
    expect(unwritableRecord(rec({ move: 'e4', timeMs: -1 }))).toMatch(/timeMs/);
    expect(unwritableRecord(rec({ move: 'e4', scoreCp: 1e21 }))).toMatch(/scoreCp/);
    // the data of -pgnout … nodes=true seldepth=true pv=true
    expect(unwritableRecord(rec({ move: 'e4', nodes: 1.5 }))).toMatch(/nodes/);
    expect(unwritableRecord(rec({ move: 'e4', nodes: 1e16 }))).toMatch(/nodes/);
    expect(unwritableRecord(rec({ move: 'e4', seldepth: -1 }))).toMatch(/seldepth/);
    expect(unwritableRecord(rec({ move: 'e4', pv: ['e4e5', 'x y'] }))).toMatch(/pv/);
    expect(unwritableRecord(rec({ move: 'e4', nodes: 123456, seldepth: 18, pv: ['e4d5', 'h5i4'] }))).toBeUndefined();
  });
});
