/**
 * The one grammar of a time control, for the tournament runner (`tc=`) and the GUI page (its
 * setting and a record's TimeControl tag), as cutechess-cli and fastchess write it:
 *   `40/60+0.6`  40 moves in 60 s, +0.6 s per move (the period repeats)
 *   `10+0.1`     sudden death: 10 s for the game, +0.1 s per move
 *   `60`         60 s for the game, no increment
 *   `1:30+1`     minutes:seconds for the base time
 */
import { err, ok, type Result } from './result';

/** A time control that does not parse: the message says why. */
export class TimeControlError extends Error {
  override name = 'TimeControlError';
}

export interface TimeControl {
  /** Moves per period; 0 = the whole game (sudden death). */
  moves: number;
  /** Time per period in milliseconds. */
  baseMs: number;
  /** Increment per move in milliseconds. */
  incMs: number;
}

const bad = (message: string): { ok: false; error: TimeControlError } => err(new TimeControlError(message));

const SECONDS_RE = /^(\d+(?:\.\d*)?|\.\d+)$/;

/** Seconds (`12`, `0.5`, `1:30`) to milliseconds, or NaN. */
export function parseSeconds(text: string): number {
  const mmss = /^(\d+):(\d{1,2}(?:\.\d*)?)$/.exec(text);
  if (mmss) return Math.round((Number(mmss[1]) * 60 + Number(mmss[2])) * 1000);
  if (!SECONDS_RE.test(text)) return NaN;
  return Math.round(Number(text) * 1000);
}

/** Parses `moves/seconds+increment` (moves and increment optional). */
export function parseTimeControl(text: string): Result<TimeControl, TimeControlError> {
  const t = text.trim();
  const m = /^(?:(\d+)\/)?([^+/]+)(?:\+([^+/]+))?$/.exec(t);
  if (!m) return bad(`bad time control '${text}' (expected moves/seconds+increment, e.g. 40/60+0.6 or 10+0.1)`);
  const moves = m[1] === undefined ? 0 : Number(m[1]);
  const baseMs = parseSeconds(m[2]);
  const incMs = m[3] === undefined ? 0 : parseSeconds(m[3]);
  if (Number.isNaN(baseMs)) return bad(`bad time control '${text}': '${m[2]}' is not a number of seconds`);
  if (Number.isNaN(incMs)) return bad(`bad time control '${text}': increment '${m[3]}' is not a number of seconds`);
  if (m[1] !== undefined && moves < 1) return bad(`bad time control '${text}': moves per period must be at least 1`);
  if (baseMs <= 0 && incMs <= 0) return bad(`bad time control '${text}': no time at all`);
  return ok({ moves, baseMs, incMs });
}

/** Milliseconds as seconds, at most three decimals: `0.6`, `60`. */
export function secondsText(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/** The canonical text of a time control: `40/60+0.6`, `10+0.1`, `60`. */
export function formatTimeControl(tc: TimeControl): string {
  return `${tc.moves > 0 ? `${tc.moves}/` : ''}${secondsText(tc.baseMs)}${tc.incMs > 0 ? `+${secondsText(tc.incMs)}` : ''}`;
}
