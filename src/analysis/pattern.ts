/**
 * Position patterns: a small language for "pieces on squares" and "beams through squares", read
 * once and then tested on positions (thoth db search --pattern, the page's position search; the
 * language is documented in docs/db.md, "Patterns"). Pure: the page bundles it.
 *
 * ```
 * pattern := clause { ("and" | ",") clause }
 * clause  := ["no" | "not"] (piece | beam | turn)
 * piece   := ["a" | "an" | N] [colour] kind ["on" squares] [beside]
 * beside  := ("with" ["no"] | "without") [colour] kind "beside" ["it"]
 * beam    := colour ["'s"] "beam" ("passes" | "crosses") squares
 *          | colour ["'s"] "beam" "hits" [colour] kind
 * turn    := colour "to" "move"
 * squares := square { "|" square }  |  square "-" square  |  file-letter "-file"  |  "rank" digit
 * ```
 *
 * Colours are the edition's names (Silver and Red in Khet, Gold and Silver in Deflexion) or
 * `first`/`second`; kinds are Pharaoh, Sphinx, Pyramid, Anubis, Scarab, Djed (the Scarab of the
 * older editions), Obelisk and Stack, singular or plural, in any case. A piece clause holds when at
 * least N (1 unless told) pieces of that colour and kind stand on the squares and pass the beside
 * test (another piece of that kind on one of the eight squares around). A beam is the one the
 * colour's laser would fire in the position, whoever is to move; `passes` counts every square it
 * crosses, the piece it stops on included.
 */
import {
  KIND_NAMES,
  SQUARES,
  bbHas,
  colorOf,
  fileOf,
  kindOf,
  parseSquare,
  rankOf,
  square,
  type Edition,
  type Position,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { beamMask } from '../core/shots';

/** One clause: colours stay words until a position's edition resolves them. */
type Clause = {
  negate: boolean;
  colorWord?: string;
  besideColorWord?: string;
  /** The colours resolved, per edition (filled as positions are tested). */
  colors?: Map<string, [number, number]>;
} & (
  | { type: 'piece'; kind: number; squares: Uint8Array; atLeast: number; beside?: { kind: number; present: boolean } }
  | { type: 'beam'; squares?: Uint8Array; hits?: number }
  | { type: 'turn' }
);

/** A pattern, read: test positions with {@link matchesPattern}. */
export interface Pattern {
  text: string;
  readonly clauses: readonly Clause[];
}

const KINDS: Record<string, number> = {};
for (let k = 1; k < KIND_NAMES.length; k++) {
  const n = KIND_NAMES[k].toLowerCase();
  KINDS[n] = k;
  KINDS[`${n}s`] = k;
}
KINDS.djed = 5;
KINDS.djeds = 5;
KINDS.sphinxes = 1;
KINDS.anubises = 4;

/** The colour words a pattern may use (resolved per edition when tested). */
const COLOUR_WORDS = new Set(['silver', 'red', 'gold', 'first', 'second']);

/** A colour word's colour in an edition, or -2 when the edition has no such colour. */
function colourIn(word: string, ed: Edition): number {
  if (word === 'first') return 0;
  if (word === 'second') return 1;
  const i = ed.colorNames.findIndex((c) => c.toLowerCase() === word);
  return i >= 0 ? i : -2;
}

function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’']s\b/g, ' ')
      .match(/[a-j][1-8]-[a-j][1-8]|[a-j]-file|[a-j][1-8](?![a-z0-9])|[a-z]+\d*|\d+|[,|]/g) ?? []
  );
}

