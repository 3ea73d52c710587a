import { describe, expect, it } from 'vitest';
import { EDITION_IDS, PHARAOH, Position, kindOf, legalMoves, tracePath } from '../../src/core/index';
import { scanData, DATA_HEADER_BYTES, GAME_HEADER_BYTES, dataHeader, encodeGameHeader } from '../../src/train/data';
import { DEFAULT_DATAGEN, GamePlayer, type GameTask, type PlayedGame } from '../../src/train/datagen';
import { selfPlaySetups } from '../../src/search/selfplay';

/** Quiet by the rules, move by move: no legal move's shot removes an enemy piece, and the enemy beam misses our Pharaoh. */
function quietByMoves(pos: Position): boolean {
  const us = pos.side;
  const enemy = us ^ 1;
  const laser = pos.edition.laserSquare[enemy];
  const dir = pos.edition.sphinx ? pos.board[laser] & 3 : pos.edition.laserDir[enemy];
  const hit = tracePath(pos.board, laser, dir, !pos.edition.sphinx).killed;
  if (hit >= 0 && kindOf(pos.board[hit]) === PHARAOH && pos.board[hit] >> 5 === us) return false;
  for (const m of legalMoves(pos)) {
    const t = pos.make(m);
    const victim = t >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
    pos.unmake();
    if (t >= 0 && victim >> 5 !== us) return false;
  }
  return true;
}

function positionsOf(g: PlayedGame): { pos: Position; score: number; ply: number; result: number }[] {
  const file = new Uint8Array(DATA_HEADER_BYTES + GAME_HEADER_BYTES + g.records.length);
  file.set(dataHeader());
  encodeGameHeader(g.game, g.edition, g.result, g.ends.length, file, DATA_HEADER_BYTES);
  file.set(g.records, DATA_HEADER_BYTES + GAME_HEADER_BYTES);
  const out: { pos: Position; score: number; ply: number; result: number }[] = [];
  const scan = scanData(file, (r) => {
    const pos = new Position(EDITION_IDS[r.edition]);
    pos.setup(r.board, r.side);
    out.push({ pos, score: r.score, ply: r.ply, result: r.result });
  });
  expect(scan.error).toBeUndefined();
  return out;
}

// Small games: the search polls its node budget every 1024 nodes, so 400 is about 1000 nodes a move.
const settings = { ...DEFAULT_DATAGEN, nodes: 400, skipPlies: 10, maxScore: 1500, maxPlies: 60 };

describe('NNUE data generation', () => {
  it('plays from the 8 setups in turn', () => {
    expect(selfPlaySetups().map((s) => `${s.edition}/${s.setup}`)).toEqual([
      'khet2/classic',
      'khet2/imhotep',
      'khet2/dynasty',
      'khet1/classic',
      'khet1/imhotep',
      'khet1/dynasty',
      'deflexion/classic',
      'deflexion/imhotep',
    ]);
    expect(selfPlaySetups(['deflexion'])).toHaveLength(2);
  });

  it('keeps only quiet positions from the plies asked for, scored within the bound, with their keys; a game repeats exactly', () => {
    const player = new GamePlayer(1);
    let kept = 0;
    let searched = 0;
    const setups = selfPlaySetups();
    for (const i of [0, 5, 6]) {
      const { edition, setup } = setups[i];
      const task: GameTask = { game: i, seed: 5, edition, setup, settings };
      const g = player.play(task);
      expect(g.edition).toBe(EDITION_IDS.indexOf(edition));
      expect(g.plies).toBeGreaterThanOrEqual(settings.randomPlies);
      expect(g.searched).toBe(g.plies - settings.randomPlies);
      const ps = positionsOf(g);
      expect(ps.length + g.skipped.early + g.skipped.notQuiet + g.skipped.score).toBe(g.searched);
      ps.forEach(({ pos, score, ply, result }, k) => {
        expect(quietByMoves(pos), `game ${i} position ${k}`).toBe(true);
        expect(Math.abs(score)).toBeLessThanOrEqual(settings.maxScore);
        expect(ply).toBeGreaterThanOrEqual(settings.skipPlies);
        expect(result).toBe(pos.side === 0 ? g.result : 2 - g.result);
        expect([g.keys[2 * k], g.keys[2 * k + 1]]).toEqual([pos.keyLo, pos.keyHi]);
      });
      kept += ps.length;
      searched += g.searched;
      if (i === 0) {
        const again = new GamePlayer(1).play(task);
        expect(Array.from(again.records)).toEqual(Array.from(g.records));
        expect(again.result).toBe(g.result);
      }
    }
    expect(kept).toBeGreaterThan(searched / 4);
  });

  it('adjudicates a decided game, and the random plies follow the seed', () => {
    const player = new GamePlayer(1);
    const base: GameTask = {
      game: 0,
      seed: 5,
      edition: 'khet2',
      setup: 'classic',
      settings: { ...settings, decidedScore: 1, decidedPlies: 2 },
    };
    const g = player.play(base);
    expect(g.end).toBe('adjudicated');
    expect(g.plies).toBeLessThan(settings.randomPlies + 6);
    const records = (t: GameTask): string =>
      Array.from(player.play({ ...t, settings: { ...settings, maxPlies: 20 } }).records).join();
    expect(records({ ...base, seed: 6 })).not.toBe(records(base));
    expect(records({ ...base, game: 8 })).not.toBe(records(base));
    expect(records(base)).toBe(records(base));
  });
});
