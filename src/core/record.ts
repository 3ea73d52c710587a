/**
 * Game records: the PGN-like text `thoth match` writes (`-pgnout`), the GUI imports and exports,
 * `thoth analyse --game` and tools/tune.ts read. It lives next to the rules because all of them
 * share it; like the rest of src/core it is pure (the GUI page bundles it). Parsing never throws:
 * problems are typed values ({@link RecordSyntaxError}, {@link ReplayError}).
 *
 * ```
 * [Event "Thoth match"]
 * [Date "2025.02.03"]
 * [Round "3.2"]
 * [Silver "thoth-new"]
 * [Red "thoth-old"]
 * [Result "1-0"]
 * [Variant "khet2"]
 * [KFEN "xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1"]
 * [TimeControl "10+0.1"]
 * [Termination "normal"]
 * [Reason "Silver wins: the Red Pharaoh was hit"]
 * [PlyCount "5"]
 *
 * 1. j4i4 {+0.35/12 0.520s} f8f7 {-0.20/11 0.480s} 2. c4d5 {+M1/3 0.100s} d7c7 {-M1/2 0.090s}
 * 3. e4+ {+M1/1 0.010s} 1-0
 * ```
 *
 * Tags: one per line, `[Name "value"]`, value with `\"` and `\\` escaped. Any tag may appear; the
 * runner writes, in this order:
 * - `Event`, `Date` (`YYYY.MM.DD`), `Round` (`round.game`, both from 1: the game's place in the
 *   run's schedule; `-resume` relies on it);
 * - the players, under the edition's colour names: `Silver` (first player) and `Red` in Khet 2.0
 *   and 1.0, `Gold` (first player) and `Silver` in Deflexion (`White`/`Black` are read too);
 * - `Result`: `1-0` the first player won, `0-1` the second, `1/2-1/2` a draw, `*` unfinished;
 * - `Variant`: `khet2` (default when missing), `khet1` or `deflexion`;
 * - `KFEN`: the position the game started from (the opening); side to move is in it;
 * - `TimeControl`: `40/60+0.6`, `10+0.1`, `st=0.5`, `depth=8`, `nodes=5000` (two values joined by
 *   ` / ` when the players had different limits);
 * - `Termination`: `normal` (Pharaoh hit, repetition, no-removal limit), `adjudication`,
 *   `time forfeit`, `illegal move`, `abandoned` (engine crashed or quit), `stalled` (engine stopped
 *   answering);
 * - `Reason`: the end in words; `PlyCount`: the number of moves in the movetext; `Opening`: where the
 *   start came from (e.g. `classic +4 plies`).
 *
 * Movetext: move numbers (`12.`, and `12...` when the second player moves first), moves in the
 * rulebook's notation (`e4d5`, `e4+`, `e4-`, `d1e2u`), each optionally followed by a comment
 * `{score/depth time}` from the engine that played it: score from the mover's point of view in
 * hundredths (`+0.35` = 35 cp; `+M3` / `-M3` = the mover hits the Pharaoh in 3 moves / is hit in
 * 3), search depth, time in seconds with an `s` (`{+0.35/12 0.520s}`; any part may be missing). Other
 * comment text is kept as a free comment. The result token ends the game. `;` starts a comment to
 * the end of the line. Games are separated by a blank line.
 */
import { EDITIONS, isEditionId, type EditionId } from './editions';
import { parseKfen } from './kfen';
import { parseMove } from './notation';
import type { Position } from './position';
import { err, ok, type Result } from './result';
import { SETUPS } from './setups';

export type ResultToken = '1-0' | '0-1' | '1/2-1/2' | '*';
export const RESULT_TOKENS: readonly ResultToken[] = ['1-0', '0-1', '1/2-1/2', '*'];

export type Termination = 'normal' | 'adjudication' | 'time forfeit' | 'illegal move' | 'abandoned' | 'stalled';

export interface MoveRecord {
  /** The move text as played (`e4d5`, `e4+`, `d1e2u`). */
  move: string;
  /** Engine score in centipawns, mover's point of view. */
  scoreCp?: number;
  /** Engine mate score in moves (positive: the mover wins), instead of `scoreCp`. */
  mate?: number;
  depth?: number;
  /** Thinking time in milliseconds. */
  timeMs?: number;
  /** Free comment text (anything in the braces that is not score/depth/time). */
  comment?: string;
}

export interface GameRecord {
  /** All tags in order (Map keeps insertion order). */
  tags: Map<string, string>;
  moves: MoveRecord[];
  result: ResultToken;
}

/** The edition a record is for (its `Variant` tag; `khet2` when missing or unknown). */
export function recordVariant(rec: GameRecord): EditionId {
  const v = rec.tags.get('Variant') ?? 'khet2';
  return isEditionId(v) ? v : 'khet2';
}

