/**
 * The `position` command, read whole: a KFEN or a setup and the moves played from it. Nothing is
 * changed unless all of it is good (protocol.md, `position`).
 */
import {
  EDITIONS,
  formatKfenError,
  formatMove,
  isSetupName,
  parsePlayableKfen,
  setupNamesText,
  parseMove,
  setupKfen,
  setupsOf,
  type EditionId,
  type Position,
  type RuleOptions,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { quote } from '../core/quote';

/** The position the engine searches, and how it was reached (what the search threads replay). */
export interface PositionState {
  startKfen: string;
  /** The moves from startKfen, in canonical notation. */
  moves: string[];
  pos: Position;
}

/** What is wrong with a position: the message says where. */
export interface PositionError {
  message: string;
}

export function formatPositionError(e: PositionError): string {
  return `position: ${e.message}`;
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

const EXPECTED = 'expected startpos, setup <name>, kfen <KFEN> or fen <KFEN>';

/** The arguments of `position`. */
export function parsePosition(
  args: readonly string[],
  edition: EditionId,
  rules: RuleOptions,
): Result<PositionState, PositionError> {
  if (args.length === 0) return err({ message: EXPECTED });
  let i: number;
  let kfen: string;
  const kind = args[0];
  if (kind === 'startpos') {
    kfen = setupKfen(edition, 'classic')!;
    i = 1;
  } else if (kind === 'setup' || isSetupName(kind)) {
    const name = kind === 'setup' ? args[1] : kind;
    if (name === undefined || !isSetupName(name))
      return err({ message: `unknown setup ${quote(name ?? '')} (${setupNamesText()})` });
    const k = setupKfen(edition, name);
    if (k === undefined)
      return err({
        message: `${EDITIONS[edition].name} has no ${name} setup (it has ${setupsOf(edition).join(', ')})`,
      });
    kfen = k;
    i = kind === 'setup' ? 2 : 1;
  } else if (kind === 'kfen' || kind === 'fen') {
    const end = args.indexOf('moves');
    kfen = args.slice(1, end < 0 ? args.length : end).join(' ');
    i = end < 0 ? args.length : end;
  } else {
    return err({ message: `${EXPECTED}, not ${quote(kind)}` });
  }
  let moves: readonly string[] = [];
  if (i < args.length) {
    if (args[i] !== 'moves') return err({ message: `unexpected ${quote(args[i])} (expected 'moves')` });
    moves = args.slice(i + 1);
  }
  const st = buildPosition(kfen, moves, edition, rules);
  return st.ok ? st : err({ message: `${st.error.message}; position unchanged` });
}
