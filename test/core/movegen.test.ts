/** Move generation (docs/rules.md §3) in every edition: exact move sets and the effect of each kind. */
import { describe, expect, it } from 'vitest';
import {
  MAX_MOVES,
  ROT_CCW,
  ROT_CW,
  STACK_ON,
  STEP,
  SWAP,
  UNSTACK,
  formatMove,
  moveType,
  type EditionId,
} from '../../src/core/index';
import { k2, kfen, load, moveList, moveNames, movesFrom, mv, snapshot, sq } from './helpers';

const sorted = (s: string): string[] => s.trim().split(/\s+/).sort();

/** Checks generate() against countMoves() and for duplicates. */
function consistent(text: string, ed: EditionId = 'khet2', pharaohRotation = false): void {
  const pos = load(text, ed, { pharaohRotation });
  const names = moveNames(pos);
  expect(new Set(names).size).toBe(names.length);
  expect(pos.countMoves()).toBe(names.length);
  const buf = new Int32Array(MAX_MOVES);
  expect(pos.generate(buf, 7) - 7).toBe(names.length); // writes at an offset too
}

describe('Khet 2.0: the moves of each piece', () => {
  it('Pharaoh: up to 8 steps, no rotation', () => {
    const pos = load(k2({ e4: 'K', f8: 'k' }));
    expect(movesFrom(pos, 'e4')).toEqual(sorted('e4d3 e4d4 e4d5 e4e3 e4e5 e4f3 e4f4 e4f5'));
    const edge = load(k2({ e1: 'K', f8: 'k' }));
    expect(movesFrom(edge, 'e1')).toEqual(sorted('e1d1 e1d2 e1e2 e1f1 e1f2'));
    expect(movesFrom(edge, 'f8')).toEqual([]); // Red's piece: not Silver's move
  });

  it('Pyramid and Anubis: 8 steps + 2 rotations', () => {
    for (const letter of ['P^', 'P>', 'Pv', 'P<', 'A^', 'A>', 'Av', 'A<']) {
      const pos = load(k2({ e4: letter }));
      expect(movesFrom(pos, 'e4')).toEqual(sorted('e4d3 e4d4 e4d5 e4e3 e4e5 e4f3 e4f4 e4f5 e4+ e4-'));
    }
  });

  it('Scarab: 8 steps + one rotation (generated as +)', () => {
    for (const letter of ['S^', 'S>']) {
      const pos = load(k2({ e4: letter }));
      expect(movesFrom(pos, 'e4')).toEqual(sorted('e4d3 e4d4 e4d5 e4e3 e4e5 e4f3 e4f4 e4f5 e4+'));
    }
  });

  it('Sphinx: exactly one move, to its other legal orientation', () => {
    expect(moveNames(load(k2({})))).toEqual(['j1-']);
    expect(moveNames(load(kfen({ j1: 'X<', a8: 'xv' }, 's')))).toEqual(['j1+']);
    expect(moveNames(load(k2({}, 'r')))).toEqual(['a8-']);
    expect(moveNames(load(kfen({ j1: 'X^', a8: 'x>' }, 'r')))).toEqual(['a8+']);
  });

  it('a Scarab swaps with Pyramids and Anubises of either colour, never with a Pharaoh, Scarab or Sphinx', () => {
    const text = k2({ e4: 'S^', d5: 'P<', f5: 'pv', d4: 'A^', f4: 'a>', e5: 'K', e3: 'k', d3: 's>', f3: 'S>' });
    const pos = load(text);
    expect(movesFrom(pos, 'e4')).toEqual(sorted('e4d5 e4f5 e4d4 e4f4 e4+'));
    for (const m of ['e4d5', 'e4f5', 'e4d4', 'e4f4']) expect(moveType(mv(pos, m))).toBe(SWAP);
    expect(movesFrom(pos, 'f3')).not.toContain('f3e4');
    // next to the Sphinx
    const nearSphinx = load(k2({ i2: 'S^' }));
    expect(movesFrom(nearSphinx, 'i2')).toEqual(sorted('i2h1 i2h2 i2h3 i2i3 i2j2 i2j3 i2+'));
    consistent(text);
  });

  it('steps never go onto an occupied square or a square reserved for the other colour', () => {
    // Silver on b2: a1 a2 a3 are Red's; b1 is Silver's own
    const silver = load(k2({ b2: 'P^', c3: 'p^' }));
    expect(movesFrom(silver, 'b2')).toEqual(sorted('b2b1 b2b3 b2c1 b2c2 b2+ b2-'));
    // Silver on h2: i1 is Red's
    expect(movesFrom(load(k2({ h2: 'A^' })), 'h2')).toEqual(sorted('h2g1 h2g2 h2g3 h2h1 h2h3 h2i2 h2i3 h2+ h2-'));
    // Red on i2: j1 (the Sphinx), j2, j3 are Silver's; i1 is Red's own
    const red = load(k2({ i2: 'p^' }, 'r'));
    expect(movesFrom(red, 'i2')).toEqual(sorted('i2h1 i2h2 i2h3 i2i1 i2i3 i2+ i2-'));
    // Red on b7: b8 and nothing else is Silver's there (a-file is Red's own)
    const red2 = load(k2({ b7: 's>' }, 'r'));
    expect(movesFrom(red2, 'b7')).toEqual(sorted('b7a6 b7a7 b7b6 b7c6 b7c7 b7c8 b7+'));
  });

  it('swaps onto and from reserved squares: both pieces must be allowed where they land', () => {
    // Silver Scarab on b2: a2/a3 hold Red pieces on Red's file, the Scarab may not go there; b1
    // (Silver's square) and c1 are fine for everyone involved
    const a = load(k2({ b2: 'S^', a2: 'p^', a3: 'a>', b1: 'P<', c1: 'p>' }));
    expect(movesFrom(a, 'b2')).toEqual(sorted('b2b1 b2b3 b2c1 b2c2 b2c3 b2+'));
    // Silver Scarab on b1 (Silver's square): a Red pyramid pushed there is illegal, a Silver one is not
    const b = load(k2({ b1: 'S>', c2: 'pv', c1: 'P^', a2: 'a^' }));
    expect(movesFrom(b, 'b1')).toEqual(sorted('b1b2 b1c1 b1+'));
    // Silver Scarab on j2: a Red pyramid would be pushed onto file j
    const c = load(k2({ j2: 'S^', i3: 'pv', i2: 'P^' }));
    expect(movesFrom(c, 'j2')).toEqual(sorted('j2i2 j2j3 j2+'));
    // Silver Scarab on i2: the Red pyramid on i1 stands on Red's square, the Scarab may not go there
    const d = load(k2({ i2: 'S^', i1: 'pv', j2: 'P^' }));
    expect(movesFrom(d, 'i2')).toEqual(sorted('i2h1 i2h2 i2h3 i2i3 i2j2 i2j3 i2+'));
    // Red Scarab on i8 (Red's square): a Silver pyramid may not be pushed there, a Red one may;
    // the Silver pyramid on j7 stands on Silver's file
    const e = load(k2({ i8: 's^', h7: 'P^', h8: 'p^', j7: 'P<' }, 'r'));
    expect(movesFrom(e, 'i8')).toEqual(sorted('i8h8 i8i7 i8+'));
    for (const t of [
      k2({ b2: 'S^', a2: 'p^', a3: 'a>', b1: 'P<', c1: 'p>' }),
      k2({ b1: 'S>', c2: 'pv', c1: 'P^', a2: 'a^' }),
      k2({ i8: 's^', h7: 'P^', h8: 'p^', j7: 'P<' }, 'r'),
    ]) {
      consistent(t);
    }
  });

  it('the Pharaoh-rotation option adds exactly one Pharaoh move, e1+', () => {
    const text = k2({ e1: 'K', f8: 'k' });
    const off = load(text);
    const on = load(text, 'khet2', { pharaohRotation: true });
    expect(moveNames(on)).toEqual([...moveNames(off), 'e1+'].sort());
    expect(moveType(mv(on, 'e1+'))).toBe(ROT_CW);
    expect(mv(on, 'e1-')).toBe(mv(on, 'e1+'));
    consistent(text, 'khet2', true);
    // Red too
    const red = load(k2({ e1: 'K', f8: 'k' }, 'r'), 'khet2', { pharaohRotation: true });
    expect(movesFrom(red, 'f8')).toEqual(sorted('f8e7 f8e8 f8f7 f8g7 f8g8 f8+'));
  });
});

