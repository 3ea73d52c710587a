/**
 * Game records for the page, in the PGN of src/core/record.ts: the page exports what `thoth
 * match` writes and imports what it and other tools write. An imported game keeps its tags
 * (players, event, …), comments, NAGs and variations (as the move tree's) when it is exported
 * again; clocks go into comments as `[%clk H:MM:SS]` (the time left after the move), as lichess
 * writes them, and a reviewed game's ?!/?/?? as NAGs.
 */
import { plural } from '../../../core/plural';
import { EDITIONS, SETUPS, err, ok, parseMove, type EditionId, type Result } from '../../../core/index';
import {
  RESULT_TOKENS,
  formatReplayError,
  makeRecord,
  parseRecords,
  pgnDate,
  recordReason,
  recordStart,
  recordVariant,
  replayRecord,
  drawingsText,
  serializeRecord,
  type MoveRecord,
  type ReplayError,
  type ResultToken,
  type Termination,
} from '../../../core/record';
import { clockFromText, parsePgnClock, pgnClock, restoreClock, timeControlText } from './clock';
import * as S from './state';
import { currentReview, reviewNags } from './gamereview';
import { shownNags } from './marks';
import {
  addMove,
  childrenAt,
  isMainline,
  mainline,
  newTree,
  nodeAt,
  positionAt,
  type EngineNote,
  type GameTree,
  type NodeExtra,
  type Path,
} from './tree';

export type { MoveRecord };

/** A move as the page exports it. */
export interface ExportMove {
  text: string;
  side: number;
  engine?: EngineNote;
  comment?: string;
  /** Both clocks after the move (the mover's is written). */
  clocks?: readonly [number, number];
  nags?: readonly number[];
  /** Alternatives to this move, each a line from the position before it. */
  variations?: ExportMove[][];
}

export interface ExportInput {
  edition: EditionId;
  startKfen: string;
  /** Names of the first and second player (imported tags win). */
  players: [string, string];
  result: ResultToken;
  timeControl: string;
  termination: string;
  reason?: string;
  moves: ExportMove[];
  /** Tags of an imported record: written again, except those the game itself decides. */
  tags?: readonly (readonly [string, string])[];
}

/** Tags the exported game states itself; an imported record's values for these are replaced. */
const DERIVED_TAGS = new Set([
  'Result',
  'SetUp',
  'FEN',
  'Variant',
  'KFEN',
  'PlyCount',
  'Termination',
  'Reason',
  'White',
  'Black',
]);
const TERMINATIONS: readonly string[] = [
  'normal',
  'adjudication',
  'time forfeit',
  'illegal move',
  'abandoned',
  'stalled',
];

const CLK_RE = /\[%clk\s+([0-9:.]+)\]/;

function moveRecord(m: ExportMove): MoveRecord {
  const r: MoveRecord = { move: m.text, ...(m.engine ?? {}) };
  const words: string[] = [];
  if (m.clocks) words.push(`[%clk ${pgnClock(m.clocks[m.side])}]`);
  if (m.comment) words.push(m.comment);
  if (words.length > 0) r.comment = words.join(' ');
  if (m.nags && m.nags.length > 0) r.nags = [...m.nags];
  if (m.variations && m.variations.length > 0) r.variations = m.variations.map((v) => v.map(moveRecord));
  return r;
}

export function exportGame(g: ExportInput): string {
  const known = TERMINATIONS.includes(g.termination);
  // The players of an imported record keep their names (White/Black, or an older record's colour tags).
  const tags = new Map(g.tags ?? []);
  const colours = EDITIONS[g.edition].colorNames;
  const players: [string, string] = [
    tags.get('White') ?? tags.get(colours[0]) ?? g.players[0],
    tags.get('Black') ?? tags.get(colours[1]) ?? g.players[1],
  ];
  const rec = makeRecord({
    event: 'Thoth GUI',
    date: pgnDate(),
    round: '-',
    players,
    result: g.result,
    variant: g.edition,
    kfen: g.startKfen,
    timeControl: g.timeControl,
    termination: known ? (g.termination as Termination) : 'normal',
    reason: g.reason,
    moves: g.moves.map(moveRecord),
  });
  if (!known) rec.tags.set('Termination', g.termination);
  for (const [k, v] of tags) if (!DERIVED_TAGS.has(k) && !colours.includes(k)) rec.tags.set(k, v);
  return serializeRecord(rec);
}

/** A move read from a record. */
export interface ImportedMove {
  text: string;
  engine?: EngineNote;
  comment?: string;
  /** The mover's time left after the move, from `[%clk …]`. */
  clockMs?: number;
  nags?: number[];
  /** Alternatives to this move, each a line from the position before it. */
  variations?: ImportedMove[][];
}

export interface ImportedGame {
  edition: EditionId;
  startKfen: string;
  moves: ImportedMove[];
  result: ResultToken;
  termination: string;
  reason?: string;
  /** Every tag, in order. */
  tags: [string, string][];
}

