/**
 * Game records for the page, in the format of src/core/record.ts: the page exports what
 * `thoth match` writes and imports what it reads. An imported game keeps its tags (players,
 * event, …) and comments when it is exported again; clocks go into comments as `[%clk H:MM:SS]`
 * (the time left after the move), as lichess writes them.
 */
import { SETUPS, err, ok, type EditionId, type Result } from '../../core/index';
import {
  RESULT_TOKENS, formatReplayError, makeRecord, parseRecords, pgnDate, recordReason, recordStart, recordVariant, replayRecord,
  serializeRecord,
  type MoveRecord, type ReplayError, type ResultToken, type Termination,
} from '../../core/record';
import { parsePgnClock, pgnClock } from './clock';
import type { EngineNote } from './tree';

export type { MoveRecord };

/** A move as the page exports it. */
export interface ExportMove {
  text: string;
  side: number;
  engine?: EngineNote;
  comment?: string;
  /** Both clocks after the move (the mover's is written). */
  clocks?: readonly [number, number];
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
const DERIVED_TAGS = new Set(['Result', 'Variant', 'KFEN', 'PlyCount', 'Termination', 'Reason']);
const TERMINATIONS: readonly string[] = ['normal', 'adjudication', 'time forfeit', 'illegal move', 'abandoned', 'stalled'];

const CLK_RE = /\[%clk\s+([0-9:.]+)\]/;

export function exportGame(g: ExportInput): string {
  const known = TERMINATIONS.includes(g.termination);
  const rec = makeRecord({
    event: 'Thoth GUI',
    date: pgnDate(),
    round: '-',
    players: g.players,
    result: g.result,
    variant: g.edition,
    kfen: g.startKfen,
    timeControl: g.timeControl,
    termination: known ? (g.termination as Termination) : 'normal',
    reason: g.reason,
    moves: g.moves.map((m) => {
      const r: MoveRecord = { move: m.text, ...(m.engine ?? {}) };
      const words: string[] = [];
      if (m.clocks) words.push(`[%clk ${pgnClock(m.clocks[m.side])}]`);
      if (m.comment) words.push(m.comment);
      if (words.length > 0) r.comment = words.join(' ');
      return r;
    }),
  });
  if (!known) rec.tags.set('Termination', g.termination);
  for (const [k, v] of g.tags ?? []) if (!DERIVED_TAGS.has(k)) rec.tags.set(k, v);
  return serializeRecord(rec);
}

/** A move read from a record. */
export interface ImportedMove {
  text: string;
  engine?: EngineNote;
  comment?: string;
  /** The mover's time left after the move, from `[%clk …]`. */
  clockMs?: number;
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

export type ImportError = { kind: 'no game' } | { kind: 'variant'; variant: string } | { kind: 'replay'; error: ReplayError };

export function formatImportError(e: ImportError): string {
  switch (e.kind) {
    case 'no game':
      return 'no game found';
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
  let comment = m.comment;
  if (comment !== undefined) {
    const c = CLK_RE.exec(comment);
    if (c) {
      out.clockMs = parsePgnClock(c[1]);
      comment = comment.replace(CLK_RE, '').trim();
    }
    if (comment !== '') out.comment = comment;
  }
  return out;
}

/** Reads the first game of a record text; its moves are checked against the rules. */
export function importGame(text: string): Result<ImportedGame, ImportError> {
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
