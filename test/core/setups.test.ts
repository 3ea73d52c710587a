/** The starting positions of the rulebook §6 and the editions as data. */
import { describe, expect, it } from 'vitest';
import {
  ANUBIS, DEFLEXION, EDITIONS, KHET1, KHET2, OBELISK, PHARAOH, PYRAMID, SCARAB, SETUPS, SPHINX, STACK, bbCount,
  colorOf, isEditionId, isSetupName, kindOf, makePiece, mirrorBoard, mirrorMove, mirrorPiece, mirrorSquare,
  makeMove, setupKfen, setupsOf, toKfen, ROT_CCW, STEP, N, E, S, W, type EditionId,
} from '../../src/core/index';
import { ALL_SETUPS, load, sq } from './helpers';

/** Rulebook §6, verbatim. */
const RULEBOOK_SETUPS: Record<EditionId, Record<string, string>> = {
  khet2: {
    classic: 'xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1',
    imhotep: 'xv3avkavs>2/10/3P<2p^3/p^Pv2P>s>2p>P</p>P<2S>p<2p^Pv/3Pv2p>3/10/2S>A^KA^3X^ s 0 1',
    dynasty: 'xv3pvavp>3/5k4/p^3pvavs>3/p>1s^1P<1P>3/3p<1p>1S^1P</3S>A^P^3Pv/4K5/3P<A^P^3X^ s 0 1',
  },
  khet1: {
    classic: '4tktp>2/2pv7/3P<6/p^1Pv1d^d>1p>1P</p>1P<1D>D^1p^1Pv/6p>3/7P^2/2P<TKT4 s 0 1',
    imhotep: '4tktd>2/10/3P<2p^3/p^Pv2P>d>2p>P</p>P<2D>p<2p^Pv/3Pv2p>3/10/2D>TKT4 s 0 1',
    dynasty: '4pvtp>3/5k4/p^3pvtd>3/p>1d^1P<1P>3/3p<1p>1D^1P</3D>TP^3Pv/4K5/3P<TP^4 s 0 1',
  },
  deflexion: {
    classic: '4okop>2/2pv7/3P<6/p^1Pv1d^d>1p>1P</p>1P<1D>D^1p^1Pv/6p>3/7P^2/2P<OKO4 g 0 1',
    imhotep: '4okod>2/10/3P<2p^3/p^Pv2P>d>2p>P</p>P<2D>p<2p^Pv/3Pv2p>3/10/2D>OKO4 g 0 1',
  },
};

/** Rulebook: pieces per side (obelisks counted one by one). */
const PIECES: Record<EditionId, Record<number, number>> = {
  khet2: { [SPHINX]: 1, [PHARAOH]: 1, [ANUBIS]: 2, [SCARAB]: 2, [PYRAMID]: 7 },
  khet1: { [PHARAOH]: 1, [SCARAB]: 2, [PYRAMID]: 7, [OBELISK]: 4 },
  deflexion: { [PHARAOH]: 1, [SCARAB]: 2, [PYRAMID]: 7, [OBELISK]: 2 },
};

describe('setups by name (rulebook §6)', () => {
  it('the table holds exactly the rulebook\'s eight setups', () => {
    for (const ed of ['khet2', 'khet1', 'deflexion'] as const) {
      expect(SETUPS[ed]).toEqual(RULEBOOK_SETUPS[ed]);
      for (const [name, text] of Object.entries(RULEBOOK_SETUPS[ed])) {
        expect(isSetupName(name)).toBe(true);
        if (isSetupName(name)) expect(setupKfen(ed, name)).toBe(text);
      }
    }
    expect(setupsOf('khet2')).toEqual(['classic', 'imhotep', 'dynasty']);
    expect(setupsOf('khet1')).toEqual(['classic', 'imhotep', 'dynasty']);
    expect(setupsOf('deflexion')).toEqual(['classic', 'imhotep']);
    expect(setupKfen('deflexion', 'dynasty')).toBeUndefined();
    expect(isSetupName('Classic')).toBe(false);
    expect(isEditionId('khet3')).toBe(false);
  });

  it.each(ALL_SETUPS)('$edition $setup: pieces per side as in the rulebook', ({ edition, setup }) => {
    const pos = load(SETUPS[edition][setup]!, edition);
    for (const color of [0, 1]) {
      const count: Record<number, number> = {};
      for (let s = 0; s < 80; s++) {
        const p = pos.board[s];
        if (p === 0 || colorOf(p) !== color) continue;
        const kind = kindOf(p) === STACK ? OBELISK : kindOf(p);
        count[kind] = (count[kind] ?? 0) + (kindOf(p) === STACK ? 2 : 1);
      }
      expect(count).toEqual(PIECES[edition]);
    }
    // Khet 1.0 sets its obelisks up as two stacks, Deflexion has singles only
    const stacks = Array.from(pos.board).filter((p) => kindOf(p) === STACK).length;
    expect(stacks).toBe(edition === 'khet1' ? 4 : 0);
    expect(pos.side).toBe(0);
    expect(toKfen(pos).split(' ')[1]).toBe(edition === 'deflexion' ? 'g' : 's');
  });

  it.each(ALL_SETUPS)('$edition $setup is 180°-symmetric', ({ edition, setup }) => {
    const pos = load(SETUPS[edition][setup]!, edition);
    expect(Array.from(mirrorBoard(pos.board))).toEqual(Array.from(pos.board));
  });

  it('Khet 1.0 Classic is Khet 2.0 Classic with stacks for Anubises, Djeds for Scarabs and no Sphinx', () => {
    const k2 = load(SETUPS.khet2.classic!, 'khet2');
    const k1 = load(SETUPS.khet1.classic!, 'khet1');
    for (let s = 0; s < 80; s++) {
      const p = k2.board[s];
      const want = kindOf(p) === SPHINX ? 0 : kindOf(p) === ANUBIS ? makePiece(colorOf(p), STACK, 0) : p;
      expect(k1.board[s]).toBe(want);
    }
  });
});

