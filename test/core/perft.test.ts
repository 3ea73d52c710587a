/** Perft and the test vectors of docs/rules.md §7.1 and §7.2. */
import { describe, expect, it } from 'vitest';
import {
  PHARAOH,
  SETUPS,
  colorOf,
  divide,
  formatMove,
  gameStatus,
  kindOf,
  mirrorPosition,
  perft,
  perftStats,
  type EditionId,
  type SetupName,
} from '../../src/core/index';
import { load, moveList, moveNames, play, snapshot, sq } from './helpers';

interface PerftRow {
  label: string;
  edition: EditionId;
  setup: SetupName;
  pharaohRotation: boolean;
  counts: [number, number, number, number];
}

/** docs/rules.md §7.1, depths 1-4 (depth 5 belongs in the benchmark). */
const PERFT_TABLE: PerftRow[] = [
  {
    label: 'Khet 2.0 Classic',
    edition: 'khet2',
    setup: 'classic',
    pharaohRotation: false,
    counts: [77, 5_920, 451_859, 34_065_081],
  },
  {
    label: 'Khet 2.0 Imhotep',
    edition: 'khet2',
    setup: 'imhotep',
    pharaohRotation: false,
    counts: [73, 5_343, 387_073, 27_828_428],
  },
  {
    label: 'Khet 2.0 Dynasty',
    edition: 'khet2',
    setup: 'dynasty',
    pharaohRotation: false,
    counts: [70, 4_854, 334_850, 23_091_809],
  },
  {
    label: 'Khet 2.0 Classic, Pharaoh rotation on',
    edition: 'khet2',
    setup: 'classic',
    pharaohRotation: true,
    counts: [78, 6_075, 469_808, 35_890_101],
  },
  {
    label: 'Khet 1.0 Classic',
    edition: 'khet1',
    setup: 'classic',
    pharaohRotation: false,
    counts: [79, 6_228, 489_517, 38_429_531],
  },
  {
    label: 'Khet 1.0 Imhotep',
    edition: 'khet1',
    setup: 'imhotep',
    pharaohRotation: false,
    counts: [75, 5_635, 420_807, 31_554_572],
  },
  {
    label: 'Khet 1.0 Dynasty',
    edition: 'khet1',
    setup: 'dynasty',
    pharaohRotation: false,
    counts: [70, 4_849, 334_458, 23_157_225],
  },
  {
    label: 'Deflexion Classic',
    edition: 'deflexion',
    setup: 'classic',
    pharaohRotation: false,
    counts: [73, 5_321, 384_929, 27_835_135],
  },
  {
    label: 'Deflexion Imhotep',
    edition: 'deflexion',
    setup: 'imhotep',
    pharaohRotation: false,
    counts: [68, 4_638, 313_473, 21_308_170],
  },
];

const start = (row: Pick<PerftRow, 'edition' | 'setup' | 'pharaohRotation'>) =>
  load(SETUPS[row.edition][row.setup]!, row.edition, { pharaohRotation: row.pharaohRotation });

