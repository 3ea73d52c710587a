/**
 * The options an engine declares in its `uci` handshake (`option name X type T …`), and the check
 * of a run's `option.X=Y` against them before the first game, as fastchess does: an option the
 * engine does not declare, or a value outside what it declares (a spin's range, a combo's vars, a
 * check's true/false), stops the run instead of playing a match the tester did not ask for.
 */
import type { DeclaredOption } from '../core/option-line';
import { didYouMean } from '../core/suggest';

export { parseOptionLine, type DeclaredOption } from '../core/option-line';

/**
 * Why `option.name=value` does not fit what the engine declared (undefined when it fits). `declared`
 * maps lower-case names to the declarations.
 */
export function checkOption(
  declared: ReadonlyMap<string, DeclaredOption>,
  name: string,
  value: string,
): string | undefined {
  const o = declared.get(name.toLowerCase());
  if (!o) {
    const names = [...declared.values()].map((d) => d.name);
    const hint = didYouMean(name, names);
    return `the engine has no option '${name}'${hint}${hint === '' && names.length > 0 ? ` (it declares ${names.join(', ')})` : ''}`;
  }
  switch (o.type) {
    case 'spin': {
      const n = Number(value);
      if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
        return `option '${o.name}' takes a whole number, not '${value}'`;
      if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) {
        return `option '${o.name}' must be from ${o.min ?? '-inf'} to ${o.max ?? 'inf'}, not ${n}`;
      }
      return undefined;
    }
    case 'check':
      return value === 'true' || value === 'false'
        ? undefined
        : `option '${o.name}' takes true or false, not '${value}'`;
    case 'combo':
      if (o.vars.length > 0 && !o.vars.some((v) => v.toLowerCase() === value.toLowerCase())) {
        return `option '${o.name}' must be one of ${o.vars.join(', ')}, not '${value}'`;
      }
      return undefined;
    default:
      return undefined;
  }
}
