/**
 * A board set up by hand (src/core/legality.ts): each rule's problem in words, and, on random
 * boards of each edition, no problem exactly when the KFEN reader takes the board for play and the
 * counts are the edition's.
 */
import { describe, expect, it } from 'vitest';
import {
  ANUBIS,
  EDITIONS,
  EDITION_IDS,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SETUPS,
  SPHINX,
  STACK,
  armyOf,
  boardToKfen,
  makePiece,
  parseKfenData,
  parsePlayableKfen,
  parseSquare,
  setupKfen,
  setupProblems,
  setupsOf,
  type EditionId,
} from '../../src/core/index';
import { makeRng } from '../../src/core/opening';

const boardOf = (kfen: string, ed: EditionId = 'khet2'): Uint8Array => {
  const r = parseKfenData(kfen, ed);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.board;
};
const texts = (board: ArrayLike<number>, ed: EditionId = 'khet2'): string[] =>
  setupProblems(board, ed).map((p) => p.text);
const put = (board: Uint8Array, sq: string, p: number): Uint8Array => {
  const b = Uint8Array.from(board);
  b[parseSquare(sq)] = p;
  return b;
};

describe('setupProblems', () => {
  it('every setup of every edition has none', () => {
    for (const ed of EDITION_IDS)
      for (const name of setupsOf(ed)) expect(texts(boardOf(setupKfen(ed, name) as string, ed), ed)).toEqual([]);
  });

  it("the armies: Khet 2.0's 13 pieces, Khet 1.0's four obelisks, Deflexion's two", () => {
    const named = (ed: EditionId) =>
      Object.fromEntries(
        armyOf(ed)
          .map((n, k) => [k, n] as const)
          .filter(([, n]) => n > 0),
      );
    expect(named('khet2')).toEqual({ [SPHINX]: 1, [PHARAOH]: 1, [PYRAMID]: 7, [ANUBIS]: 2, [SCARAB]: 2 });
    expect(named('khet1')).toEqual({ [PHARAOH]: 1, [PYRAMID]: 7, [SCARAB]: 2, [OBELISK]: 4 });
    expect(named('deflexion')).toEqual({ [PHARAOH]: 1, [PYRAMID]: 7, [SCARAB]: 2, [OBELISK]: 2 });
  });

  it('an empty board: no Pharaohs, and in Khet 2.0 no Sphinxes', () => {
    expect(texts(new Uint8Array(80))).toEqual([
      'Silver has no Pharaoh: each side needs one.',
      'Red has no Pharaoh: each side needs one.',
      "Silver has no Sphinx on j1: it fires Silver's laser.",
      "Red has no Sphinx on a8: it fires Red's laser.",
    ]);
    expect(texts(new Uint8Array(80), 'deflexion')).toEqual([
      'Gold has no Pharaoh: each side needs one.',
      'Silver has no Pharaoh: each side needs one.',
    ]);
  });

  it('two Pharaohs, a Sphinx away from home or facing the wrong way, a reserved square, one Pyramid too many', () => {
    const classic = boardOf(SETUPS.khet2.classic);
    expect(texts(put(classic, 'e4', makePiece(0, PHARAOH, 0)))).toEqual([
      'Silver has 2 Pharaohs (e1 and e4): each side has one.',
    ]);
    const turned = put(classic, 'j1', makePiece(0, SPHINX, 1));
    expect(setupProblems(turned, 'khet2')).toEqual([
      { text: "Silver's Sphinx on j1 faces E: it may face only N or W.", squares: [parseSquare('j1')] },
    ]);
    const away = put(put(classic, 'e4', makePiece(1, SPHINX, 2)), 'a8', 0);
    expect(texts(away)).toEqual([
      "Red's Sphinx may stand only on a8, not on e4.",
      "Red has no Sphinx on a8: it fires Red's laser.",
    ]);
    expect(texts(put(classic, 'j5', makePiece(1, PYRAMID, 0)))).toEqual([
      "Red's Pyramid on j5 stands on a square kept for Silver.",
      'Red has 8 Pyramids: Khet 2.0 gives a side 7.',
    ]);
  });

  it('Khet 1.0: obelisk stacks count two; Deflexion has no Sphinx', () => {
    const classic = boardOf(SETUPS.khet1.classic, 'khet1');
    expect(texts(put(classic, 'e5', makePiece(0, OBELISK, 0)), 'khet1')).toEqual([
      'Silver has 5 Obelisks (a stack counts two): Khet 1.0 gives a side 4.',
    ]);
    // a stack made of two singles of the setup is the same army
    expect(texts(put(put(classic, 'd1', 0), 'e5', makePiece(0, STACK, 0)), 'khet1')).toEqual([]);
    expect(
      texts(put(boardOf(SETUPS.deflexion.classic, 'deflexion'), 'e5', makePiece(1, SPHINX, 2)), 'deflexion'),
    ).toEqual(['Deflexion has no Sphinx: remove the piece on e5.']);
    expect(
      texts(put(boardOf(SETUPS.deflexion.classic, 'deflexion'), 'e5', makePiece(1, STACK, 0)), 'deflexion'),
    ).toEqual(['Silver has 4 Obelisks (a stack counts two): Deflexion gives a side 2.']);
  });

  it('Djeds are named so in Khet 1.0', () => {
    const b = put(boardOf(SETUPS.khet1.classic, 'khet1'), 'a4', makePiece(0, SCARAB, 0));
    expect(texts(b, 'khet1')).toEqual([
      "Silver's Djed on a4 stands on a square kept for Red.",
      'Silver has 3 Djeds: Khet 1.0 gives a side 2.',
    ]);
  });

  it('on random boards: no problem exactly when the board reads as a KFEN for play and the counts fit', () => {
    const rand = makeRng(55);
    let clean = 0;
    for (const ed of EDITION_IDS) {
      const edition = EDITIONS[ed];
      const kinds = [SPHINX, PHARAOH, PYRAMID, ANUBIS, SCARAB, OBELISK, STACK].filter((k) => edition.kinds[k]);
      const army = armyOf(ed);
      for (let i = 0; i < 1000; i++) {
        const board = new Uint8Array(80);
        // mostly near-legal boards: the Sphinxes at home (sometimes turned), a Pharaoh each, a few more pieces
        if (edition.sphinx)
          for (const c of [0, 1])
            if (rand() < 0.95) board[edition.laserSquare[c]] = makePiece(c, SPHINX, Math.floor(rand() * 4));
        for (const c of [0, 1]) {
          const n = rand() < 0.9 ? 1 : rand() < 0.5 ? 0 : 2;
          for (let k = 0; k < n; k++) board[Math.floor(rand() * 80)] = makePiece(c, PHARAOH, 0);
        }
        const extra = Math.floor(rand() * 12);
        for (let k = 0; k < extra; k++) {
          const sq = Math.floor(rand() * 80);
          if (edition.sphinx && edition.laserSquare.includes(sq)) continue;
          const kind = kinds[Math.floor(rand() * kinds.length)];
          board[sq] = makePiece(rand() < 0.5 ? 0 : 1, kind, Math.floor(rand() * 4));
        }
        const problems = setupProblems(board, ed);
        const reads = parsePlayableKfen(boardToKfen(board, 0, 0, 1, edition), ed).ok;
        const counts = [0, 1].every((c) =>
          kinds.every((k) => {
            if (k === STACK || k === PHARAOH || k === SPHINX) return true;
            let n = 0;
            for (const p of board)
              if (p !== 0 && p >> 5 === c)
                n += (p >> 2) % 8 === k ? 1 : k === OBELISK && (p >> 2) % 8 === STACK ? 2 : 0;
            return n <= army[k];
          }),
        );
        expect(problems.length === 0, boardToKfen(board, 0, 0, 1, edition)).toBe(reads && counts);
        if (problems.length === 0) clean++;
      }
    }
    // the boards drawn are not all faulty: the property is tested both ways
    expect(clean).toBeGreaterThan(100);
  });
});
