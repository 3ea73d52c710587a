/**
 * Openings for matches: a named setup followed by N random plies, or lines of a KFEN file.
 *
 * Random plies avoid moves whose shot removes a piece (when another move exists) and never end the
 * game, and a start is accepted only when it is not already lost: the game is not over and
 * neither side can hit the opposing Pharaoh with its next move. Everything is derived from a seed,
 * so a run (and `-resume`) sees the same openings every time.
 */
import { basename } from 'node:path';
import {
  DEFAULT_DRAW_RULES,
  formatKfenError,
  gameStatus,
  parseKfen,
  parsePlayableKfen,
  setupKfen,
  setupsOf,
  toKfen,
  type DrawRules,
  type EditionId,
  type Position,
  type SetupName,
} from '../core/index';
import { makeRng, randomOpening, itemSeed } from '../core/opening';
import { err, ok, type Result } from '../core/result';
import { readRecordFile } from '../process/files';
import { MatchConfigError } from './errors';

/** The start position of a named setup (not every edition has every setup). */
export function setupPosition(edition: EditionId, setup: SetupName): Result<Position, MatchConfigError> {
  const kfen = setupKfen(edition, setup);
  if (kfen === undefined)
    return err(new MatchConfigError(`${edition} has no ${setup} setup (it has ${setupsOf(edition).join(', ')})`));
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error(`bad built-in setup ${edition}/${setup}`);
  return ok(r.value);
}

/** The start positions of setups, or the first that the edition lacks. */
function setupPositions(edition: EditionId, setups: readonly SetupName[]): Result<Position[], MatchConfigError> {
  const out: Position[] = [];
  for (const s of setups) {
    const p = setupPosition(edition, s);
    if (!p.ok) return p;
    out.push(p.value);
  }
  return ok(out);
}

/**
 * Reads the KFEN lines of a file (blank lines, `#` comments and `info string genfens ` prefixes
 * skipped). A line whose game is over under the match's draw rules is refused (a position 100
 * plies without a removal is over only while the no-removal rule is on).
 */
export function readOpeningFile(
  path: string,
  edition: EditionId,
  rules: DrawRules = DEFAULT_DRAW_RULES,
): Result<string[], MatchConfigError> {
  const bad = (message: string): { ok: false; error: MatchConfigError } => err(new MatchConfigError(message));
  // As a record file: up to its size limit, and never a device or binary data (`/dev/zero`).
  const read = readRecordFile(path, 'openings file');
  if (!read.ok) return bad(read.error);
  const text = read.value;
  const out: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    line = line
      .replace(/^info string genfens\s+/, '')
      .replace(/;.*$/, '')
      .trim();
    const r = parsePlayableKfen(line, edition);
    if (!r.ok) return bad(`openings file '${path}' line ${i + 1}: bad KFEN: ${formatKfenError(r.error)}`);
    if (gameStatus(r.value, rules).result !== 'ongoing')
      return bad(`openings file '${path}' line ${i + 1}: the game is already over`);
    out.push(toKfen(r.value));
  }
  if (out.length === 0) return bad(`openings file '${path}' holds no KFEN lines`);
  return ok(out);
}

export type OpeningSource =
  | { kind: 'setups'; setups: SetupName[]; plies: number }
  | { kind: 'file'; path: string; order: 'random' | 'sequential'; start: number; plies: number };

export interface Opening {
  kfen: string;
  /** Where it came from, for the record's Opening tag. */
  label: string;
}

/** Openings by index, deterministic for a source and a seed. */
export class OpeningBook {
  private readonly perm: number[];
  private readonly cache = new Map<number, Opening>();

  /** The book of a source: its file read and checked, or its setups checked against the edition. */
  static open(
    source: OpeningSource,
    edition: EditionId,
    seed: number,
    rules: DrawRules = DEFAULT_DRAW_RULES,
  ): Result<OpeningBook, MatchConfigError> {
    if (source.kind === 'setups') {
      const bases = setupPositions(edition, source.setups);
      return bases.ok ? ok(new OpeningBook(source, edition, seed, [], bases.value)) : bases;
    }
    const lines = readOpeningFile(source.path, edition, rules);
    return lines.ok ? ok(new OpeningBook(source, edition, seed, lines.value, [])) : lines;
  }

  private constructor(
    readonly source: OpeningSource,
    readonly edition: EditionId,
    readonly seed: number,
    private readonly lines: string[],
    /** The setups' start positions, for a `setups` source. */
    private readonly bases: Position[],
  ) {
    this.perm = lines.map((_, i) => i);
    if (source.kind === 'file' && source.order === 'random') {
      const rng = makeRng(itemSeed(seed, -1));
      for (let i = this.perm.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [this.perm[i], this.perm[j]] = [this.perm[j], this.perm[i]];
      }
    }
  }

  get(index: number): Opening {
    const hit = this.cache.get(index);
    if (hit) return hit;
    const op = this.make(index);
    this.cache.set(index, op);
    if (this.cache.size > 4096) this.cache.delete(this.cache.keys().next().value as number);
    return op;
  }

  private make(index: number): Opening {
    const src = this.source;
    const rng = makeRng(itemSeed(this.seed, index));
    let base: Position;
    let label: string;
    if (src.kind === 'setups') {
      const k = index % src.setups.length;
      base = this.bases[k].clone();
      label = src.setups[k];
    } else {
      const k = this.perm[(src.start - 1 + index) % this.perm.length];
      const r = parseKfen(this.lines[k], this.edition);
      if (!r.ok) throw new Error('unreachable: validated opening');
      base = r.value;
      label = `${basename(src.path)}#${k + 1}`;
    }
    if (src.plies <= 0) return { kfen: toKfen(base), label };
    const o = randomOpening(rng, base, src.plies);
    if (!o) return { kfen: toKfen(base), label };
    return { kfen: toKfen(o.position), label: `${label} +${src.plies} plies: ${o.moves.join(' ')}` };
  }
}

export interface GenfensOptions {
  seed: number;
  plies: number;
  edition: EditionId;
  setups: SetupName[];
  /** Hears of the lines made so far, now and then. */
  onProgress?: (done: number, n: number) => void;
}

/**
 * `n` distinct openings (setups in turn, random plies, filtered), as KFEN lines; an error when
 * 1000 tries in a row find no new one (with few plies there are only so many).
 */
/** Tries in a row without a new opening after which genfens gives up. */
const GENFENS_TRIES = 1000;

export function genfens(n: number, o: GenfensOptions): Result<string[], MatchConfigError> {
  const rng = makeRng(o.seed);
  const positions = setupPositions(o.edition, o.setups);
  if (!positions.ok) return positions;
  const bases = positions.value;
  const seen = new Set<string>();
  const out: string[] = [];
  let misses = 0;
  while (out.length < n) {
    const base = bases[out.length % bases.length];
    const r = randomOpening(rng, base, o.plies);
    const kfen = r ? toKfen(r.position) : toKfen(base);
    if (seen.has(kfen)) {
      if (++misses >= GENFENS_TRIES) {
        return err(
          new MatchConfigError(
            `found only ${out.length} distinct openings of the ${n} asked for (${o.plies} random plies from ${o.setups.join(', ')}; ` +
              `${GENFENS_TRIES} tries in a row gave none new): ask for fewer, or give more plies or setups`,
          ),
        );
      }
      continue;
    }
    misses = 0;
    seen.add(kfen);
    out.push(kfen);
    if (o.onProgress && out.length % 1000 === 0) o.onProgress(out.length, n);
  }
  return ok(out);
}
