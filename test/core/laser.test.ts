/** The reflection table (docs/rules.md §2.2), the tracer and the beam paths of §7.3. */
import { describe, expect, it } from 'vitest';
import {
  ANUBIS,
  BLOCK,
  E,
  KILL,
  N,
  OBELISK,
  PHARAOH,
  PYRAMID,
  REFLECT,
  S,
  SCARAB,
  SETUPS,
  SPHINX,
  STACK,
  W,
  fire,
  kindOf,
  makePiece,
  oriOf,
  pieceText,
  reflect,
  squareName,
  tracePath,
  type BeamPath,
  type Position,
} from '../../src/core/index';
import { k2, kfen, load, play, sq } from './helpers';

const DIRS = [N, E, S, W] as const;
const DIR_OF: Record<string, number> = { N, E, S, W };
const OUT_NAME = (o: number): string => (o === KILL ? 'KILL' : o === BLOCK ? 'BLOCK' : 'NESW'[o]);

/** Parses a table cell: `KILL` (docs/rules.md: removed), `BLOCK` (stops) or `→X`. */
const cell = (t: string): number => (t === 'KILL' ? KILL : t === 'BLOCK' ? BLOCK : DIR_OF[t.replace('→', '')]);

/** docs/rules.md §2.2 tables, rows = the beam's travel N E S W, columns = the piece's orientation. */
const PYRAMID_TABLE = `
N | KILL | →E | →W | KILL
E | KILL | KILL | →S | →N
S | →E | KILL | KILL | →W
W | →N | →S | KILL | KILL`;
const SCARAB_TABLE = `
N | →W | →E
E | →S | →N
S | →E | →W
W | →N | →S`;
const ANUBIS_TABLE = `
N | KILL | KILL | BLOCK | KILL
E | KILL | KILL | KILL | BLOCK
S | BLOCK | KILL | KILL | KILL
W | KILL | BLOCK | KILL | KILL`;

function parseTable(t: string): Map<number, number[]> {
  const rows = new Map<number, number[]>();
  for (const line of t.trim().split('\n')) {
    const [travel, ...cells] = line.split('|').map((c) => c.trim());
    rows.set(DIR_OF[travel], cells.map(cell));
  }
  return rows;
}

describe('reflection table (docs/rules.md §2.2)', () => {
  const cases: Array<{ kind: number; ori: number; dir: number; want: number; name: string }> = [];
  for (const [dir, cells] of parseTable(PYRAMID_TABLE)) {
    cells.forEach((want, ori) => cases.push({ kind: PYRAMID, ori, dir, want, name: 'Pyramid' }));
  }
  for (const [dir, cells] of parseTable(SCARAB_TABLE)) {
    // column 0 is "N or S", column 1 "E or W": both physical orientations of each column
    cells.forEach((want, col) => {
      cases.push({ kind: SCARAB, ori: col, dir, want, name: 'Scarab' });
      cases.push({ kind: SCARAB, ori: col + 2, dir, want, name: 'Scarab' });
    });
  }
  for (const [dir, cells] of parseTable(ANUBIS_TABLE)) {
    cells.forEach((want, ori) => cases.push({ kind: ANUBIS, ori, dir, want, name: 'Anubis' }));
  }
  for (const dir of DIRS) {
    for (const ori of DIRS) {
      cases.push({ kind: SPHINX, ori, dir, want: BLOCK, name: 'Sphinx' });
      cases.push({ kind: PHARAOH, ori, dir, want: KILL, name: 'Pharaoh' });
      cases.push({ kind: OBELISK, ori, dir, want: KILL, name: 'Obelisk' });
      cases.push({ kind: STACK, ori, dir, want: KILL, name: 'Stack' });
    }
  }

  it('has the expected number of table entries', () => {
    // 16 pyramid + 8 scarab (x2 physical orientations) + 16 anubis + 4 kinds x 16
    expect(cases.length).toBe(16 + 16 + 16 + 64);
  });

  it.each(cases.map((c) => ({ ...c, travel: 'NESW'[c.dir], o: 'NESW'[c.ori], out: OUT_NAME(c.want) })))(
    '$name ori $o, beam travelling $travel -> $out',
    ({ kind, ori, dir, want }) => {
      for (const color of [0, 1]) {
        const code = makePiece(color, kind, ori);
        expect(OUT_NAME(REFLECT[code * 4 + dir])).toBe(OUT_NAME(want));
      }
      expect(OUT_NAME(reflect(kind, ori, dir))).toBe(OUT_NAME(want));
    },
  );

  it('REFLECT agrees with reflect() for every valid piece code and direction', () => {
    for (const color of [0, 1]) {
      for (let kind = 1; kind <= 7; kind++) {
        for (const ori of DIRS) {
          const code = makePiece(color, kind, ori);
          for (const d of DIRS) expect(REFLECT[code * 4 + d]).toBe(reflect(kindOf(code), oriOf(code), d));
        }
      }
    }
  });

  it('a mirror never sends the beam back the way it came, and reflection is reversible', () => {
    for (const kind of [PYRAMID, SCARAB]) {
      for (const ori of DIRS) {
        for (const d of DIRS) {
          const out = reflect(kind, ori, d);
          if (out >= 4) continue;
          expect(out).not.toBe((d + 2) & 3);
          expect(out).not.toBe(d);
          // a beam sent back along the outgoing path retraces the incoming one
          expect(reflect(kind, ori, (out + 2) & 3)).toBe((d + 2) & 3);
        }
      }
    }
  });
});