describe('Khet 1.0: Djeds and Obelisks', () => {
  it('a Djed swaps with a Pyramid, a single Obelisk or a whole stack of either colour, never a Pharaoh or Djed', () => {
    const text = kfen({ e4: 'D^', d5: 'O', f5: 'o', d4: 'T', f4: 't', e5: 'p>', e3: 'K', d3: 'd^', f3: 'D>' }, 's');
    const pos = load(text, 'khet1');
    expect(movesFrom(pos, 'e4')).toEqual(sorted('e4d5 e4f5 e4d4 e4f4 e4e5 e4+'));
    consistent(text, 'khet1');
  });

  it('a single Obelisk: 8 steps, stacking onto an adjacent own single, never onto a stack or an enemy', () => {
    const text = kfen({ e4: 'O', e5: 'O', d5: 'T', f5: 'o', f3: 't' }, 's');
    const pos = load(text, 'khet1');
    expect(movesFrom(pos, 'e4')).toEqual(sorted('e4d3 e4d4 e4e3 e4f4 e4e5'));
    expect(moveType(mv(pos, 'e4e5'))).toBe(STACK_ON);
    expect(movesFrom(pos, 'e5')).toEqual(sorted('e5d6 e5e6 e5f6 e5d4 e5f4 e5e4'));
    consistent(text, 'khet1');
  });

  it('a stack steps as a unit to empty squares only; its top alone may also go onto an own single (u)', () => {
    const text = kfen({ d4: 'T', e5: 'O', c5: 'o', c3: 't', e3: 'P^' }, 's');
    const pos = load(text, 'khet1');
    expect(movesFrom(pos, 'd4')).toEqual(sorted('d4c4 d4d3 d4d5 d4e4 d4c4u d4d3u d4d5u d4e4u d4e5u'));
    expect(moveType(mv(pos, 'd4d5'))).toBe(STEP);
    expect(moveType(mv(pos, 'd4d5u'))).toBe(UNSTACK);
    expect(moveType(mv(pos, 'd4e5u'))).toBe(UNSTACK);
    // the single next to the stack may not climb onto it (three high)
    expect(movesFrom(pos, 'e5')).not.toContain('e5d4');
    consistent(text, 'khet1');
  });

  it('obelisks obey the reserved squares too', () => {
    const text = kfen({ b2: 'T', b8: 'T', i7: 'o' }, 's');
    const pos = load(text, 'khet1');
    expect(movesFrom(pos, 'b2')).toEqual(sorted('b2b1 b2b3 b2c1 b2c2 b2c3 b2b1u b2b3u b2c1u b2c2u b2c3u'));
    expect(movesFrom(pos, 'b8')).toEqual(sorted('b8b7 b8c7 b8c8 b8b7u b8c7u b8c8u'));
    const red = load(kfen({ i7: 'o', i2: 't' }, 'r'), 'khet1');
    expect(movesFrom(red, 'i7')).toEqual(sorted('i7h6 i7h7 i7h8 i7i6 i7i8'));
    expect(movesFrom(red, 'i2')).toEqual(sorted('i2h1 i2h2 i2h3 i2i1 i2i3 i2h1u i2h2u i2h3u i2i1u i2i3u'));
    consistent(text, 'khet1');
  });

  it('Djed swaps with stacks respect the reserved squares of the pushed stack', () => {
    // Silver Djed on j2: the Red stack on i2 would be pushed onto file j
    const a = load(kfen({ j2: 'D^', i2: 't', i3: 'T' }, 's'), 'khet1');
    expect(movesFrom(a, 'j2')).toEqual(sorted('j2i3 j2j1 j2j3 j2+')); // no Sphinx on j1 in Khet 1.0
    // Silver Djed on i2: the Red stack stands on i1, Red's square
    const b = load(kfen({ i2: 'D^', i1: 't' }, 's'), 'khet1');
    expect(movesFrom(b, 'i2')).not.toContain('i2i1');
  });

  it("there is no Sphinx: the first player's moves are only its pieces' moves", () => {
    const pos = load(kfen({ e1: 'K', f8: 'k' }, 's'), 'khet1');
    expect(moveNames(pos)).toEqual(sorted('e1d1 e1d2 e1e2 e1f1 e1f2'));
  });
});

