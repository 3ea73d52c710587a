/**
 * Game records in PGN: what `thoth match` writes (`-pgnout`), the GUI imports and exports,
 * `thoth analyse --game` reads and annotates, tools/tune.ts learns from. It lives next to the
 * rules because all of them share it; like the rest of src/core it is pure (the GUI page bundles
 * it). Parsing never throws: problems are typed values ({@link RecordSyntaxError}, {@link ReplayError}).
 *
 * ```
 * [Event "Thoth match"]
 * [Site "?"]
 * [Date "2025.02.03"]
 * [Round "3.2"]
 * [White "thoth-new"]
 * [Black "thoth-old"]
 * [Result "1-0"]
 * [SetUp "1"]
 * [FEN "xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1"]
 * [Variant "khet2"]
 * [KFEN "xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1"]
 * [TimeControl "10+0.1"]
 * [Termination "normal"]
 * [PlyCount "5"]
 *
 * 1. j4i4 {+0.35/12 0.520s} f8f7 {-0.20/11 0.480s} 2. c4d5 {+M1/3 0.100s} d7c7 {-M1/2 0.090s}
 * 3. e4+ {+M1/1 0.010s} {Silver wins: the Red Pharaoh was hit} 1-0
 * ```
 *
 * Tags, in this order (the Seven Tag Roster first, so rating tools such as BayesElo, Ordo and
 * pgn-extract see the players and the result):
 * - `Event`, `Site`, `Date` (`YYYY.MM.DD`), `Round` (`round.game`, both from 1: the game's place
 *   in the run's schedule; `-resume` relies on it);
 * - `White`: the first player (Silver in Khet 2.0 and 1.0, Gold in Deflexion); `Black`: the second
 *   (Red; Silver in Deflexion);
 * - `Result`: `1-0` the first player won, `0-1` the second, `1/2-1/2` a draw, `*` unfinished;
 * - `SetUp "1"` and `FEN`: the position the game started from, as a KFEN (side to move in it);
 * - `Variant`: `khet2` (default when missing), `khet1` or `deflexion`; `KFEN`: the start again;
 * - `Rules`: the rules dialect the game was played under (docs/rules.md §3.1): `thoth`, or switches
 *   joined by `+` such as `pharaoh-rotation+two-scarab-rotations` (Thoth's rules when missing);
 * - `TimeControl`: `40/60+0.6`, `10+0.1`, `st=0.5`, `depth=8`, `nodes=5000`; when the players had
 *   different limits, `WhiteTimeControl` and `BlackTimeControl` instead (as cutechess writes);
 * - `Termination`: `normal` (Pharaoh hit, repetition, no-removal limit), `adjudication`,
 *   `time forfeit`, `illegal move`, `abandoned` (engine crashed or quit), `stalled` (engine
 *   stopped answering); `PlyCount`; `Opening` (where the start came from, e.g. `classic +4 plies`).
 * Any other tag is kept. Records Thoth wrote before name the players in tags named after the
 * colours (`[Silver "…"]`, `[Red "…"]`; `Gold`/`Silver` in Deflexion), give the start only as
 * `KFEN` and the end in words as a `Reason` tag: all of that is still read.
 *
 * Movetext: move numbers (`12.`, and `12...` when the second player moves, e.g. first or after a
 * variation), moves in the rulebook's notation (`e4d5`, `e4+` and `e4-` are rotations, not checks;
 * `d1e2u`), each optionally followed by NAGs (`$2`) and a comment `{score/depth time}` from the engine
 * that played it: score from the mover's point of view in hundredths (`+0.35` = 35 centi-pyramids;
 * `+M3` / `-M3` = the mover hits the Pharaoh in 3 moves / is hit in 3), search depth, time in
 * seconds with an `s` (`{+0.35/12 0.520s}`; any part may be missing; a score has at most two
 * decimals, a time three). Other comment text is kept as a free comment, except lichess's drawing
 * commands: `[%cal Gd2d4,Re1e2]` arrows and `[%csl Rd5]` marked squares (colours G, R, Y, B), on
 * the position after the move; they are written after the free text. The engine's data is read
 * from a move's first comment only, so free words that would read as data (`+1.5`, `0.5s`) are
 * written in a comment of their own after it (`{} {+1.5 is fine}` when there is no data). A `{`
 * inside a comment is text. `( … )` after a move holds an alternative to it (variations nest). The
 * comment just before the result says how the game ended; an empty `{}` separates it from the last
 * move's own comment where the reader could not tell them apart. The result token ends the game.
 *
 * The reader also takes what other tools write: `!`, `?`, `!!`, `??`, `!?`, `?!` after a move
 * (read as the NAGs $1–$6), `;` comments to the end of the line, `%` lines (skipped), `<…>`
 * (skipped), move numbers glued to moves (`1.j4i4`). Games are separated by a blank line. Any
 * Unicode white space (form feed, vertical tab, U+00A0, U+2028, …) separates tokens as a space does.
 *
 * Limits: the reader's work grows with the text's length (each step moves past at least one
 * character, and nothing in it backtracks over the text), so any text, however garbled, gives
 * games and typed errors. Variations nest at most {@link MAX_VARIATION_DEPTH} deep (one deeper is
 * skipped with an error, so that nothing that walks a record's variations can run out of stack); a
 * line may be any length. Record files are read up to {@link RECORD_FILE_LIMIT} bytes.
 */
