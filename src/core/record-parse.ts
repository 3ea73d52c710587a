/**
 * Reading game records (the format is described in record.ts): a single pass over the text that
 * never throws and never backtracks; garbage is skipped and reported as typed errors.
 */
import {
  MAX_VARIATION_DEPTH,
  RESULT_TOKENS,
  type GameRecord,
  type MoveRecord,
  type NoteArrow,
  type ResultToken,
  type ShapeColor,
  type SquareMark,
} from './record';
import { COUNT_RE } from './info';
import { err, ok, type Result } from './result';

/** A problem in a record text: a malformed tag line, moves without a result token, a stray `)`, no game at all. */
export interface RecordSyntaxError {
  kind: 'tag' | 'no result' | 'variation' | 'no game';
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

/**
 * A move's engine data as writers put it (`+0.35/12`, `+M3`, `/12`, `0.520s`): a score of at most
 * two decimals, a time of at most three (milliseconds), at most nine digits before the point (a
 * time twelve), so that every value read is a whole number that writes back as the same text.
 */
const COMMENT_SCORE_RE = /^([+-]?)(?:M(\d{1,9})|(\d{1,9}(?:\.\d{1,2})?))(?:\/(\d{1,9}))?$/;
const DEPTH_ONLY_RE = /^\/(\d{1,9})$/;
const TIME_RE = /^(\d{1,12}(?:\.\d{1,3})?)s$/;
/** The largest NAG ($0 to $255); a larger number is skipped. */
const MAX_NAG = 255;
/** `n=N`, `sd=N`, `pv=m1,m2,…`: what `-pgnout … nodes=true seldepth=true pv=true` adds. */
const DATA_RE = /^(n|sd|pv)=(\S+)$/;
export const MOVE_LIST_RE = /^[a-j][1-8](?:[a-j][1-8]u?|[+-])(?:,[a-j][1-8](?:[a-j][1-8]u?|[+-]))*$/;

/** lichess's drawing commands in a comment: `[%cal Gd2d4,Re1e2]` (arrows), `[%csl Rd5]` (squares). */
const SHAPES_RE = /\[%(cal|csl)\s+([^\]]*)\]/g;
const ARROW_RE = /^([GRYB])([a-j][1-8])([a-j][1-8])$/;
const SQUARE_MARK_RE = /^([GRYB])([a-j][1-8])$/;

/**
 * Takes the drawing commands out of a comment into `m.arrows` and `m.squareMarks`; a command
 * with an entry that is not one (another colour, a square off the board) stays in the text.
 */
function readShapes(text: string, m: MoveRecord): string {
  return text.replace(SHAPES_RE, (all: string, kind: string, body: string) => {
    const entries = body.split(',').map((e) => e.trim());
    if (kind === 'cal') {
      const found = entries.map((e) => ARROW_RE.exec(e));
      if (found.some((f) => f === null)) return all;
      m.arrows = [...(m.arrows ?? []), ...found.map((f) => ({ color: f![1] as ShapeColor, from: f![2], to: f![3] }))];
    } else {
      const found = entries.map((e) => SQUARE_MARK_RE.exec(e));
      if (found.some((f) => f === null)) return all;
      m.squareMarks = [...(m.squareMarks ?? []), ...found.map((f) => ({ color: f![1] as ShapeColor, square: f![2] }))];
    }
    return ' ';
  });
}

/**
 * The drawings of a comment as the page keeps them (its text, lichess's commands in it): the
 * arrows and the marked squares, in the order written; none where there are none.
 */
export function commentDrawings(text: string): { arrows: NoteArrow[]; squareMarks: SquareMark[] } {
  const m: MoveRecord = { move: '' };
  readShapes(text, m);
  return { arrows: m.arrows ?? [], squareMarks: m.squareMarks ?? [] };
}

/**
 * Reads a `{score/depth time}` comment into `m` (free text goes to `m.comment`; lichess's
 * `[%cal …]` and `[%csl …]` to `m.arrows` and `m.squareMarks`). `data` false: the comment is free
 * text only (a move's second and later comment blocks: engine data comes first).
 */
