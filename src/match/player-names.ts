/** The players' names of a run: name= or the engine's id name, made unique; and -anchor among them. */
import type { MatchConfig } from './config';
import { MatchConfigError } from './errors';

/** Engine names: name= or the engine's id name (from `idNames`), made unique; written into the specs. */
export function settleNames(cfg: MatchConfig, idNames: readonly (string | undefined)[]): string[] {
  const names: string[] = [];
  cfg.engines.forEach((spec, i) => {
    const base = spec.nameGiven ? spec.name : (idNames[i] ?? spec.name);
    let name = base;
    for (let k = 2; names.includes(name); k++) name = `${base}-${k}`;
    names.push(name);
    spec.name = name;
  });
  return names;
}

/** The index of -anchor among the names (0 without it); a MatchConfigError when no engine has that name. */
export function anchorIndex(cfg: MatchConfig, names: readonly string[]): number {
  if (cfg.anchor === undefined) return 0;
  const i = names.indexOf(cfg.anchor);
  if (i < 0) throw new MatchConfigError(`-anchor ${cfg.anchor}: no engine has that name (${names.join(', ')})`);
  return i;
}