import { THOTH_DIALECT, type Dialect, dialectRules, parseDialect } from './dialect';
import { EDITIONS, isEditionId, type EditionId } from './editions';
import { parseKfen } from './kfen';
import { parseMove } from './notation';
import type { Position } from './position';
import { MOVE_LIST_RE, parseMoveComment, readsAsMove } from './record-parse';
import { err, ok, type Result } from './result';
import { SETUPS } from './setups';

/** The largest record file the tools read (256 MiB, about 100,000 games of a match); a larger one is refused. */
export const RECORD_FILE_LIMIT = 256 * 1024 * 1024;

/** How deep variations may nest: a deeper one is skipped (with an error). */
export const MAX_VARIATION_DEPTH = 100;

export type ResultToken = '1-0' | '0-1' | '1/2-1/2' | '*';
export const RESULT_TOKENS: readonly ResultToken[] = ['1-0', '0-1', '1/2-1/2', '*'];

/** A match record's `Round` tag, `round.game` (docs/match.md): the two numbers. */
export const ROUND_TAG_RE = /^(\d+)\.(\d+)$/;

/** The first player's score for a finished game's result (1, ½, 0); undefined for `*` or anything else. */
export function scoreOfResult(r: string): number | undefined {
  return r === '1-0' ? 1 : r === '0-1' ? 0 : r === '1/2-1/2' ? 0.5 : undefined;
}

export type Termination = 'normal' | 'adjudication' | 'time forfeit' | 'illegal move' | 'abandoned' | 'stalled';

export interface MoveRecord {
  /** The move text as played (`e4d5`, `e4+`, `d1e2u`). */
  move: string;
  /** Engine score in centi-pyramids, mover's point of view. */
  scoreCp?: number;
  /** Engine mate score in moves (positive: the mover wins), instead of `scoreCp`. */
  mate?: number;
  depth?: number;
  /** Thinking time in milliseconds. */
  timeMs?: number;
  /** The engine's nodes, selective depth and principal variation (`n=… sd=… pv=m1,m2`: `-pgnout … nodes=true …`). */
  nodes?: number;
  seldepth?: number;
  pv?: string[];
  /** Free comment text (anything in the braces that is not score/depth/time). */
  comment?: string;
  /** A comment before the move, where no move precedes it (the start of a game or a variation). */
  before?: string;
  /** Numeric annotation glyphs: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, … */
  nags?: number[];
  /** Alternatives to this move: each a line of moves from the position before it. */
  variations?: MoveRecord[][];
  /** Arrows drawn on the position after the move: `[%cal Gd2d4]` in its comment, as lichess writes them. */
  arrows?: NoteArrow[];
  /** Squares marked on the position after the move: `[%csl Rd5]`. */
  squareMarks?: SquareMark[];
}

/** The colours of lichess's drawing commands: green, red, yellow, blue. */
export type ShapeColor = 'G' | 'R' | 'Y' | 'B';
export const SHAPE_COLORS: readonly ShapeColor[] = ['G', 'R', 'Y', 'B'];

