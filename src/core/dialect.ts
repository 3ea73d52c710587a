/**
 * Rules dialects (docs/rules.md §3.1): the ways in which Khet engines read the printed rules
 * differently, as named switches. Thoth's rules are the dialect with every switch off. A dialect is
 * the move rules (RuleOptions, which the Position plays) plus how its setups turn their Scarabs.
 * Plain data and pure functions: the tournament runner, the GUI and the library share them.
 */
import { parseKfen } from './kfen';
import { MAX_MOVES, ROT_CCW, moveType } from './move';
import { formatMove } from './notation';
import { PHARAOH, SCARAB, kindOf } from './pieces';
import type { Position, RuleOptions } from './position';
import { err, ok, type Result } from './result';
import { SETUPS, type SetupName } from './setups';

/** The switches, in the order they are written. */
export const DIALECT_SWITCHES = [
  'pharaoh-rotation',
  'two-scarab-rotations',
  'swap-onto-reserved',
  'swap-sphinx',
  'turned-scarabs',
] as const;
export type DialectSwitch = (typeof DIALECT_SWITCHES)[number];

/** A dialect: the switches that are on. */
export interface Dialect {
  /** A Pharaoh may turn (a move that changes nothing but fires the laser). */
  pharaohRotation: boolean;
  /** A Scarab's (and a Pharaoh's) turns `+` and `-` are two moves. */
  twoScarabRotations: boolean;
  /** A swap may push the other piece onto a square reserved for its colour. */
  swapOntoReserved: boolean;
  /** A Scarab may swap with a Sphinx. */
  swapSphinx: boolean;
  /** The setups' Scarabs are turned a quarter from Thoth's (each mirror the other way). */
  turnedScarabs: boolean;
}

/** Thoth's rules: every switch off. */
export const THOTH_DIALECT: Dialect = Object.freeze({
  pharaohRotation: false,
  twoScarabRotations: false,
  swapOntoReserved: false,
  swapSphinx: false,
  turnedScarabs: false,
});

const FIELD: Record<DialectSwitch, keyof Dialect> = {
  'pharaoh-rotation': 'pharaohRotation',
  'two-scarab-rotations': 'twoScarabRotations',
  'swap-onto-reserved': 'swapOntoReserved',
  'swap-sphinx': 'swapSphinx',
  'turned-scarabs': 'turnedScarabs',
};

/** Each switch in words, as the fingerprint prints it. */
const WORDS: Record<DialectSwitch, [on: string, off: string]> = {
  'pharaoh-rotation': ['Pharaoh rotation', 'no Pharaoh rotation'],
  'two-scarab-rotations': ['two Scarab rotations', 'one Scarab rotation'],
  'swap-onto-reserved': ['swaps onto reserved squares', 'no swap onto a reserved square'],
  'swap-sphinx': ['swaps with the Sphinx', 'no swap with the Sphinx'],
  'turned-scarabs': ['Scarabs of the setups turned', "the setups' Scarabs as Thoth's"],
};

/** The Dialect field of a switch. */
export function switchField(s: DialectSwitch): keyof Dialect {
  return FIELD[s];
}

/** The switches that are on. */
export function dialectSwitches(d: Dialect): DialectSwitch[] {
  return DIALECT_SWITCHES.filter((s) => d[FIELD[s]]);
}

/** The dialect as the `Rules` tag and the `-rules` flag write it: `thoth`, or the switches joined by `+`. */
export function formatDialect(d: Dialect): string {
  const on = dialectSwitches(d);
  return on.length === 0 ? 'thoth' : on.join('+');
}

/** Parses `thoth` or switches joined by `+` or `,` (the form formatDialect writes). */
export function parseDialect(text: string): Result<Dialect, string> {
  const t = text.trim().toLowerCase();
  const d: Dialect = { ...THOTH_DIALECT };
  if (t === 'thoth' || t === '') return ok(d);
  for (const w of t.split(/[+,]/)) {
    const s = DIALECT_SWITCHES.find((x) => x === w.trim());
    if (s === undefined) {
      return err(`unknown rules switch '${w.trim()}' (expected thoth or ${DIALECT_SWITCHES.join(', ')}, joined by +)`);
    }
    d[FIELD[s]] = true;
  }
  return ok(d);
}

/**
 * The dialect in words, every switch that differs from Thoth's rules and the Scarab rotations:
 * "Pharaoh rotation, two Scarab rotations"; "Thoth's rules, one Scarab rotation" when none differs.
 */
export function describeDialect(d: Dialect): string {
  const words = DIALECT_SWITCHES.filter((s) => d[FIELD[s]] || s === 'two-scarab-rotations').map(
    (s) => WORDS[s][d[FIELD[s]] ? 0 : 1],
  );
  return d.pharaohRotation || d.swapOntoReserved || d.swapSphinx || d.turnedScarabs
    ? words.join(', ')
    : `Thoth's rules, ${words.join(', ')}`;
}

