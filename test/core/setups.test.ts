/** The starting positions of docs/rules.md §6 and the editions as data. */
import { describe, expect, it } from 'vitest';
import {
  ANUBIS,
  DEFLEXION,
  EDITIONS,
  KHET1,
  KHET2,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SETUPS,
  SPHINX,
  STACK,
  bbCount,
  colorOf,
  isEditionId,
  isSetupName,
  kindOf,
  makePiece,
  mirrorBoard,
  mirrorMove,
  mirrorPiece,
  mirrorSquare,
  makeMove,
  perft,
  setupKfen,
  setupNamesText,
  setupsOf,
  toKfen,
  ROT_CCW,
  STEP,
  N,
  E,
  S,
  W,
  type EditionId,
  type SetupName,
  MAX_MOVES,
  mirrorPosition,
  squareName,
} from '../../src/core/index';
import { ALL_SETUPS, kfen, load, sq } from './helpers';

/** docs/rules.md §6, verbatim. */
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

describe('setups by name (docs/rules.md §6)', () => {
  it("the table holds exactly the rulebook's eight setups", () => {
    for (const ed of ['khet2', 'khet1', 'deflexion'] as const) {
      expect({ ...SETUPS[ed], mercury: undefined, sophie: undefined }).toEqual({
        ...RULEBOOK_SETUPS[ed],
        mercury: undefined,
        sophie: undefined,
      });
      for (const [name, text] of Object.entries(RULEBOOK_SETUPS[ed])) {
        expect(isSetupName(name)).toBe(true);
        if (isSetupName(name)) expect(setupKfen(ed, name)).toBe(text);
      }
    }
    expect(setupsOf('khet2')).toEqual(['classic', 'imhotep', 'dynasty', 'mercury', 'sophie']);
    expect(setupsOf('khet1')).toEqual(['classic', 'imhotep', 'dynasty']);
    expect(setupsOf('deflexion')).toEqual(['classic', 'imhotep']);
    expect(setupKfen('deflexion', 'dynasty')).toBeUndefined();
    expect(isSetupName('Classic')).toBe(false);
    expect(isSetupName('sophie')).toBe(true);
    expect(setupKfen('khet1', 'mercury')).toBeUndefined();
    expect(setupNamesText()).toBe('classic, imhotep, dynasty, mercury or sophie');
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

  it("reserved squares: file a + i1 + i8 are Red's, file j + b1 + b8 Silver's; Deflexion only the files", () => {
    const names = (r: Int32Array, color: number): string[] => {
      const out: string[] = [];
      for (let s = 0; s < 80; s++) {
        if ((r[color * 3 + (s >> 5)] & (1 << (s & 31))) !== 0)
          out.push(String.fromCharCode(97 + (s % 10)) + (((s / 10) | 0) + 1));
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

/**
 * Laser Chess's Mercury and Sophie (376095a), written here from the piece lists they were added from, rank by
 * rank, independently of the table: `r`/`s` = Red/Silver; a Pyramid by the corner its mirror faces
 * (NE ^, SE >, SW v, NW <), an Anubis by the side its shield faces, a Scarab by its diagonal
 * (`/` >, `\` ^), a Sphinx by where it fires.
 */
const PYR: Record<string, string> = { NE: '^', SE: '>', SW: 'v', NW: '<' };
const DIR: Record<string, string> = { N: '^', E: '>', S: 'v', W: '<' };
function fromList(list: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list.split(/,\s*/)) {
    const m = /^([rs])(Sphinx|Pharaoh|Anubis|Pyramid|Scarab)(?::(\S+))? ([a-j][1-8])$/.exec(item.trim());
    if (!m) throw new Error(`bad item ${item}`);
    const [, color, kind, ori, square] = m;
    const letter = { Sphinx: 'X', Pharaoh: 'K', Anubis: 'A', Pyramid: 'P', Scarab: 'S' }[kind]!;
    const suffix =
      kind === 'Pyramid'
        ? PYR[ori]
        : kind === 'Scarab'
          ? ori === '/'
            ? '>'
            : '^'
          : kind === 'Pharaoh'
            ? ''
            : DIR[ori];
    if (suffix === undefined) throw new Error(`bad orientation ${item}`);
    out[square] = (color === 's' ? letter : letter.toLowerCase()) + suffix;
  }
  return out;
}
const ISSUE_LISTS: Record<'mercury' | 'sophie', string> = {
  mercury:
    'rSphinx:S a8, rPyramid:SW e8, rPharaoh f8, rPyramid:SE g8, sScarab:/ j8, rAnubis:S f7, rPyramid:SE g7, ' +
    'rPyramid:SE a6, rScarab:/ d6, rAnubis:S f6, rPyramid:NE a5, sPyramid:NW e5, sPyramid:SW i5, rPyramid:NE b4, ' +
    'rPyramid:SE f4, sPyramid:SW j4, sAnubis:N e3, sScarab:/ g3, sPyramid:NW j3, sPyramid:NW d2, sAnubis:N e2, ' +
    'rScarab:/ a1, sPyramid:NW d1, sPharaoh e1, sPyramid:NE f1, sSphinx:N j1',
  sophie:
    'rSphinx:S a8, rPharaoh e8, sPyramid:NW f8, rPyramid:SE g8, rAnubis:S d7, rAnubis:E f7, sPyramid:SW j7, ' +
    'rPyramid:NE a6, rPyramid:SW e6, rPyramid:SE f6, sScarab:/ h6, sPyramid:NW j6, rScarab:\\ h5, sScarab:\\ c4, ' +
    'rPyramid:SE a3, rScarab:/ c3, sPyramid:NW e3, sPyramid:NE f3, sPyramid:SW j3, rPyramid:NE a2, sAnubis:W e2, ' +
    'sAnubis:N g2, sPyramid:NW d1, rPyramid:SE e1, sPharaoh f1, sSphinx:N j1',
};
const LASER_CHESS: Array<{ setup: 'mercury' | 'sophie'; counts: [number, number, number] }> = [
  // perft 1-3 also reproduced by an independent move counter written from the rulebook alone
  { setup: 'mercury', counts: [68, 4_439, 290_283] },
  { setup: 'sophie', counts: [74, 5_320, 377_146] },
];

/**
 * Silver's first moves counted from a piece list by the docs/rules.md §3 alone (no move generator):
 * steps to empty squares Silver may use, a Scarab's swaps with a Pyramid or Anubis (both squares
 * allowed for the piece that lands there), two turns for a Pyramid or Anubis, one for a Scarab
 * and one for the Sphinx.
 */
function countFirstMoves(pieces: Record<string, string>): number {
  const barred = (silver: boolean, f: number, r: number): boolean =>
    silver ? f === 0 || (f === 8 && (r === 1 || r === 8)) : f === 9 || (f === 1 && (r === 1 || r === 8));
  let n = 0;
  for (const [square, text] of Object.entries(pieces)) {
    if (text[0] !== text[0].toUpperCase()) continue; // Red's
    const kind = text[0];
    if (kind === 'X') {
      n += 1;
      continue;
    }
    const f = square.charCodeAt(0) - 97;
    const r = Number(square[1]);
    for (const df of [-1, 0, 1]) {
      for (const dr of [-1, 0, 1]) {
        const [tf, tr] = [f + df, r + dr];
        if ((df === 0 && dr === 0) || tf < 0 || tf > 9 || tr < 1 || tr > 8 || barred(true, tf, tr)) continue;
        const other = pieces[String.fromCharCode(97 + tf) + tr];
        if (other === undefined) n++;
        else if (
          kind === 'S' &&
          'PA'.includes(other[0].toUpperCase()) &&
          !barred(other[0] === other[0].toUpperCase(), f, r)
        )
          n++;
      }
    }
    n += kind === 'P' || kind === 'A' ? 2 : kind === 'S' ? 1 : 0;
  }
  return n;
}

/** Silver's first moves whose shot removes one of Silver's own pieces. */
function ownRemovals(text: string): number {
  const pos = load(text);
  const moves = new Int32Array(MAX_MOVES);
  const n = pos.generate(moves, 0);
  let own = 0;
  for (let i = 0; i < n; i++) {
    if (pos.make(moves[i]) >= 0 && colorOf(pos.killedPieceAt(pos.ply - 1)) === 0) own++;
    pos.unmake();
  }
  return own;
}

/**
 * The public source: aji/khet-table on GitHub, src/bb.rs at commit c4a748a (2026-04-19), its text grids
 * `Board::new_dynasty()`, `new_imhotep()`, `new_mercury()` and `new_sophie()` read square by square into
 * KFEN (2026-12-04; its `*` is Red, its "White" is Silver; its Pyramid tokens `^>` `v>` `<v` `<^` are the
 * mirror's corner NE, SE, SW, NW; `/` and `\\` Scarabs; `Av`, `<A` Anubis shields).
 */
const KHET_TABLE: Record<'dynasty' | 'imhotep' | 'mercury' | 'sophie', string> = {
  dynasty: 'xv3pvavp>3/5k4/p^3pvavs>3/p>1s^1P<1P>3/3p<1p>1S^1P</3S>A^P^3Pv/4K5/3P<A^P^3X^',
  imhotep: 'xv3avkavs>2/10/3P<2p^3/p^Pv2P>s>2p>P</p>P<2S>p<2p^Pv/3Pv2p>3/10/2S>A^KA^3X^',
  mercury: 'xv3pvkp>2S>/5avp>3/p>2s>1av4/p^3P<3Pv1/1p^3p>3Pv/4A^1S>2P</3P<A^5/s>2P<KP^3X^',
  sophie: 'xv3kP<p>3/3av1a>3Pv/p^3pvp>1S>1P</7s^2/2S^7/p>1s>1P<P^3Pv/p^3A<1A^3/3P<p>K3X^',
};

describe('Laser Chess setups Mercury and Sophie (Khet 2.0)', () => {
  it('Sophie is the first piece list exactly; Mercury is too, but for its Sphinxes, which fire E and W', () => {
    expect(SETUPS.khet2.sophie).toBe(kfen(fromList(ISSUE_LISTS.sophie), 's'));
    expect(SETUPS.khet2.mercury).toBe(kfen({ ...fromList(ISSUE_LISTS.mercury), a8: 'x>', j1: 'X<' }, 's'));
    expect([fromList(ISSUE_LISTS.mercury).a8, fromList(ISSUE_LISTS.mercury).j1]).toEqual(['xv', 'X^']);
  });

  it('khet-table (src/bb.rs): Sophie square for square; Mercury but for the Sphinxes; Dynasty, Imhotep as the rulebook', () => {
    const board = (text: string) => text.split(' ')[0];
    expect(board(SETUPS.khet2.dynasty!)).toBe(KHET_TABLE.dynasty);
    expect(board(SETUPS.khet2.imhotep!)).toBe(KHET_TABLE.imhotep);
    expect(board(SETUPS.khet2.sophie!)).toBe(KHET_TABLE.sophie);
    expect(board(SETUPS.khet2.mercury!)).toBe(KHET_TABLE.mercury.replace(/^xv/, 'x>').replace(/X\^$/, 'X<'));
    // khet-table and the first piece list agree on all 26 pieces of both, Sphinxes included
    expect(KHET_TABLE.mercury).toBe(board(kfen(fromList(ISSUE_LISTS.mercury), 's')));
    expect(KHET_TABLE.sophie).toBe(board(kfen(fromList(ISSUE_LISTS.sophie), 's')));
  });

  it("why Mercury's Sphinxes fire E and W: facing N, nearly every first move shoots Silver's own Pyramid on j3", () => {
    expect(ownRemovals(kfen(fromList(ISSUE_LISTS.mercury), 's'))).toBe(64);
    expect(ownRemovals(SETUPS.khet2.mercury!)).toBe(16);
    expect(ownRemovals(SETUPS.khet2.classic!)).toBe(8);
    expect(ownRemovals(SETUPS.khet2.dynasty!)).toBe(14);
    expect(ownRemovals(SETUPS.khet2.sophie!)).toBe(15);
  });

  it('perft 1 agrees with a count of the moves made from the piece lists by the rules alone', () => {
    expect(countFirstMoves(fromList(ISSUE_LISTS.mercury))).toBe(LASER_CHESS[0].counts[0]);
    expect(countFirstMoves(fromList(ISSUE_LISTS.sophie))).toBe(LASER_CHESS[1].counts[0]);
    // the counter itself, on the rulebook's Classic (§7.2: 77 moves)
    const classic: Record<string, string> = {};
    const rows = SETUPS.khet2.classic!.split(' ')[0].split('/');
    rows.forEach((row, i) => {
      let f = 0;
      for (const m of row.matchAll(/(\d+)|([A-Za-z][\^>v<]?)/g)) {
        if (m[1]) f += Number(m[1]);
        else classic[String.fromCharCode(97 + f++) + (8 - i)] = m[2];
      }
    });
    expect(countFirstMoves(classic)).toBe(77);
  });

  it.each(LASER_CHESS)('$setup: 13 pieces a side as in Khet 2.0, each on a square its colour may use', ({ setup }) => {
    const pos = load(SETUPS.khet2[setup]!);
    for (const color of [0, 1]) {
      const count: Record<number, number> = {};
      for (let s = 0; s < 80; s++) {
        const p = pos.board[s];
        if (p === 0 || colorOf(p) !== color) continue;
        count[kindOf(p)] = (count[kindOf(p)] ?? 0) + 1;
        // docs/rules.md §1, by name: Silver never on file a, i1, i8; Red never on file j, b1, b8
        const name = squareName(s);
        const barred =
          color === 0
            ? name[0] === 'a' || name === 'i1' || name === 'i8'
            : name[0] === 'j' || name === 'b1' || name === 'b8';
        expect(barred, `${name}`).toBe(false);
        expect(KHET2.reserved[color * 3 + (s >> 5)] & (1 << (s & 31)), `${name}`).toBe(0);
      }
      expect(count).toEqual(PIECES.khet2);
      expect(Object.values(count).reduce((a, b) => a + b, 0)).toBe(13);
    }
    expect(kindOf(pos.board[sq('a8')])).toBe(SPHINX);
    expect(colorOf(pos.board[sq('a8')])).toBe(1);
    expect(kindOf(pos.board[sq('j1')])).toBe(SPHINX);
    expect(colorOf(pos.board[sq('j1')])).toBe(0);
    expect(pos.side).toBe(0);
  });

  it.each(LASER_CHESS)(
    "$setup is point-symmetric: each square's piece is its 180° image's, colour swapped and turned",
    ({ setup }) => {
      const pos = load(SETUPS.khet2[setup]!);
      for (let s = 0; s < 80; s++) expect(pos.board[mirrorSquare(s)], squareName(s)).toBe(mirrorPiece(pos.board[s]));
      expect(Array.from(mirrorBoard(pos.board))).toEqual(Array.from(pos.board));
    },
  );

  it.each(LASER_CHESS)('$setup: perft 1-3 = $counts, the same for the second player', ({ setup, counts }) => {
    const name: SetupName = setup;
    const pos = load(setupKfen('khet2', name)!);
    const mirrored = mirrorPosition(pos);
    for (let d = 1; d <= 3; d++) {
      expect(perft(pos, d)).toBe(counts[d - 1]);
      expect(perft(mirrored, d)).toBe(counts[d - 1]);
    }
  });
});