/** An arrow from one square to another (squares named `a1`…`j8`). */
export interface NoteArrow {
  color: ShapeColor;
  from: string;
  to: string;
}

/** A marked square. */
export interface SquareMark {
  color: ShapeColor;
  square: string;
}

export interface GameRecord {
  /** All tags in order (Map keeps insertion order). */
  tags: Map<string, string>;
  moves: MoveRecord[];
  result: ResultToken;
  /** The comment just before the result: how the game ended, in words. */
  ending?: string;
}

/** The edition a record is for (its `Variant` tag; `khet2` when missing or unknown). */
export function recordVariant(rec: GameRecord): EditionId {
  const v = rec.tags.get('Variant') ?? 'khet2';
  return isEditionId(v) ? v : 'khet2';
}

/** The players' names: [first player, second player] (`White`/`Black`, or the colours' tags of older records). */
export function recordPlayers(rec: GameRecord): [string, string] {
  const [a, b] = EDITIONS[recordVariant(rec)].colorNames;
  return [rec.tags.get('White') ?? rec.tags.get(a) ?? '?', rec.tags.get('Black') ?? rec.tags.get(b) ?? '?'];
}

/** The KFEN the game started from (`FEN` or `KFEN`), or undefined (the classic setup). */
export function recordStart(rec: GameRecord): string | undefined {
  return rec.tags.get('FEN') ?? rec.tags.get('KFEN');
}

/** How the game ended, in words (the comment before the result, or an older record's `Reason` tag). */
export function recordReason(rec: GameRecord): string | undefined {
  return rec.ending ?? rec.tags.get('Reason');
}

/** The time control of each player: [first, second] (equal when one `TimeControl` tag holds both). */
export function recordTimeControls(rec: GameRecord): [string, string] | undefined {
  const w = rec.tags.get('WhiteTimeControl');
  const b = rec.tags.get('BlackTimeControl');
  if (w !== undefined && b !== undefined) return [w, b];
  const t = rec.tags.get('TimeControl');
  return t === undefined ? undefined : [t, t];
}

/**
 * A record with the tags in the standard order. `players` are [first, second]; a time control is
 * one for both or one per player; extra tags go after the known ones.
 */
export function makeRecord(fields: {
  event: string;
  site?: string;
  date: string;
  round: string;
  players: [string, string];
  result: ResultToken;
  variant: EditionId;
  kfen: string;
  timeControl: string | [string, string];
  termination: Termination;
  /** How the game ended, in words: written as the comment before the result. */
  reason?: string;
  opening?: string;
  /** The rules dialect (docs/rules.md §3.1) as formatDialect writes it: the `Rules` tag. */
  rules?: string;
  extra?: readonly [string, string][];
  moves: MoveRecord[];
}): GameRecord {
  const tags = new Map<string, string>();
  tags.set('Event', fields.event);
  tags.set('Site', fields.site ?? '?');
  tags.set('Date', fields.date);
  tags.set('Round', fields.round);
  tags.set('White', fields.players[0]);
  tags.set('Black', fields.players[1]);
  tags.set('Result', fields.result);
  tags.set('SetUp', '1');
  tags.set('FEN', fields.kfen);
  tags.set('Variant', fields.variant);
  tags.set('KFEN', fields.kfen);
  if (fields.rules !== undefined) tags.set('Rules', fields.rules);
  const tc = fields.timeControl;
  if (typeof tc === 'string' || tc[0] === tc[1]) {
    tags.set('TimeControl', typeof tc === 'string' ? tc : tc[0]);
  } else {
    tags.set('WhiteTimeControl', tc[0]);
    tags.set('BlackTimeControl', tc[1]);
  }
  tags.set('Termination', fields.termination);
  tags.set('PlyCount', String(fields.moves.length));
  if (fields.opening !== undefined) tags.set('Opening', fields.opening);
  for (const [k, v] of fields.extra ?? []) tags.set(k, v);
  return { tags, moves: fields.moves, result: fields.result, ending: fields.reason };
}

/** Tags of the Seven Tag Roster and of the start position, in the order they are written. */
const ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'SetUp', 'FEN', 'Variant', 'KFEN'];