export function parseMoveComment(text: string, m: MoveRecord, data = true): void {
  const free: string[] = [];
  for (const w of readShapes(text, m).trim().split(/\s+/).filter(Boolean)) {
    const s = data ? COMMENT_SCORE_RE.exec(w) : null;
    const d = data ? DEPTH_ONLY_RE.exec(w) : null;
    const t = data ? TIME_RE.exec(w) : null;
    if (s && m.scoreCp === undefined && m.mate === undefined && free.length === 0 && m.comment === undefined) {
      const neg = s[1] === '-';
      if (s[2] !== undefined)
        m.mate = (neg ? -Number(s[2]) : Number(s[2])) + 0; // + 0: no -0
      else m.scoreCp = (neg ? -1 : 1) * Math.round(Number(s[3]) * 100) + 0; // + 0: no -0
      if (s[4] !== undefined) m.depth = Number(s[4]);
    } else if (d && m.depth === undefined && free.length === 0 && m.comment === undefined) {
      m.depth = Number(d[1]);
    } else if (t && m.timeMs === undefined && free.length === 0 && m.comment === undefined) {
      m.timeMs = Math.round(Number(t[1]) * 1000);
    } else if (data && free.length === 0 && m.comment === undefined && readCommentData(w, m)) {
      // n=, sd=, pv=: read
    } else {
      free.push(w);
    }
  }
  if (free.length > 0) m.comment = m.comment ? `${m.comment} ${free.join(' ')}` : free.join(' ');
}

/** An `n=`, `sd=` or `pv=` word into `m`, once each; false for anything else. */
function readCommentData(w: string, m: MoveRecord): boolean {
  const d = DATA_RE.exec(w);
  if (!d) return false;
  if (d[1] === 'n' && m.nodes === undefined && COUNT_RE.test(d[2])) m.nodes = Number(d[2]);
  else if (d[1] === 'sd' && m.seldepth === undefined && /^\d{1,9}$/.test(d[2])) m.seldepth = Number(d[2]);
  else if (d[1] === 'pv' && m.pv === undefined && MOVE_LIST_RE.test(d[2])) m.pv = d[2].split(',');
  else return false;
  return true;
}

/** A tag's value as written, unescaped; a carriage return in it reads as a space (as the writer writes it). */
function unescapeTag(v: string): string {
  return v.replace(/\\(.)/g, '$1').replace(/\r/g, ' ');
}

const TAG_RE = /\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]/y;
/** `!`, `?`, `!!`, `??`, `!?`, `?!` as NAGs. */
const SUFFIX_NAGS: Record<string, number> = { '!': 1, '?': 2, '!!': 3, '??': 4, '!?': 5, '?!': 6 };
/** Position judgements other tools write as symbols. */
const SYMBOL_NAGS: Record<string, number> = {
  '□': 7,
  '=': 10,
  '∞': 13,
  '+=': 14,
  '⩲': 14,
  '=+': 15,
  '⩱': 15,
  '±': 16,
  '+/-': 16,
  '∓': 17,
  '-/+': 17,
  '+-': 18,
  '-+': 19,
};
const TOKEN_END = /[\s{}[\]();$]/;
/** Every Unicode white space character, and the byte order mark. */
const WHITESPACE = /[\s\uFEFF]/;

/** The game being read: its lines (the main line and the open variations) and the comments seen. */
interface Reading {
  game: GameRecord;
  /** The open lines, the main line first. */
  lines: MoveRecord[][];
  /** Comments after each move, block by block (the first may be the engine's score). */
  comments: Map<MoveRecord, string[]>;
  /** A comment before the next move of the innermost line, when no move precedes it there. */
  pending?: string;
  /** Movetext has begun: a tag now starts another game. */
  inMoves: boolean;
  /** The last thing read was a comment after the main line's last move (it may be the ending). */
  commentLast: boolean;
}

function newReading(): Reading {
  return {
    game: { tags: new Map(), moves: [], result: '*' },
    lines: [],
    comments: new Map(),
    inMoves: false,
    commentLast: false,
  };
}

/**
 * Ends a game at its result token: comments become scores and words. The last comment after the
 * last move is how the game ended when the move has a comment of its own before it, or when it is
 * words only (no score, depth or time) in a finished game with a Termination tag (or it repeats
 * the Reason tag of an older record).
 */
function finishGame(r: Reading): GameRecord {
  const g = r.game;
  const last = g.moves[g.moves.length - 1];
  const blocks = last ? r.comments.get(last) : undefined;
  if (last === undefined && r.pending !== undefined) {
    g.ending = r.pending;
  } else if (!r.commentLast) {
    // something came between the last comment and the result
  } else if (blocks && blocks.length >= 2) {
    const e = blocks.pop();
    if (e !== '') g.ending = e;
  } else if (blocks && blocks.length === 1 && blocks[0] !== '') {
    const probe: MoveRecord = { move: '' };
    parseMoveComment(blocks[0], probe);
    const wordsOnly =
      probe.scoreCp === undefined &&
      probe.mate === undefined &&
      probe.depth === undefined &&
      probe.timeMs === undefined &&
      probe.arrows === undefined &&
      probe.squareMarks === undefined;
    const finished = g.result !== '*' && g.tags.has('Termination');
    if (blocks[0] === g.tags.get('Reason') || (wordsOnly && finished)) g.ending = blocks.pop();
  }
  // The engine's data is read from a move's first comment only; later ones are free text.
  for (const [m, bs] of r.comments) bs.forEach((b, k) => parseMoveComment(b, m, k === 0));
  return g;
}