/** The players' names: [first player, second player]. */
export function recordPlayers(rec: GameRecord): [string, string] {
  const [a, b] = EDITIONS[recordVariant(rec)].colorNames;
  return [rec.tags.get(a) ?? rec.tags.get('White') ?? '?', rec.tags.get(b) ?? rec.tags.get('Black') ?? '?'];
}

/**
 * A record with the tags in the canonical order. `players` are [first, second]; extra tags are
 * appended after the known ones.
 */
export function makeRecord(fields: {
  event: string;
  date: string;
  round: string;
  players: [string, string];
  result: ResultToken;
  variant: EditionId;
  kfen: string;
  timeControl: string;
  termination: Termination;
  reason?: string;
  opening?: string;
  extra?: [string, string][];
  moves: MoveRecord[];
}): GameRecord {
  const [first, second] = EDITIONS[fields.variant].colorNames;
  const tags = new Map<string, string>();
  tags.set('Event', fields.event);
  tags.set('Date', fields.date);
  tags.set('Round', fields.round);
  tags.set(first, fields.players[0]);
  tags.set(second, fields.players[1]);
  tags.set('Result', fields.result);
  tags.set('Variant', fields.variant);
  tags.set('KFEN', fields.kfen);
  tags.set('TimeControl', fields.timeControl);
  tags.set('Termination', fields.termination);
  if (fields.reason !== undefined) tags.set('Reason', fields.reason);
  tags.set('PlyCount', String(fields.moves.length));
  if (fields.opening !== undefined) tags.set('Opening', fields.opening);
  for (const [k, v] of fields.extra ?? []) tags.set(k, v);
  return { tags, moves: fields.moves, result: fields.result };
}