describe('perft (docs/rules.md §7.1)', () => {
  const cases = PERFT_TABLE.flatMap((row) => row.counts.map((nodes, i) => ({ ...row, depth: i + 1, nodes })));
  it.each(cases)('$label, depth $depth = $nodes', (c) => {
    const pos = start(c);
    const before = snapshot(pos);
    expect(perft(pos, c.depth)).toBe(c.nodes);
    expect(snapshot(pos)).toEqual(before);
  });

  it('Khet 2.0 Imhotep d4 is 27,828,428 (the pushed-piece check of §3.4 is in; 27,828,431 without it)', () => {
    expect(perft(start({ edition: 'khet2', setup: 'imhotep', pharaohRotation: false }), 4)).not.toBe(27_828_431);
  });

  it.each(PERFT_TABLE)('$label: the same numbers for the second player (mirrored position), depths 1-3', (row) => {
    const pos = mirrorPosition(start(row));
    expect(pos.side).toBe(1);
    for (let d = 1; d <= 3; d++) expect(perft(pos, d)).toBe(row.counts[d - 1]);
  });

  it.each(PERFT_TABLE)('$label: divide sums to perft at depths 1-3', (row) => {
    const pos = start(row);
    for (let d = 1; d <= 3; d++) {
      const lines = divide(pos, d);
      expect(lines.length).toBe(row.counts[0]);
      expect(lines.reduce((s, l) => s + l.nodes, 0)).toBe(row.counts[d - 1]);
      if (d === 1) expect(lines.every((l) => l.nodes === 1)).toBe(true);
    }
  });

  it('perft(0) is 1; a finished game has no continuations', () => {
    const pos = start({ edition: 'khet2', setup: 'dynasty', pharaohRotation: false });
    expect(perft(pos, 0)).toBe(1);
    expect(play(pos, 'j3j2')).toBe('e2');
    expect(pos.winner).toBe(1);
    for (let d = 1; d <= 3; d++) expect(perft(pos, d)).toBe(0);
    expect(divide(pos, 2)).toEqual([]);
    expect(perftStats(pos, 2)).toEqual({ nodes: 0, removals: 0, opponentPharaoh: 0, ownPharaoh: 0 });
  });
});

describe('removals and Pharaoh hits at the last ply (docs/rules.md §7.1, Khet 2.0)', () => {
  const TABLE = [
    { setup: 'classic', d: 1, removals: 8, opp: 0, own: 0 },
    { setup: 'classic', d: 2, removals: 1_045, opp: 0, own: 8 },
    { setup: 'classic', d: 3, removals: 82_443, opp: 5, own: 6_256 },
    { setup: 'imhotep', d: 2, removals: 767, opp: 1, own: 55 },
    { setup: 'dynasty', d: 1, removals: 14, opp: 0, own: 1 },
    { setup: 'dynasty', d: 2, removals: 1_104, opp: 0, own: 69 },
  ] as const;
  it.each(TABLE)('$setup depth $d: $removals removals, $opp opponent Pharaoh, $own own Pharaoh', (row) => {
    const pos = start({ edition: 'khet2', setup: row.setup, pharaohRotation: false });
    const s = perftStats(pos, row.d);
    expect(s).toEqual({
      nodes: perft(pos, row.d),
      removals: row.removals,
      opponentPharaoh: row.opp,
      ownPharaoh: row.own,
    });
  });

  it('perftStats agrees with an independent count by hand at depth 2 (Dynasty)', () => {
    const pos = start({ edition: 'khet2', setup: 'dynasty', pharaohRotation: false });
    let nodes = 0;
    let removals = 0;
    let opp = 0;
    let own = 0;
    for (const m1 of moveList(pos)) {
      pos.make(m1);
      if (pos.winner < 0) {
        for (const m2 of moveList(pos)) {
          const mover = pos.side;
          const before = Array.from(pos.board);
          const k = pos.make(m2);
          nodes++;
          if (k >= 0) {
            removals++;
            const piece = before[k];
            if (kindOf(piece) === PHARAOH) {
              if (colorOf(piece) === mover) own++;
              else opp++;
            }
          }
          pos.unmake();
        }
      }
      pos.unmake();
    }
    expect({ nodes, removals, opp, own }).toEqual({ nodes: 4_854, removals: 1_104, opp: 0, own: 69 });
  });
});

/** docs/rules.md §7.2, verbatim. */
const CLASSIC_77 = `
c1b1 c1b2 c1c2 c1d2 c1+ c1- c4b3 c4b4 c4b5 c4c3 c4d3 c4d4 c4d5 c4+ c4- c5b4 c5b5 c5b6 c5c6 c5d4
c5d5 c5+ c5- d1c2 d1d2 d1e2 d1+ d1- d6c6 d6d5 d6d7 d6e6 d6e7 d6+ d6- e1d2 e1e2 e1f2 e4d3 e4d4
e4d5 e4e3 e4f3 e4+ f1e2 f1f2 f1g1 f1g2 f1+ f1- f4e3 f4f3 f4g3 f4g4 f4g5 f4+ h2g1 h2g2 h2h1 h2h3
h2i2 h2i3 h2+ h2- j1-x j4i3x j4i4x j4i5x j4j3 j4+x j4- j5i4x j5i5 j5i6 j5j6 j5+x j5-x`;