/** docs/rules.md §7.3's block, verbatim. */
const BEAM_PATHS = `
Classic  Silver: j1 j2 j3 j4(P→W) i4 h4(p→N) h5(p→E) i5 j5(P→N) j6 j7 j8 → off board
Classic  Red:    a8 a7 a6 a5(p→E) b5 c5(P→S) c4(P→W) b4 a4(p→S) a3 a2 a1 → off board
Imhotep  Silver: j1 j2 j3 j4(P→W) i4(p→N) i5(p→E) j5(P→N) j6 j7 j8 → off board
Dynasty  Silver: j1 j2 j3(P→W) i3 h3 g3 f3(P→N) f4(p→E) g4 h4(S→S) h3 h2 h1 → off board
Dynasty  Red:    a8 a7 a6(p→E) b6 c6 d6 e6(p→S) e5(P→W) d5 c5(s→N) c6 c7 c8 → off board`;

interface WantStep {
  square: string;
  letter: string | null;
  out: number | null;
}

function parsePathLine(line: string): { setup: 'classic' | 'imhotep' | 'dynasty'; color: number; steps: WantStep[] } {
  const m = /^(\w+)\s+(Silver|Red):\s+(.*?)\s+→ off board$/.exec(line.trim());
  if (!m) throw new Error(`cannot read rulebook line: ${line}`);
  const steps = m[3].split(/\s+/).map((t): WantStep => {
    const pm = /^([a-j][1-8])(?:\(([A-Za-z])→([NESW])\))?$/.exec(t);
    if (!pm) throw new Error(`cannot read path step ${t}`);
    return { square: pm[1], letter: pm[2] ?? null, out: pm[3] === undefined ? null : DIR_OF[pm[3]] };
  });
  return { setup: m[1].toLowerCase() as 'classic' | 'imhotep' | 'dynasty', color: m[2] === 'Silver' ? 0 : 1, steps };
}

/** Compact text of a traced path, for readable failures. */
function pathText(pos: Position, p: BeamPath): string {
  const parts = p.steps.map((s) =>
    s.piece === 0
      ? squareName(s.square)
      : `${squareName(s.square)}(${pieceText(s.piece, pos.edition)[0]}→${OUT_NAME(s.out)})`,
  );
  return parts.join(' ') + (p.offBoard ? ' → off board' : '');
}

