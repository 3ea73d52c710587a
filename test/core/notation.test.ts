/** Move text (docs/rules.md §5.1): formatting, parsing against a position, and the errors. */
import { describe, expect, it } from 'vitest';
import {
  ROT_CCW,
  ROT_CW,
  SETUPS,
  STACK_ON,
  STEP,
  SWAP,
  UNSTACK,
  formatMove,
  legalMoves,
  makeMove,
  moveFrom,
  moveTo,
  moveType,
  parseMove,
  type EditionId,
  type MoveError,
} from '../../src/core/index';
import { k2, kfen, load, play, sq } from './helpers';

describe('formatMove', () => {
  it('writes each move type', () => {
    expect(formatMove(makeMove(sq('e4'), sq('d5'), STEP))).toBe('e4d5');
    expect(formatMove(makeMove(sq('e4'), sq('d5'), SWAP))).toBe('e4d5');
    expect(formatMove(makeMove(sq('h2'), sq('h2'), ROT_CW))).toBe('h2+');
    expect(formatMove(makeMove(sq('h2'), sq('h2'), ROT_CCW))).toBe('h2-');
    expect(formatMove(makeMove(sq('j1'), sq('j1'), ROT_CCW))).toBe('j1-');
    expect(formatMove(makeMove(sq('d1'), sq('e2'), UNSTACK))).toBe('d1e2u');
    expect(formatMove(makeMove(sq('d1'), sq('e2'), STACK_ON))).toBe('d1e2');
    expect(formatMove(makeMove(sq('a1'), sq('j8'), STEP))).toBe('a1j8');
  });

  it('move integers pack from, to and type', () => {
    const m = makeMove(sq('j8'), sq('i7'), UNSTACK);
    expect([moveFrom(m), moveTo(m), moveType(m)]).toEqual([sq('j8'), sq('i7'), UNSTACK]);
  });
});

describe('parseMove: every legal move of every setup reads back from its text', () => {
  const setups: Array<[EditionId, string]> = [];
  for (const ed of ['khet2', 'khet1', 'deflexion'] as const) {
    for (const t of Object.values(SETUPS[ed])) setups.push([ed, t!]);
  }
  it.each(setups)('%s %s', (ed, text) => {
    for (const side of [0, 1]) {
      const t = side === 0 ? text : text.replace(/ [sg] /, ed === 'deflexion' ? ' s ' : ' r ');
      const pos = load(t, ed);
      const moves = legalMoves(pos);
      const texts = new Set<string>();
      for (const m of moves) {
        const s = formatMove(m);
        texts.add(s);
        const r = parseMove(pos, s);
        expect(r).toEqual({ ok: true, value: m });
      }
      expect(texts.size).toBe(moves.length);
    }
  });
});

describe('parseMove: accepted spellings', () => {
  it('R and L mean + and -', () => {
    const pos = load(SETUPS.khet2.classic!);
    expect(parseMove(pos, 'c1R')).toEqual(parseMove(pos, 'c1+'));
    expect(parseMove(pos, 'c1L')).toEqual(parseMove(pos, 'c1-'));
    const r = parseMove(pos, 'c1R');
    expect(r.ok && moveType(r.value)).toBe(ROT_CW);
    const l = parseMove(pos, 'c1L');
    expect(l.ok && moveType(l.value)).toBe(ROT_CCW);
    expect(parseMove(pos, 'j1L')).toEqual(parseMove(pos, 'j1-'));
  });

  it("- (and L) is accepted for a Scarab's single rotation, the same move as +", () => {
    const pos = load(SETUPS.khet2.classic!);
    const plus = parseMove(pos, 'e4+');
    expect(plus.ok).toBe(true);
    expect(parseMove(pos, 'e4-')).toEqual(plus);
    expect(parseMove(pos, 'e4L')).toEqual(plus);
    expect(parseMove(pos, 'e4R')).toEqual(plus);
    const djed = load(SETUPS.khet1.classic!, 'khet1');
    expect(parseMove(djed, 'e4-')).toEqual(parseMove(djed, 'e4+'));
  });

  it('surrounding whitespace is ignored', () => {
    const pos = load(SETUPS.khet2.classic!);
    expect(parseMove(pos, '  e4d5\n')).toEqual(parseMove(pos, 'e4d5'));
  });

  it('a stack: from+to is the whole stack, from+to+u the top obelisk alone', () => {
    const pos = load(kfen({ d1: 'T', e1: 'K', f8: 'k' }, 's'), 'khet1');
    const whole = parseMove(pos, 'd1d2');
    const top = parseMove(pos, 'd1d2u');
    expect(whole.ok && moveType(whole.value)).toBe(STEP);
    expect(top.ok && moveType(top.value)).toBe(UNSTACK);
  });

  it('a single obelisk onto an own single is written from+to', () => {
    const pos = load(kfen({ d1: 'O', e2: 'O' }, 's'), 'khet1');
    const r = parseMove(pos, 'd1e2');
    expect(r.ok && moveType(r.value)).toBe(STACK_ON);
  });
});

