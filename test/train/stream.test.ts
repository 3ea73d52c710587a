/**
 * The streamed trainer: the index of the files (against the whole-file reader), the epochs'
 * chunks, and `thoth train --chunk-positions` as a user runs it (the same validation split; data
 * that fit in one chunk give the very network of an unstreamed run).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanData } from '../../src/train/data';
import { DataIndexError, epochChunks, indexDataFiles, packGames } from '../../src/train/stream';
import { loadTrainingData } from '../../src/train/train';
import { runThoth } from '../cli/helpers';
import { stretched } from '../slowness';

/** 2546 positions of 47 games of `thoth datagen` at its default settings (all three editions). */
const FIXTURE = new URL('../nnue/fixtures/selfplay.bin', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'thoth-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('streamed training data', () => {
  it('indexes every game as the whole-file reader reads it, with the same validation split; packs them back', () => {
    const bytes = readFileSync(FIXTURE);
    const copy = join(dir, 'copy.bin');
    writeFileSync(copy, bytes);
    const index = indexDataFiles([FIXTURE, copy], 0.25, 5);
    const whole = loadTrainingData(
      [
        { name: 'a', bytes },
        { name: 'b', bytes },
      ],
      0.25,
      5,
    );
    if (!whole.ok) throw new Error('fixture unreadable');
    const d = whole.value.data;
    let val = 0;
    for (let i = 0; i < d.count; i++) val += d.validation[i];
    expect(index.files.map((f) => [f.games, f.positions])).toEqual([
      [47, 2546],
      [47, 2546],
    ]);
    expect(index.trainPositions + index.validationPositions).toBe(d.count);
    expect(index.validationPositions).toBe(val);
    expect(index.validationPositions).toBeGreaterThan(0);
    expect(index.editions).toBe(d.editions);

    const packed = packGames([FIXTURE, copy], index.validation, 0.25, 5);
    expect(packed.count).toBe(val);
    expect([...packed.validation].every((v) => v === 1)).toBe(true); // the same games the whole-file split holds out
    const train = packGames([FIXTURE, copy], index.train, 0.25, 5);
    expect(train.count).toBe(index.trainPositions);
    expect([...train.validation].every((v) => v === 0)).toBe(true);
  });

  it('indexes a file cut short up to its last whole game, and refuses one that is not data', () => {
    const bytes = readFileSync(FIXTURE);
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 7));
    const s = scanData(new Uint8Array(readFileSync(cut))).summary;
    const index = indexDataFiles([cut], 0, 1);
    expect(index.files[0]).toMatchObject({
      games: s.games,
      positions: s.positions,
      warning: expect.stringMatching(/unfinished/),
    });
    expect(index.train.length).toBe(46);

    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not training data at all\n');
    expect(() => indexDataFiles([notes], 0, 1)).toThrow(DataIndexError);
    expect(() => indexDataFiles([notes], 0, 1)).toThrow(/not a Thoth training data file/);
  });

  it('cuts each epoch into chunks of at most N positions holding every training game once, in a seeded order', () => {
    const index = indexDataFiles([FIXTURE], 0.1, 3);
    const chunks = epochChunks(index, 400, 3, 1);
    const key = (g: { file: number; offset: number }): string => `${g.file}:${g.offset}`;
    expect(chunks.flat().map(key).sort()).toEqual(index.train.map(key).sort());
    for (const c of chunks) expect(c.length === 1 || c.reduce((n, g) => n + g.positions, 0) <= 400).toBe(true);
    expect(chunks.length).toBeGreaterThan(index.trainPositions / 400 - 1);
    expect(epochChunks(index, 400, 3, 1).flat().map(key)).toEqual(chunks.flat().map(key));
    expect(epochChunks(index, 400, 3, 2).flat().map(key)).not.toEqual(chunks.flat().map(key));
    expect(epochChunks(index, 1e9, 3, 1)).toHaveLength(1);
  });

  it(
    'thoth train --chunk-positions: streamed when the data are larger, the same network as without it when they fit',
    async () => {
      const common = [
        '--hidden',
        '16',
        '--epochs',
        '2',
        '--batch',
        '64',
        '--lambda',
        '1',
        '--val',
        '0.2',
        '--threads',
        '2',
        '--quiet',
        FIXTURE,
      ];
      const [streamed, fits, plain] = await Promise.all([
        runThoth(['train', '--out', join(dir, 's.nnue'), '--chunk-positions', '600', ...common]),
        runThoth(['train', '--out', join(dir, 'f.nnue'), '--chunk-positions', '2546', ...common]),
        runThoth(['train', '--out', join(dir, 'p.nnue'), ...common]),
      ]);
      for (const r of [streamed, fits, plain]) expect(r, r.err).toMatchObject({ code: 0, err: '' });
      expect(streamed.out).toMatch(
        /^Data: 2546 positions of 47 games from 1 file indexed in [\d.]+ s: \d+ for training, streamed in shuffled chunks of at most 600 positions; \d+ for validation$/m,
      );
      expect(streamed.out).toMatch(
        /^epoch 2\/2: train loss [\d.]+, val loss [\d.]+, [\d.]+ s, \d+ positions\/s, lr [\d.e-]+, [4-9] chunks$/m,
      );
      const valOf = (out: string): number => Number(/(\d+) for validation/.exec(out)![1]);
      expect(valOf(streamed.out)).toBe(valOf(plain.out));
      const before = Number(/^Validation loss before training ([\d.]+)/m.exec(streamed.out)![1]);
      const after = Number(/^epoch 2\/2: .*val loss ([\d.]+)/m.exec(streamed.out)![1]);
      expect(after).toBeLessThan(before);
      expect(readFileSync(join(dir, 'f.nnue')).equals(readFileSync(join(dir, 'p.nnue')))).toBe(true);
      expect(fits.out).not.toMatch(/streamed/);
    },
    stretched(120_000),
  );
});
