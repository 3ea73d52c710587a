/**
 * A game played elsewhere, judged again by the referee's rules: what a distributed run's
 * coordinator counts of a worker's report. The coordinator knows the game it asked for (the
 * players, the opening, the limits, the adjudication: its own plan); the worker reports only the
 * moves, with what the movers' engines said of them, and how the game ended. The moves are
 * replayed on the referee's own scoresheet (referee.ts), which writes the record, so that a game
 * counts only as the game the plan scheduled, with the result its moves give:
 *
 * - every move legal, none after the game is over (a Pharaoh hit, a repetition, the no-removal
 *   limit, the ply cap, an adjudication on the reported scores);
 * - a game the moves end: the result and the termination they give;
 * - a game the moves do not end: a fault of an engine (a time forfeit, an illegal move, a crash, a
 *   stall), which only the worker saw and which is lost by the side to move (by either side before
 *   the first move: an engine that does not start the game), with the worker's words for it cut to
 *   one line.
 *
 * What cannot be checked here is how the moves were found: a worker that plays other engines, or
 * reports a fault that did not happen, is the trust model's limit (docs/distributed.md, "Trust").
 */
import { oneLine as line } from '../core/quote';
import type { MoveRecord, Termination } from '../core/record';
import { err, ok, type Result } from '../core/result';
import type { Score } from '../core/score';
import { type GameOutcome, Scoresheet, type SheetSetup } from './referee';

/** A game as a worker reports it: the moves with their reports, and how it ended. */
interface ClaimedGame {
  moves: readonly MoveRecord[];
  /** The first player's score: 1, ½ or 0. */
  score: number;
  termination: Termination;
  /** How it ended, in the worker's words (kept only for a fault, which the moves do not show). */
  reason: string;
}

/** The terminations of a fault: the game is not over by its moves. */
const FAULTS: readonly string[] = ['time forfeit', 'illegal move', 'abandoned', 'stalled'];
/** Faults that can end a game before its first move (the engines' ping at the start). */
const START_FAULTS: readonly string[] = ['abandoned', 'stalled'];

/** The most moves a reported game may have (a game of Khet ends long before: no removal for 100 plies draws). */
const MAX_REPORTED_MOVES = 100_000;

/** A reported number kept when it is a whole number a record can hold, else left out. */
function reportedWhole(x: unknown, min: number, max: number): number | undefined {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= min && x <= max ? x : undefined;
}

/**
 * The outcome of `claim` replayed on the game `setup` describes (the record written from the
 * setup, not from the report), or why it does not hold, in words.
 */
export function rejudge(setup: SheetSetup, claim: ClaimedGame): Result<GameOutcome, string> {
  if (typeof claim !== 'object' || claim === null) return err('not a game');
  const { moves, score, termination, reason } = claim;
  if (!Array.isArray(moves)) return err('no moves');
  if (moves.length > MAX_REPORTED_MOVES) return err(`${moves.length} moves, more than a game has`);
  if (!(score === 0 || score === 0.5 || score === 1)) return err('a score that is not 0, 1/2 or 1');
  const sheet = new Scoresheet(setup);
  for (let k = 0; k < moves.length; k++) {
    const over = sheet.judgeBeforeMove();
    if (over) return err(`the game is over after ${k} moves (${over.reason}), but ${moves.length - k} more follow`);
    const m = moves[k];
    const text = typeof m?.move === 'string' ? m.move : '';
    const parsed = sheet.parse(`bestmove ${text}`);
    if ('outcome' in parsed) return err(`move ${k + 1} (${line(text.slice(0, 20))}) is not legal`);
    let reported: Score | undefined;
    const mate = reportedWhole(m.mate, -999_999_999, 999_999_999);
    const cp = reportedWhole(m.scoreCp, -999_999_999, 999_999_999);
    if (mate !== undefined) reported = { kind: 'mate', value: mate };
    else if (cp !== undefined) reported = { kind: 'cp', value: cp };
    const timeMs = reportedWhole(m.timeMs, 0, 999_999_999_999) ?? 0;
    const ended = sheet.play(parsed.move, timeMs, { depth: reportedWhole(m.depth, 0, 999_999_999), score: reported });
    if (ended) {
      if (k < moves.length - 1)
        return err(`the game is over after move ${k + 1} (${ended.reason}), but ${moves.length - k - 1} more follow`);
      return agreedOutcome(ended, claim);
    }
  }
  const over = sheet.judgeBeforeMove();
  if (over) return agreedOutcome(over, claim);
  // Not over by its moves: a fault of an engine.
  if (!FAULTS.includes(termination))
    return err(
      `the moves do not end the game, and '${line(String(termination).slice(0, 20))}' is not an engine's fault`,
    );
  if (score === 0.5) return err('a fault scored as a draw');
  const loser = score === 1 ? 1 : 0;
  if (loser !== sheet.pos.side && !(moves.length === 0 && START_FAULTS.includes(termination)))
    return err(`a ${termination} of ${sheet.colors[loser]}, who is not to move`);
  const words = typeof reason === 'string' ? line(reason) : '';
  if (!words.startsWith(sheet.colors[loser]))
    return err(`a ${termination} whose reason is not about ${sheet.colors[loser]}`);
  return ok(sheet.loss(loser, termination, words, START_FAULTS.includes(termination)));
}

/** The outcome the moves give, when the claim agrees with it. */
function agreedOutcome(o: GameOutcome, claim: ClaimedGame): Result<GameOutcome, string> {
  if (o.termination !== claim.termination || o.score !== claim.score)
    return err(
      `the moves give ${o.record.result} (${o.termination}: ${o.reason}), the report ${line(String(claim.score)).slice(0, 10)} (${line(String(claim.termination)).slice(0, 20)})`,
    );
  return ok(o);
}