describe('beam paths of the start positions (docs/rules.md §7.3)', () => {
  const lines = BEAM_PATHS.trim().split('\n');
  it.each(lines)('%s', (line) => {
    const { setup, color, steps } = parsePathLine(line);
    const pos = load(SETUPS.khet2[setup]!, 'khet2');
    const laser = color === 0 ? sq('j1') : sq('a8');
    const sphinx = pos.board[laser];
    expect(kindOf(sphinx)).toBe(SPHINX);
    const path = tracePath(pos.board, laser, oriOf(sphinx), false);
    // the rulebook writes the Sphinx square without annotation; the tracer records it with the
    // direction it fires
    expect(path.steps[0]).toEqual({ square: laser, piece: sphinx, out: oriOf(sphinx) });
    const wantText = steps
      .map((s) => (s.letter === null ? s.square : `${s.square}(${s.letter}→${OUT_NAME(s.out!)})`))
      .join(' ');
    const gotText = pathText(pos, { ...path, steps: path.steps.slice(1) });
    expect(`${steps[0].square} ${gotText}`).toBe(`${wantText} → off board`);
    expect(path.offBoard).toBe(true);
    expect(path.killed).toBe(-1);
    // empty squares carry the beam on unchanged
    for (let i = 1; i < path.steps.length; i++) {
      if (path.steps[i].piece === 0) expect(path.steps[i].out).toBe(i === 1 ? oriOf(sphinx) : path.steps[i - 1].out);
    }
    // the fast tracer agrees: nothing is hit
    expect(pos.laserTarget(color)).toBe(-1);
    expect(fire(pos.board, pos.bb, 6, laser, oriOf(sphinx), false)).toBe(-1);
  });

  it('Khet 1.0 and Deflexion Classic beams follow the Khet 2.0 Classic paths (same geometry, laser in the board)', () => {
    const ref = load(SETUPS.khet2.classic!, 'khet2');
    for (const edition of ['khet1', 'deflexion'] as const) {
      const pos = load(SETUPS[edition].classic!, edition);
      for (const color of [0, 1]) {
        const laser = color === 0 ? sq('j1') : sq('a8');
        const dir = color === 0 ? N : S;
        const want = tracePath(ref.board, laser, dir, false);
        const got = tracePath(pos.board, laser, dir, true);
        expect(got.steps.map((s) => s.square)).toEqual(want.steps.map((s) => s.square));
        expect(got.steps.map((s) => s.out)).toEqual(want.steps.map((s) => s.out));
        expect(got.offBoard).toBe(true);
        expect(pos.laserTarget(color)).toBe(-1);
      }
    }
  });
});

