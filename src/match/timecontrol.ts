/**
 * Time controls and clocks for `thoth match`.
 *
 * Text forms (cutechess-cli / fastchess); the clock's grammar is src/core/time-control.ts, which
 * the GUI page reads too:
 *   `tc=40/60+0.6`  40 moves in 60 s, +0.6 s per move (the period repeats: 60 s more after move 40)
 *   `tc=10+0.1`     sudden death: 10 s for the game, +0.1 s per move
 *   `tc=60`         60 s for the game, no increment
 *   `tc=1:30+1`     minutes:seconds are accepted for the base time
 *   `st=0.5`        a fixed 0.5 s per move (`go movetime 500`)
 *   `depth=8`       a fixed depth (`go depth 8`)
 *   `nodes=50000`   a fixed node count (`go nodes 50000`)
 * A clock (`tc`) may be combined with `depth` or `nodes` (both are then sent in `go`).
 */
import { err, ok, type Result } from '../core/result';
import { formatTimeControl, parseSeconds, parseTimeControl, secondsText, type TimeControl } from '../core/time-control';
import { MatchConfigError } from './errors';

export interface EngineLimits {
  tc?: TimeControl;
  /** Fixed time per move (`st=`), milliseconds. */
  movetimeMs?: number;
  depth?: number;
  nodes?: number;
}

const badLimit = (message: string): { ok: false; error: MatchConfigError } => err(new MatchConfigError(message));

/** Parses a positive number of seconds for `st=` into milliseconds. */
export function parseMoveTime(text: string): Result<number, MatchConfigError> {
  const ms = parseSeconds(text.trim());
  if (!(ms > 0)) return badLimit(`bad move time '${text}' (seconds per move, e.g. st=0.5)`);
  return ok(ms);
}

function positiveInt(key: string, text: string, max: number): Result<number, MatchConfigError> {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > max) {
    return badLimit(`${key}= must be a whole number from 1 to ${max}, not '${text}'`);
  }
  return ok(Number(text));
}

/**
 * Applies one `key=value` limit (tc, st, depth, nodes) to `limits`. The value is false when the
 * key is not a limit; `limits` is left as it was when the value is bad.
 */
export function applyLimit(limits: EngineLimits, key: string, value: string): Result<boolean, MatchConfigError> {
  switch (key) {
    case 'tc': {
      if (value === 'inf' || value === 'infinite') {
        delete limits.tc;
        return ok(true);
      }
      const tc = parseTimeControl(value);
      if (!tc.ok) return badLimit(tc.error.message);
      limits.tc = tc.value;
      delete limits.movetimeMs; // the later of tc= and st= wins (an engine's own over -each)
      return ok(true);
    }
    case 'st': {
      const ms = parseMoveTime(value);
      if (!ms.ok) return ms;
      limits.movetimeMs = ms.value;
      delete limits.tc;
      return ok(true);
    }
    case 'depth': {
      const n = positiveInt('depth', value, 1000);
      if (!n.ok) return n;
      limits.depth = n.value;
      return ok(true);
    }
    case 'nodes': {
      const n = positiveInt('nodes', value, Number.MAX_SAFE_INTEGER);
      if (!n.ok) return n;
      limits.nodes = n.value;
      return ok(true);
    }
    default:
      return ok(false);
  }
}

/** True when the limits end every search (a clock, a move time, a depth or a node count). */
export function hasLimit(l: EngineLimits): boolean {
  return l.tc !== undefined || l.movetimeMs !== undefined || l.depth !== undefined || l.nodes !== undefined;
}

/** The limits as text, for the TimeControl tag: `10+0.1`, `st=0.5`, `depth=8`, `10+0.1 nodes=5000`. */
export function describeLimits(l: EngineLimits): string {
  const parts: string[] = [];
  if (l.tc) parts.push(formatTimeControl(l.tc));
  if (l.movetimeMs !== undefined) parts.push(`st=${secondsText(l.movetimeMs)}`);
  if (l.depth !== undefined) parts.push(`depth=${l.depth}`);
  if (l.nodes !== undefined) parts.push(`nodes=${l.nodes}`);
  return parts.length > 0 ? parts.join(' ') : '-';
}

/** A player's clock under a time control. Times are kept in milliseconds (fractional). */
export class PlayerClock {
  remainingMs: number;
  /** Moves completed by this player in the game. */
  moves = 0;

  constructor(readonly tc: TimeControl) {
    this.remainingMs = tc.baseMs;
  }

  /** Moves left in the current period, for `movestogo` (undefined for sudden death). */
  movesToGo(): number | undefined {
    if (this.tc.moves <= 0) return undefined;
    return this.tc.moves - (this.moves % this.tc.moves);
  }

  /**
   * Charges a move that took `elapsedMs`. Returns false when the time ran out (more than
   * `marginMs` past zero): the player has lost on time. Otherwise adds the increment and, at the
   * end of a period, the next period's time.
   */
  charge(elapsedMs: number, marginMs = 0): boolean {
    this.remainingMs -= elapsedMs;
    if (this.remainingMs < -marginMs) return false;
    this.moves++;
    this.remainingMs += this.tc.incMs;
    if (this.tc.moves > 0 && this.moves % this.tc.moves === 0) this.remainingMs += this.tc.baseMs;
    return true;
  }
}

/**
 * The `go` command for the side to move (`side` 0 = first player, whose clock is `wtime`).
 * `clocks[i]` is undefined for a player without a clock.
 */
export function goForMove(limits: EngineLimits, side: number, clocks: readonly (PlayerClock | undefined)[]): string {
  const parts = ['go'];
  if (limits.tc) {
    // A player without a clock (mixed limits) is shown the mover's time.
    const own = clocks[side];
    const ms = (c: PlayerClock | undefined): number => Math.max(1, Math.floor((c ?? own)?.remainingMs ?? 1));
    const inc = (c: PlayerClock | undefined): number => (c ? c.tc.incMs : 0);
    const [w, b] = clocks;
    parts.push(`wtime ${ms(w)}`, `btime ${ms(b)}`, `winc ${Math.round(inc(w))}`, `binc ${Math.round(inc(b))}`);
    const mtg = clocks[side]?.movesToGo();
    if (mtg !== undefined) parts.push(`movestogo ${mtg}`);
  } else if (limits.movetimeMs !== undefined) {
    parts.push(`movetime ${limits.movetimeMs}`);
  }
  if (limits.depth !== undefined) parts.push(`depth ${limits.depth}`);
  if (limits.nodes !== undefined) parts.push(`nodes ${limits.nodes}`);
  if (parts.length === 1) parts.push('infinite');
  return parts.join(' ');
}

/**
 * How long the runner waits for `bestmove` before it stops the engine: the time left on the
 * clock (or the move time) plus the margin; undefined for depth/node searches (no time limit).
 */
export function moveDeadlineMs(
  limits: EngineLimits,
  clock: PlayerClock | undefined,
  marginMs: number,
): number | undefined {
  if (limits.tc && clock) return Math.max(0, clock.remainingMs) + marginMs;
  if (limits.movetimeMs !== undefined) return limits.movetimeMs + marginMs;
  return undefined;
}