/**
 * The same game with standard tags, whatever wrote it: the Seven Tag Roster first (`?` where
 * unknown), the players under `White`/`Black` (the colours' tags of older records dropped),
 * `SetUp`/`FEN`/`KFEN` when the start is known, an older `Reason` tag as the ending comment.
 */
export function standardRecord(rec: GameRecord): GameRecord {
  const [first, second] = recordPlayers(rec);
  const [c0, c1] = EDITIONS[recordVariant(rec)].colorNames;
  const start = recordStart(rec);
  const known = new Map<string, string | undefined>([
    ['Event', rec.tags.get('Event') ?? '?'],
    ['Site', rec.tags.get('Site') ?? '?'],
    ['Date', rec.tags.get('Date') ?? '????.??.??'],
    ['Round', rec.tags.get('Round') ?? '?'],
    ['White', first],
    ['Black', second],
    ['Result', rec.result],
    ['SetUp', start !== undefined ? '1' : undefined],
    ['FEN', start],
    ['Variant', rec.tags.get('Variant')],
    ['KFEN', start],
  ]);
  const tags = new Map<string, string>();
  for (const k of ROSTER) {
    const v = known.get(k);
    if (v !== undefined) tags.set(k, v);
  }
  for (const [k, v] of rec.tags) {
    if (tags.has(k) || k === 'Reason' || ((k === c0 || k === c1) && !rec.tags.has(k === c0 ? 'White' : 'Black')))
      continue;
    tags.set(k, v);
  }
  return { tags, moves: rec.moves, result: rec.result, ending: recordReason(rec) };
}

/** `YYYY.MM.DD` of a date (local time), as PGN writes dates. */
export function pgnDate(d: Date = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/** A tag's value escaped; a line break in it (which a tag line cannot hold) becomes a space. */
function escapeTag(v: string): string {
  return v
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\r\n]/g, ' ');
}

/**
 * Comment text that cannot close its braces early: without `}` (a `{` inside a comment is text,
 * as the reader takes it), its white space as the reader leaves it (single spaces, none at the ends).
 */
function commentText(s: string): string {
  return s
    .replace(/}/g, '')
    .replace(/[\s\uFEFF]+/g, ' ')
    .trim();
}

/** Score text: `+0.35`, `-1.20`, `0.00`, `+M3`, `-M2`. */
export function formatScore(m: Pick<MoveRecord, 'scoreCp' | 'mate'>): string | undefined {
  if (m.mate !== undefined) return `${m.mate < 0 ? '-' : '+'}M${Math.abs(m.mate)}`;
  if (m.scoreCp !== undefined) {
    const t = (Math.abs(m.scoreCp) / 100).toFixed(2);
    return m.scoreCp > 0 ? `+${t}` : m.scoreCp < 0 ? `-${t}` : t;
  }
  return undefined;
}

/** A move's arrows and marked squares as lichess's commands (`[%csl Rd5] [%cal Gd2d4]`), or ''. */
export function drawingsText(m: Pick<MoveRecord, 'arrows' | 'squareMarks'>): string {
  const parts: string[] = [];
  if (m.squareMarks !== undefined && m.squareMarks.length > 0)
    parts.push(`[%csl ${m.squareMarks.map((q) => q.color + q.square).join(',')}]`);
  if (m.arrows !== undefined && m.arrows.length > 0)
    parts.push(`[%cal ${m.arrows.map((a) => a.color + a.from + a.to).join(',')}]`);
  return parts.join(' ');
}

/** A move's engine data as a comment's words (`+0.35/12 0.520s`), or '' when it has none. */
function engineWords(m: MoveRecord): string {
  const parts: string[] = [];
  const score = formatScore(m);
  if (score !== undefined) parts.push(m.depth !== undefined ? `${score}/${m.depth}` : score);
  else if (m.depth !== undefined) parts.push(`/${m.depth}`);
  if (m.timeMs !== undefined) parts.push(`${(m.timeMs / 1000).toFixed(3)}s`);
  if (m.nodes !== undefined) parts.push(`n=${m.nodes}`);
  if (m.seldepth !== undefined) parts.push(`sd=${m.seldepth}`);
  if (m.pv !== undefined && m.pv.length > 0) parts.push(`pv=${m.pv.join(',')}`);
  return parts.join(' ');
}