/**
 * The most characters the page reads from a paste or a link (1 MiB of text: a game of thousands
 * of moves with its comments fits many times; a file of a whole match may not). A larger text is
 * refused at once rather than freezing the page; `thoth analyse --game` reads record files.
 */
export const PASTE_LIMIT = 1024 * 1024;

export type ImportError =
  | { kind: 'no game' }
  | { kind: 'too large'; length: number }
  | { kind: 'variant'; variant: string }
  | { kind: 'replay'; error: ReplayError };

export function formatImportError(e: ImportError): string {
  switch (e.kind) {
    case 'no game':
      return 'no game found';
    case 'too large':
      return `the text is ${e.length.toLocaleString('en')} characters, more than the page reads (${PASTE_LIMIT.toLocaleString('en')}); paste one game`;
    case 'variant':
      return `unknown variant '${e.variant}'`;
    case 'replay':
      return formatReplayError(e.error);
  }
}

function importMove(m: MoveRecord): ImportedMove {
  const out: ImportedMove = { text: m.move };
  const engine: EngineNote = {};
  for (const k of ['scoreCp', 'mate', 'depth', 'timeMs'] as const) if (m[k] !== undefined) engine[k] = m[k];
  if (Object.keys(engine).length > 0) out.engine = engine;
  // the page keeps a move's drawings in its comment, as it reads them (written back as they came)
  let comment = [m.comment ?? '', drawingsText(m)].filter((t) => t !== '').join(' ') || undefined;
  if (comment !== undefined) {
    const c = CLK_RE.exec(comment);
    if (c) {
      out.clockMs = parsePgnClock(c[1]);
      comment = comment.replace(CLK_RE, '').trim();
    }
    if (comment !== '') out.comment = comment;
  }
  if (m.nags && m.nags.length > 0) out.nags = [...m.nags];
  if (m.variations && m.variations.length > 0) out.variations = m.variations.map((v) => v.map(importMove));
  return out;
}

/** Reads the first game of a record text (at most {@link PASTE_LIMIT} characters); its moves are checked against the rules. */
export function importGame(text: string): Result<ImportedGame, ImportError> {
  if (text.length > PASTE_LIMIT) return err({ kind: 'too large', length: text.length });
  let parsed = parseRecords(text);
  if (parsed.games.length === 0 && text.trim() !== '') {
    // Moves pasted without a result token: read them as an unfinished game.
    parsed = parseRecords(`${text.trim()}\n*\n`);
  }
  const rec = parsed.games[0];
  if (!rec) return err({ kind: 'no game' });
  const v = rec.tags.get('Variant');
  if (v !== undefined && recordVariant(rec) !== v) return err({ kind: 'variant', variant: v });
  const edition = recordVariant(rec);
  const replay = replayRecord(rec);
  if (!replay.ok) return err({ kind: 'replay', error: replay.error });
  const startKfen = (recordStart(rec) ?? SETUPS[edition].classic ?? '').trim().split(/\s+/).join(' ');
  return ok({
    edition,
    startKfen,
    moves: rec.moves.map(importMove),
    result: RESULT_TOKENS.includes(rec.result) ? rec.result : '*',
    termination: rec.tags.get('Termination') ?? 'normal',
    reason: recordReason(rec),
    tags: [...rec.tags.entries()],
  });
}

/**
 * The imported game as a move tree: its variations, engine comments, free comments, NAGs, and the
 * clocks of the main line (a `[%clk …]` gives the mover's time; the other clock keeps its last
 * value, from the TimeControl tag's base at the start).
 */
export function importedTree(g: ImportedGame): Result<{ tree: GameTree; path: Path }, string> {
  const t0 = newTree(g.edition, g.startKfen);
  if (!t0.ok) return err(t0.error);
  const base = /^(\d+(?:\.\d+)?)\+/.exec(g.tags.find(([k]) => k === 'TimeControl')?.[1] ?? '');
  const clocks: [number, number] | null = base ? [Number(base[1]) * 1000, Number(base[1]) * 1000] : null;
  return addLine(t0.value, [], g.moves, clocks, true);
}

