/**
 * How a run's games ended, per engine (docs/match.md, "Output"): each record sorted into one
 * ending, from its Termination tag and the words of its ending (and, for a Pharaoh hit, whose shot
 * it was: the last mover's own laser, or the winner's), and each engine's wins, losses and draws
 * in every ending. The summary prints a line per engine; the JSON summary holds the counts.
 */
import { EDITIONS } from '../../core/editions';
import { type GameRecord, recordPlayers, recordReason, recordStart, recordVariant } from '../../core/record';

/** The endings, in the order they are printed. */
const ENDINGS = [
  'shot',
  'own shot',
  'repetition',
  'no removal',
  'ply limit',
  'resign',
  'adjudication draw',
  'adjudication resign',
  'adjudication max plies',
  'time forfeit',
  'illegal move',
  'crash',
  'stall',
  'other',
] as const;
export type GameEnding = (typeof ENDINGS)[number];

/** An engine's wins, losses and draws in one ending. */
export interface EndingCount {
  wins: number;
  losses: number;
  draws: number;
}

/** Per engine name, per ending (only the endings it had). */
export type EndingCounts = Record<string, Partial<Record<GameEnding, EndingCount>>>;

/** How one game ended. */
export function endingOf(rec: GameRecord): GameEnding {
  const term = rec.tags.get('Termination') ?? 'normal';
  const why = recordReason(rec) ?? '';
  switch (term) {
    case 'time forfeit':
      return 'time forfeit';
    case 'illegal move':
      return 'illegal move';
    case 'abandoned':
      return 'crash';
    case 'stalled':
      return 'stall';
    case 'adjudication':
      if (/plies played/.test(why)) return 'adjudication max plies';
      return /resigns/.test(why) ? 'adjudication resign' : 'adjudication draw';
  }
  if (/Pharaoh was hit/.test(why)) return lastMoverLost(rec) ? 'own shot' : 'shot';
  if (/repetition/.test(why)) return 'repetition';
  if (/no piece removed/.test(why)) return 'no removal';
  if (/-ply limit/.test(why)) return 'ply limit';
  if (/resigns/.test(why)) return 'resign';
  return 'other';
}

/** Whether the side that made the last move lost (its own shot hit its Pharaoh). */
function lastMoverLost(rec: GameRecord): boolean {
  const sideChar = (recordStart(rec) ?? '').trim().split(/\s+/)[1];
  const firstMoves = sideChar !== EDITIONS[recordVariant(rec)].sideChars[1];
  const lastIsFirst = (rec.moves.length % 2 === 1) === firstMoves;
  return rec.result === (lastIsFirst ? '0-1' : '1-0');
}

/** The counts of every engine's games by ending. */
export function countEndings(records: readonly GameRecord[]): EndingCounts {
  const out: EndingCounts = {};
  for (const rec of records) {
    const ending = endingOf(rec);
    const players = recordPlayers(rec);
    players.forEach((name, side) => {
      const byEnding = (out[name] ??= {});
      const c = (byEnding[ending] ??= { wins: 0, losses: 0, draws: 0 });
      if (rec.result === '1/2-1/2') c.draws++;
      else if (rec.result === (side === 0 ? '1-0' : '0-1')) c.wins++;
      else if (rec.result !== '*') c.losses++;
    });
  }
  return out;
}

/** `Endings of ddket (W-L-D): shot 3-36-0, own shot 0-4-0, time forfeit 0-14-0`, a line per engine in `names`' order. */
export function endingLines(counts: EndingCounts, names: readonly string[]): string[] {
  return names
    .filter((n) => counts[n] !== undefined)
    .map((n) => {
      const parts = ENDINGS.filter((e) => counts[n][e] !== undefined).map((e) => {
        const c = counts[n][e]!;
        return `${e} ${c.wins}-${c.losses}-${c.draws}`;
      });
      return `Endings of ${n} (W-L-D): ${parts.join(', ')}`;
    });
}