/** A move's free comment and drawings as written (`words [%csl Rd5]`), or ''. */
function freeWords(m: MoveRecord): string {
  const words = m.comment !== undefined ? commentText(m.comment) : '';
  return [words, drawingsText(m)].filter((t) => t !== '').join(' ');
}

/** The comment of a move (without braces), or undefined when there is nothing to say. */
export function moveComment(m: MoveRecord): string | undefined {
  const text = [engineWords(m), freeWords(m)].filter((t) => t !== '').join(' ');
  return text !== '' ? text : undefined;
}

/**
 * The comment blocks written after a move (without braces): one, `{+0.35/12 0.520s free words}`, when
 * it reads back as this move's data and words; else the data and the words in blocks of their own
 * (the reader takes data from a move's first block only), so that words such as `+1.5` or `0.5s`
 * in a comment are not read as a score or a time.
 */
function moveBlocks(m: MoveRecord): string[] {
  const data = engineWords(m);
  const free = freeWords(m);
  if (free === '') return data !== '' ? [data] : [];
  const one = data !== '' ? `${data} ${free}` : free;
  const probe: MoveRecord = { move: '' };
  parseMoveComment(one, probe);
  // the free words as the reader gives them back: its text, and the drawings it took out of it
  const reread = [probe.comment ?? '', drawingsText(probe)].filter((t) => t !== '').join(' ');
  const same =
    reread === free &&
    probe.scoreCp === m.scoreCp &&
    probe.mate === m.mate &&
    probe.depth === m.depth &&
    probe.timeMs === m.timeMs &&
    probe.nodes === m.nodes &&
    probe.seldepth === m.seldepth &&
    (probe.pv ?? []).join(',') === (m.pv ?? []).join(',');
  return same ? [one] : [data, free];
}

/** Side to move (0/1) and move number of a KFEN, read from its last two fields. */
function kfenCounters(kfen: string | undefined, variant: EditionId): { side: number; moveNumber: number } {
  const f = (kfen ?? '').trim().split(/\s+/);
  if (f.length !== 4) return { side: 0, moveNumber: 1 };
  const side = f[1] === EDITIONS[variant].sideChars[1] ? 1 : 0;
  const n = Number(f[3]);
  return { side, moveNumber: Number.isInteger(n) && n > 0 ? n : 1 };
}

/**
 * The movetext units of a line (a unit is kept on one line when wrapping): move numbers, moves,
 * NAGs, comments, variations. `side`/`moveNumber` are those of the line's first move.
 */
function lineUnits(line: readonly MoveRecord[], side: number, moveNumber: number, units: string[]): void {
  let needNumber = true;
  for (const m of line) {
    if (m.before !== undefined && commentText(m.before) !== '') {
      units.push(`{${commentText(m.before)}}`);
      needNumber = true;
    }
    const parts: string[] = [];
    if (side === 0) parts.push(`${moveNumber}.`);
    else if (needNumber) parts.push(`${moveNumber}...`);
    parts.push(m.move);
    for (const n of m.nags ?? []) parts.push(`$${n}`);
    for (const b of moveBlocks(m)) parts.push(`{${b}}`);
    units.push(parts.join(' '));
    needNumber = false;
    for (const v of m.variations ?? []) {
      if (v.length === 0) {
        units.push('()'); // an empty variation, as the reader keeps it
        needNumber = true;
        continue;
      }
      const inner: string[] = [];
      lineUnits(v, side, moveNumber, inner);
      inner[0] = `(${inner[0]}`;
      inner[inner.length - 1] = `${inner[inner.length - 1]})`;
      for (const u of inner) units.push(u); // not push(...inner): a long line would overflow the stack
      needNumber = true;
    }
    if (side === 1) moveNumber++;
    side ^= 1;
  }
}

/** A tag name as the reader takes it: letters, digits and underscores. */
const TAG_NAME_RE = /^[A-Za-z0-9_]+$/;

/**
 * The largest value of each number of a move that writes as the reader reads it back (record-parse's
 * SCORE_RE, DEPTH_ONLY_RE and TIME_RE): whole numbers, a score in centi-pyramids of at most nine
 * digits before the point once divided by 100, a time of at most twelve digits of seconds.
 */