/** Adds a line of imported moves after `path` (the main line when `clocks` are given). */
function addLine(
  tree: GameTree,
  path: Path,
  moves: readonly ImportedMove[],
  clocks: [number, number] | null,
  main = false,
): Result<{ tree: GameTree; path: Path }, string> {
  const pos = positionAt(tree, path);
  let t = tree;
  let p = path;
  for (const m of moves) {
    const mv = parseMove(pos, m.text);
    if (!mv.ok) return err(`${m.text}: ${mv.error.message}`);
    const extra: NodeExtra = {};
    if (m.engine) extra.engine = m.engine;
    if (m.comment) extra.comment = m.comment;
    if (m.nags) extra.nags = m.nags;
    // Without a TimeControl tag the clocks start from the first [%clk] (both sides, until the other one moves).
    if (m.clockMs !== undefined && main && !clocks) clocks = [m.clockMs, m.clockMs];
    if (m.clockMs !== undefined && clocks) {
      clocks = [clocks[0], clocks[1]];
      clocks[pos.side] = m.clockMs;
      extra.clocks = clocks;
    }
    const before = p;
    ({ tree: t, path: p } = addMove(t, before, mv.value, extra));
    for (const v of m.variations ?? []) {
      const r = addLine(t, before, v, null);
      if (!r.ok) return r;
      t = r.value.tree;
    }
    pos.make(mv.value);
  }
  return ok({ tree: t, path: p });
}

/**
 * An imported record (or a link's) opened on the analysis board, as lichess opens one: its tags
 * kept for export (and its players named on the bars), its result when the board does not decide
 * it, the clocks as the last `[%clk …]` left them (standing still: they go on from there if the
 * person plays on), and neither a live game against Thoth nor the board turned: nobody plays it
 * until the person picks a mode.
 */
export function loadImported(
  s: S.PageState,
  g: ImportedGame,
  t: { tree: GameTree; path: Path },
  now: number,
): S.PageState {
  // Built as a game between two players (the record's clocks, the board as it stands), then analysed.
  const players: S.PageState = { ...s, mode: 'humans' };
  let next = S.newGame(S.setSettings(players, { edition: g.edition }), t.tree, { now, tags: g.tags });
  // The record's own time control, when it states one, for the game's clocks; a record with
  // neither a time control nor a [%clk] has none (its export says none either).
  const tc = clockFromText(g.tags.find(([k]) => k === 'TimeControl')?.[1] ?? '');
  if (tc && next.clock) next = { ...next, clock: tc };
  if (!tc && !mainline(t.tree).some((n) => n.clocks)) next = { ...next, clock: null };
  if (!S.isOver(next) && g.result !== '*') {
    next = {
      ...next,
      ending: {
        result: g.result,
        text: g.reason ?? `Result ${g.result} (${g.termination})`,
        termination: g.termination,
      },
    };
  }
  const last = nodeAt(t.tree, t.path);
  if (next.clock) {
    const side = S.endPosition(next).side;
    next = {
      ...next,
      clock: restoreClock(
        next.clock,
        last?.clocks ?? next.clock.remaining,
        S.isOver(next) || t.path.length === 0 ? -1 : side,
        now,
      ),
    };
  }
  return S.setMode(next, 'analysis', now);
}

/**
 * The line that starts at `path`, each move with the other children of its parent as its
 * variations; `nags` (a review's, by main-line move; null without a review) gives the main line's
 * judgements in place of the moves' own (marks.ts).
 */
function exportLine(tree: GameTree, path: Path, nags: ReadonlyMap<number, number> | null): ExportMove[] {
  const out: ExportMove[] = [];
  for (let p = path; ; p = [...p, 0]) {
    const n = nodeAt(tree, p);
    if (!n) break;
    const parent = p.slice(0, -1);
    const first = p[p.length - 1] === 0;
    const variations = first
      ? childrenAt(tree, parent)
          .slice(1)
          .map((_, k) => exportLine(tree, [...parent, k + 1], nags))
      : [];
    const main = isMainline(p);
    out.push({
      text: n.ply.text,
      side: n.ply.side,
      engine: n.engine,
      comment: n.comment,
      clocks: n.clocks,
      nags: main ? shownNags(n.nags, nags !== null, nags?.get(p.length - 1)) : n.nags,
      variations,
    });
  }
  return out;
}

/** What an export of the shown game writes: the whole tree, the review's marks as NAGs. */
export function exportInput(s: S.PageState, engineName: string): ExportInput {
  const names = EDITIONS[s.tree.edition].colorNames;
  const r = S.gameResult(s);
  const who = (c: number): string =>
    s.mode === 'engine' ? (c === s.humanSide ? 'Human' : engineName || 'Thoth') : `Human (${names[c]})`;
  return {
    edition: s.tree.edition,
    startKfen: s.tree.startKfen,
    players: s.players ? [s.players[0], s.players[1]] : [who(0), who(1)],
    result: r ? r.result : '*',
    timeControl: s.clock ? timeControlText(s.clock) : '-',
    termination: r ? r.termination : 'unterminated',
    reason: r?.text,
    moves: exportLine(s.tree, [0], currentReview(s) ? reviewNags(s) : null),
    tags: s.tags,
  };
}

/** A count of plies as a player reads it: "1 move (1 ply)", "12 moves (23 plies)" (a move is both sides' turn). */
export function movesAndPlies(plies: number): string {
  const moves = Math.ceil(plies / 2);
  return `${plural(moves, 'move')} (${plural(plies, 'ply', 'plies')})`;
}
