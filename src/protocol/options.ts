/** The engine's options: names, types, defaults and the `option` lines of the handshake. */
import { DEFAULT_FEATURES, type SearchFeatures } from '../search/search';
import { MAX_ELO, MIN_ELO } from '../search/skill';

/** The developer switches: option name → search feature, in the handshake's order. */
export const FEATURE_OPTIONS: Record<string, keyof SearchFeatures> = {
  LMR: 'lmr',
  Aspiration: 'aspiration',
  NullMove: 'nullMove',
  LMP: 'lmp',
  HistoryMalus: 'historyMalus',
  IIR: 'iir',
  LMRLog: 'lmrLog',
  CounterMove: 'counterMove',
};

export type OptionType = 'spin' | 'check' | 'combo' | 'button' | 'string';

export interface OptionSpec {
  name: string;
  type: OptionType;
  default?: string | number | boolean;
  min?: number;
  max?: number;
  vars?: string[];
}

import { availableParallelism } from 'node:os';

/** Threads: up to twice the machine's cores. */
export const MAX_THREADS = Math.max(2, availableParallelism() * 2);

export const OPTIONS: OptionSpec[] = [
  { name: 'Hash', type: 'spin', default: 16, min: 1, max: 8192 },
  { name: 'Clear Hash', type: 'button' },
  { name: 'Threads', type: 'spin', default: 1, min: 1, max: MAX_THREADS },
  { name: 'MultiPV', type: 'spin', default: 1, min: 1, max: 256 },
  { name: 'Ponder', type: 'check', default: false },
  { name: 'Move Overhead', type: 'spin', default: 10, min: 0, max: 5000 },
  { name: 'UCI_Variant', type: 'combo', default: 'khet2', vars: ['khet2', 'khet1', 'deflexion'] },
  { name: 'PharaohRotation', type: 'check', default: false },
  { name: 'NoRemovalDraw', type: 'spin', default: 100, min: 0, max: 100000 },
  { name: 'Skill Level', type: 'spin', default: 20, min: 0, max: 20 },
  { name: 'UCI_LimitStrength', type: 'check', default: false },
  { name: 'UCI_Elo', type: 'spin', default: MAX_ELO, min: MIN_ELO, max: MAX_ELO },
  { name: 'Random', type: 'check', default: false },
  // Developer switches, so that matches can measure each search feature (defaults: DEFAULT_FEATURES).
  ...Object.entries(FEATURE_OPTIONS).map(([name, f]): OptionSpec => ({ name, type: 'check', default: DEFAULT_FEATURES[f] })),
];

export function optionLine(o: OptionSpec): string {
  let s = `option name ${o.name} type ${o.type}`;
  if (o.default !== undefined) s += ` default ${String(o.default)}`;
  if (o.min !== undefined) s += ` min ${o.min}`;
  if (o.max !== undefined) s += ` max ${o.max}`;
  if (o.vars) for (const v of o.vars) s += ` var ${v}`;
  return s;
}

export function findOption(name: string): OptionSpec | undefined {
  const n = name.toLowerCase();
  return OPTIONS.find((o) => o.name.toLowerCase() === n);
}

/** Checks a value against an option; returns the normalised value or an error message. */
export function checkOptionValue(o: OptionSpec, value: string | undefined): { ok: true; value: string | number | boolean } | { ok: false; error: string } {
  switch (o.type) {
    case 'button':
      return { ok: true, value: true };
    case 'spin': {
      if (value === undefined || !/^-?\d+$/.test(value)) return { ok: false, error: `${o.name} needs a whole number, not '${value ?? ''}'` };
      const n = Number(value);
      if (n < (o.min ?? -Infinity) || n > (o.max ?? Infinity)) {
        return { ok: false, error: `${o.name} must be from ${o.min} to ${o.max}, not ${n}` };
      }
      return { ok: true, value: n };
    }
    case 'check': {
      const v = value?.toLowerCase();
      if (v !== 'true' && v !== 'false') return { ok: false, error: `${o.name} must be true or false, not '${value ?? ''}'` };
      return { ok: true, value: v === 'true' };
    }
    case 'combo': {
      const v = value?.toLowerCase();
      const hit = o.vars?.find((x) => x.toLowerCase() === v);
      if (!hit) return { ok: false, error: `${o.name} must be one of ${o.vars?.join(', ')}, not '${value ?? ''}'` };
      return { ok: true, value: hit };
    }
    default:
      return { ok: true, value: value ?? '' };
  }
}