const MOVE_NUMBER_LIMITS = {
  scoreCp: { min: -99_999_999_999, max: 99_999_999_999 },
  mate: { min: -999_999_999, max: 999_999_999 },
  depth: { min: 0, max: 999_999_999 },
  timeMs: { min: 0, max: 999_999_999_999_999 },
  nodes: { min: 0, max: 999_999_999_999_999 },
  seldepth: { min: 0, max: 999_999_999 },
} as const;

const SQUARE_NAME_RE = /^[a-j][1-8]$/;

/** Why a move's arrows or marked squares cannot be written (a colour or a square that is none), or undefined. */
function shapesFault(m: MoveRecord): string | undefined {
  const color = (c: unknown): boolean => (SHAPE_COLORS as readonly unknown[]).includes(c);
  const square = (q: unknown): boolean => typeof q === 'string' && SQUARE_NAME_RE.test(q);
  if (
    m.arrows !== undefined &&
    (!Array.isArray(m.arrows) || m.arrows.some((a) => !color(a?.color) || !square(a.from) || !square(a.to)))
  )
    return `an arrow of move ${m.move} is not a colour (G R Y B) and two squares`;
  if (
    m.squareMarks !== undefined &&
    (!Array.isArray(m.squareMarks) || m.squareMarks.some((q) => !color(q?.color) || !square(q.square)))
  )
    return `a marked square of move ${m.move} is not a colour (G R Y B) and a square`;
  return undefined;
}

/**
 * Why a record cannot be written as it is (a tag name, a move text, a NAG or the result that
 * would change the text's meaning, as a forged one would), or undefined.
 */
export function unwritableRecord(rec: GameRecord): string | undefined {
  for (const [k, v] of rec.tags) {
    if (typeof k !== 'string' || !TAG_NAME_RE.test(k))
      return `tag name ${JSON.stringify(String(k)).slice(0, 40)} is not a PGN tag name`;
    if (typeof v !== 'string') return `tag ${k} has no text value`;
  }
  if (!(RESULT_TOKENS as readonly string[]).includes(rec.result))
    return `result ${JSON.stringify(String(rec.result)).slice(0, 40)} is not 1-0, 0-1, 1/2-1/2 or *`;
  const line = (ms: readonly MoveRecord[]): string | undefined => {
    if (!Array.isArray(ms)) return 'a line of moves is not a list';
    for (const m of ms) {
      if (typeof m !== 'object' || m === null || typeof m.move !== 'string' || !readsAsMove(m.move)) {
        return `move text ${JSON.stringify(String(m?.move)).slice(0, 40)} is not a move`;
      }
      for (const n of m.nags ?? [])
        if (!Number.isInteger(n) || n < 0 || n > 255)
          return `NAG ${JSON.stringify(String(n)).slice(0, 20)} is not 0-255`;
      for (const f of ['scoreCp', 'mate', 'depth', 'timeMs', 'nodes', 'seldepth'] as const) {
        const x = m[f];
        const { min, max } = MOVE_NUMBER_LIMITS[f];
        if (x !== undefined && !(Number.isInteger(x) && x >= min && x <= max))
          return `${f} of move ${m.move} is not a whole number from ${min} to ${max}`;
      }
      if (m.pv !== undefined && !(Array.isArray(m.pv) && (m.pv.length === 0 || MOVE_LIST_RE.test(m.pv.join(',')))))
        return `pv of move ${m.move} is not a list of moves`;
      for (const f of ['comment', 'before'] as const)
        if (m[f] !== undefined && typeof m[f] !== 'string') return `${f} of move ${m.move} is not text`;
      const why = shapesFault(m);
      if (why !== undefined) return why;
      for (const v of m.variations ?? []) {
        const why = line(v);
        if (why !== undefined) return why;
      }
    }
    return undefined;
  };
  if (rec.ending !== undefined && typeof rec.ending !== 'string') return 'the ending is not text';
  return line(rec.moves);
}

/**
 * The comments that say how the game ended, as the reader tells them from the last move's own
 * (record-parse's finishGame): after a last move with a comment, the ending is the second block;
 * after one without, it is a block of its own only when it is words in a finished game with a
 * Termination tag, so otherwise an empty `{}` goes first; and a last move's comment that would read
 * as the ending is followed by an empty `{}` when there is none.
 */