/** The offset past the `)` that closes the variation opening at `i` (comments skipped), or the text's end. */
function skipVariation(text: string, i: number): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const close = text.indexOf('}', i + 1);
      if (close < 0) return text.length;
      i = close;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i + 1;
    }
  }
  return text.length;
}

/** The offset of the next line break at or after `i`, or the text's end. */
function endOfLine(text: string, i: number): number {
  const eol = text.indexOf('\n', i);
  return eol < 0 ? text.length : eol;
}

/**
 * One pass over a record text: `i` is where it reads, `r` the game being read. Each `read…` method
 * consumes one token of its kind and moves `i` past it.
 */
class RecordScanner {
  readonly games: GameRecord[] = [];
  readonly errors: RecordSyntaxError[] = [];
  /** The offset past the last complete game (and the blank lines after it). */
  end = 0;
  i = 0;
  atLineStart = true;
  r: Reading = newReading();

  constructor(readonly text: string) {}

  /** The innermost open line (the main line when none is open). */
  line(): MoveRecord[] {
    const r = this.r;
    if (r.lines.length === 0) r.lines.push(r.game.moves);
    return r.lines[r.lines.length - 1];
  }

  lastMove(): MoveRecord | undefined {
    const l = this.line();
    return l[l.length - 1];
  }

  addNag(nag: number): void {
    const m = this.lastMove();
    if (m) (m.nags ??= []).push(nag);
  }

  /** Reads the whole text, or up to an unterminated comment. */
  run(): void {
    const { text } = this;
    const n = text.length;
    while (this.i < n) {
      const c = text[this.i];
      if (c === '\n' || c === '\u2028' || c === '\u2029') {
        this.atLineStart = true;
        this.i++;
        continue;
      }
      if (WHITESPACE.test(c)) {
        this.i++;
        continue;
      }
      const lineStart = this.atLineStart;
      this.atLineStart = false;
      if ((c === '%' && lineStart) || c === ';') this.i = endOfLine(text, this.i);
      else if (c === '[') this.readTag();
      else if (c === '{') {
        if (!this.readComment()) break; // unterminated: the game is incomplete
      } else if (c === '<') {
        const close = text.indexOf('>', this.i + 1);
        this.i = close < 0 ? n : close + 1;
      } else if (c === '(') this.openVariation();
      else if (c === ')') this.closeVariation();
      else if (c === '$') this.readNag();
      else if (c === '}' || c === ']') this.i++;
      else this.readToken();
    }
  }

  readTag(): void {
    const { text, r } = this;
    TAG_RE.lastIndex = this.i;
    const m = TAG_RE.exec(text);
    if (!m) {
      this.errors.push({ kind: 'tag', index: this.i, message: 'bad tag line' });
      this.i = endOfLine(text, this.i);
      return;
    }
    if (r.inMoves) {
      this.errors.push({ kind: 'no result', index: -1, message: `game ${this.games.length + 1} has no result token` });
      this.r = newReading();
    }
    this.r.game.tags.set(m[1], unescapeTag(m[2]));
    this.i = TAG_RE.lastIndex;
  }

  /** A `{…}` comment, kept after the move it follows (or before the next). False if never closed. */
  readComment(): boolean {
    const { text, r } = this;
    const close = text.indexOf('}', this.i + 1);
    if (close < 0) return false;
    const body = text
      .slice(this.i + 1, close)
      .replace(/\s+/g, ' ')
      .trim();
    this.i = close + 1;
    r.inMoves = true;
    const m = this.lastMove();
    // An empty comment after a move counts as a block (a writer's way to mark where the ending is), and says nothing.
    if (body === '' && !m) return true;
    if (m) {
      const blocks = r.comments.get(m);
      if (blocks) blocks.push(body);
      else r.comments.set(m, [body]);
      r.commentLast = r.lines.length <= 1;
    } else {
      r.pending = r.pending === undefined ? body : `${r.pending} ${body}`;
    }
    return true;
  }

  openVariation(): void {
    const r = this.r;
    r.commentLast = false;
    r.inMoves = true;
    const m = this.lastMove();
    if (!m) {
      // An alternative to nothing: skipped whole.
      this.errors.push({ kind: 'variation', index: this.i, message: 'a variation before any move' });
      this.i = skipVariation(this.text, this.i);
    } else if (r.lines.length > MAX_VARIATION_DEPTH) {
      const message = `variations nested more than ${MAX_VARIATION_DEPTH} deep (skipped)`;
      this.errors.push({ kind: 'variation', index: this.i, message });
      this.i = skipVariation(this.text, this.i);
    } else {
      const v: MoveRecord[] = [];
      (m.variations ??= []).push(v);
      r.lines.push(v);
      r.pending = undefined;
      this.i++;
    }
  }

