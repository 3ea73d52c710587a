/**
 * Thoth's strength as a player picks it: Level 1 to 8, like lichess's levels. Thoth's levels 1–7
 * are skill levels picked from its measured table (`THOTH_LADDER`), each a clear step above the
 * one before, and level 8 is full strength. Another engine that offers
 * `UCI_LimitStrength`/`UCI_Elo` gets Elo ratings spread over its range; an engine without them
 * plays levels 1–7 at a fixed depth. The Elo levels and level 8 play on the game's clock when
 * there is one.
 */
import { LEVEL_COUNT } from '../state/state-types';

export interface Level {
  /** 1–8. */
  n: number;
  label: string;
  /** `UCI_Elo` of a limited level; undefined at full strength or without the option. */
  elo?: number;
  /** The fixed depth of a level for an engine without `UCI_Elo`. */
  depth?: number;
}

/** Thinking time a move gets without a clock (weak levels stop earlier: they search shallow). */
export const MOVETIME_WITHOUT_CLOCK = 2000;

/**
 * Thoth's levels 1–7: the `UCI_Elo` of skill levels 0, 1, 2, 4, 6, 8 and 16 in its table
 * (`LEVEL_ELO` of src/search/skill.ts, which the page cannot import; test/gui/levels.test.ts
 * holds the two together), so that each level is a skill of its own, at least 100 Elo above the
 * one before (docs/strength.md, "Levels"). Level 8 is full strength.
 */
export const THOTH_LADDER: readonly number[] = [808, 1000, 1131, 1445, 1684, 1944, 2147];
/** Thoth's full strength in its table: the top of its `UCI_Elo` range. */
export const THOTH_FULL_ELO = 2400;

/** True when the engine is Thoth with the table the ladder was picked from (its `UCI_Elo` range). */
export function hasThothLadder(name: string, elo: { min: number; max: number } | null): boolean {
  return /^Thoth\b/.test(name) && elo !== null && elo.min === THOTH_LADDER[0] && elo.max === THOTH_FULL_ELO;
}

export function levelsFor(elo: { min: number; max: number } | null, engineName = ''): Level[] {
  const out: Level[] = [];
  const ladder = hasThothLadder(engineName, elo);
  for (let n = 1; n < LEVEL_COUNT; n++) {
    if (elo) {
      const e = ladder
        ? THOTH_LADDER[n - 1]
        : Math.round((elo.min + ((elo.max - elo.min) * (n - 1)) / (LEVEL_COUNT - 1)) / 10) * 10;
      out.push({ n, label: `Level ${n} · Elo ${e}`, elo: e });
    } else {
      out.push({ n, label: `Level ${n} · depth ${n}`, depth: n });
    }
  }
  out.push({ n: LEVEL_COUNT, label: `Level ${LEVEL_COUNT} · full strength${elo ? ` (Elo ${elo.max})` : ''}` });
  return out;
}

/**
 * Thoth as a record names the player at `level`: its name and the level in one pair of
 * parentheses (`Thoth 0.1.0 (Level 8 · full strength · Elo 2400)`), not the list's label inside
 * another pair.
 */
export function thothPlayerName(engineName: string, level: Level): string {
  return `${engineName || 'Thoth'} (${level.label.replace(/ \(([^()]*)\)$/, ' · $1')})`;
}

/** Level 8: no Elo limit, no fixed depth (it plays on every core). */
export const isFullStrength = (level: Level): boolean => level.elo === undefined && level.depth === undefined;

/** The options to set before Thoth's search at `level`. */
export function levelOptions(level: Level, hasLimitStrength: boolean): Record<string, string> {
  const o: Record<string, string> = { MultiPV: '1' };
  if (hasLimitStrength) o.UCI_LimitStrength = level.elo !== undefined ? 'true' : 'false';
  if (level.elo !== undefined) o.UCI_Elo = String(level.elo);
  return o;
}

/** The `go` command at `level`, with the clocks (ms left, increment) when the game has them. */
export function levelGoCommand(level: Level, clock: { left: [number, number]; incMs: number } | null): string {
  if (level.depth !== undefined) return `go depth ${level.depth}`;
  if (!clock) return `go movetime ${MOVETIME_WITHOUT_CLOCK}`;
  const ms = (t: number): number => Math.max(1, Math.round(t));
  return `go wtime ${ms(clock.left[0])} btime ${ms(clock.left[1])} winc ${clock.incMs} binc ${clock.incMs}`;
}
