/**
 * The fingerprint's probe positions (src/match/fingerprint.ts) say what they claim, by the rules
 * core: with the probe's switch on, the answers that show it exist and are the only win (or the
 * only move that does not lose within two plies); with it off they do not exist.
 */
import { describe, expect, it } from 'vitest';
import {
  THOTH_DIALECT,
  type Dialect,
  type Position,
  SETUPS,
  dialectRules,
  dialectSetup,
  formatMove,
  legalMoves,
  parseKfen,
  parseMove,
} from '../../src/core/index';
import { FINGERPRINT_PROBES } from '../../src/match/fingerprint';

function position(kfen: string, moves: readonly string[], d: Dialect): Position {
  const r = parseKfen(kfen, 'khet2', dialectRules(d));
  if (!r.ok) throw new Error(r.error.message);
  for (const t of moves) {
    const m = parseMove(r.value, t);
    if (!m.ok) throw new Error(m.error.message);
    r.value.make(m.value);
  }
  return r.value;
}

/** The mover's moves that win at once, and those that do not lose within two plies. */
function outcomes(pos: Position): { wins: string[]; survives: string[] } {
  const me = pos.side;
  const wins: string[] = [];
  const survives: string[] = [];
  for (const m of legalMoves(pos)) {
    pos.make(m);
    if (pos.winner === me) wins.push(formatMove(m));
    else if (pos.winner < 0 && !legalMoves(pos).some((r) => wonBy(pos, r, me ^ 1))) survives.push(formatMove(m));
    pos.unmake();
  }
  return { wins, survives };
}

function wonBy(pos: Position, m: number, side: number): boolean {
  pos.make(m);
  const w = pos.winner === side;
  pos.unmake();
  return w;
}

describe('the fingerprint probes', () => {
  it.each(FINGERPRINT_PROBES.map((p) => [p.switch, p] as const))('%s', (_name, probe) => {
    const on: Dialect = { ...THOTH_DIALECT, [probe.switch]: true };
    const off: Dialect = THOTH_DIALECT;
    const moves = probe.setupMoves ?? [];
    const kfenOn = probe.setupMoves ? dialectSetup('classic', on)! : probe.kfen;
    const withIt = outcomes(position(kfenOn, moves, on));
    const without = outcomes(position(probe.setupMoves ? SETUPS.khet2.classic : probe.kfen, moves, off));
    // the answers that show the switch on are the only way out with it; without it there are none
    const shown = probe.switch === 'pharaohRotation' ? withIt.survives : withIt.wins;
    const shownOff = probe.switch === 'pharaohRotation' ? without.survives : without.wins;
    if (probe.switch === 'twoScarabRotations') {
      expect(withIt.wins.sort()).toEqual(['j4+', 'j4-']);
      expect(without.wins).toEqual(['j4+']);
      return;
    }
    expect(shown.length).toBeGreaterThan(0);
    for (const m of shown) expect(probe.on).toContain(m.replace(/-$/, '+'));
    if (probe.off) expect(shownOff).toEqual([...probe.off]);
    else expect(shownOff).toEqual([]);
  });
});
