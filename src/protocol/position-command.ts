/**
 * The `position` command, read whole: a KFEN or a setup and the moves played from it. Nothing is
 * changed unless all of it is good (protocol.md, `position`).
 */
import {
  EDITIONS,
  isSetupName,
  setupNamesText,
  setupKfen,
  setupsOf,
  type EditionId,
  type RuleOptions,
} from '../core/index';
import { err, type Result } from '../core/result';
import { quote } from '../core/quote';
import { buildPosition, type PositionError, type PositionState } from '../engine/position-state';

export function formatPositionError(e: PositionError): string {
  return `position: ${e.message}`;
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