  closeVariation(): void {
    const r = this.r;
    r.commentLast = false;
    if (r.lines.length > 1) r.lines.pop();
    else this.errors.push({ kind: 'variation', index: this.i, message: "a ')' without its '('" });
    r.pending = undefined;
    this.i++;
  }

  readNag(): void {
    const { text } = this;
    this.r.commentLast = false;
    let j = this.i + 1;
    while (j < text.length && text[j] >= '0' && text[j] <= '9') j++;
    if (j > this.i + 1) {
      const n = Number(text.slice(this.i + 1, j));
      if (n <= MAX_NAG) this.addNag(n);
    }
    this.i = j;
  }

  /** A move, a move number, a result or a symbolic annotation. */
  readToken(): void {
    const { text } = this;
    const n = text.length;
    let j = this.i + 1; // text[i] is neither white space nor a token's end: the token holds at least it
    while (j < n && !TOKEN_END.test(text[j])) j++;
    let tok = text.slice(this.i, j);
    const at = this.i;
    this.i = j;
    this.r.inMoves = true;
    const num = /^\d+\.+/.exec(tok);
    if (num) tok = tok.slice(num[0].length); // a move number glued to what follows (`1.j4i4`, `11.1-0`)
    if ((RESULT_TOKENS as readonly string[]).includes(tok)) {
      this.endGame(tok as ResultToken, at);
      return;
    }
    this.r.commentLast = false;
    if (/^\d*\.*$/.test(tok)) return; // a move number without its dot, or `...`
    if (Object.hasOwn(SYMBOL_NAGS, tok)) {
      this.addNag(SYMBOL_NAGS[tok]);
      return;
    }
    this.addMove(tok);
  }

  /** A move text with its `!`/`?` suffix, if any. */
  addMove(token: string): void {
    // `!`/`?` at the end (scanned from the end: a regex would try every start of a long token)
    let cut = token.length;
    while (cut > 0 && (token[cut - 1] === '!' || token[cut - 1] === '?')) cut--;
    const suffix = cut < token.length ? token.slice(cut) : undefined;
    const move = token.slice(0, cut);
    if (move !== '') {
      const m: MoveRecord = { move };
      const r = this.r;
      if (r.pending !== undefined) {
        m.before = r.pending;
        r.pending = undefined;
      }
      this.line().push(m);
    }
    if (suffix !== undefined && Object.hasOwn(SUFFIX_NAGS, suffix)) this.addNag(SUFFIX_NAGS[suffix]);
  }

  endGame(result: ResultToken, at: number): void {
    const { text } = this;
    // A result cannot stand in a variation: one still open was never closed.
    if (this.r.lines.length > 1)
      this.errors.push({ kind: 'variation', index: at, message: 'a variation not closed before the result' });
    this.r.game.result = result;
    this.games.push(finishGame(this.r));
    this.r = newReading();
    // Past the result token and the blank lines after it.
    while (this.i < text.length && /\s/.test(text[this.i])) this.i++;
    this.end = this.i;
    this.atLineStart = true;
  }
}

/**
 * True when `text`, written as a token of movetext (after a space, possibly at the start of a
 * line), reads back as the move `text` and nothing else: one token (no white space, brace,
 * bracket, parenthesis, `;` or `$`), not skipped (`%…` at a line's start, `<…>`), not a result, a
 * move number, a number glued to a move (`1.e4`) or a symbol the reader takes as a NAG (`+-`), and
 * not ending in `!` or `?` (read as NAGs).
 */
export function readsAsMove(text: string): boolean {
  if (text === '' || text[0] === '%' || text[0] === '<') return false;
  for (const c of text) if (TOKEN_END.test(c) || WHITESPACE.test(c)) return false;
  if (/^\d+\./.test(text) || /^\d*\.*$/.test(text)) return false;
  if ((RESULT_TOKENS as readonly string[]).includes(text) || Object.hasOwn(SYMBOL_NAGS, text)) return false;
  const last = text[text.length - 1];
  return last !== '!' && last !== '?';
}

/** Parses every game in a record text. Tolerant: garbage is skipped and reported in `errors`. */
export function parseRecords(text: string): ParsedRecords {
  const s = new RecordScanner(text);
  s.run();
  const incomplete = text.slice(s.end).trim() !== '';
  return { games: s.games, end: s.end, incomplete, errors: s.errors };
}

/** The first game of a record text. */
export function parseRecord(text: string): Result<GameRecord, RecordSyntaxError> {
  const parsed = parseRecords(text);
  const game = parsed.games[0];
  if (game !== undefined) return ok(game);
  return err(parsed.errors[0] ?? { kind: 'no game', index: -1, message: 'no game found' });
}
