/**
 * The puzzle file (docs/puzzles.md): a JSON array, one object per puzzle, written one per line.
 * `checkPuzzle` is the schema (fields, types, moves legal from the KFEN); the page reads the
 * shipped set with `parsePuzzleFile`. Needs only the rules core: runs in Node and the browser.
 */
import { isEditionId, parseKfen, parseMove } from '../core/index';
import { err, ok, type Result } from '../core/result';

export interface Puzzle {
  /** 10 hex digits, stable for the same variant, KFEN and moves. */
  id: string;
  variant: 'khet2' | 'khet1' | 'deflexion';
  /** The position before the opponent's last move. */
  kfen: string;
  /** moves[0]: the opponent's last move (shown); then the solution, solver and defender in turn. */
  moves: string[];
  themes: string[];
  rating: number;
  source: string;
}

const PUZZLE_FIELDS = ['id', 'variant', 'kfen', 'moves', 'themes', 'rating', 'source'] as const;

/** The themes the miner writes. */
export const THEMES = [
  'hitIn1',
  'hitIn2',
  'hitIn3',
  'hitIn4',
  'hitIn5',
  'defence',
  'material',
  'sphinxTurn',
  'swap',
  'unstack',
  'anubisBlock',
  'quietMove',
  'capture',
] as const;

/** Why an object is not a puzzle (the first fault found). */
export function checkPuzzle(x: unknown): Result<Puzzle, string> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return err('not an object');
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const k of keys) if (!(PUZZLE_FIELDS as readonly string[]).includes(k)) return err(`unknown field '${k}'`);
  for (const k of PUZZLE_FIELDS) if (!(k in o)) return err(`no field '${k}'`);
  if (typeof o.id !== 'string' || !/^[0-9a-f]{10}$/.test(o.id)) return err('id: not 10 hex digits');
  if (typeof o.variant !== 'string' || !isEditionId(o.variant)) return err(`variant: not khet2, khet1 or deflexion`);
  if (typeof o.kfen !== 'string') return err('kfen: not a string');
  if (!Array.isArray(o.moves) || o.moves.length < 2 || o.moves.some((m) => typeof m !== 'string'))
    return err('moves: not a list of at least two move texts');
  if (
    !Array.isArray(o.themes) ||
    o.themes.length === 0 ||
    o.themes.some((t) => typeof t !== 'string' || !(THEMES as readonly string[]).includes(t))
  ) {
    return err('themes: not a list of known themes');
  }
  if (typeof o.rating !== 'number' || !Number.isInteger(o.rating) || o.rating < 0 || o.rating > 4000)
    return err('rating: not a whole number from 0 to 4000');
  if (typeof o.source !== 'string' || o.source === '') return err('source: not a string');
  const pos = parseKfen(o.kfen, o.variant);
  if (!pos.ok) return err(`kfen: ${pos.error.message}`);
  const p = pos.value;
  for (let k = 0; k < o.moves.length; k++) {
    if (p.winner >= 0) return err(`moves[${k}]: the game is already over`);
    const m = parseMove(p, o.moves[k] as string);
    if (!m.ok) return err(`moves[${k}]: ${m.error.message}`);
    p.make(m.value);
  }
  return ok(o as unknown as Puzzle);
}

/** Reads a puzzle file's text: every puzzle, or the first fault. */
export function parsePuzzleFile(text: string): Result<Puzzle[], string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return err(`not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(data)) return err('not a JSON array');
  const out: Puzzle[] = [];
  for (let i = 0; i < data.length; i++) {
    const r = checkPuzzle(data[i]);
    if (!r.ok) return err(`puzzle ${i + 1}: ${r.error}`);
    out.push(r.value);
  }
  return ok(out);
}

/** The file's text: a JSON array with one puzzle per line. */
export function formatPuzzleFile(puzzles: readonly Puzzle[]): string {
  if (puzzles.length === 0) return '[]\n';
  const line = (p: Puzzle): string =>
    JSON.stringify({
      id: p.id,
      variant: p.variant,
      kfen: p.kfen,
      moves: p.moves,
      themes: p.themes,
      rating: p.rating,
      source: p.source,
    });
  return `[\n${puzzles.map(line).join(',\n')}\n]\n`;
}