function endingUnits(rec: GameRecord): string[] {
  const ending = rec.ending !== undefined ? commentText(rec.ending) : '';
  const last = rec.moves[rec.moves.length - 1];
  if (last === undefined) return ending !== '' ? [`{${ending}}`] : [];
  const own = moveBlocks(last);
  const finished = rec.result !== '*' && rec.tags.has('Termination');
  const readAsEnding = (text: string): boolean => {
    const probe: MoveRecord = { move: '' };
    parseMoveComment(text, probe);
    const wordsOnly =
      probe.scoreCp === undefined &&
      probe.mate === undefined &&
      probe.depth === undefined &&
      probe.timeMs === undefined;
    return text === rec.tags.get('Reason') || (wordsOnly && finished);
  };
  if (ending === '') return own.length >= 2 || (own.length === 1 && readAsEnding(own[0])) ? ['{}'] : [];
  if (own.length > 0 || readAsEnding(ending)) return [`{${ending}}`];
  return ['{}', `{${ending}}`];
}

/**
 * Serializes one game: tags, a blank line, the movetext wrapped at 80 columns, a blank line.
 * Tag values and comments are escaped; a record that no escaping makes safe (unwritableRecord)
 * throws rather than write a text that reads back as something else.
 */
export function serializeRecord(rec: GameRecord): string {
  const bad = unwritableRecord(rec);
  if (bad !== undefined) throw new Error(`cannot write this game record: ${bad}`);
  const lines: string[] = [];
  for (const [k, v] of rec.tags) lines.push(`[${k} "${escapeTag(v)}"]`);
  lines.push('');
  const { side, moveNumber } = kfenCounters(recordStart(rec), recordVariant(rec));
  const units: string[] = [];
  lineUnits(rec.moves, side, moveNumber, units);
  units.push(...endingUnits(rec));
  units.push(rec.result);
  let line = '';
  for (const t of units) {
    if (line.length > 0 && line.length + 1 + t.length > 80) {
      lines.push(line);
      line = t;
    } else {
      line = line.length > 0 ? `${line} ${t}` : t;
    }
  }
  lines.push(line);
  return lines.join('\n') + '\n\n';
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

export {
  commentDrawings,
  formatRecordSyntaxError,
  parseMoveComment,
  parseRecord,
  parseRecords,
  type ParsedRecords,
  type RecordSyntaxError,
} from './record-parse';

/** Why a record's moves cannot be replayed: its start position, or the move at `ply` (from 0). */
export interface ReplayError {
  kind: 'kfen' | 'move';
  ply: number;
  /** The move text as written, for `kind: 'move'`. */
  move?: string;
  message: string;
}

export function formatReplayError(e: ReplayError): string {
  return e.kind === 'kfen' ? `bad KFEN tag: ${e.message}` : `move ${e.ply + 1} (${e.move}): ${e.message}`;
}

export interface Replay {
  /** The position after the last move (its undo stack holds every move). */
  position: Position;
  moves: number[];
}

/** The rules dialect of a record: its `Rules` tag (docs/rules.md §3.1), Thoth's rules when there is none or it does not read. */
export function recordRules(rec: GameRecord): Dialect {
  const t = rec.tags.get('Rules');
  const d = t === undefined ? undefined : parseDialect(t);
  return d?.ok ? d.value : THOTH_DIALECT;
}

/** Replays a record's moves (the main line) from its start with the rules core, under the record's rules. */
export function replayRecord(rec: GameRecord): Result<Replay, ReplayError> {
  const variant = recordVariant(rec);
  const r = parseKfen(recordStart(rec) ?? SETUPS[variant].classic ?? '', variant, dialectRules(recordRules(rec)));
  if (!r.ok) return err({ kind: 'kfen', ply: 0, message: r.error.message });
  const pos = r.value;
  const moves: number[] = [];
  for (let k = 0; k < rec.moves.length; k++) {
    const m = parseMove(pos, rec.moves[k].move);
    if (!m.ok) return err({ kind: 'move', ply: k, move: rec.moves[k].move, message: m.error.message });
    pos.make(m.value);
    moves.push(m.value);
  }
  return ok({ position: pos, moves });
}