describe('Deflexion', () => {
  it('only the laser files are reserved: Gold may use i1/b1/i8/b8, not file a; Silver not file j', () => {
    const gold = load(kfen({ h2: 'P^', b7: 'P^' }, 'g'), 'deflexion');
    expect(movesFrom(gold, 'h2')).toEqual(sorted('h2g1 h2g2 h2g3 h2h1 h2h3 h2i1 h2i2 h2i3 h2+ h2-'));
    expect(movesFrom(gold, 'b7')).toEqual(sorted('b7b6 b7b8 b7c6 b7c7 b7c8 b7+ b7-'));
    const silver = load(kfen({ i2: 'p^', b2: 'p^' }, 's'), 'deflexion');
    expect(movesFrom(silver, 'i2')).toEqual(sorted('i2h1 i2h2 i2h3 i2i1 i2i3 i2+ i2-'));
    expect(movesFrom(silver, 'b2')).toEqual(sorted('b2a1 b2a2 b2a3 b2b1 b2b3 b2c1 b2c2 b2c3 b2+ b2-'));
  });

  it('Djed swaps: with pyramids and obelisks; the pushed piece must be allowed where it lands', () => {
    // Gold Djed on i2: the Silver pyramid on i1 may be swapped (Gold may stand on i1 here)
    const a = load(kfen({ i2: 'D^', i1: 'pv', j3: 'O', h3: 'o', h1: 'K' }, 'g'), 'deflexion');
    expect(movesFrom(a, 'i2')).toEqual(sorted('i2i1 i2j3 i2h3 i2h2 i2i3 i2j1 i2j2 i2+'));
    // Gold Djed on j2: a Silver pyramid pushed onto file j is illegal
    const b = load(kfen({ j2: 'D^', i2: 'pv', i1: 'P^' }, 'g'), 'deflexion');
    expect(movesFrom(b, 'j2')).toEqual(sorted('j2i1 j2i3 j2j1 j2j3 j2+'));
    consistent(kfen({ i2: 'D^', i1: 'pv', j3: 'O', h3: 'o', h1: 'K' }, 'g'), 'deflexion');
  });

  it('single obelisks stack and unstack with the same code path as Khet 1.0', () => {
    const text = kfen({ e4: 'O', e5: 'O', c1: 'o' }, 'g');
    const pos = load(text, 'deflexion');
    expect(movesFrom(pos, 'e4')).toContain('e4e5');
    expect(moveType(mv(pos, 'e4e5'))).toBe(STACK_ON);
    consistent(text, 'deflexion');
  });
});

