/**
 * The arguments of `go`, read whole before anything starts: a `go` whose arguments do not parse
 * starts nothing (protocol.md, `go`).
 */
import { formatMove, parseMove, type Position } from '../core/index';
import { err, ok, type Result } from '../core/result';
import { quote } from '../core/quote';
import type { GoNumbers } from '../engine/commands';

/** The numeric arguments; UGI's p1time… are other names for wtime… */
export type GoNumber =
  | 'wtime'
  | 'btime'
  | 'winc'
  | 'binc'
  | 'p1time'
  | 'p2time'
  | 'p1inc'
  | 'p2inc'
  | 'movestogo'
  | 'movetime'
  | 'depth'
  | 'nodes'
  | 'mate';

const NUMBERS: ReadonlySet<string> = new Set<GoNumber>([
  'wtime',
  'btime',
  'winc',
  'binc',
  'p1time',
  'p2time',
  'p1inc',
  'p2inc',
  'movestogo',
  'movetime',
  'depth',
  'nodes',
  'mate',
]);
const isNumber = (t: string): t is GoNumber => NUMBERS.has(t);

/** A clock may be below zero (a GUI that lets it run past zero within a margin): no time left. */
const SIGNED: ReadonlySet<GoNumber> = new Set<GoNumber>(['wtime', 'btime', 'p1time', 'p2time']);

export const MAX_PERFT_DEPTH = 20;

export interface GoArgs {
  numbers: Partial<Record<GoNumber, number>>;
  infinite: boolean;
  ponder: boolean;
  /** Root moves to consider, in canonical notation (empty = all). */
  searchMoves: string[];
  /** `go perft D`: a perft of the position instead of a search. */
  perft?: number;
}

/** What is wrong with a `go`: `message` names the argument. */
export interface GoError {
  message: string;
}

export function formatGoError(e: GoError): string {
  return `go: ${e.message}; nothing started`;
}

/** Reads the arguments of `go` in `pos` (searchmoves must be legal there, and come last). */
export function parseGo(args: readonly string[], pos: Position): Result<GoArgs, GoError> {
  const go: GoArgs = { numbers: {}, infinite: false, ponder: false, searchMoves: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (isNumber(a)) {
      const v = args[i + 1];
      const re = SIGNED.has(a) ? /^-?\d+$/ : /^\d+$/;
      if (v === undefined || !re.test(v)) {
        const what = SIGNED.has(a) ? 'a whole number' : 'a whole number, 0 or more';
        return err({ message: `${quote(a)} needs ${what}, not ${quote(v ?? '')}` });
      }
      go.numbers[a] = Number(v);
      i++;
    } else if (a === 'infinite') {
      go.infinite = true;
    } else if (a === 'ponder') {
      go.ponder = true;
    } else if (a === 'perft') {
      const v = args[i + 1];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_PERFT_DEPTH) {
        return err({
          message: `perft depth must be a whole number from 1 to ${MAX_PERFT_DEPTH}, not ${quote(v ?? '')}`,
        });
      }
      go.perft = Number(v);
      i++;
    } else if (a === 'searchmoves') {
      const moves = args.slice(i + 1);
      if (moves.length === 0) return err({ message: "'searchmoves' needs at least one move" });
      for (let k = 0; k < moves.length; k++) {
        const m = parseMove(pos, moves[k]);
        if (!m.ok) return err({ message: `searchmoves: move ${k + 1}: ${m.error.message}` });
        go.searchMoves.push(formatMove(m.value));
      }
      break;
    } else {
      return err({ message: `unknown argument ${quote(a)}` });
    }
  }
  return ok(go);
}

/**
 * The numbers of a `go` for the side to move (`side` 0: the first player's wtime/winc or
 * p1time/p1inc): its own clock and increment, and the other limits as given.
 */
export function sideNumbers(n: GoArgs['numbers'], side: number): GoNumbers {
  let time = n[side === 0 ? 'wtime' : 'btime'] ?? n[side === 0 ? 'p1time' : 'p2time'];
  // A clock for the other side only (as fastchess's compliance check sends): no time for us.
  if (time === undefined && (['wtime', 'btime', 'p1time', 'p2time'] as const).some((k) => n[k] !== undefined)) time = 0;
  const inc = n[side === 0 ? 'winc' : 'binc'] ?? n[side === 0 ? 'p1inc' : 'p2inc'];
  return { ...n, time, inc };
}
