import { describe, expect, it } from 'vitest';
import { SETUPS, toKfen } from '../../src/core/index';
import {
  formatRecordSyntaxError, formatReplayError, formatScore, makeRecord, parseMoveComment, parseRecord, parseRecords, recordPlayers,
  recordVariant, replayRecord, serializeRecord, type GameRecord, type MoveRecord,
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
  it('writes the tags in order and the movetext with {score/depth time} comments', () => {
    const text = serializeRecord(sample());
    expect(text).toMatch(/^\[Event "Test \\"quoted\\" \\\\ event"\]\n\[Date "2025.02.03"\]\n\[Round "3.2"\]\n\[Silver "thoth-new"\]\n\[Red "thoth old"\]\n\[Result "1-0"\]\n\[Variant "khet2"\]\n\[KFEN "/);
    expect(text).toContain('[TimeControl "10+0.1"]\n[Termination "normal"]\n[Reason "Silver wins: the Red Pharaoh was hit"]\n[PlyCount "7"]');
    expect(text).toContain('1. j4i4 {+0.35/12 0.520s} a4a3 {-0.20/11 0.480s} 2. c1+ {+M3/9 0.100s}');
    expect(text).toContain('a3a4 {-M2 0.090s}');
    expect(text).toContain('c1- {0.00/1}');
    expect(text).toContain('a4a3 {0.001s book}');
    expect(text).toMatch(/4\. j1- 1-0\n\n$/);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('round-trips: parse(serialize(r)) equals r', () => {
    const r = sample();
    const back = value(parseRecord(serializeRecord(r)));
    expect([...back.tags]).toEqual([...r.tags]);
    expect(back.moves).toEqual(r.moves);
    expect(back.result).toBe(r.result);
    expect(serializeRecord(back)).toBe(serializeRecord(r));
  });

  it('round-trips many games in one file, and long games wrap', () => {
    const moves: MoveRecord[] = [];
    for (let i = 0; i < 60; i++) moves.push({ move: i % 2 ? 'a4a3' : 'j4i4', scoreCp: i * 7 - 200, depth: i, timeMs: i * 13 });
    const games = [sample(), sample({ result: '1/2-1/2', round: '4.1', moves }), sample({ result: '*', moves: [] })];
    const text = games.map(serializeRecord).join('');
    const parsed = parseRecords(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.incomplete).toBe(false);
    expect(parsed.end).toBe(text.length);
    expect(parsed.games.map((g) => g.result)).toEqual(['1-0', '1/2-1/2', '*']);
    expect(parsed.games[1].moves).toEqual(moves);
    expect(text.split('\n').filter((l) => !l.startsWith('[')).every((l) => l.length <= 80)).toBe(true);
  });

  it('second player first: 12... numbering', () => {
    const kfen = CLASSIC.replace(' s 0 1', ' r 3 12');
    const text = serializeRecord(sample({ kfen, moves: [{ move: 'a4a3' }, { move: 'j4i4' }, { move: 'a3a4' }] }));
    expect(text).toContain('12... a4a3 13. j4i4 a3a4 1-0');
  });

  it('Deflexion: Gold and Silver tags', () => {
    const r = sample({ variant: 'deflexion', kfen: SETUPS.deflexion.classic!, moves: [] });
    const text = serializeRecord(r);
    expect(text).toContain('[Gold "thoth-new"]\n[Silver "thoth old"]');
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
  });
});
