/**
 * Game records for the page, in the tournament runner's format (src/match/record.ts, which is
 * pure TypeScript and runs in the browser too): the page exports what `thoth match` writes and
 * imports what it reads.
 */
import {
  RESULT_TOKENS, makeRecord, parseRecords, pgnDate, recordVariant, replayRecord, serializeRecord, type MoveRecord,
  type ResultToken, type Termination,
} from '../../match/record';
import { SETUPS, type EditionId } from '../../core/index';

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

export type ImportResult =
  | {
      ok: true;
      edition: EditionId;
      startKfen: string;
      moves: string[];
      result: ResultToken;
      termination: string;
      reason?: string;
    }
  | { ok: false; error: string };

/** Reads the first game of a record text; its moves are checked against the rules. */
export function importGame(text: string): ImportResult {
  let parsed = parseRecords(text);
  if (parsed.games.length === 0 && text.trim() !== '') {
    // Moves pasted without a result token: read them as an unfinished game.
    parsed = parseRecords(`${text.trim()}\n*\n`);
  }
  const rec = parsed.games[0];
  if (!rec) return { ok: false, error: 'no game found' };
  const v = rec.tags.get('Variant');
  if (v !== undefined && recordVariant(rec) !== v) return { ok: false, error: `unknown variant '${v}'` };
  const edition = recordVariant(rec);
  const replay = replayRecord(rec);
  if (!replay.ok) return { ok: false, error: replay.error };
  const startKfen = (rec.tags.get('KFEN') ?? SETUPS[edition].classic ?? '').trim().split(/\s+/).join(' ');
  return {
    ok: true,
    edition,
    startKfen,
    moves: rec.moves.map((m) => m.move),
    result: RESULT_TOKENS.includes(rec.result) ? rec.result : '*',
    termination: rec.tags.get('Termination') ?? 'normal',
    reason: rec.tags.get('Reason'),
  };
}
