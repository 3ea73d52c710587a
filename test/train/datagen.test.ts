import { describe, expect, it } from 'vitest';
import { EDITION_IDS, PHARAOH, Position, kindOf, legalMoves, tracePath } from '../../src/core/index';
import { scanData, DATA_HEADER_BYTES, GAME_HEADER_BYTES, dataHeader, encodeGameHeader } from '../../src/train/data';
import { DEFAULT_DATAGEN, GamePlayer, type GameTask, type PlayedGame } from '../../src/train/datagen';
import { selfPlaySetups } from '../../src/search/selfplay';
import { DEFAULT_LIMITS, Searcher } from '../../src/search/search';
import { TranspositionTable } from '../../src/search/tt';
import { parseKfen, parseMove } from '../../src/core/index';

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

  it('--depth 1 plays each move of a depth-1 search, cheaper than the smallest node budget', () => {
    // a node budget is polled every 256 nodes after depth 1, so even `nodes: 1` goes on into
    // depth 2; `depth: 1` stops where depth 1 ends
    const cheap = { ...DEFAULT_DATAGEN, nodes: 5000, depth: 1, maxPlies: 40 };
    const [{ edition, setup }] = selfPlaySetups();
    const g = new GamePlayer(1).play({ game: 3, seed: 9, edition, setup, settings: cheap, line: true });
    const line = g.line;
    if (line === undefined) throw new Error('no line');
    const start = parseKfen(line.start, edition);
    if (!start.ok) throw new Error('bad start');
    const pos = start.value;
    const searcher = new Searcher(new TranspositionTable(1));
    let deeper = 0;
    line.moves.forEach((text, i) => {
      const m = parseMove(pos, text);
      if (!m.ok) throw new Error(`move ${i}: ${text}`);
      if (i >= cheap.randomPlies) {
        const r = searcher.run(pos, { ...DEFAULT_LIMITS, depth: 1 });
        expect(m.value, `ply ${i}`).toBe(r.best);
        expect(r.depth).toBe(1);
        if (new Searcher(new TranspositionTable(1)).run(pos, { ...DEFAULT_LIMITS, nodes: 1 }).nodes > r.nodes) deeper++;
      }
      pos.make(m.value);
    });
    expect(line.moves.length - cheap.randomPlies).toBe(g.searched);
    expect(g.searched).toBeGreaterThan(10);
    // the smallest node budget searched past depth 1 at most of these positions
    expect(deeper).toBeGreaterThan(g.searched / 2);
  });
});