describe('the 77 moves of Khet 2.0 Classic (docs/rules.md §7.2)', () => {
  const listed = CLASSIC_77.trim().split(/\s+/);
  const names = listed.map((t) => t.replace(/x$/, ''));
  const removing = new Set(listed.filter((t) => t.endsWith('x')).map((t) => t.slice(0, -1)));

  it('generates exactly these 77 moves', () => {
    expect(listed).toHaveLength(77);
    const pos = start({ edition: 'khet2', setup: 'classic', pharaohRotation: false });
    expect(moveNames(pos)).toEqual([...names].sort());
    expect(pos.countMoves()).toBe(77);
  });

  it('the shot removes a piece after exactly the moves marked x', () => {
    const pos = start({ edition: 'khet2', setup: 'classic', pharaohRotation: false });
    const before = snapshot(pos);
    const got: string[] = [];
    for (const m of moveList(pos)) {
      const k = pos.make(m);
      expect(pos.killedAt(pos.ply - 1)).toBe(k);
      if (k >= 0) {
        got.push(formatMove(m));
        expect(pos.pliesSinceRemoval).toBe(0);
        expect(pos.board[k]).toBe(0); // nothing but single pieces in Khet 2.0
      } else {
        expect(pos.pliesSinceRemoval).toBe(1);
      }
      expect(pos.winner).toBe(-1);
      pos.unmake();
      expect(snapshot(pos)).toEqual(before);
    }
    expect(got.sort()).toEqual([...removing].sort());
    expect(removing.size).toBe(8);
  });

  it('j1- turns the Sphinx west: the beam runs along rank 1 into the side of the Anubis on f1', () => {
    const pos = start({ edition: 'khet2', setup: 'classic', pharaohRotation: false });
    expect(play(pos, 'j1-')).toBe('f1');
    expect(pos.board[sq('j1')] & 3).toBe(3); // now facing W
  });
});

describe('Dynasty: j3j2 makes Silver shoot its own Pharaoh on e2 (docs/rules.md §7.2)', () => {
  it('Red wins at once', () => {
    const pos = start({ edition: 'khet2', setup: 'dynasty', pharaohRotation: false });
    const silverPharaoh = pos.board[sq('e2')];
    expect(kindOf(silverPharaoh)).toBe(PHARAOH);
    expect(colorOf(silverPharaoh)).toBe(0);
    expect(play(pos, 'j3j2')).toBe('e2');
    expect(pos.board[sq('e2')]).toBe(0);
    expect(pos.killedPieceAt(0)).toBe(silverPharaoh);
    expect(pos.winner).toBe(1);
    const st = gameStatus(pos);
    expect(st.result).toBe('win');
    expect(st.winner).toBe(1);
    expect(st.reason).toBe('pharaoh');
    expect(st.text).toMatch(/Red wins/);
    pos.unmake();
    expect(pos.winner).toBe(-1);
    expect(pos.board[sq('e2')]).toBe(silverPharaoh);
    expect(gameStatus(pos).result).toBe('ongoing');
  });

  it("it is the only own-Pharaoh hit among Dynasty's 70 first moves", () => {
    const pos = start({ edition: 'khet2', setup: 'dynasty', pharaohRotation: false });
    const hits: string[] = [];
    for (const m of moveList(pos)) {
      pos.make(m);
      if (pos.winner >= 0) hits.push(formatMove(m));
      pos.unmake();
    }
    expect(hits).toEqual(['j3j2']);
  });
});