describe('laser corner cases', () => {
  it('Khet 1.0: a piece standing on j1 is struck first (a pyramid whose back faces the beam dies)', () => {
    const pos = load(kfen({ j1: 'P<', e1: 'K', f8: 'k' }, 's'), 'khet1');
    const path = tracePath(pos.board, sq('j1'), N, true);
    expect(path.steps).toHaveLength(1);
    expect(path.killed).toBe(sq('j1'));
    expect(pos.laserTarget(0)).toBe(sq('j1'));
    expect(play(pos, 'e1e2')).toBe('j1');
    expect(pos.board[sq('j1')]).toBe(0);
  });

  it('Khet 1.0: a mirror on j1 turns the beam along rank 1 before it goes anywhere else', () => {
    const pos = load(kfen({ j1: 'Pv', c1: 'pv', e2: 'K', f8: 'k' }, 's'), 'khet1');
    const path = tracePath(pos.board, sq('j1'), N, true);
    expect(path.steps.map((s) => squareName(s.square))).toEqual(['j1', 'i1', 'h1', 'g1', 'f1', 'e1', 'd1', 'c1']);
    expect(path.steps[0].out).toBe(W);
    expect(path.killed).toBe(sq('c1'));
    expect(play(pos, 'e2e3')).toBe('c1');
  });

  it('Khet 1.0: a Djed on j1 reflects the beam (and is never removed)', () => {
    const pos = load(kfen({ j1: 'D^', a1: 'p<', e2: 'K', f8: 'k' }, 's'), 'khet1');
    // D^ is "\": N -> W; the red pyramid on a1 facing W (mirror NW) is struck from the east: dies
    expect(pos.laserTarget(0)).toBe(sq('a1'));
    const onlyDjed = load(kfen({ j1: 'D>', e2: 'K', f8: 'k' }, 's'), 'khet1');
    // D> is "/": N -> E, straight off the board
    const path = tracePath(onlyDjed.board, sq('j1'), N, true);
    expect(path.steps).toHaveLength(1);
    expect(path.steps[0].out).toBe(E);
    expect(path.offBoard).toBe(true);
  });

  it('Khet 1.0: Red laser enters at a8 and strikes a stack standing there: only the top goes', () => {
    const pos = load(kfen({ a8: 't', e1: 'K', f8: 'k' }, 'r'), 'khet1');
    expect(pos.laserTarget(1)).toBe(sq('a8'));
    expect(play(pos, 'f8f7')).toBe('a8');
    expect(pieceText(pos.board[sq('a8')], pos.edition)).toBe('o');
    // next Red shot removes the last obelisk
    play(pos, 'e1e2');
    expect(play(pos, 'f7f8')).toBe('a8');
    expect(pos.board[sq('a8')]).toBe(0);
  });

  it('Deflexion: the laser also strikes a piece on its own square first', () => {
    const pos = load(kfen({ j1: 'O', e1: 'K', f8: 'k' }, 'g'), 'deflexion');
    expect(pos.laserTarget(0)).toBe(sq('j1'));
  });

  it('Khet 2.0: the firing Sphinx is not struck by its own beam', () => {
    const pos = load(k2({ e1: 'K', f8: 'k' }));
    const path = tracePath(pos.board, sq('j1'), N, false);
    expect(path.offBoard).toBe(true);
    expect(path.steps.map((s) => squareName(s.square))).toEqual(['j1', 'j2', 'j3', 'j4', 'j5', 'j6', 'j7', 'j8']);
  });

  it("a beam reaching a Sphinx stops there: nothing removed (the other Sphinx and one's own)", () => {
    // Red fires S down file a, the pyramid on a1 (mirror NE) sends it E along rank 1 into the
    // Silver Sphinx on j1
    const pos = load(k2({ a1: 'p^', f8: 'k', e2: 'K' }, 'r'));
    const path = tracePath(pos.board, sq('a8'), S, false);
    const last = path.steps[path.steps.length - 1];
    expect(squareName(last.square)).toBe('j1');
    expect(last.out).toBe(BLOCK);
    expect(path.killed).toBe(-1);
    expect(path.offBoard).toBe(false);
    const before = Array.from(pos.board);
    expect(play(pos, 'f8f7')).toBeNull();
    expect(pos.board[sq('j1')]).toBe(before[sq('j1')]);
    expect(pos.pliesSinceRemoval).toBe(1);

    // Silver's own beam sent round by three Silver pyramids back into its own Sphinx
    const own = load(kfen({ j1: 'X<', a8: 'xv', c1: 'P^', c3: 'P>', j3: 'Pv', e5: 'K', f8: 'k' }, 's'), 'khet2');
    // j1 W -> c1 (P^: W -> N) -> c2 -> c3 (P>: travelling N, mirror SE -> E) -> d3..i3 -> j3
    // (Pv: travelling E, mirror SW -> S) -> j2 -> j1: the Sphinx blocks
    const p2 = tracePath(own.board, sq('j1'), W, false);
    expect(p2.steps.map((s) => squareName(s.square)).join(' ')).toBe(
      'j1 i1 h1 g1 f1 e1 d1 c1 c2 c3 d3 e3 f3 g3 h3 i3 j3 j2 j1',
    );
    expect(p2.steps[p2.steps.length - 1].out).toBe(BLOCK);
    expect(own.laserTarget(0)).toBe(-1);
    expect(play(own, 'e5e6')).toBeNull();
    expect(kindOf(own.board[sq('j1')])).toBe(SPHINX);
  });

  it('an Anubis blocks a beam on its front and dies from the side', () => {
    const front = load(k2({ j4: 'Av', e1: 'K', f8: 'k' }));
    expect(front.laserTarget(0)).toBe(-1);
    expect(tracePath(front.board, sq('j1'), N, false).steps.at(-1)!.out).toBe(BLOCK);
    const side = load(k2({ j4: 'A<', e1: 'K', f8: 'k' }));
    expect(side.laserTarget(0)).toBe(sq('j4'));
  });

  it('fire() and tracePath() agree on hand-made positions in every edition', () => {
    const positions: Array<[string, 'khet2' | 'khet1' | 'deflexion']> = [
      [k2({ j4: 'Pv', e4: 's^', e8: 'A<', f8: 'k', e1: 'K' }), 'khet2'],
      [kfen({ j5: 'P<', e4: 'T', e1: 'K', f8: 'k' }, 's'), 'khet1'],
      [kfen({ j3: 'Pv', d3: 'd>', d8: 'o', e1: 'K', f8: 'k' }, 'g'), 'deflexion'],
    ];
    for (const [text, ed] of positions) {
      const pos = load(text, ed);
      for (const color of [0, 1]) {
        const laser = color === 0 ? sq('j1') : sq('a8');
        const dir = pos.edition.sphinx ? oriOf(pos.board[laser]) : color === 0 ? N : S;
        const path = tracePath(pos.board, laser, dir, !pos.edition.sphinx);
        expect(pos.laserTarget(color)).toBe(path.killed);
      }
    }
  });
});
