/**
 * Rules dialects (docs/rules.md §3.1): each switch's moves, perft from the setups under the
 * dialects of other engines (§7.4), the names, and where two dialects first part.
 */
import { describe, expect, it } from 'vitest';
import {
  SETUPS,
  THOTH_DIALECT,
  describeDialect,
  dialectRules,
  dialectSetup,
  firstParting,
  formatDialect,
  formatMove,
  parseDialect,
  parseKfen,
  parseMove,
  perft,
  perftEndsAsLeaves,
  toKfen,
  turnScarabs,
  type Dialect,
} from '../../src/core/index';
import { k2, load, moveNames, sq } from './helpers';

const dialect = (text: string): Dialect => {
  const r = parseDialect(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const DDKET = 'pharaoh-rotation+two-scarab-rotations';
const KHETAI = 'two-scarab-rotations+swap-onto-reserved+swap-sphinx';

describe('perft from Classic under each dialect (docs/rules.md §7.4)', () => {
  it.each([
    ['thoth', [77, 5920, 451_859], 451_867],
    ['swap-onto-reserved', [77, 5920, 451_859], 451_867],
    ['two-scarab-rotations', [79, 6232, 488_186], 488_195],
    [KHETAI, [79, 6232, 488_186], 488_195],
    [DDKET, [81, 6552, 526_446], 526_455],
  ] as const)('%s: %j, and %d counting a game-ending move as a leaf', (text, exact, ends) => {
    const pos = load(SETUPS.khet2.classic, 'khet2', dialectRules(dialect(text)));
    expect([1, 2, 3].map((d) => perft(pos, d))).toEqual(exact);
    expect(perftEndsAsLeaves(pos, 3)).toBe(ends);
    // the convention differs only by the sequences a Pharaoh hit cuts short
    expect(perftEndsAsLeaves(pos, 2)).toBe(exact[1]);
  });

  it('turned Scarabs: the setups as dandailey/khet counts them (449,414 / 385,986 / 331,511 at depth 3)', () => {
    const turned = dialect('turned-scarabs');
    const got = (['classic', 'imhotep', 'dynasty'] as const).map((s) => perft(load(dialectSetup(s, turned)!), 3));
    expect(got).toEqual([449_414, 385_986, 331_511]);
    expect(dialectSetup('classic', THOTH_DIALECT)).toBe(SETUPS.khet2.classic);
    expect(turnScarabs(turnScarabs(SETUPS.khet2.imhotep!))).toBe(SETUPS.khet2.imhotep);
  });
});

describe('each switch', () => {
  it('two Scarab rotations: e4- is a move of its own, and the Pharaoh turns both ways with Pharaoh rotation', () => {
    const one = load(SETUPS.khet2.classic);
    const two = load(SETUPS.khet2.classic, 'khet2', dialectRules(dialect(DDKET)));
    expect(moveNames(one)).not.toContain('e4-');
    expect(moveNames(two)).toEqual(expect.arrayContaining(['e4+', 'e4-', 'f4+', 'f4-', 'e1+', 'e1-']));
    const minus = parseMove(two, 'e4L');
    const plus = parseMove(two, 'e4+');
    expect(minus.ok && plus.ok && minus.value !== plus.value).toBe(true);
    // one rotation: `-` names the same move as `+`
    const a = parseMove(one, 'e4-');
    const b = parseMove(one, 'e4+');
    expect(a.ok && b.ok && a.value === b.value).toBe(true);
    // the two turns give the same position
    if (!minus.ok || !plus.ok) return;
    two.make(minus.value);
    const afterMinus = toKfen(two);
    two.unmake();
    two.make(plus.value);
    expect(toKfen(two)).toBe(afterMinus);
  });

  it('swap onto a reserved square: the Red Pyramid pushed onto j5 (Silver only) wins there, and only there', () => {
    const text = 'xv7k1/10/10/8pvS^/10/4K5/10/9X^ s 0 1';
    const thoth = load(text);
    const loose = load(text, 'khet2', dialectRules(dialect('swap-onto-reserved')));
    expect(moveNames(thoth)).not.toContain('j5i5');
    expect(moveNames(loose)).toContain('j5i5');
    expect(loose.countMoves()).toBe(moveNames(loose).length);
    const m = parseMove(loose, 'j5i5');
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    expect(loose.isLegal(m.value)).toBe(true);
    expect(thoth.isLegal(m.value)).toBe(false);
    loose.make(m.value);
    expect(loose.winner).toBe(0);
    expect(loose.board[sq('j5')]).not.toBe(0);
  });

  it('swap with the Sphinx: the Sphinx then fires from its new square, and unmake puts it back', () => {
    const text = 'xv9/10/10/10/10/4K5/2k5S^1/9X< s 0 1';
    const thoth = load(text);
    const loose = load(text, 'khet2', dialectRules(dialect('swap-sphinx')));
    expect(moveNames(thoth)).not.toContain('i2j1');
    expect(moveNames(loose)).toContain('i2j1');
    expect(loose.countMoves()).toBe(moveNames(loose).length);
    const before = toKfen(loose);
    const m = parseMove(loose, 'i2j1');
    if (!m.ok) throw new Error(m.error.message);
    // the Sphinx, facing W from i2, shoots along rank 2 into the Red Pharaoh on c2
    expect(loose.make(m.value)).toBe(sq('c2'));
    expect(loose.winner).toBe(0);
    loose.unmake();
    expect(toKfen(loose)).toBe(before);
    expect(loose.laserTarget(0)).toBe(-1);
    // a Sphinx off its corner: the KFEN of such a board reads back in this dialect only
    const off = 'xv9/10/10/10/10/4K5/2k5X<1/9S^ r 0 1';
    expect(parseKfen(off, 'khet2').ok).toBe(false);
    const r = parseKfen(off, 'khet2', dialectRules(dialect('swap-sphinx')));
    expect(r.ok && r.value.laserTarget(0)).toBe(sq('c2'));
  });

  it('a Scarab turn alone (no Pharaoh rotation) is one move either way in Thoth, two with the switch', () => {
    const text = k2({ f7: 'K', c4: 'k', j4: 'S>' });
    expect(moveNames(load(text)).filter((m) => m.startsWith('j4') && m.length === 3)).toEqual(['j4+']);
    const two = load(text, 'khet2', dialectRules(dialect('two-scarab-rotations')));
    expect(moveNames(two).filter((m) => m.startsWith('j4') && m.length === 3)).toEqual(['j4+', 'j4-']);
  });
});

describe('names', () => {
  it('reads and writes the switches', () => {
    expect(formatDialect(THOTH_DIALECT)).toBe('thoth');
    expect(formatDialect(dialect(DDKET))).toBe(DDKET);
    expect(formatDialect(dialect('swap-sphinx,two-scarab-rotations,swap-onto-reserved'))).toBe(KHETAI);
    expect(describeDialect(dialect(DDKET))).toBe('Pharaoh rotation, two Scarab rotations');
    expect(describeDialect(THOTH_DIALECT)).toBe("Thoth's rules, one Scarab rotation");
    expect(describeDialect(dialect('swap-onto-reserved'))).toBe('one Scarab rotation, swaps onto reserved squares');
    const bad = parseDialect('pharoah-rotation');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/unknown rules switch 'pharoah-rotation'/);
  });
});

describe('firstParting', () => {
  it('names the first position and move where two dialects part', () => {
    expect(firstParting(SETUPS.khet2.classic, THOTH_DIALECT, dialect(DDKET))).toEqual({
      moves: [],
      move: 'e1+',
      allowedBy: 1,
    });
    // two Scarab rotations only name a move twice: no parting
    expect(firstParting(SETUPS.khet2.classic, THOTH_DIALECT, dialect('two-scarab-rotations'), 2)).toBeUndefined();
    // a swap onto a reserved square cannot happen in two plies from Classic
    expect(firstParting(SETUPS.khet2.classic, THOTH_DIALECT, dialect('swap-onto-reserved'), 2)).toBeUndefined();
    // from a position where it can
    const p = firstParting('xv7k1/10/10/8pvS^/10/4K5/10/9X^ s 0 1', dialect('swap-onto-reserved'), THOTH_DIALECT);
    expect(p).toEqual({ moves: [], move: 'j5i5', allowedBy: 0 });
    expect(formatMove(parseMoveOrThrow('e1+'))).toBe('e1+');
  });
});

function parseMoveOrThrow(text: string): number {
  const pos = load(SETUPS.khet2.classic, 'khet2', { pharaohRotation: true });
  const m = parseMove(pos, text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
}