/** The move rules of a dialect, for Position. */
export function dialectRules(d: Dialect): RuleOptions {
  return {
    pharaohRotation: d.pharaohRotation,
    twoScarabRotations: d.twoScarabRotations,
    swapOntoReserved: d.swapOntoReserved,
    swapSphinx: d.swapSphinx,
  };
}

/**
 * Whether two dialects play the same games from the same position: the same moves change the
 * board the same way. The number of Scarab rotations only names one move twice, and the setups'
 * Scarabs matter only to an engine told a setup by name (a runner sends the board).
 */
export function samePlay(a: Dialect, b: Dialect): boolean {
  return (
    a.pharaohRotation === b.pharaohRotation &&
    a.swapOntoReserved === b.swapOntoReserved &&
    a.swapSphinx === b.swapSphinx
  );
}

/** A Khet 2.0 setup as a dialect has it: Thoth's, or with its Scarabs turned a quarter. */
export function dialectSetup(name: SetupName, d: Dialect): string | undefined {
  const k = SETUPS.khet2[name];
  return k !== undefined && d.turnedScarabs ? turnScarabs(k) : k;
}

/** A KFEN with every Scarab turned a quarter (`^` ↔ `>`, as the Scarab's two states). */
export function turnScarabs(kfen: string): string {
  const [placement, ...rest] = kfen.split(' ');
  const turned = placement.replace(
    /([SsDd])([\^>v<])/g,
    (_, l: string, o: string) => l + (o === '^' || o === 'v' ? '>' : '^'),
  );
  return [turned, ...rest].join(' ');
}

/** Where two dialects first part: a position, the moves that lead there, and a move one allows and the other does not. */
export interface DialectParting {
  /** The moves from the start that lead to the position. */
  moves: string[];
  /** A move legal under `allowedBy` only. */
  move: string;
  /** 0: the first dialect allows it, 1: the second. */
  allowedBy: 0 | 1;
}

/**
 * The first position (depth-first from `startKfen`, at most `maxPlies` plies deep) where the two
 * dialects' legal moves differ, or undefined when none does that deep. Rotations that only name a
 * move twice (two Scarab rotations) do not count.
 */
export function firstParting(startKfen: string, a: Dialect, b: Dialect, maxPlies = 4): DialectParting | undefined {
  const pa = parseKfen(startKfen, 'khet2', dialectRules(a));
  const pb = parseKfen(startKfen, 'khet2', dialectRules(b));
  if (!pa.ok || !pb.ok) return undefined;
  const posA = pa.value;
  const posB = pb.value;
  const bufA = new Int32Array(MAX_MOVES);
  const bufB = new Int32Array(MAX_MOVES);
  const path: string[] = [];
  const moveSet = (pos: Position, buf: Int32Array): Set<string> => {
    const n = pos.generate(buf, 0);
    const s = new Set<string>();
    for (let i = 0; i < n; i++) if (!isSecondTurn(pos, buf[i])) s.add(formatMove(buf[i]));
    return s;
  };
  const walk = (depth: number): DialectParting | undefined => {
    if (posA.winner >= 0) return undefined;
    const ma = moveSet(posA, bufA);
    const mb = moveSet(posB, bufB);
    for (const m of ma) if (!mb.has(m)) return { moves: [...path], move: m, allowedBy: 0 };
    for (const m of mb) if (!ma.has(m)) return { moves: [...path], move: m, allowedBy: 1 };
    if (depth === 0) return undefined;
    const list = [...ma];
    for (const text of list) {
      const moveA = findMove(posA, bufA, text);
      const moveB = findMove(posB, bufB, text);
      posA.make(moveA);
      posB.make(moveB);
      path.push(text);
      const found = walk(depth - 1);
      path.pop();
      posA.unmake();
      posB.unmake();
      if (found) return found;
    }
    return undefined;
  };
  // the shallowest parting first: deepen one ply at a time
  for (let d = 0; d < maxPlies; d++) {
    const found = walk(d);
    if (found) return found;
  }
  return undefined;
}

/** A counter-clockwise turn of a piece whose two turns are one position (a Scarab, a Pharaoh). */
function isSecondTurn(pos: Position, m: number): boolean {
  if (moveType(m) !== ROT_CCW) return false;
  const kind = kindOf(pos.board[m & 127]);
  return kind === PHARAOH || kind === SCARAB;
}

function findMove(pos: Position, buf: Int32Array, text: string): number {
  const n = pos.generate(buf, 0);
  for (let i = 0; i < n; i++) if (formatMove(buf[i]) === text) return buf[i];
  throw new Error(`no move ${text}`);
}