/**
 * Every kind of move, made on a hand-written position: the board afterwards (written by hand
 * too), the square the shot removed from, and unmake back to the start.
 */
interface MoveCase {
  name: string;
  ed: EditionId;
  before: Record<string, string>;
  side: string;
  move: string;
  type: number;
  after: Record<string, string>;
  killed: string | null;
}

const KHET2_SPHINXES = { j1: 'X^', a8: 'xv' };
const c2 = (
  name: string,
  before: Record<string, string>,
  move: string,
  type: number,
  after: Record<string, string>,
  killed: string | null = null,
  side = 's',
): MoveCase => ({
  name,
  ed: 'khet2',
  before: { ...KHET2_SPHINXES, ...before },
  side,
  move,
  type,
  after: { ...KHET2_SPHINXES, ...after },
  killed,
});

const MOVE_CASES: MoveCase[] = [
  c2('Pharaoh step', { e1: 'K', f8: 'k' }, 'e1e2', STEP, { e2: 'K', f8: 'k' }),
  c2('Pyramid diagonal step', { d4: 'P^' }, 'd4c5', STEP, { c5: 'P^' }),
  c2('Pyramid rotation clockwise', { d4: 'P^' }, 'd4+', ROT_CW, { d4: 'P>' }),
  c2('Pyramid rotation counter-clockwise', { d4: 'P^' }, 'd4-', ROT_CCW, { d4: 'P<' }),
  c2('Pyramid rotation clockwise from W', { d4: 'P<' }, 'd4+', ROT_CW, { d4: 'P^' }),
  c2('Anubis rotation counter-clockwise', { d4: 'A>' }, 'd4-', ROT_CCW, { d4: 'A^' }),
  c2('Anubis rotation clockwise', { d4: 'A>' }, 'd4+', ROT_CW, { d4: 'Av' }),
  c2('Anubis step', { d4: 'A>' }, 'd4e3', STEP, { e3: 'A>' }),
  c2('Scarab rotation \\ to /', { d4: 'S^' }, 'd4+', ROT_CW, { d4: 'S>' }),
  c2('Scarab rotation / to \\', { d4: 'S>' }, 'd4+', ROT_CW, { d4: 'S^' }),
  c2('Scarab step', { d4: 'S>' }, 'd4d5', STEP, { d5: 'S>' }),
  c2('Scarab swaps with own Pyramid', { d4: 'S^', d5: 'P<' }, 'd4d5', SWAP, { d4: 'P<', d5: 'S^' }),
  c2('Scarab swaps with Red Anubis', { d4: 'S>', e5: 'a<' }, 'd4e5', SWAP, { d4: 'a<', e5: 'S>' }),
  c2('Red Scarab swaps with Silver Pyramid', { d4: 's>', c3: 'P^' }, 'd4c3', SWAP, { c3: 's>', d4: 'P^' }, null, 'r'),
  c2('Sphinx j1- (N to W)', {}, 'j1-', ROT_CCW, { j1: 'X<' }),
  c2('Sphinx j1+ (W to N)', { j1: 'X<' }, 'j1+', ROT_CW, { j1: 'X^' }),
  c2('Sphinx a8- (S to E)', {}, 'a8-', ROT_CCW, { a8: 'x>' }, null, 'r'),
  c2('Sphinx a8+ (E to S)', { a8: 'x>' }, 'a8+', ROT_CW, { a8: 'xv' }, null, 'r'),
  c2("Red Pyramid step onto Red's own reserved square", { h2: 'p^' }, 'h2i1', STEP, { i1: 'p^' }, null, 'r'),
  c2('Sphinx turned to fire along rank 1 kills', { d1: 'pv', e5: 'K' }, 'j1-', ROT_CCW, { j1: 'X<', e5: 'K' }, 'd1'),
  c2('a piece steps into its own beam and dies', { i4: 'P^' }, 'i4j4', STEP, {}, 'j4'),
  c2('moving an Anubis out of the beam kills the own Pharaoh', { j3: 'Av', j5: 'K' }, 'j3i3', STEP, { i3: 'Av' }, 'j5'),
  c2(
    'a swap puts a Red pyramid into the beam',
    { i4: 'S^', j5: 'P>', i5: 'p<' },
    'i4i5',
    SWAP,
    { i4: 'p<', i5: 'S^', j5: 'P>' },
    null,
  ),
  // Khet 1.0
  {
    name: 'Khet 1.0 Djed rotation',
    ed: 'khet1',
    before: { d4: 'D^' },
    side: 's',
    move: 'd4+',
    type: ROT_CW,
    after: { d4: 'D>' },
    killed: null,
  },
  {
    name: 'Khet 1.0 Djed swaps with a Red stack',
    ed: 'khet1',
    before: { d4: 'D^', e4: 't' },
    side: 's',
    move: 'd4e4',
    type: SWAP,
    after: { d4: 't', e4: 'D^' },
    killed: null,
  },
  {
    name: 'Khet 1.0 Djed swaps with an own single Obelisk',
    ed: 'khet1',
    before: { d4: 'D>', c5: 'O' },
    side: 's',
    move: 'd4c5',
    type: SWAP,
    after: { c5: 'D>', d4: 'O' },
    killed: null,
  },
  {
    name: 'Khet 1.0 single Obelisk step',
    ed: 'khet1',
    before: { d4: 'O' },
    side: 's',
    move: 'd4d3',
    type: STEP,
    after: { d3: 'O' },
    killed: null,
  },
  {
    name: 'Khet 1.0 single Obelisk stacks onto an own single',
    ed: 'khet1',
    before: { d4: 'O', e4: 'O' },
    side: 's',
    move: 'd4e4',
    type: STACK_ON,
    after: { e4: 'T' },
    killed: null,
  },
  {
    name: 'Khet 1.0 whole stack steps',
    ed: 'khet1',
    before: { d4: 'T' },
    side: 's',
    move: 'd4d5',
    type: STEP,
    after: { d5: 'T' },
    killed: null,
  },
  {
    name: 'Khet 1.0 top of a stack steps to an empty square',
    ed: 'khet1',
    before: { d4: 'T' },
    side: 's',
    move: 'd4d5u',
    type: UNSTACK,
    after: { d4: 'O', d5: 'O' },
    killed: null,
  },
  {
    name: 'Khet 1.0 top of a stack steps onto an own single',
    ed: 'khet1',
    before: { d4: 'T', e5: 'O' },
    side: 's',
    move: 'd4e5u',
    type: UNSTACK,
    after: { d4: 'O', e5: 'T' },
    killed: null,
  },
  {
    name: 'Khet 1.0 Red top of a stack',
    ed: 'khet1',
    before: { d4: 't' },
    side: 'r',
    move: 'd4c3u',
    type: UNSTACK,
    after: { d4: 'o', c3: 'o' },
    killed: null,
  },
  {
    name: 'Khet 1.0 beam hits a Red stack: only the top goes',
    ed: 'khet1',
    before: { j4: 'Pv', e4: 't', e1: 'K' },
    side: 's',
    move: 'e1e2',
    type: STEP,
    after: { j4: 'Pv', e4: 'o', e2: 'K' },
    killed: 'e4',
  },
  {
    name: 'Khet 1.0 beam hits a single Obelisk',
    ed: 'khet1',
    before: { j4: 'Pv', e4: 'o', e1: 'K' },
    side: 's',
    move: 'e1e2',
    type: STEP,
    after: { j4: 'Pv', e2: 'K' },
    killed: 'e4',
  },
  {
    name: 'Khet 1.0 a stack stepped into the own beam loses its top',
    ed: 'khet1',
    before: { i4: 'T' },
    side: 's',
    move: 'i4j4',
    type: STEP,
    after: { j4: 'O' },
    killed: 'j4',
  },
  {
    name: 'Khet 1.0 unstacking into the own beam: the moved obelisk dies',
    ed: 'khet1',
    before: { i4: 'T' },
    side: 's',
    move: 'i4j4u',
    type: UNSTACK,
    after: { i4: 'O' },
    killed: 'j4',
  },
  {
    name: 'Khet 1.0 stacking onto an own single in the beam: the new stack loses its top',
    ed: 'khet1',
    before: { i4: 'O', j4: 'O' },
    side: 's',
    move: 'i4j4',
    type: STACK_ON,
    after: { j4: 'O' },
    killed: 'j4',
  },
  {
    name: 'Khet 1.0 the piece on j1 is struck first',
    ed: 'khet1',
    before: { j1: 'P<', e1: 'K' },
    side: 's',
    move: 'e1d1',
    type: STEP,
    after: { d1: 'K' },
    killed: 'j1',
  },
  {
    name: 'Khet 1.0 Red shoots its own Pharaoh',
    ed: 'khet1',
    before: { a4: 'k', a6: 't', b6: 'p^' },
    side: 'r',
    move: 'a6b7',
    type: STEP,
    after: { b7: 't', b6: 'p^' },
    killed: 'a4',
  },
  // Deflexion
  {
    name: 'Deflexion Gold step onto i1',
    ed: 'deflexion',
    before: { h2: 'P^' },
    side: 'g',
    move: 'h2i1',
    type: STEP,
    after: { i1: 'P^' },
    killed: null,
  },
  {
    name: 'Deflexion Djed swaps with a Silver single Obelisk',
    ed: 'deflexion',
    before: { d4: 'D^', d5: 'o' },
    side: 'g',
    move: 'd4d5',
    type: SWAP,
    after: { d4: 'o', d5: 'D^' },
    killed: null,
  },
  {
    name: 'Deflexion single Obelisks stack',
    ed: 'deflexion',
    before: { d4: 'O', e4: 'O' },
    side: 'g',
    move: 'd4e4',
    type: STACK_ON,
    after: { e4: 'T' },
    killed: null,
  },
  {
    name: 'Deflexion Silver unstacks',
    ed: 'deflexion',
    before: { d4: 't' },
    side: 's',
    move: 'd4d3u',
    type: UNSTACK,
    after: { d4: 'o', d3: 'o' },
    killed: null,
  },
  {
    name: 'Deflexion Silver pyramid step',
    ed: 'deflexion',
    before: { b2: 'p^' },
    side: 's',
    move: 'b2a1',
    type: STEP,
    after: { a1: 'p^' },
    killed: null,
  },
];

describe('every kind of move, made and unmade', () => {
  it.each(MOVE_CASES)('$name ($move)', (c) => {
    const pos = load(kfen(c.before, c.side), c.ed);
    const start = snapshot(pos);
    const m = mv(pos, c.move);
    expect(moveList(pos)).toContain(m);
    expect(formatMove(m)).toBe(c.move);
    expect(moveType(m)).toBe(c.type);
    const killed = pos.make(m);
    expect(killed < 0 ? null : killed).toBe(c.killed === null ? null : sq(c.killed));
    const other = c.side === pos.edition.sideChars[0] ? pos.edition.sideChars[1] : pos.edition.sideChars[0];
    const want = load(kfen(c.after, other), c.ed);
    expect(Array.from(pos.board)).toEqual(Array.from(want.board));
    expect(Array.from(pos.bb)).toEqual(Array.from(want.bb));
    expect([pos.keyLo, pos.keyHi]).toEqual([want.keyLo, want.keyHi]);
    expect(pos.pliesSinceRemoval).toBe(c.killed === null ? 1 : 0);
    pos.unmake();
    expect(snapshot(pos)).toEqual(start);
  });
});