/** `YYYY.MM.DD` of a date (local time), as PGN writes dates. */
export function pgnDate(d: Date = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${p(d.getMonth() + 1)}.${p(d.getDate())}`;
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

function escapeTag(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/[\r\n]+/g, ' ');
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

/** The comment of a move (without braces), or undefined when there is nothing to say. */
export function moveComment(m: MoveRecord): string | undefined {
  const parts: string[] = [];
  const score = formatScore(m);
  if (score !== undefined) parts.push(m.depth !== undefined ? `${score}/${m.depth}` : score);
  else if (m.depth !== undefined) parts.push(`/${m.depth}`);
  if (m.timeMs !== undefined) parts.push(`${(m.timeMs / 1000).toFixed(3)}s`);
  if (m.comment !== undefined && m.comment !== '') parts.push(m.comment.replace(/[{}]/g, ''));
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** Side to move (0/1) and move number of a KFEN, read from its last two fields. */
function kfenCounters(kfen: string | undefined, variant: EditionId): { side: number; moveNumber: number } {
  const f = (kfen ?? '').trim().split(/\s+/);
  if (f.length !== 4) return { side: 0, moveNumber: 1 };
  const side = f[1] === EDITIONS[variant].sideChars[1] ? 1 : 0;
  const n = Number(f[3]);
  return { side, moveNumber: Number.isInteger(n) && n > 0 ? n : 1 };
}

/** Serializes one game: tags, a blank line, the movetext wrapped at 80 columns, a blank line. */
export function serializeRecord(rec: GameRecord): string {
  const lines: string[] = [];
  for (const [k, v] of rec.tags) lines.push(`[${k} "${escapeTag(v)}"]`);
  lines.push('');
  const variant = recordVariant(rec);
  let { side, moveNumber } = kfenCounters(rec.tags.get('KFEN'), variant);
  // Units (move number, move, comment) are kept on one line; lines wrap between units.
  const units: string[] = [];
  rec.moves.forEach((m, i) => {
    const parts: string[] = [];
    if (side === 0) parts.push(`${moveNumber}.`);
    else if (i === 0) parts.push(`${moveNumber}...`);
    parts.push(m.move);
    const c = moveComment(m);
    if (c !== undefined) parts.push(`{${c}}`);
    units.push(parts.join(' '));
    if (side === 1) moveNumber++;
    side ^= 1;
  });
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

/** A problem in a record text: a malformed tag line, moves without a result token, no game at all. */
export interface RecordSyntaxError {
  kind: 'tag' | 'no result' | 'no game';
  /** Character offset in the text where the fault is, or -1. */
  index: number;
  message: string;
}

export function formatRecordSyntaxError(e: RecordSyntaxError): string {
  return e.index >= 0 ? `${e.message} at character ${e.index + 1}` : e.message;
}

export interface ParsedRecords {
  games: GameRecord[];
  /** Character offset just past the last complete game (its result token and the blank lines after it). */
  end: number;
  /** True when text after `end` holds the start of an unfinished game (an interrupted write). */
  incomplete: boolean;
  /** Problems found (garbage that was skipped). */
  errors: RecordSyntaxError[];
}

const SCORE_RE = /^([+-]?)(?:M(\d+)|(\d+(?:\.\d+)?))(?:\/(\d+))?$/;
const DEPTH_ONLY_RE = /^\/(\d+)$/;
const TIME_RE = /^(\d+(?:\.\d+)?)s$/;

/** Reads a `{score/depth time}` comment into `m` (free text goes to `m.comment`). */
export function parseMoveComment(text: string, m: MoveRecord): void {
  const free: string[] = [];
  for (const w of text.trim().split(/\s+/).filter(Boolean)) {
    const s = SCORE_RE.exec(w);
    const d = DEPTH_ONLY_RE.exec(w);
    const t = TIME_RE.exec(w);
    if (s && m.scoreCp === undefined && m.mate === undefined && free.length === 0) {
      const neg = s[1] === '-';
      if (s[2] !== undefined) m.mate = neg ? -Number(s[2]) : Number(s[2]);
      else m.scoreCp = (neg ? -1 : 1) * Math.round(Number(s[3]) * 100) + 0; // + 0: no -0
      if (s[4] !== undefined) m.depth = Number(s[4]);
    } else if (d && m.depth === undefined && free.length === 0) {
      m.depth = Number(d[1]);
    } else if (t && m.timeMs === undefined && free.length === 0) {
      m.timeMs = Math.round(Number(t[1]) * 1000);
    } else {
      free.push(w);
    }
  }
  if (free.length > 0) m.comment = m.comment ? `${m.comment} ${free.join(' ')}` : free.join(' ');
}

function unescapeTag(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

const TAG_RE = /\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]/y;

/** Parses every game in a record text. Tolerant: garbage is skipped and reported in `errors`. */
export function parseRecords(text: string): ParsedRecords {
  const games: GameRecord[] = [];
  const errors: RecordSyntaxError[] = [];
  let end = 0;
  let cur: GameRecord | undefined;
  let i = 0;
  const n = text.length;
  const startGame = (): GameRecord => ({ tags: new Map(), moves: [], result: '*' });
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '[') {
      TAG_RE.lastIndex = i;
      const m = TAG_RE.exec(text);
      if (!m) {
        const eol = text.indexOf('\n', i);
        errors.push({ kind: 'tag', index: i, message: 'bad tag line' });
        i = eol < 0 ? n : eol + 1;
        continue;
      }
      if (cur && cur.moves.length > 0) {
        errors.push({ kind: 'no result', index: -1, message: `game ${games.length + 1} has no result token` });
        cur = undefined;
      }
      if (!cur) cur = startGame();
      cur.tags.set(m[1], unescapeTag(m[2]));
      i = TAG_RE.lastIndex;
      continue;
    }
    if (c === ';') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    if (c === '{') {
      const close = text.indexOf('}', i + 1);
      const body = close < 0 ? text.slice(i + 1) : text.slice(i + 1, close);
      i = close < 0 ? n : close + 1;
      if (close < 0) break; // unterminated: the game is incomplete
      if (cur && cur.moves.length > 0) parseMoveComment(body, cur.moves[cur.moves.length - 1]);
      continue;
    }
    let j = i;
    while (j < n && !/[\s{[;]/.test(text[j])) j++;
    let tok = text.slice(i, j);
    i = j;
    if (!cur) cur = startGame();
    if ((RESULT_TOKENS as readonly string[]).includes(tok)) {
      cur.result = tok as ResultToken;
      games.push(cur);
      cur = undefined;
      // Past the result token and the blank lines after it.
      while (i < n && /\s/.test(text[i])) i++;
      end = i;
      continue;
    }
    const num = /^\d+\.+/.exec(tok);
    if (num) tok = tok.slice(num[0].length);
    if (tok === '') continue;
    cur.moves.push({ move: tok });
  }
  const rest = text.slice(end);
  const incomplete = rest.trim() !== '';
  return { games, end, incomplete, errors };
}

/** The first game of a record text. */
export function parseRecord(text: string): Result<GameRecord, RecordSyntaxError> {
  const parsed = parseRecords(text);
  const game = parsed.games[0];
  if (game !== undefined) return ok(game);
  return err(parsed.errors[0] ?? { kind: 'no game', index: -1, message: 'no game found' });
}

/** Why a record's moves cannot be replayed: its KFEN tag, or the move at `ply` (from 0). */
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

/** Replays a record's moves from its KFEN with the rules core. */
export function replayRecord(rec: GameRecord): Result<Replay, ReplayError> {
  const variant = recordVariant(rec);
  const kfen = rec.tags.get('KFEN');
  const r = parseKfen(kfen ?? SETUPS[variant].classic ?? '', variant);
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
