/**
 * What `thoth match` checks and sets for engines of other protocols (docs/match.md, "Other
 * engines"), apart from config.ts: the limits each protocol can carry, and the draw rules of its
 * engines, which the referee applies too.
 */
import type { EditionId } from '../core/editions';
import { type ForeignProtocol, PROTOCOLS } from '../foreign/foreign';
import type { MatchConfig } from './config';
import { MatchConfigError } from './errors';
import type { EngineLimits } from './timecontrol';

/** The limits a protocol takes, as the flags name them. */
function limitWords(proto: ForeignProtocol): string {
  const words = { tc: 'tc=', movetime: 'st=', depth: 'depth=', nodes: 'nodes=' };
  return PROTOCOLS[proto].limits.map((k) => words[k]).join(', ');
}

/** An engine of another protocol: limits its `go` can carry, Khet 2.0, no pondering; else a MatchConfigError. */
export function checkForeignEngine(
  where: string,
  proto: ForeignProtocol,
  limits: EngineLimits,
  variant: EditionId,
  ponder: boolean,
): void {
  const info = PROTOCOLS[proto];
  const used: [keyof EngineLimits, string, 'tc' | 'movetime' | 'depth' | 'nodes'][] = [
    ['tc', 'tc=', 'tc'],
    ['movetimeMs', 'st=', 'movetime'],
    ['depth', 'depth=', 'depth'],
    ['nodes', 'nodes=', 'nodes'],
  ];
  for (const [k, flag, kind] of used) {
    if (limits[k] !== undefined && !info.limits.includes(kind))
      throw new MatchConfigError(`${where}: ${info.label} engines take no ${flag} (they take ${limitWords(proto)})`);
  }
  if (variant !== 'khet2')
    throw new MatchConfigError(`${where}: ${info.label} engines play Khet 2.0 only, not ${variant}`);
  if (ponder) throw new MatchConfigError(`${where}: ${info.label} engines do not ponder (ponder=true)`);
}

/**
 * The draw rules of other engines' protocols (foreign/protocols.ts): an engine that sees the game
 * as drawn makes no move, so the referee draws it first (docs/match.md, "Other engines").
 */
export function applyProtocolDraws(cfg: MatchConfig): void {
  for (const e of cfg.engines) {
    if (e.proto === undefined) continue;
    const { label, draws } = PROTOCOLS[e.proto];
    const n = draws.noRemovalLimit;
    if (n !== undefined && (cfg.noRemovalLimit === 0 || cfg.noRemovalLimit > n)) {
      cfg.notes.push(`the no-removal draw is set to ${n} plies, the rule of ${label} engines (${e.name})`);
      cfg.noRemovalLimit = n;
    }
    const p = draws.plyLimit;
    if (p !== undefined && (cfg.plyLimit === undefined || cfg.plyLimit > p)) {
      cfg.notes.push(`a game is drawn after ${p} plies, the rule of ${label} engines (${e.name})`);
      cfg.plyLimit = p;
    }
  }
}
