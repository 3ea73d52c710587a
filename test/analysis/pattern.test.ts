import { describe, expect, it } from 'vitest';
import { SETUPS, parseKfen, parseMove, type EditionId, type Position } from '../../src/core/index';
import { matchesPattern, parsePattern } from '../../src/analysis/pattern';

function at(edition: EditionId, kfen: string, moves: string[] = []): Position {
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error(r.error.message);
  for (const t of moves) {
    const m = parseMove(r.value, t);
    if (!m.ok) throw new Error(m.error.message);
    r.value.make(m.value);
  }
  return r.value;
}

function holds(text: string, pos: Position): boolean {
  const p = parsePattern(text);
  if (!p.ok) throw new Error(p.error);
  return matchesPattern(p.value, pos);
}

// Khet 2.0 classic: Red's Anubises on e8 and g8 beside its Pharaoh on f8; Silver's beam from j1
// runs j2 j3, off the Pyramid on j4 to i4 h4, up to h5, across i5 j5 and up the j-file.
const classic = at('khet2', SETUPS.khet2.classic);

describe('position patterns', () => {
  it('finds pieces on squares, with and without a piece beside them', () => {
    expect(holds('Red Pharaoh on f8', classic)).toBe(true);
    expect(holds('Red Pharaoh on e8', classic)).toBe(false);
    expect(holds('a Red Pharaoh on f8 with an Anubis beside it', classic)).toBe(true);
    expect(holds('a Red Pharaoh on f8 with no Anubis beside it', classic)).toBe(false);
    expect(holds('Red Pharaoh without Silver Anubis beside', classic)).toBe(true);
    expect(holds('Silver Pharaoh on e1 with Silver Anubis beside it', classic)).toBe(true);
    expect(holds('2 Silver Anubises on rank 1', classic)).toBe(true);
    expect(holds('3 Silver Anubises on rank 1', classic)).toBe(false);
    expect(holds('Silver Scarab on e4|f4, no Red Scarab on a1-c3', classic)).toBe(true);
  });

  it('follows the beams as they would fire now, whoever is to move', () => {
    expect(holds("Silver's beam passes i5", classic)).toBe(true);
    expect(holds("Silver's beam passes d5", classic)).toBe(false);
    expect(holds('Red beam passes c4 and Silver to move', classic)).toBe(true);
    expect(holds('Red beam passes c4 and Red to move', classic)).toBe(false);
    expect(holds('Silver beam hits Pharaoh', classic)).toBe(false);
  });

  it('reads colours by the edition: Gold and Silver in Deflexion', () => {
    const d = at('deflexion', SETUPS.deflexion.classic);
    expect(holds('Gold Pharaoh', d)).toBe(true);
    expect(holds('Red Pharaoh', d)).toBe(false);
    expect(holds('first Pharaoh on rank 1', d)).toBe(holds('Gold Pharaoh on rank 1', d));
  });

  it('sees a position after moves, and a beam that hits', () => {
    // A Silver Pyramid turned into the beam's way changes where it goes.
    const before = holds("Silver's beam passes j8", classic);
    const after = at('khet2', SETUPS.khet2.classic, ['j4+']);
    expect(before).toBe(true);
    expect(holds("Silver's beam passes j8", after)).toBe(false);
  });

  it('names the word it cannot read', () => {
    for (const [text, word] of [
      ['Red Pharoah on f8', 'pharoah'],
      ['Red Pharaoh on k9', 'k9'],
      ['Red Pharaoh on f8 or Silver Pharaoh', 'or'],
      ["Silver's beam goes d5", 'goes'],
      ['', 'empty'],
    ]) {
      const p = parsePattern(text);
      expect(p.ok).toBe(false);
      if (!p.ok) expect(p.error).toContain(word);
    }
  });
});
