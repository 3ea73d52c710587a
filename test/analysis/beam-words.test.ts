/** Beams in words (src/analysis/beam-words.ts): mirrors and their owners, how a beam ends, in each edition. */
import { describe, expect, it } from 'vitest';
import { parseKfen, parseMove, traceShot, type EditionId, type Position } from '../../src/core/index';
import { beamSentence, readBeam } from '../../src/analysis/beam-words';

function position(kfen: string, edition: EditionId = 'khet2'): Position {
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The sentence of the side to move's shot after `move` (none: the beam as it runs now), told to `about`. */
function say(pos: Position, move: string | null, about?: number): string {
  const m = move === null ? -1 : parseMove(pos, move);
  if (typeof m !== 'number' && !m.ok) throw new Error(m.error.message);
  const shot = traceShot(pos, typeof m === 'number' ? m : m.value);
  return beamSentence(pos.edition, readBeam(shot.steps, pos.side, pos.edition.sphinx), about);
}

describe('beamSentence', () => {
  it("names each mirror's owner and counts the target side's own pieces among them", () => {
    // Red fires south from a8, off its Pyramid on a3 (east), off Silver's Pyramid on d3 (north)
    // and Silver's Pyramid on d6 (west) into the side of Silver's Anubis on b6
    const pos = position('xv9/10/1A^1Pv6/10/10/p^2P<6/10/4K3kX^ r 0 1');
    expect(say(pos, null, 0)).toBe(
      "bounces off Red's Pyramid on a3 and Silver's Pyramids on d3 and d6, and removes Silver's Anubis on b6 (2 of its 3 mirrors are Silver's own pieces)",
    );
    // told to Red, the shooter: no count
    expect(say(pos, null, 1)).toBe(
      "bounces off Red's Pyramid on a3 and Silver's Pyramids on d3 and d6, and removes Silver's Anubis on b6",
    );
  });

  it('says a shield, a Sphinx, the board edge and a Pharaoh hit', () => {
    const shield = position('xv9/10/10/10/10/p^2A<6/10/4K3kX^ r 0 1');
    expect(say(shield, null)).toBe("bounces off Red's Pyramid on a3, and stops on the shield of Silver's Anubis on d3");
    const off = position('xv9/10/10/10/10/10/10/4K3kX^ r 0 1');
    expect(say(off, null)).toBe('runs straight and leaves the board past a1');
    const hit = position('xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1');
    expect(say(hit, 'j8+')).toBe("bounces off Silver's Pyramid on j8, and hits Red's Pharaoh on f8: Silver wins");
  });

  it('reads a fixed laser and a stack of Obelisks (Khet 1.0)', () => {
    // Silver's laser enters on j1 going north; its Pyramid on j4 turns the beam west onto Red's stack on f4
    const pos = position('4k5/10/10/10/5t3Pv/10/10/4K5 s 0 1', 'khet1');
    expect(say(pos, null)).toBe("bounces off Silver's Pyramid on j4, and takes the top Obelisk off Red's stack on f4");
  });
});