interface BadMove {
  name: string;
  ed: EditionId;
  text: string;
  move: string;
  kind: MoveError['kind'];
  message: RegExp;
  pharaohRotation?: boolean;
}

const CLASSIC = SETUPS.khet2.classic!;
const BAD_MOVES: BadMove[] = [
  { name: 'empty', ed: 'khet2', text: CLASSIC, move: '', kind: 'malformed', message: /is not a move/ },
  { name: 'one square', ed: 'khet2', text: CLASSIC, move: 'e4', kind: 'malformed', message: /'e4' is not a move/ },
  { name: 'half a square', ed: 'khet2', text: CLASSIC, move: 'e4d', kind: 'malformed', message: /is not a move/ },
  { name: 'file off the board', ed: 'khet2', text: CLASSIC, move: 'k1k2', kind: 'malformed', message: /is not a move/ },
  { name: 'rank off the board', ed: 'khet2', text: CLASSIC, move: 'e9e8', kind: 'malformed', message: /is not a move/ },
  { name: 'rank 0', ed: 'khet2', text: CLASSIC, move: 'e0e1', kind: 'malformed', message: /is not a move/ },
  { name: 'upper-case squares', ed: 'khet2', text: CLASSIC, move: 'E4D5', kind: 'malformed', message: /is not a move/ },
  { name: 'trailing junk', ed: 'khet2', text: CLASSIC, move: 'e4d5x', kind: 'malformed', message: /is not a move/ },
  { name: 'two signs', ed: 'khet2', text: CLASSIC, move: 'c1++', kind: 'malformed', message: /is not a move/ },
  { name: 'unknown sign', ed: 'khet2', text: CLASSIC, move: 'c1*', kind: 'malformed', message: /is not a move/ },
  { name: 'lower-case r', ed: 'khet2', text: CLASSIC, move: 'c1r', kind: 'malformed', message: /is not a move/ },
  { name: 'u after a rotation', ed: 'khet2', text: CLASSIC, move: 'c1+u', kind: 'malformed', message: /is not a move/ },
  { name: 'a space inside', ed: 'khet2', text: CLASSIC, move: 'e4 d5', kind: 'malformed', message: /is not a move/ },
  { name: 'no piece', ed: 'khet2', text: CLASSIC, move: 'e6e7', kind: 'illegal', message: /no piece on e6/ },
  { name: 'no piece to rotate', ed: 'khet2', text: CLASSIC, move: 'e6+', kind: 'illegal', message: /no piece on e6/ },
  { name: "opponent's piece", ed: 'khet2', text: CLASSIC, move: 'f8f7', kind: 'illegal', message: /not Silver's/ },
  { name: "opponent's Sphinx", ed: 'khet2', text: CLASSIC, move: 'a8-', kind: 'illegal', message: /not Silver's/ },
  {
    name: "Silver piece on Red's turn",
    ed: 'khet2',
    text: CLASSIC.replace(' s ', ' r '),
    move: 'e1e2',
    kind: 'illegal',
    message: /not Red's/,
  },
  {
    name: "Deflexion: Gold's piece on Silver's turn",
    ed: 'deflexion',
    text: SETUPS.deflexion.classic!.replace(' g ', ' s '),
    move: 'e1e2',
    kind: 'illegal',
    message: /not Silver's/,
  },
  {
    name: 'step of two squares',
    ed: 'khet2',
    text: CLASSIC,
    move: 'e1e3',
    kind: 'illegal',
    message: /illegal move for the Pharaoh on e1/,
  },
  {
    name: 'step onto an occupied square',
    ed: 'khet2',
    text: CLASSIC,
    move: 'e1d1',
    kind: 'illegal',
    message: /illegal move for the Pharaoh on e1/,
  },
  {
    name: 'step onto a reserved square',
    ed: 'khet2',
    text: k2({ h2: 'P^' }),
    move: 'h2i1',
    kind: 'illegal',
    message: /illegal move for the Pyramid on h2/,
  },
  {
    name: 'swap pushing a Red piece onto b1',
    ed: 'khet2',
    text: k2({ b1: 'S>', c2: 'pv' }),
    move: 'b1c2',
    kind: 'illegal',
    message: /illegal move for the Scarab on b1/,
  },
  {
    name: 'Scarab swapping with a Pharaoh',
    ed: 'khet2',
    text: k2({ e4: 'S^', e5: 'K' }),
    move: 'e4e5',
    kind: 'illegal',
    message: /illegal move for the Scarab/,
  },
  {
    name: 'the Sphinx stepping',
    ed: 'khet2',
    text: CLASSIC,
    move: 'j1j2',
    kind: 'illegal',
    message: /illegal move for the Sphinx on j1/,
  },
  {
    name: 'the Sphinx turning the wrong way (from N)',
    ed: 'khet2',
    text: CLASSIC,
    move: 'j1+',
    kind: 'illegal',
    message: /Sphinx on j1 cannot make that rotation/,
  },
  {
    name: 'the Sphinx turning the wrong way (R)',
    ed: 'khet2',
    text: CLASSIC,
    move: 'j1R',
    kind: 'illegal',
    message: /cannot make that rotation/,
  },
  {
    name: 'the Sphinx turning the wrong way (from W)',
    ed: 'khet2',
    text: k2({ j1: 'X<' }),
    move: 'j1-',
    kind: 'illegal',
    message: /cannot make that rotation/,
  },
  {
    name: 'Red Sphinx the wrong way (from S)',
    ed: 'khet2',
    text: CLASSIC.replace(' s ', ' r '),
    move: 'a8+',
    kind: 'illegal',
    message: /cannot make that rotation/,
  },
  {
    name: 'Pharaoh rotation (option off)',
    ed: 'khet2',
    text: CLASSIC,
    move: 'e1+',
    kind: 'illegal',
    message: /Pharaoh on e1 cannot make that rotation/,
  },
  {
    name: 'Pharaoh rotation with - (option off)',
    ed: 'khet2',
    text: CLASSIC,
    move: 'e1-',
    kind: 'illegal',
    message: /cannot make that rotation/,
  },
  {
    name: 'Obelisk rotation',
    ed: 'khet1',
    text: SETUPS.khet1.classic!,
    move: 'd1+',
    kind: 'illegal',
    message: /Stack on d1 cannot make that rotation/,
  },
  {
    name: 'u on a single piece',
    ed: 'khet2',
    text: CLASSIC,
    move: 'e1e2u',
    kind: 'illegal',
    message: /illegal unstacking move for the Pharaoh/,
  },
  {
    name: 'u on a single obelisk',
    ed: 'khet1',
    text: kfen({ d4: 'O' }, 's'),
    move: 'd4d5u',
    kind: 'illegal',
    message: /illegal unstacking move for the Obelisk on d4/,
  },
  {
    name: 'u onto an enemy single',
    ed: 'khet1',
    text: kfen({ d4: 'T', d5: 'o' }, 's'),
    move: 'd4d5u',
    kind: 'illegal',
    message: /illegal unstacking move/,
  },
  {
    name: 'whole stack onto an own single',
    ed: 'khet1',
    text: kfen({ d4: 'T', d5: 'O' }, 's'),
    move: 'd4d5',
    kind: 'illegal',
    message: /illegal move for the Stack on d4/,
  },
  {
    name: 'single onto an own stack',
    ed: 'khet1',
    text: kfen({ d4: 'T', d5: 'O' }, 's'),
    move: 'd5d4',
    kind: 'illegal',
    message: /illegal move for the Obelisk on d5/,
  },
];

describe('parseMove errors', () => {
  it.each(BAD_MOVES)('$name: $move', (c) => {
    const pos = load(c.text, c.ed, { pharaohRotation: c.pharaohRotation ?? false });
    const r = parseMove(pos, c.move);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe(c.kind);
    expect(r.error.message).toMatch(c.message);
  });

  it('does not throw on a non-string', () => {
    const pos = load(CLASSIC);
    expect(parseMove(pos, undefined as unknown as string).ok).toBe(false);
  });

  it('no move once the game is over', () => {
    const pos = load(SETUPS.khet2.dynasty!);
    expect(play(pos, 'j3j2')).toBe('e2');
    const r = parseMove(pos, 'f7f6');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/the game is over/);
  });

  it('the Pharaoh rotation is accepted with the option on, as + or -', () => {
    const pos = load(CLASSIC, 'khet2', { pharaohRotation: true });
    const plus = parseMove(pos, 'e1+');
    expect(plus.ok && moveType(plus.value)).toBe(ROT_CW);
    expect(parseMove(pos, 'e1-')).toEqual(plus);
    expect(parseMove(pos, 'e1L')).toEqual(plus);
  });
});
