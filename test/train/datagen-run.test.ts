/**
 * A datagen run on its own (src/train/datagen-run.ts), in this process: the file opened and
 * resumed, duplicates dropped, games appended whole, files merged, a worker's shard checked, games
 * played on worker threads to a target and stopped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selfPlaySetups } from '../../src/search/selfplay';
import { DATA_HEADER_BYTES, gameBlocks, scanData } from '../../src/train/data';
import { DatagenError } from '../../src/train/data-file';
import { DEFAULT_DATAGEN, GamePlayer, type PlayedGame } from '../../src/train/datagen';
import { DatagenRun, readMergeInput, type DatagenOpenOptions } from '../../src/train/datagen-run';

const dir = mkdtempSync(join(tmpdir(), 'thoth-datagen-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = { ...DEFAULT_DATAGEN, nodes: 100, maxPlies: 30, skipPlies: 8 };
const setups = selfPlaySetups(['khet2']);
/** The thread entry datagen's games run on (the CLI names it so: src/cli/datagen-command.ts). */
const GAME_THREAD = new URL('../../src/threads/datagen-worker.ts', import.meta.url);
const player = new GamePlayer(settings.hashMb);
const play = (game: number): PlayedGame => player.play({ game, seed: 3, ...setups[game % 3], settings });
const games = [0, 1, 2].map(play);

function options(out: string, o: Partial<DatagenOpenOptions> = {}): DatagenOpenOptions {
  return { out, dedup: true, positions: 1_000_000, games: Infinity, firstGame: 0, note: () => {}, ...o };
}

