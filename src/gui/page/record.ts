/**
 * Game records for the page, in the format of src/core/record.ts: the page exports what
 * `thoth match` writes and imports what it reads.
 */
import { SETUPS, err, ok, type EditionId, type Result } from '../../core/index';
import {
  RESULT_TOKENS, formatReplayError, makeRecord, parseRecords, pgnDate, recordReason, recordStart, recordVariant, replayRecord,
  serializeRecord,
  type MoveRecord, type ReplayError, type ResultToken, type Termination,
} from '../../core/record';

export type { MoveRecord };

export interface ExportInput {
  edition: EditionId;
  startKfen: string;
  /** Names of the first and second player. */
  players: [string, string];
  result: ResultToken;
  timeControl: string;
  termination: Termination | 'unterminated';
  reason?: string;
  moves: MoveRecord[];
}

export function exportGame(g: ExportInput): string {
  const rec = makeRecord({
    event: 'Thoth GUI',
    date: pgnDate(),
    round: '-',
    players: g.players,
    result: g.result,
    variant: g.edition,
    kfen: g.startKfen,
    timeControl: g.timeControl,
    termination: g.termination === 'unterminated' ? 'normal' : g.termination,
    reason: g.reason,
    moves: g.moves,
  });
  if (g.termination === 'unterminated') rec.tags.set('Termination', 'unterminated');
  return serializeRecord(rec);
}

export interface ImportedGame {
  edition: EditionId;
  startKfen: string;
  moves: string[];
  result: ResultToken;
  termination: string;
  reason?: string;
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
    moves: rec.moves.map((m) => m.move),
    result: RESULT_TOKENS.includes(rec.result) ? rec.result : '*',
    termination: rec.tags.get('Termination') ?? 'normal',
    reason: recordReason(rec),
  });
}
