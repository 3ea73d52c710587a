/** KFEN (docs/rules.md §5.2): parsing, validation errors, serialization, and a fuzz of junk input. */
import { describe, expect, it } from 'vitest';
import {
  ANUBIS,
  EDITIONS,
  KHET1,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SETUPS,
  SPHINX,
  STACK,
  colorOf,
  formatKfenError,
  kindOf,
  makePiece,
  mulberry32,
  oriOf,
  parseKfen,
  parseKfenData,
  parsePlayableKfen,
  toKfen,
  type EditionId,
  type KfenField,
} from '../../src/core/index';
import { ALL_SETUPS, k2, kfen, load, randInt, sq } from './helpers';

const EMPTY2 = 'xv9/10/10/10/10/10/10/9X^ s 0 1';
const EMPTY1 = '10/10/10/10/10/10/10/10 s 0 1';

interface BadCase {
  name: string;
  text: string;
  ed: EditionId;
  field: KfenField;
  message: string | RegExp;
  /** Character index (0-based) of the fault, -1 for none; undefined = not checked. */
  index?: number;
}

const bad = (
  name: string,
  text: string,
  ed: EditionId,
  field: KfenField,
  message: string | RegExp,
  index?: number,
): BadCase => ({
  name,
  text,
  ed,
  field,
  message,
  index,
});