describe('DatagenRun', () => {
  it('creates the file, appends whole games, and resumes from it: counts, next game, duplicates dropped', () => {
    const out = join(dir, 'a.bin');
    const run = DatagenRun.open(options(out));
    expect(run.had).toMatchObject({ games: 0, positions: 0, lastGame: -1 });
    run.begin();
    run.appendGame(games[0]);
    run.appendGame(games[1]);
    run.close();
    const kept = run.positions; // a position a game reaches twice is kept once
    expect(kept + run.duplicates).toBe(games[0].ends.length + games[1].ends.length);
    expect(scanData(readFileSync(out)).summary).toMatchObject({ games: 2, positions: kept, lastGame: 1 });
    expect(run.tally.searched).toBe(games[0].searched + games[1].searched);

    const again = DatagenRun.open(options(out, { positions: kept + 1 }));
    expect(again.had).toMatchObject({ games: 2, positions: kept });
    expect(again.nextGame).toBe(2);
    expect(again.done()).toBe(false);
    again.appendGame(games[1]); // every position there already
    again.close();
    expect(again.duplicates).toBe(games[1].ends.length);
    expect(again.totals()).toEqual({ games: 3, positions: kept });
    expect(DatagenRun.open(options(out, { positions: kept })).done()).toBe(true);
    expect(DatagenRun.open(options(out, { firstGame: 100 })).nextGame).toBe(100);
  });

  it('cuts an unfinished last game off, and refuses a file that is not training data or cannot be written', () => {
    const out = join(dir, 'cut.bin');
    const run = DatagenRun.open(options(out));
    run.appendGame(games[0]);
    run.appendGame(games[2]);
    run.close();
    const whole = readFileSync(out);
    writeFileSync(out, whole.subarray(0, whole.length - 3));
    const notes: string[] = [];
    const resumed = DatagenRun.open(options(out, { note: (s) => notes.push(s) }));
    expect(resumed.had.games).toBe(1);
    expect(notes[0]).toMatch(/bytes of it dropped$/);
    expect(readFileSync(out).length).toBe(resumed.had.validBytes);

    const foreign = join(dir, 'notes.txt');
    writeFileSync(foreign, 'not training data\n');
    const refused = (o: DatagenOpenOptions): DatagenError => {
      try {
        DatagenRun.open(o);
      } catch (e) {
        if (e instanceof DatagenError) return e;
      }
      throw new Error('not refused');
    };
    expect(refused(options(foreign))).toMatchObject({ usage: false });
    expect(readFileSync(foreign, 'utf8')).toBe('not training data\n');
    expect(refused(options(join(dir, 'no', 'x.bin')))).toMatchObject({ usage: true });
  });

  it('merges files: positions already there dropped, a game left with none not written', () => {
    const a = join(dir, 'm-a.bin');
    const b = join(dir, 'm-b.bin');
    for (const [path, gs] of [
      [a, [games[0], games[1]]],
      [b, [games[1], games[2]]],
    ] as const) {
      const run = DatagenRun.open(options(path, { dedup: false }));
      for (const g of gs) run.appendGame(g);
      run.close();
    }
    const out = join(dir, 'm-out.bin');
    const run = DatagenRun.open(options(out));
    const lines: string[] = [];
    run.merge([readMergeInput(a, () => {}), readMergeInput(b, () => {})], (p, g, n) => lines.push(`${p} ${g} ${n}`));
    run.close();
    const [n0, n1, n2] = games.map((g) => g.ends.length);
    expect(lines.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([`${a} 2`, `${b} 1`]); // game 1 again: none new
    expect(run.positions + run.duplicates).toBe(n0 + 2 * n1 + n2);
    expect(run.duplicates).toBeGreaterThanOrEqual(n1);
    expect(scanData(readFileSync(out)).summary).toMatchObject({ games: 3, positions: run.positions });
    expect(() => readMergeInput(join(dir, 'none.bin'), () => {})).toThrow(DatagenError);
  });

  it("takes a worker's shard only when it holds the chunk's games, and writes each game once", () => {
    const shardFile = join(dir, 'shard.bin');
    const s = DatagenRun.open(options(shardFile, { dedup: false }));
    s.appendGame(games[0]);
    s.appendGame(games[1]);
    s.close();
    const shard = new Uint8Array(readFileSync(shardFile));
    const run = DatagenRun.open(options(join(dir, 'dist.bin')));
    expect(run.appendShard(4, 2, shard)).toEqual({ rejected: 'it holds games 0, 1, not 4-5' });
    expect(run.appendShard(0, 2, shard.subarray(0, shard.length - 1))).toHaveProperty('rejected');
    const n = games[0].ends.length + games[1].ends.length;
    expect(run.appendShard(0, 2, shard)).toEqual({ positions: n });
    expect(run.appendShard(0, 2, shard)).toEqual({ positions: 0 }); // written already
    run.close();
    expect(gameBlocks(readFileSync(join(dir, 'dist.bin'))).blocks.map((b) => b.game)).toEqual([0, 1]);
  });

  it('plays games on worker threads to its target, the same games as played here; stop() drops the games in progress', async () => {
    const out = join(dir, 'play.bin');
    const run = DatagenRun.open(options(out, { games: 3 }));
    await run.play({ entry: GAME_THREAD, threads: 1, seed: 3, setups, settings });
    expect(run.stopped).toBe(false);
    expect(run.totals().games).toBe(3);
    const blocks = gameBlocks(readFileSync(out)).blocks;
    expect(blocks.map((b) => b.game)).toEqual([0, 1, 2]);
    const here = join(dir, 'here.bin');
    const same = DatagenRun.open(options(here));
    for (const g of games) same.appendGame(g);
    same.close();
    expect(readFileSync(out).equals(readFileSync(here))).toBe(true);

    const stopped = join(dir, 'stopped.bin');
    const r = DatagenRun.open(options(stopped));
    const playing = r.play({ entry: GAME_THREAD, threads: 1, seed: 3, setups, settings });
    r.stop();
    await playing;
    expect(r.stopped).toBe(true);
    expect(r.games).toBe(0);
    expect(readFileSync(stopped).length).toBe(DATA_HEADER_BYTES);
  });
});