/** Squares as the pattern names them: one, several joined by `|`, a rectangle, a file or a rank. */
function readSquares(t: string[], at: number): { squares: Uint8Array; next: number } | string {
  const set = new Uint8Array(SQUARES);
  let i = at;
  for (;;) {
    const w = t[i];
    if (w === undefined) return 'squares expected after "on"';
    const rect = /^([a-j][1-8])-([a-j][1-8])$/.exec(w);
    const file = /^([a-j])-file$/.exec(w);
    if (rect) {
      const [a, b] = [parseSquare(rect[1]), parseSquare(rect[2])];
      for (let f = Math.min(fileOf(a), fileOf(b)); f <= Math.max(fileOf(a), fileOf(b)); f++)
        for (let r = Math.min(rankOf(a), rankOf(b)); r <= Math.max(rankOf(a), rankOf(b)); r++) set[square(f, r)] = 1;
      i++;
    } else if (file) {
      const f = file[1].charCodeAt(0) - 97;
      for (let r = 0; r < 8; r++) set[square(f, r)] = 1;
      i++;
    } else if (w === 'rank' && /^[1-8]$/.test(t[i + 1] ?? '')) {
      const r = Number(t[i + 1]) - 1;
      for (let f = 0; f < 10; f++) set[square(f, r)] = 1;
      i += 2;
    } else if (parseSquare(w) >= 0) {
      set[parseSquare(w)] = 1;
      i++;
    } else return `"${w}" is not a square (a1 to j8, a1-c3, e-file, rank 4)`;
    if (t[i] !== '|') return { squares: set, next: i };
    i++;
  }
}

const ALL_SQUARES = new Uint8Array(SQUARES).fill(1);

/** Reads a pattern; a message naming the word it could not read otherwise. */
export function parsePattern(text: string): Result<Pattern, string> {
  const t = tokens(text);
  const clauses: Clause[] = [];
  let i = 0;
  const colourKind = (): { colorWord?: string; kind: number } | string => {
    let colorWord: string | undefined;
    if (COLOUR_WORDS.has(t[i])) colorWord = t[i++];
    const kind = KINDS[t[i]];
    if (kind === undefined)
      return `"${t[i] ?? 'the end'}" is not a piece (Pharaoh, Sphinx, Pyramid, Anubis, Scarab, Djed, Obelisk, Stack)`;
    i++;
    return { colorWord, kind };
  };
  while (i < t.length) {
    let negate = false;
    if (t[i] === 'no' || t[i] === 'not') {
      negate = true;
      i++;
    }
    if (COLOUR_WORDS.has(t[i]) && t[i + 1] === 'beam') {
      const colorWord = t[i];
      i += 2;
      const verb = t[i++];
      if (verb === 'passes' || verb === 'crosses' || verb === 'through') {
        const sq = readSquares(t, i);
        if (typeof sq === 'string') return err(sq);
        i = sq.next;
        clauses.push({ type: 'beam', colorWord, squares: sq.squares, negate });
      } else if (verb === 'hits') {
        const ck = colourKind();
        if (typeof ck === 'string') return err(ck);
        clauses.push({ type: 'beam', colorWord, hits: ck.kind, besideColorWord: ck.colorWord, negate });
      } else return err(`"${verb ?? 'the end'}" after "beam": passes SQUARES or hits PIECE`);
    } else if (COLOUR_WORDS.has(t[i]) && t[i + 1] === 'to' && t[i + 2] === 'move') {
      clauses.push({ type: 'turn', colorWord: t[i], negate });
      i += 3;
    } else {
      let atLeast = 1;
      if (t[i] === 'a' || t[i] === 'an') i++;
      else if (/^\d+$/.test(t[i] ?? '')) atLeast = Number(t[i++]);
      const ck = colourKind();
      if (typeof ck === 'string') return err(ck);
      let squares: Uint8Array = ALL_SQUARES;
      if (t[i] === 'on' || t[i] === 'in') {
        const sq = readSquares(t, i + 1);
        if (typeof sq === 'string') return err(sq);
        squares = sq.squares;
        i = sq.next;
      }
      let beside: { kind: number; present: boolean } | undefined;
      let besideColorWord: string | undefined;
      if (t[i] === 'with' || t[i] === 'without') {
        const present = !(t[i] === 'without' || t[i + 1] === 'no');
        i += t[i] === 'with' && t[i + 1] === 'no' ? 2 : 1;
        if (t[i] === 'a' || t[i] === 'an') i++;
        const b = colourKind();
        if (typeof b === 'string') return err(b);
        if (t[i] !== 'beside') return err(`"beside" expected after "${KIND_NAMES[b.kind]}"`);
        i++;
        if (t[i] === 'it' || t[i] === 'them') i++;
        beside = { kind: b.kind, present };
        besideColorWord = b.colorWord;
      }
      clauses.push({
        type: 'piece',
        colorWord: ck.colorWord,
        kind: ck.kind,
        squares,
        atLeast,
        beside,
        besideColorWord,
        negate,
      });
    }
    if (i >= t.length) break;
    if (t[i] !== 'and' && t[i] !== ',') return err(`"and" or "," expected before "${t[i]}"`);
    i++;
  }
  if (clauses.length === 0) return err('an empty pattern (e.g. "Red Pharaoh on e1 with no Anubis beside it")');
  return ok({ text, clauses });
}

