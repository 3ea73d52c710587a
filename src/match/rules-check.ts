/**
 * The rules dialect of a run (docs/match.md, "Rules dialects and fingerprints"), settled before
 * its first game: every engine of another protocol is fingerprinted and its dialect printed; the
 * games are played under the dialect they all play (an engine of Thoth's protocol is set to it by
 * its options), or the run is refused, naming the first position and move where two engines'
 * rules part. A run of Thoth's protocol only, without `-rules`, is left as it was.
 */
import {
  THOTH_DIALECT,
  type Dialect,
  describeDialect,
  firstParting,
  formatDialect,
  samePlay,
  SETUPS,
} from '../core/index';
import type { ForeignProtocol } from '../foreign/foreign';
import type { MatchConfig } from './config';
import { MatchConfigError } from './errors';
import { FINGERPRINT_PROBES, fingerprint } from './fingerprint';

/** Positions where a switch shows, for naming where two dialects part when the start does not. */
function partingText(a: { name: string; d: Dialect }, b: { name: string; d: Dialect }, start: string): string {
  const p = firstParting(start, a.d, b.d, 2);
  if (p !== undefined) {
    const who = p.allowedBy === 0 ? a : b;
    const other = p.allowedBy === 0 ? b : a;
    const after = p.moves.length > 0 ? ` after ${p.moves.join(' ')}` : '';
    return `from ${start}${after}, ${who.name} may play ${p.move}, which ${other.name}'s rules do not allow`;
  }
  for (const probe of FINGERPRINT_PROBES) {
    if (probe.setupMoves !== undefined || a.d[probe.switch] === b.d[probe.switch]) continue;
    const q = firstParting(probe.kfen, a.d, b.d, 1);
    if (q === undefined) continue;
    const who = q.allowedBy === 0 ? a : b;
    const other = q.allowedBy === 0 ? b : a;
    return `in ${probe.kfen}, ${who.name} may play ${q.move}, which ${other.name}'s rules do not allow`;
  }
  return `${a.name} plays ${formatDialect(a.d)}, ${b.name} ${formatDialect(b.d)}`;
}

/**
 * Fingerprints the engines of other protocols and sets `cfg.rules`; throws MatchConfigError when
 * no dialect suits them all (or not the one `-rules` names).
 */
export async function settleRules(
  cfg: MatchConfig,
  write: (line: string) => void,
  openingKfen: string,
  signal?: AbortSignal,
): Promise<void> {
  const foreign = cfg.engines.filter((e): e is typeof e & { proto: ForeignProtocol } => e.proto !== undefined);
  if (foreign.length === 0) return;
  const found: { name: string; d: Dialect }[] = [];
  for (const spec of foreign) {
    const f = await fingerprint(spec, cfg.startTimeoutMs, signal);
    if (signal?.aborted) return;
    if (typeof f === 'string') throw new MatchConfigError(`engine ${spec.name} cannot be fingerprinted: ${f}`);
    write(`Rules of ${spec.name}: ${describeDialect(f.dialect)} (${f.evidence.join('; ')})`);
    found.push({ name: spec.name, d: f.dialect });
  }
  const start = openingKfen || SETUPS.khet2.classic;
  if (cfg.rules !== undefined) {
    const given = { name: `-rules ${formatDialect(cfg.rules)}`, d: cfg.rules };
    for (const f of found) {
      if (!samePlay(f.d, cfg.rules))
        throw new MatchConfigError(
          `engine ${f.name} does not play the rules of -rules: ${partingText(f, given, start)}`,
        );
    }
  } else {
    for (let i = 1; i < found.length; i++) {
      if (!samePlay(found[0].d, found[i].d))
        throw new MatchConfigError(
          `engines ${found[0].name} and ${found[i].name} play different rules: ${partingText(found[0], found[i], start)}`,
        );
    }
    const d: Dialect = { ...found[0].d };
    d.twoScarabRotations = found.some((f) => f.d.twoScarabRotations);
    d.turnedScarabs = false; // the board is sent, never a setup's name
    cfg.rules = d;
  }
  const rules = cfg.rules ?? THOTH_DIALECT;
  write(`Rules of the games: ${describeDialect(rules)} (${formatDialect(rules)})`);
}