const BAD: BadCase[] = [
  // shape
  bad('empty text', '', 'khet2', 'kfen', /empty/, -1),
  bad('only spaces', '   \t ', 'khet2', 'kfen', /empty/, -1),
  bad('3 fields', 'xv9/10/10/10/10/10/10/9X^ s 0', 'khet2', 'kfen', /expected 4 fields.*found 3/, -1),
  bad('5 fields', `${EMPTY2} 7`, 'khet2', 'kfen', /expected 4 fields.*found 5/, -1),
  bad('1 field', 'xv9/10/10/10/10/10/10/9X^', 'khet2', 'kfen', /found 1/, -1),
  bad('7 ranks', 'xv9/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /expected 8 ranks.*found 7/, 0),
  bad('9 ranks', 'xv9/10/10/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /expected 8 ranks.*found 9/, 0),
  bad(
    'rank too long (digits)',
    'xv9/5P^5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /rank 7 has more than 10 squares/,
    7,
  ),
  bad(
    'rank too long (a letter after 10)',
    'xv9/10P^/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /rank 7 has more than 10 squares/,
    6,
  ),
  bad(
    'rank 8 too long',
    'xv10/10/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /rank 8 has more than 10 squares/,
    2,
  ),
  bad('rank too short', 'xv9/9/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /rank 7 has 9 squares, expected 10/, 5),
  bad(
    'rank 2 too short',
    'xv9/10/10/10/10/10/9/9X^ s 0 1',
    'khet2',
    'placement',
    /rank 2 has 9 squares, expected 10/,
    20,
  ),
  bad('empty rank', 'xv9//10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /rank 7 is empty/, 4),
  bad('digit 0', 'xv9/0P^8/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /bad empty-square count '0'/, 4),
  bad('leading zero', 'xv9/010/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /bad empty-square count '010'/, 4),
  bad('count 11', 'xv9/11/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /bad empty-square count '11'/, 4),
  bad(
    'count 55 (digits run together)',
    'xv9/55/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /bad empty-square count '55'/,
    4,
  ),
  // letters
  bad(
    'unknown letter Q',
    'xv9/4Q5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /unknown piece letter 'Q' on rank 7/,
    5,
  ),
  bad('unknown letter z', 'xv9/4z5/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /unknown piece letter 'z'/, 5),
  bad('unknown symbol *', 'xv9/4*5/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /unknown piece letter '\*'/, 5),
  bad(
    'non-ASCII letter whose upper case is S',
    'xv9/4ſ^5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /unknown piece letter 'ſ'/,
    5,
  ),
  bad(
    'orientation on a Pharaoh',
    'xv9/4K^5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /unknown piece letter '\^'/,
    6,
  ),
  bad(
    'orientation missing at the end of a rank',
    'xv9/9P/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /'P' on rank 7 needs an orientation/,
    6,
  ),
  bad(
    'orientation missing before a digit',
    'xv9/4P5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /'5' is not an orientation.*'P'/,
    6,
  ),
  bad(
    'bad orientation character',
    'xv9/4a!5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /'!' is not an orientation.*'a'/,
    6,
  ),
  bad(
    'orientation missing on the last square',
    'xv9/10/10/10/10/10/10/8P1 s 0 1',
    'khet2',
    'placement',
    /'1' is not an orientation/,
    24,
  ),
  bad(
    'Sphinx orientation missing',
    'xv9/10/10/10/10/10/10/9X s 0 1',
    'khet2',
    'placement',
    /'X' on rank 1 needs an orientation/,
    24,
  ),
  // Sphinx
  bad(
    'Silver Sphinx off its corner',
    'xv9/10/10/10/10/10/10/8X^1 s 0 1',
    'khet2',
    'placement',
    /Sphinx may stand only on j1, not i1/,
    23,
  ),
  bad(
    'Red Sphinx off its corner',
    '1xv8/10/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /Sphinx may stand only on a8, not b8/,
    1,
  ),
  bad(
    'Silver Sphinx on the Red corner',
    'X^9/10/10/10/10/10/10/9xv s 0 1',
    'khet2',
    'placement',
    /only on j1, not a8/,
    0,
  ),
  bad(
    'Silver Sphinx facing E',
    'xv9/10/10/10/10/10/10/9X> s 0 1',
    'khet2',
    'placement',
    /Sphinx on j1 must face N \(\^\) or W \(<\)/,
    24,
  ),
  bad('Silver Sphinx facing S', 'xv9/10/10/10/10/10/10/9Xv s 0 1', 'khet2', 'placement', /must face N/, 24),
  bad(
    'Red Sphinx facing N',
    'x^9/10/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /Sphinx on a8 must face S \(v\) or E \(>\)/,
    1,
  ),
  bad('Red Sphinx facing W', 'x<9/10/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /must face S/, 1),
  bad('no Red Sphinx', '10/10/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /needs one Red Sphinx on a8/, 0),
  bad('no Silver Sphinx', 'xv9/10/10/10/10/10/10/10 s 0 1', 'khet2', 'placement', /needs one Silver Sphinx on j1/, 0),
  bad(
    'no Sphinx at all (Khet 1.0 board in Khet 2.0)',
    '10/10/10/10/10/10/10/10 s 0 1',
    'khet2',
    'placement',
    /needs one Silver Sphinx/,
    0,
  ),
  // reserved squares
  bad(
    'Silver on file a',
    'xv9/P^9/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /Silver piece may not stand on a7 \(reserved for Red\)/,
    4,
  ),
  bad(
    'Red on file j',
    'xv9/9p^/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /Red piece may not stand on j7 \(reserved for Silver\)/,
    5,
  ),
  bad(
    'Silver on i1',
    'xv9/10/10/10/10/10/10/8P^X^ s 0 1',
    'khet2',
    'placement',
    /Silver piece may not stand on i1/,
    23,
  ),
  bad('Silver on i8', 'xv7K1/10/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /Silver piece may not stand on i8/, 3),
  bad('Red on b1', 'xv9/10/10/10/10/10/10/1k7X^ s 0 1', 'khet2', 'placement', /Red piece may not stand on b1/, 23),
  bad('Red on b8', 'xvs>8/10/10/10/10/10/10/9X^ s 0 1', 'khet2', 'placement', /Red piece may not stand on b8/, 2),
  bad(
    'Khet 1.0 Silver on i1',
    '10/10/10/10/10/10/10/8O1 s 0 1',
    'khet1',
    'placement',
    /Silver piece may not stand on i1/,
    22,
  ),
  bad(
    'Khet 1.0 Red stack on j4',
    '10/10/10/10/9t/10/10/10 s 0 1',
    'khet1',
    'placement',
    /Red piece may not stand on j4/,
    13,
  ),
  bad(
    'Deflexion Gold on file a',
    '10/10/10/10/10/O9/10/10 g 0 1',
    'deflexion',
    'placement',
    /Gold piece may not stand on a3 \(reserved for Silver\)/,
    15,
  ),
  bad(
    'Deflexion Silver on file j',
    '10/10/10/10/9d^/10/10/10 g 0 1',
    'deflexion',
    'placement',
    /Silver piece may not stand on j4 \(reserved for Gold\)/,
    13,
  ),
  // Pharaohs
  bad(
    'two Silver Pharaohs',
    'xv9/4K1K3/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /more than one Silver Pharaoh/,
    7,
  ),
  bad('two Red Pharaohs', 'xv4k4/10/10/10/10/10/10/3k5X^ s 0 1', 'khet2', 'placement', /more than one Red Pharaoh/, 25),
  bad(
    'two Gold Pharaohs (Deflexion)',
    '10/10/10/10/10/10/4K5/4K5 g 0 1',
    'deflexion',
    'placement',
    /more than one Gold Pharaoh/,
    23,
  ),
  // letters of other editions
  bad(
    'Sphinx in Khet 1.0',
    '10/10/10/10/10/10/10/9X^ s 0 1',
    'khet1',
    'placement',
    /'X' \(Sphinx\) does not exist in Khet 1\.0/,
    22,
  ),
  bad(
    'Sphinx in Deflexion',
    'xv9/10/10/10/10/10/10/10 g 0 1',
    'deflexion',
    'placement',
    /'x' \(Sphinx\) does not exist in Deflexion/,
    0,
  ),
  bad(
    'Anubis in Khet 1.0',
    '10/10/10/10/4A^5/10/10/10 s 0 1',
    'khet1',
    'placement',
    /'A' \(Anubis\) does not exist in Khet 1\.0/,
    13,
  ),
  bad(
    'Anubis in Deflexion',
    '10/10/10/10/4a^5/10/10/10 g 0 1',
    'deflexion',
    'placement',
    /'a' \(Anubis\) does not exist in Deflexion/,
    13,
  ),
  bad(
    'Scarab letter in Khet 1.0',
    '10/10/10/10/4S^5/10/10/10 s 0 1',
    'khet1',
    'placement',
    /'S' \(Scarab\) does not exist in Khet 1\.0/,
    13,
  ),
  bad(
    'Scarab letter in Deflexion',
    '10/10/10/10/4s^5/10/10/10 g 0 1',
    'deflexion',
    'placement',
    /'s' \(Scarab\) does not exist in Deflexion/,
    13,
  ),
  bad(
    'Djed letter in Khet 2.0',
    'xv9/4D^5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /'D' \(Djed\) does not exist in Khet 2\.0/,
    5,
  ),
  bad(
    'Obelisk in Khet 2.0',
    'xv9/4O5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /'O' \(Obelisk\) does not exist in Khet 2\.0/,
    5,
  ),
  bad(
    'stack in Khet 2.0',
    'xv9/4t5/10/10/10/10/10/9X^ s 0 1',
    'khet2',
    'placement',
    /'t' \(Obelisk stack\) does not exist in Khet 2\.0/,
    5,
  ),
  // side to move
  bad(
    'side g in Khet 2.0',
    'xv9/10/10/10/10/10/10/9X^ g 0 1',
    'khet2',
    'side',
    /must be 's' or 'r' in Khet 2\.0, not 'g'/,
    26,
  ),
  bad('side upper case', 'xv9/10/10/10/10/10/10/9X^ S 0 1', 'khet2', 'side', /must be 's' or 'r'.*not 'S'/, 26),
  bad('side word', 'xv9/10/10/10/10/10/10/9X^ silver 0 1', 'khet2', 'side', /not 'silver'/, 26),
  bad(
    'side r in Deflexion',
    '10/10/10/10/10/10/10/10 r 0 1',
    'deflexion',
    'side',
    /must be 'g' or 's' in Deflexion, not 'r'/,
    24,
  ),
  bad('side g in Khet 1.0', '10/10/10/10/10/10/10/10 g 0 1', 'khet1', 'side', /must be 's' or 'r' in Khet 1\.0/, 24),
  // counters
  bad('negative plies', 'xv9/10/10/10/10/10/10/9X^ s -1 1', 'khet2', 'plies', /whole number, not '-1'/, 28),
  bad('plies not a number', 'xv9/10/10/10/10/10/10/9X^ s x 1', 'khet2', 'plies', /whole number, not 'x'/, 28),
  bad('fractional plies', 'xv9/10/10/10/10/10/10/9X^ s 1.5 1', 'khet2', 'plies', /not '1\.5'/, 28),
  bad('plies far too large', 'xv9/10/10/10/10/10/10/9X^ s 1234567 1', 'khet2', 'plies', /not '1234567'/, 28),
  bad('move number 0', 'xv9/10/10/10/10/10/10/9X^ s 0 0', 'khet2', 'move number', /from 1, not '0'/, 30),
  bad('move number not a number', 'xv9/10/10/10/10/10/10/9X^ s 0 a', 'khet2', 'move number', /not 'a'/, 30),
  bad('negative move number', 'xv9/10/10/10/10/10/10/9X^ s 12 -3', 'khet2', 'move number', /not '-3'/, 31),
];

describe('KFEN errors', () => {
  it.each(BAD)('$name', (c) => {
    const r = parseKfenData(c.text, c.ed);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.field).toBe(c.field);
    expect(r.error.message).toMatch(c.message);
    if (c.index !== undefined) expect(r.error.index).toBe(c.index);
    // parseKfen gives the same error
    const r2 = parseKfen(c.text, c.ed);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.error).toEqual(r.error);
  });

  it('formatKfenError names the field and the 1-based character', () => {
    const r = parseKfenData('xv9/4Q5/10/10/10/10/10/9X^ s 0 1', 'khet2');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(formatKfenError(r.error)).toBe("placement: unknown piece letter 'Q' on rank 7 (at character 6)");
    const r2 = parseKfenData('', 'khet2');
    if (!r2.ok) expect(formatKfenError(r2.error)).toBe('kfen: empty KFEN');
  });

  it('does not throw on a non-string', () => {
    const r = parseKfenData(undefined as unknown as string, 'khet2');
    expect(r.ok).toBe(false);
    const r2 = parseKfen(42 as unknown as string, 'khet1');
    expect(r2.ok).toBe(false);
  });
});

describe('KFEN parsing and serialization', () => {
  it.each(ALL_SETUPS)('$edition $setup: serialize(parse(x)) = x', ({ edition, setup }) => {
    const text = SETUPS[edition][setup]!;
    const pos = load(text, edition);
    expect(toKfen(pos)).toBe(text);
  });

  it('reads pieces, colours, orientations and counters', () => {
    const r = parseKfenData(k2({ e4: 'P>', d5: 'a<', f3: 'Sv', c2: 's<', e1: 'K', f8: 'k' }, 'r', 17, 42), 'khet2');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const d = r.value;
    expect(d.side).toBe(1);
    expect(d.pliesSinceRemoval).toBe(17);
    expect(d.moveNumber).toBe(42);
    expect(d.board[sq('e4')]).toBe(makePiece(0, PYRAMID, 1));
    expect(d.board[sq('d5')]).toBe(makePiece(1, ANUBIS, 3));
    expect(d.board[sq('j1')]).toBe(makePiece(0, SPHINX, 0));
    expect(d.board[sq('a8')]).toBe(makePiece(1, SPHINX, 2));
    expect(d.board[sq('e1')]).toBe(makePiece(0, PHARAOH, 0));
    // a Scarab is stored mod 2: v is ^, < is >
    expect(d.board[sq('f3')]).toBe(makePiece(0, SCARAB, 0));
    expect(oriOf(d.board[sq('f3')])).toBe(0);
    expect(d.board[sq('c2')]).toBe(makePiece(1, SCARAB, 1));
    expect(d.board.filter((p) => p !== 0)).toHaveLength(8);
  });

  it('writes a Scarab as ^ or > (v and < accepted on input) and gives both the same key', () => {
    const a = load(k2({ e4: 'Sv', d4: 'S<' }));
    const b = load(k2({ e4: 'S^', d4: 'S>' }));
    expect(toKfen(a)).toBe(toKfen(b));
    expect(toKfen(a)).toContain('S>S^');
    expect([a.keyLo, a.keyHi]).toEqual([b.keyLo, b.keyHi]);
  });

  it('Khet 1.0 / Deflexion obelisks and stacks, Djed letters, sides', () => {
    const t1 = kfen({ d1: 'T', f1: 'O', e8: 't', g8: 'o', e4: 'D^', f5: 'd>' }, 'r', 3, 9);
    const p1 = load(t1, 'khet1');
    expect(kindOf(p1.board[sq('d1')])).toBe(STACK);
    expect(kindOf(p1.board[sq('g8')])).toBe(OBELISK);
    expect(colorOf(p1.board[sq('e8')])).toBe(1);
    expect(p1.side).toBe(1);
    expect(toKfen(p1)).toBe(t1);
    const t2 = kfen({ d1: 'T', f1: 'O', i1: 'K', b8: 'k', e4: 'D^' }, 's', 0, 2);
    const p2 = load(t2, 'deflexion');
    expect(p2.side).toBe(1);
    expect(toKfen(p2)).toBe(t2);
    expect(toKfen(load(kfen({ e4: 'D^' }, 'g'), 'deflexion'))).toBe(kfen({ e4: 'D^' }, 'g'));
  });

  it('accepts extra whitespace between and around fields, and the edition as an object', () => {
    const pos = load(`  ${EMPTY2.replace(/ /g, ' \t ')}\n`);
    expect(toKfen(pos)).toBe(EMPTY2);
    const r = parseKfen(EMPTY1, KHET1);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.edition).toBe(EDITIONS.khet1);
  });

  it('a Pharaoh is not required (composed positions), one per colour is the limit', () => {
    expect(parseKfenData(EMPTY2, 'khet2').ok).toBe(true);
    expect(parseKfenData(k2({ e1: 'K', f8: 'k' }), 'khet2').ok).toBe(true);
  });

  it('Deflexion allows i1/b1/i8/b8 to either colour', () => {
    const t = kfen({ i1: 'P^', b1: 'p^', i8: 'O', b8: 'o' }, 'g');
    expect(parseKfenData(t, 'deflexion').ok).toBe(true);
    expect(parseKfenData(t, 'khet1').ok).toBe(false);
  });

  it('counters: six digits are fine, the move number starts at 1', () => {
    const r = parseKfenData('xv9/10/10/10/10/10/10/9X^ s 999999 1', 'khet2');
    expect(r.ok && r.value.pliesSinceRemoval).toBe(999_999);
  });
});

/** What every successfully parsed board must satisfy in its edition. */
function validityFault(board: Uint8Array, ed: EditionId): string | null {
  const e = EDITIONS[ed];
  const pharaohs = [0, 0];
  const sphinxes = [0, 0];
  for (let s = 0; s < 80; s++) {
    const p = board[s];
    if (p === 0) continue;
    const kind = kindOf(p);
    const c = colorOf(p);
    if (c > 1 || kind < 1 || kind > 7 || !e.kinds[kind]) return `bad piece ${p} on ${s}`;
    if ((e.reserved[c * 3 + (s >> 5)] & (1 << (s & 31))) !== 0) return `piece on reserved ${s}`;
    if (kind === PHARAOH) pharaohs[c]++;
    if (kind === SPHINX) {
      sphinxes[c]++;
      if (s !== e.laserSquare[c]) return 'Sphinx off its corner';
      const o = oriOf(p);
      if (c === 0 ? o !== 0 && o !== 3 : o !== 2 && o !== 1) return 'Sphinx orientation';
    }
    if (kind === SCARAB && oriOf(p) > 1) return 'Scarab not stored mod 2';
    if ((kind === PHARAOH || kind === OBELISK || kind === STACK) && oriOf(p) !== 0)
      return 'orientation on a plain piece';
  }
  if (pharaohs[0] > 1 || pharaohs[1] > 1) return 'two Pharaohs';
  if (e.sphinx && (sphinxes[0] !== 1 || sphinxes[1] !== 1)) return 'Sphinx count';
  return null;
}

describe('KFEN fuzz: the parser never throws and never accepts an invalid board', () => {
  const FIELDS = new Set(['kfen', 'placement', 'side', 'plies', 'move number']);
  const ALPHABET = 'xXkKaApPsSdDoOtTqQ^>v<0123456789/ -+.grs\t';

  function check(text: string, ed: EditionId): boolean {
    let r: ReturnType<typeof parseKfen>;
    try {
      r = parseKfen(text, ed);
    } catch (e) {
      throw new Error(`parseKfen threw on ${JSON.stringify(text)}: ${String(e)}`);
    }
    if (!r.ok) {
      expect(FIELDS.has(r.error.field)).toBe(true);
      expect(r.error.message.length).toBeGreaterThan(0);
      expect(r.error.index).toBeGreaterThanOrEqual(-1);
      expect(r.error.index).toBeLessThan(Math.max(text.length, 1));
      return false;
    }
    const fault = validityFault(r.value.board, ed);
    if (fault !== null) throw new Error(`accepted an invalid board (${fault}): ${JSON.stringify(text)}`);
    const again = parseKfen(toKfen(r.value), ed);
    expect(again.ok).toBe(true);
    if (again.ok) {
      expect(Array.from(again.value.board)).toEqual(Array.from(r.value.board));
      expect(toKfen(again.value)).toBe(toKfen(r.value));
    }
    return true;
  }

  it('random strings (KFEN-like alphabet and arbitrary code units)', () => {
    const rand = mulberry32(20240501);
    for (let i = 0; i < 3000; i++) {
      const len = randInt(rand, 60);
      let s = '';
      for (let j = 0; j < len; j++) {
        s +=
          randInt(rand, 5) === 0
            ? String.fromCharCode(randInt(rand, 0x10000))
            : ALPHABET[randInt(rand, ALPHABET.length)];
      }
      for (const ed of ['khet2', 'khet1', 'deflexion'] as const) check(s, ed);
    }
  });

  it('mutations of the setups (replace, insert, delete, swap characters)', () => {
    const rand = mulberry32(77);
    let accepted = 0;
    let total = 0;
    for (let i = 0; i < 4000; i++) {
      const { edition, setup } = ALL_SETUPS[randInt(rand, ALL_SETUPS.length)];
      const chars = SETUPS[edition][setup]!.split('');
      const edits = 1 + randInt(rand, 3);
      for (let e = 0; e < edits; e++) {
        const at = randInt(rand, chars.length);
        const c = ALPHABET[randInt(rand, ALPHABET.length)];
        switch (randInt(rand, 4)) {
          case 0:
            chars[at] = c;
            break;
          case 1:
            chars.splice(at, 0, c);
            break;
          case 2:
            chars.splice(at, 1);
            break;
          default: {
            const b = randInt(rand, chars.length);
            [chars[at], chars[b]] = [chars[b], chars[at]];
          }
        }
      }
      const text = chars.join('');
      for (const ed of ['khet2', 'khet1', 'deflexion'] as const) {
        total++;
        if (check(text, ed)) accepted++;
      }
    }
    // the fuzz must exercise both outcomes
    expect(accepted).toBeGreaterThan(50);
    expect(accepted).toBeLessThan(total);
  });
});

describe('parsePlayableKfen: a position for play has both Pharaohs', () => {
  it('refuses a board without one or both Pharaohs in every edition; parseKfen (move counting) still takes it', () => {
    const cases: [EditionId, string, string][] = [
      ['khet2', 'xv9/10/10/10/10/10/10/4K4X^ s 0 1', 'no Red Pharaoh: a position for play needs both'],
      ['khet2', 'xv3k5/10/10/10/10/10/10/9X^ r 0 1', 'no Silver Pharaoh: a position for play needs both'],
      ['khet2', EMPTY2, 'no Silver and no Red Pharaoh: a position for play needs both'],
      ['khet1', '10/10/10/10/10/10/10/4K5 s 0 1', 'no Red Pharaoh: a position for play needs both'],
      ['deflexion', '5k4/10/10/10/10/10/10/10 g 0 1', 'no Gold Pharaoh: a position for play needs both'],
    ];
    for (const [ed, text, message] of cases) {
      const r = parsePlayableKfen(text, ed);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(formatKfenError(r.error)).toBe(`placement: ${message} (at character 1)`);
      expect(parseKfen(text, ed).ok, text).toBe(true);
    }
    for (const { edition, setup } of ALL_SETUPS)
      expect(parsePlayableKfen(SETUPS[edition][setup]!, edition).ok, `${edition} ${setup}`).toBe(true);
  });
});
