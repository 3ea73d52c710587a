/**
 * The game clocks as plain data, with pure transitions: every function takes the time `now` (ms,
 * any steady time base) and returns a new state, so they are tested without a browser.
 */
import { parseTimeControl } from '../../../core/time-control';

export interface ClockState {
  readonly baseMs: number;
  readonly incMs: number;
  /** Remaining ms of [first player, second player] when the running clock was started. */
  readonly remaining: readonly [number, number];
  /** The side whose clock runs, or -1. */
  readonly running: number;
  /** When the running clock was started. */
  readonly since: number;
}

export function newClock(baseMs: number, incMs: number): ClockState {
  return { baseMs, incMs, remaining: [baseMs, baseMs], running: -1, since: 0 };
}

/**
 * The clocks of a time control such as `300+3` (src/core/time-control.ts, the runner's grammar);
 * null for none, nonsense, no base time, or moves per period (which the page's clocks do not keep).
 */
export function clockFromText(text: string): ClockState | null {
  const tc = parseTimeControl(text);
  if (!tc.ok || tc.value.moves > 0 || tc.value.baseMs <= 0) return null;
  return newClock(tc.value.baseMs, tc.value.incMs);
}

/** The time control as a record writes it: `300+3`. */
export function timeControlText(c: ClockState): string {
  return `${c.baseMs / 1000}+${c.incMs / 1000}`;
}

export function timeLeft(c: ClockState, side: number, now: number): number {
  return c.remaining[side] - (c.running === side ? now - c.since : 0);
}

export function stopClock(c: ClockState, now: number): ClockState {
  if (c.running < 0) return c;
  const remaining: [number, number] = [c.remaining[0], c.remaining[1]];
  remaining[c.running] -= now - c.since;
  return { ...c, remaining, running: -1, since: now };
}

export function startClock(c: ClockState, side: number, now: number): ClockState {
  const stopped = stopClock(c, now);
  return { ...stopped, running: side, since: now };
}

/** After `mover` moved: its clock stops and gets the increment; the other one starts (unless the game is over). */
export function clockAfterMove(c: ClockState, mover: number, now: number, gameOver: boolean): ClockState {
  const stopped = stopClock(c, now);
  const remaining: [number, number] = [stopped.remaining[0], stopped.remaining[1]];
  remaining[mover] += c.incMs;
  const next = { ...stopped, remaining };
  return gameOver ? next : startClock(next, mover ^ 1, now);
}

/** The clocks set to the times of an earlier moment, with `running` (or none) started now. */
export function restoreClock(
  c: ClockState,
  remaining: readonly [number, number],
  running: number,
  now: number,
): ClockState {
  const set = { ...c, remaining: [remaining[0], remaining[1]] as const, running: -1, since: now };
  return running >= 0 ? startClock(set, running, now) : set;
}

/** The side whose time is up, or -1. */
export function flagged(c: ClockState, now: number): number {
  return c.running >= 0 && timeLeft(c, c.running, now) <= 0 ? c.running : -1;
}

/** As a clock shows it: `4:59`, `1:02:03`, and tenths under ten seconds (`9.4`). */
export function clockText(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A remaining time as PGN's `[%clk H:MM:SS]` writes it (whole seconds, rounded down). */
export function pgnClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Reads `H:MM:SS` (as `[%clk …]` holds it) into ms, or undefined. */
export function parsePgnClock(text: string): number | undefined {
  const m = /^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return undefined;
  return Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000);
}