describe('the symmetry helpers', () => {
  it('mirrorPiece swaps the colour and turns the piece 180°', () => {
    expect(mirrorPiece(0)).toBe(0);
    expect(mirrorPiece(makePiece(0, PYRAMID, N))).toBe(makePiece(1, PYRAMID, S));
    expect(mirrorPiece(makePiece(1, ANUBIS, E))).toBe(makePiece(0, ANUBIS, W));
    expect(mirrorPiece(makePiece(0, SPHINX, N))).toBe(makePiece(1, SPHINX, S));
    expect(mirrorPiece(makePiece(0, SPHINX, W))).toBe(makePiece(1, SPHINX, E));
    expect(mirrorPiece(makePiece(0, SCARAB, E))).toBe(makePiece(1, SCARAB, E)); // "/" stays "/"
    expect(mirrorPiece(makePiece(1, STACK, 0))).toBe(makePiece(0, STACK, 0));
    expect(mirrorPiece(makePiece(1, PHARAOH, 0))).toBe(makePiece(0, PHARAOH, 0));
  });

  it('mirrorBoard is an involution; mirrorSquare and mirrorMove turn squares about the centre', () => {
    const pos = load(SETUPS.khet2.classic!.replace('2P<A^KA^3X^', '2P<A^K1A^2X^'), 'khet2');
    const m = mirrorBoard(pos.board);
    expect(Array.from(m)).not.toEqual(Array.from(pos.board));
    expect(Array.from(mirrorBoard(m))).toEqual(Array.from(pos.board));
    expect(mirrorSquare(sq('a1'))).toBe(sq('j8'));
    expect(mirrorSquare(sq('e4'))).toBe(sq('f5'));
    expect(mirrorMove(makeMove(sq('e1'), sq('e2'), STEP))).toBe(makeMove(sq('f8'), sq('f7'), STEP));
    expect(mirrorMove(makeMove(sq('j1'), sq('j1'), ROT_CCW))).toBe(makeMove(sq('a8'), sq('a8'), ROT_CCW));
  });
});

describe('editions as data', () => {
  it('names, sides, lasers and pieces', () => {
    expect(EDITIONS).toEqual({ khet2: KHET2, khet1: KHET1, deflexion: DEFLEXION });
    expect(KHET2.colorNames).toEqual(['Silver', 'Red']);
    expect(KHET1.colorNames).toEqual(['Silver', 'Red']);
    expect(DEFLEXION.colorNames).toEqual(['Gold', 'Silver']);
    expect(KHET2.sideChars).toEqual(['s', 'r']);
    expect(DEFLEXION.sideChars).toEqual(['g', 's']);
    expect([KHET2.sphinx, KHET1.sphinx, DEFLEXION.sphinx]).toEqual([true, false, false]);
    for (const e of [KHET2, KHET1, DEFLEXION]) {
      expect(e.laserSquare).toEqual([sq('j1'), sq('a8')]);
      expect(e.laserDir).toEqual([N, S]);
    }
    expect(KHET2.scarabLetter).toBe('S');
    expect(KHET1.scarabLetter).toBe('D');
    expect(DEFLEXION.scarabLetter).toBe('D');
    expect(KHET2.kinds[OBELISK] || KHET2.kinds[STACK]).toBe(false);
    expect(KHET1.kinds[SPHINX] || KHET1.kinds[ANUBIS]).toBe(false);
    expect(DEFLEXION.kinds[STACK]).toBe(true);
    expect(KHET2.swapWith.map((b, k) => (b ? k : -1)).filter((k) => k >= 0)).toEqual([PYRAMID, ANUBIS]);
    expect(KHET1.swapWith.map((b, k) => (b ? k : -1)).filter((k) => k >= 0)).toEqual([PYRAMID, OBELISK, STACK]);
  });

  it('reserved squares: file a + i1 + i8 are Red\'s, file j + b1 + b8 Silver\'s; Deflexion only the files', () => {
    const names = (r: Int32Array, color: number): string[] => {
      const out: string[] = [];
      for (let s = 0; s < 80; s++) {
        if ((r[color * 3 + (s >> 5)] & (1 << (s & 31))) !== 0) out.push(String.fromCharCode(97 + (s % 10)) + (((s / 10) | 0) + 1));
      }
      return out.sort();
    };
    const fileA = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];
    const fileJ = fileA.map((s) => 'j' + s[1]);
    for (const e of [KHET2, KHET1]) {
      // colour 0 (Silver) may not stand on Red's squares
      expect(names(e.reserved, 0)).toEqual([...fileA, 'i1', 'i8'].sort());
      expect(names(e.reserved, 1)).toEqual([...fileJ, 'b1', 'b8'].sort());
      expect(bbCount(e.reserved, 0)).toBe(10);
      expect(bbCount(e.reserved, 3)).toBe(10);
    }
    expect(names(DEFLEXION.reserved, 0)).toEqual(fileA);
    expect(names(DEFLEXION.reserved, 1)).toEqual(fileJ);
  });
});
