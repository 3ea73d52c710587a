import { describe, expect, it } from 'vitest';
import { EDITION_IDS, toKfen, Position } from '../../src/core/index';
import {
  DATA_HEADER_BYTES,
  DRAW,
  LOSS,
  MAX_POSITION_BYTES,
  WIN,
  dataHeader,
  encodeGameHeader,
  encodePosition,
  readData,
  scanData,
  type DataRecord,
} from '../../src/train/data';
import { editionIndex } from '../../src/nnue/features';
import { KeySet } from '../../src/train/keyset';
import { randomPositions } from '../nnue/helpers';

interface Game {
  game: number;
  result: number;
  positions: Position[];
}

/** A data file of the given games, built with the encoder. */
function fileOf(games: Game[]): Uint8Array {
  const parts: Uint8Array[] = [dataHeader()];
  for (const g of games) {
    const buf = new Uint8Array(8 + g.positions.length * MAX_POSITION_BYTES);
    let at = 8;
    g.positions.forEach((p, i) => (at += encodePosition(p.board, p.side, (i - 3) * 77, p.ply + 10, buf, at)));
    encodeGameHeader(g.game, editionIndex(g.positions[0].edition.id), g.result, g.positions.length, buf, 0);
    parts.push(buf.subarray(0, at));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const kfenOf = (r: DataRecord): string => {
  const p = new Position(EDITION_IDS[r.edition]);
  p.setup(r.board, r.side);
  return toKfen(p);
};

const all = randomPositions(6, 21); // 8 setups × 6
const games: Game[] = [];
for (let i = 0; i < 8; i++)
  games.push({ game: 100 + i, result: [LOSS, DRAW, WIN][i % 3], positions: all.slice(i * 6, i * 6 + 6) });

describe('NNUE training data file', () => {
  it('reads back every position: board, side, score, ply, edition and the result from the side to move', () => {
    const bytes = fileOf(games);
    const seen: string[] = [];
    const r = readData(bytes, (rec) => {
      const g = games[rec.game - 100];
      const i = seen.length % 6;
      const p = g.positions[i];
      expect(kfenOf(rec)).toBe(toKfen(p).replace(/ \d+ \d+$/, ' 0 1'));
      expect([rec.edition, rec.score, rec.ply]).toEqual([editionIndex(p.edition.id), (i - 3) * 77, p.ply + 10]);
      expect(rec.result).toBe(p.side === 0 ? g.result : 2 - g.result);
      seen.push(kfenOf(rec));
    });
    expect(r).toEqual({ ok: true, value: { games: 8, positions: 48, lastGame: 107, validBytes: bytes.length } });
    expect(seen).toHaveLength(48);
  });

  it('reports a file cut short: the complete games count, the unfinished one is neither counted nor visited', () => {
    const bytes = fileOf(games);
    const whole = scanData(fileOf(games.slice(0, 5)));
    let visited = 0;
    const cut = scanData(bytes.subarray(0, whole.summary.validBytes + 30), () => visited++);
    expect(cut.error).toMatchObject({ kind: 'truncated', offset: whole.summary.validBytes });
    expect(cut.summary).toEqual(whole.summary);
    expect(visited).toBe(30);
    expect(scanData(bytes.subarray(0, 5)).error?.kind).toBe('truncated');
    const r = readData(bytes.subarray(0, bytes.length - 1), () => {});
    expect(r.ok ? 'accepted' : r.error.kind).toBe('truncated');
  });

  it('refuses a foreign file, another version and damaged records', () => {
    const bytes = fileOf(games);
    expect(scanData(new TextEncoder().encode('THOTHNN1 is a network, not data')).error?.kind).toBe('magic');
    const v2 = bytes.slice();
    v2[8] = 2;
    expect(scanData(v2).error?.kind).toBe('version');
    const badEdition = bytes.slice();
    badEdition[DATA_HEADER_BYTES + 4] = 3;
    expect(scanData(badEdition).error).toMatchObject({ kind: 'corrupt', offset: DATA_HEADER_BYTES });
    const badPiece = bytes.slice();
    badPiece[DATA_HEADER_BYTES + 8 + 16] = 0; // the first piece of the first position: no piece
    expect(scanData(badPiece).error?.kind).toBe('corrupt');
    const badCount = bytes.slice();
    badCount[DATA_HEADER_BYTES + 8 + 1]++; // one piece more than the occupancy shows
    expect(scanData(badCount).error?.kind).toBe('corrupt');
  });

  it('keeps a set of 64-bit keys as a set', () => {
    const set = new KeySet(4);
    const ref = new Set<string>();
    let x = 12345;
    let wrong = 0;
    for (let i = 0; i < 20000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) | 0;
      const lo = x & 0xfff; // few distinct values, so that keys repeat
      const hi = (x >> 20) & 3;
      const fresh = !ref.has(`${lo},${hi}`);
      ref.add(`${lo},${hi}`);
      if (set.add(lo, hi) !== fresh) wrong++;
    }
    expect(wrong).toBe(0);
    expect(set.size).toBe(ref.size);
    expect(set.has(-1, -1)).toBe(false);
  });
});
