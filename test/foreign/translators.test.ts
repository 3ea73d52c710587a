/**
 * The translators of other engines' protocols (src/foreign), line by line: the positions they
 * write are those the engines write of their own setups (quoted from their sources), moves both
 * ways, `go` in each engine's form, info lines, and what each protocol cannot say.
 */
import { describe, expect, it } from 'vitest';
import {
  THOTH_DIALECT,
  SETUPS,
  dialectRules,
  parseDialect,
  parseKfen,
  turnScarabs,
  type Dialect,
} from '../../src/core/index';
import { createTranslator, moveTimeFromClock } from '../../src/foreign/foreign';
import { keiKfen } from '../../src/foreign/kei';
import { khet2aiString } from '../../src/foreign/khet2ai';
import { KHETAI_GROWTH, KhetaiTranslator, khetaiBoard, khetaiDepth } from '../../src/foreign/khetai';
import { ukiBoard } from '../../src/foreign/uki';

const dialect = (t: string): Dialect => {
  const r = parseDialect(t);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const pos = (kfen: string, d: Dialect = THOTH_DIALECT) => {
  const r = parseKfen(kfen, 'khet2', dialectRules(d));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('positions as the engines write their own setups', () => {
  it("UKI: ddket's Classic and Imhotep exactly, its Dynasty up to the Scarabs' half turns", () => {
    // the strings of the binary khetplayer.dailey (MIT 6.172, project4)
    expect(ukiBoard(pos(SETUPS.khet2.classic))).toBe(
      'hd------adpdadyd--------yl--------------------Yu------------yr--Yl--slsu--yd--Yuyd--Yu--SdSr--yr--Yl------------yd--------------------Yr--------YuAuPuAu------Hu w',
    );
    expect(ukiBoard(pos(SETUPS.khet2.imhotep!))).toBe(
      'hd------adpdadsu------------------------------Yu----yr------yrYl----Ydsu----ydYuydYu----Sdyu----yrYl------Yl----yd------------------------------SdAuPuAu------Hu w',
    );
    // a Scarab's letters u/d and l/r name the same mirror
    const axis = (s: string) => s.replace(/([Ss])[ud]/g, '$1|').replace(/([Ss])[lr]/g, '$1-');
    expect(axis(ukiBoard(pos(SETUPS.khet2.dynasty!)))).toBe(
      axis(
        'hd------yladyd----------------pd--------yr------yladsd------yd--sr--Yu--Yd------------yu--yd--Sl--Yu------SuAuYr------Yl--------Pu----------------YuAuYr------Hu w',
      ),
    );
  });

  it('Khet2-AI: its Standard, Imhotep and Dynasty strings (CommsHandler.h), an empty rank written empty', () => {
    expect(khet2aiString(pos(SETUPS.khet2.classic))).toBe(
      'x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0',
    );
    expect(khet2aiString(pos(SETUPS.khet2.imhotep!))).toBe(
      'x33a3ka3s22//3P42p13/p1P32P2s22p2P4/p2P42S2p42p1P3/3P32p23//2S2A1KA13X1 0',
    );
    expect(khet2aiString(pos(SETUPS.khet2.dynasty!))).toBe(
      'x33p3a3p23/5k4/p13p3a3s23/p21s11P41P23/3p41p21S11P4/3S2A1P13P3/4K5/3P4A1P13X1 0',
    );
  });

  it("KEI: dandailey/khet's Classic (its Scarabs turned) rank by rank as its ENGINE_SPEC.md gives it", () => {
    const k = keiKfen(pos(turnScarabs(SETUPS.khet2.classic)));
    expect(k.startsWith('ss3asf-asp22/2p37/3P46/p11P31c\\c/1p21P4/p21P41C/C\\1p11P3/')).toBe(true);
    expect(k.endsWith('/2P4AnF-An3Sn s')).toBe(true);
    // Thoth's own Classic has the other mirrors
    expect(keiKfen(pos(SETUPS.khet2.classic))).toContain('/p11P31c/c\\1p21P4/');
  });

  it("khetai: its README's Classic board, up to the Scarabs' half turns and the Pharaoh's facing", () => {
    const readme = [
      'L2',
      '--',
      '--',
      '--',
      'A2',
      'X2',
      'A2',
      'P1',
      '--',
      '--',
      '--',
      '--',
      'P2',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      'p3',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      'P0',
      '--',
      'p2',
      '--',
      'S2',
      'S3',
      '--',
      'P1',
      '--',
      'p3',
      'P1',
      '--',
      'p3',
      '--',
      's1',
      's0',
      '--',
      'P0',
      '--',
      'p2',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      'P1',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      '--',
      'p0',
      '--',
      '--',
      '--',
      '--',
      'p3',
      'a0',
      'x0',
      'a0',
      '--',
      '--',
      '--',
      'l0',
    ];
    const norm = (cells: string[]) =>
      cells.map((c) => (/^[Ss]/.test(c) ? c[0] + (Number(c[1]) & 1) : /^[Xx]/.test(c) ? c[0] : c));
    const ours = khetaiBoard(pos(SETUPS.khet2.classic)).match(/../g)!;
    expect(norm(ours)).toEqual(norm(readme));
  });
});

describe('moves, go and info lines', () => {
  const ddket = dialect('pharaoh-rotation+two-scarab-rotations');

  it('UKI: rotations R/L both ways, no move in another notation', () => {
    const t = createTranslator('uki', ddket);
    expect(t.fromThoth('position startpos moves c4b5 h5i4').toEngine[0]).toMatch(
      /^position fen \S{160} w moves c4b5 h5i4$/,
    );
    const p = pos(SETUPS.khet2.classic, ddket);
    const e4minus = t.readMove(p, 'e4L');
    expect(e4minus.ok && t.writeMove(p, e4minus.value)).toBe('e4L');
    expect(t.readMove(p, 'e1R').ok).toBe(true);
    const plus = t.readMove(p, 'e4+');
    expect(!plus.ok && plus.error).toMatch(/'e4\+' is not a UKI move/);
    expect(t.fromThoth('go wtime 900 btime 800 winc 10 binc 10').toEngine).toEqual([
      'go wtime 900 btime 800 winc 10 binc 10',
    ]);
    expect(t.fromThoth('go movetime 100').toThoth[0]).toMatch(/^info string error: go: UKI has no movetime/);
    t.fromThoth('position startpos');
    expect(t.fromEngine('bestmove j1L')).toEqual(['bestmove j1-']);
    expect(t.fromEngine('info depth 3 time 1 nodes 9633 nps 4816849 score cp 133 pv c4b5 h5i4 d1e2')).toEqual([
      'info depth 3 score cp 133 nodes 9633 nps 4816849 time 1 pv c4b5 h5i4 d1e2',
    ]);
    expect(t.fromEngine('ukiok')).toEqual(['uciok']);
  });

  it("KEI: steps c7-d6, swaps with x, a Sphinx's and a Scarab's turn as +; a clock becomes a move time", () => {
    const t = createTranslator('kei', THOTH_DIALECT);
    const line = t.fromThoth('position startpos moves f4g3 a8- e4+ c7c6').toEngine[0];
    expect(line).toMatch(/ moves f4xg3 a8\+ e4\+ c7-c6$/);
    // Silver to move: its clock; then Red to move: Red's
    expect(t.fromThoth('go wtime 1000 btime 2000 winc 10 binc 10').toEngine).toEqual(['go movetime 47']);
    t.fromThoth('position startpos moves f4g3');
    expect(t.fromThoth('go wtime 1000 btime 2000 winc 10 binc 10').toEngine).toEqual([
      `go movetime ${moveTimeFromClock(2000, 10)}`,
    ]);
    expect(moveTimeFromClock(1000, 10)).toBe(47);
    expect(moveTimeFromClock(2000, 0, 4)).toBe(500);
    expect(t.fromEngine('info depth 2 score -35 nodes 900 pv a8+')).toEqual([
      'info depth 2 score cp -35 nodes 900 pv a8-',
    ]);
    expect(t.fromEngine('bestmove (none)')).toEqual(['bestmove (none)']);
    // not KEI's notation: a protocol fault, said before the move (the referee quotes it)
    expect(t.fromEngine('bestmove c7d6')).toEqual([
      "info string error: kei: 'c7d6' is not a KEI move (e.g. c7-d6, e5xf4, e5+) in 'bestmove c7d6'",
      'bestmove c7d6',
    ]);
    expect(t.fromThoth('setoption name Hash value 16').toThoth[0]).toMatch(/KEI engines have no options/);
  });

  it('Khet2-AI: no handshake of its own, a move time ended on the wall clock, mate in plies', () => {
    const t = createTranslator('khet2ai', dialect('swap-onto-reserved'));
    expect(t.fromThoth('uci').toEngine).toEqual(['isready']);
    expect(t.fromEngine('info string Unrecognised message type: isready')).toEqual([
      'id name Khet2-AI',
      'id author Alex Kent',
      'uciok',
    ]);
    expect(t.fromThoth('isready').toEngine).toEqual(['isready']);
    expect(t.fromEngine('info string Unrecognised message type: isready')).toEqual(['readyok']);
    expect(t.fromThoth('position startpos moves e4+').toEngine).toEqual([
      'position x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0 e4+',
    ]);
    expect(t.fromThoth('go wtime 1000 btime 1000').toEngine).toEqual(['go movetime 40']);
    expect(t.fromThoth('go wtime 1000 btime 1000').stopAfterMs).toBe(40);
    expect(t.fromThoth('go nodes 100').toThoth[0]).toMatch(/Khet2-AI has no go nodes/);
    expect(t.fromEngine('info time 5 mate 3')).toEqual(['info score mate 2 time 5']);
    expect(t.fromEngine('info time 5 depth 4 score -40')).toEqual(['info depth 4 score cp -40 time 5']);
    // its search saw every move lost: a resignation
    expect(t.fromEngine('bestmove none')).toEqual(['info string resign', 'bestmove (none)']);
    // a Scarab's counter-clockwise turn is written as its only one
    const p = pos(SETUPS.khet2.classic);
    const m = t.readMove(p, 'e4-');
    expect(m.ok && t.writeMove(p, m.value)).toBe('e4+');
  });

  it('khetai: the board with each move request, whole seconds, its squares read back', () => {
    const t = createTranslator('khetai', dialect(KHETAI));
    t.fromThoth('position startpos');
    expect(t.fromThoth('go depth 4').toEngine[0]).toMatch(/^move 0 4 3600 L2------/);
    // a move time: the depth that fits it (khetaiDepth, below), the time in whole seconds as a ceiling
    expect(t.fromThoth('go movetime 2400').toEngine[0]).toMatch(/^move 0 5 2 /);
    expect(t.fromThoth('go wtime 1000 btime 1000').toEngine[0]).toMatch(/^move 0 3 1 /);
    expect(t.fromThoth('go wtime 1000 btime 1000 depth 2').toEngine[0]).toMatch(/^move 0 2 1 /);
    // khetai's square 73 is d1, 63 is d2; the move is one of the depth asked but one
    expect(t.fromEngine('move 73 63 0')).toEqual([expect.stringMatching(/^info depth 1 time \d+$/), 'bestmove d1d2']);
    expect(t.fromEngine('move 44 44 -1')).toEqual(['bestmove e4-']);
    expect(t.fromEngine('move 0 1 0')[0]).toMatch(/^info string error: khetai: a8b8 \(0 1 0\): illegal here/);
  });
});

const KHETAI = 'two-scarab-rotations+swap-onto-reserved+swap-sphinx';

describe("khetai's depth from the clock", () => {
  it('is the deepest whose expected time fits the move time, from the last answer', () => {
    // before any answer in the game: a depth 3 answer is expected to take 20 ms
    expect(khetaiDepth(47, undefined)).toBe(3);
    expect(khetaiDepth(10, undefined)).toBe(2);
    expect(khetaiDepth(200, undefined)).toBe(4);
    // raised while the last answer took well under the budget (KHETAI_GROWTH times per ply)
    expect(KHETAI_GROWTH).toBe(8);
    expect(khetaiDepth(47, { depth: 3, ms: 5 })).toBe(4);
    expect(khetaiDepth(47, { depth: 3, ms: 6 })).toBe(3);
    expect(khetaiDepth(47, { depth: 2, ms: 0.5 })).toBe(4);
    // lowered when it took more
    expect(khetaiDepth(47, { depth: 4, ms: 60 })).toBe(3);
    expect(khetaiDepth(47, { depth: 4, ms: 400 })).toBe(2);
    expect(khetaiDepth(47, { depth: 3, ms: 47 })).toBe(3);
    expect(khetaiDepth(47, { depth: 3, ms: 48 })).toBe(2);
    // never under 2 nor over the depth asked (25 at most); an answer in no time allows no endless depth
    expect(khetaiDepth(0, { depth: 6, ms: 5000 })).toBe(2);
    expect(khetaiDepth(1000, { depth: 3, ms: 0.01 }, 6)).toBe(6);
    expect(khetaiDepth(1000, { depth: 3, ms: 0 })).toBe(7);
    expect(khetaiDepth(1e12, { depth: 3, ms: 1 })).toBe(16);
    expect(khetaiDepth(1e30, { depth: 3, ms: 1 })).toBe(25);
    expect(khetaiDepth(1000, undefined, 1)).toBe(2);
  });

  it("follows khetai's answer times in the game, timed by the translator's clock", () => {
    let clock = 0;
    const t = new KhetaiTranslator(dialect(KHETAI), () => clock);
    t.fromThoth('position startpos');
    // 40 ms from the clock: depth 3; answered in 4 ms
    expect(t.fromThoth('go wtime 1000 btime 1000 winc 0 binc 0').toEngine[0]).toMatch(/^move 0 3 1 /);
    clock += 4;
    expect(t.fromEngine('move 73 63 0')).toEqual(['info depth 2 time 4', 'bestmove d1d2']);
    t.fromThoth('position startpos moves d1d2');
    // 4 × 8 = 32 ms fits 39 ms: depth 4, which takes 120 ms
    expect(t.fromThoth('go wtime 996 btime 990').toEngine[0]).toMatch(/^move 1 4 1 /);
    clock += 120;
    expect(t.fromEngine('move 6 16 0')).toEqual(['info depth 3 time 120', 'bestmove g8g7']);
    t.fromThoth('position startpos moves d1d2 g8g7');
    // 120 ms was over the budget: back to 3
    expect(t.fromThoth('go wtime 996 btime 870').toEngine[0]).toMatch(/^move 0 3 1 /);
    clock += 30;
    expect(t.fromEngine('error max_time (seconds) must be 1 or greater')).toEqual([
      'info string error: khetai: error max_time (seconds) must be 1 or greater',
      'bestmove (none)',
    ]);
    // an error is no answer: the last answer stays the 120 ms one
    expect(t.fromThoth('go wtime 996 btime 870').toEngine[0]).toMatch(/^move 0 3 1 /);
    // a new game starts from the prior again
    t.fromThoth('ucinewgame');
    t.fromThoth('position startpos');
    expect(t.fromThoth('go wtime 5000 btime 5000').toEngine[0]).toMatch(/^move 0 4 1 /);
  });
});
