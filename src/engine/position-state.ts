/**
 * The position the engine searches and how it was reached: a KFEN and the moves played from it
 * (what the search threads replay). `position` (src/protocol/position-command.ts) reads its
 * arguments into one; the options that change the rules rebuild it.
 */
import {
  formatKfenError,
  formatMove,
  parsePlayableKfen,
  parseMove,
  setupKfen,
  type EditionId,
  type Position,
  type RuleOptions,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { quote } from '../core/quote';

/** What is wrong with a position: the message says where. */
export interface PositionError {
  message: string;
}

/** The position the engine searches, and how it was reached (what the search threads replay). */
export interface PositionState {
  startKfen: string;
  /** The moves from startKfen, in canonical notation. */
  moves: string[];
  pos: Position;
}

/** A position from a KFEN and moves played from it. */
export function buildPosition(
  kfen: string,
  moves: readonly string[],
  edition: EditionId,
  rules: RuleOptions,
): Result<PositionState, PositionError> {
  const r = parsePlayableKfen(kfen, edition, rules);
  if (!r.ok) return err({ message: `bad KFEN: ${formatKfenError(r.error)}` });
  const pos = r.value;
  const played: string[] = [];
  for (let i = 0; i < moves.length; i++) {
    if (pos.winner >= 0) return err({ message: `move ${i + 1} ${quote(moves[i])}: the game is already over` });
    const m = parseMove(pos, moves[i]);
    if (!m.ok) return err({ message: `move ${i + 1}: ${m.error.message}` });
    pos.make(m.value);
    played.push(formatMove(m.value));
  }
  return ok({ startKfen: kfen, moves: played, pos });
}

/** The start of an edition (its Classic setup). */
export function startPosition(edition: EditionId, rules: RuleOptions): PositionState {
  const r = buildPosition(setupKfen(edition, 'classic')!, [], edition, rules);
  if (!r.ok) throw new Error(`bad built-in setup: ${r.error.message}`);
  return r.value;
}