const AROUND: number[][] = Array.from({ length: SQUARES }, (_, sq) => {
  const out: number[] = [];
  for (let df = -1; df <= 1; df++)
    for (let dr = -1; dr <= 1; dr++) {
      const f = fileOf(sq) + df;
      const r = rankOf(sq) + dr;
      if ((df !== 0 || dr !== 0) && f >= 0 && f < 10 && r >= 0 && r < 8) out.push(square(f, r));
    }
  return out;
});

const beamSquares = new Int32Array(3);

function pieceIs(p: number, color: number, kind: number): boolean {
  return p !== 0 && kindOf(p) === kind && (color < 0 || colorOf(p) === color);
}

function holds(test: Clause, pos: Position): boolean {
  const ed = pos.edition;
  test.colors ??= new Map();
  let resolved = test.colors.get(ed.id);
  if (resolved === undefined) {
    resolved = [
      test.colorWord === undefined ? -1 : colourIn(test.colorWord, ed),
      test.besideColorWord === undefined ? -1 : colourIn(test.besideColorWord, ed),
    ];
    test.colors.set(ed.id, resolved);
  }
  const [color, other] = resolved;
  if (color === -2 || other === -2) return false;
  const b = pos.board;
  switch (test.type) {
    case 'turn':
      return pos.side === color;
    case 'beam': {
      const killed = beamMask(pos, color, beamSquares, 0);
      if (test.hits !== undefined) return killed >= 0 && pieceIs(b[killed], other, test.hits);
      for (let sq = 0; sq < SQUARES; sq++) if (test.squares![sq] && bbHas(beamSquares, 0, sq)) return true;
      return false;
    }
    case 'piece': {
      let found = 0;
      for (let sq = 0; sq < SQUARES; sq++) {
        if (!test.squares[sq] || !pieceIs(b[sq], color, test.kind)) continue;
        if (test.beside) {
          const n = AROUND[sq].some((q) => pieceIs(b[q], other, test.beside!.kind));
          if (n !== test.beside.present) continue;
        }
        if (++found >= test.atLeast) return true;
      }
      return false;
    }
  }
}

/** Whether a position matches every clause of the pattern. */
export function matchesPattern(p: Pattern, pos: Position): boolean {
  for (const t of p.clauses) if (holds(t, pos) === t.negate) return false;
  return true;
}

/**
 * The first ply of a game (0: its start) whose position passes `test`, or -1. `pos` is the game's
 * start and is left where the search stopped; `play(pos, k)` makes the game's move k (from 0) and
 * says false when it cannot (the game is then searched no further). Position search over a
 * database's games (src/db/query.ts) and over the page's kept games (view/games-panel.ts).
 */
export function firstPlyWhere(
  pos: Position,
  plies: number,
  play: (pos: Position, k: number) => boolean,
  test: (pos: Position) => boolean,
): number {
  if (test(pos)) return 0;
  for (let k = 0; k < plies; k++) {
    if (!play(pos, k)) return -1;
    if (test(pos)) return k + 1;
  }
  return -1;
}
