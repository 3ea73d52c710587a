/** Shared helpers for the search tests (not a test file itself). */
import {
  MAX_MOVES,
  SETUPS,
  formatKfenError,
  mulberry32,
  parseKfen,
  toKfen,
  type EditionId,
  type Position,
  type SetupName,
} from '../../src/core/index';
import {
  DEFAULT_FEATURES,
  DEFAULT_LIMITS,
  Searcher,
  type SearchFeatures,
  type SearchLimits,
  type RootResult,
} from '../../src/search/search';
import { TranspositionTable } from '../../src/search/tt';

export const ALL_SETUPS: Array<{ edition: EditionId; setup: SetupName }> = (Object.keys(SETUPS) as EditionId[]).flatMap(
  (edition) => (Object.keys(SETUPS[edition]) as SetupName[]).map((setup) => ({ edition, setup })),
);

export function load(kfen: string, edition: EditionId = 'khet2'): Position {
  const r = parseKfen(kfen, edition);
  if (!r.ok) throw new Error(`test KFEN rejected: ${formatKfenError(r.error)}: ${kfen}`);
  return r.value;
}

export function moves(pos: Position): number[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = pos.generate(buf, 0);
  return Array.from(buf.subarray(0, n));
}

/** What a move's shot does: 1 hits the enemy Pharaoh, -1 hits one's own, 0 neither. */
export function outcome(pos: Position, m: number): number {
  const us = pos.side;
  pos.make(m);
  const w = pos.winner;
  pos.unmake();
  return w < 0 ? 0 : w === us ? 1 : -1;
}

export function winningMoves(pos: Position): number[] {
  return moves(pos).filter((m) => outcome(pos, m) === 1);
}

export function suicidalMoves(pos: Position): number[] {
  return moves(pos).filter((m) => outcome(pos, m) === -1);
}

/**
 * Positions met in seeded random games from a setup (moves that hit a Pharaoh are not played, so
 * the games go on) for which `keep` is true, as fresh positions parsed from their KFEN.
 */
export function collectPositions(
  edition: EditionId,
  setup: SetupName,
  seed: number,
  count: number,
  keep: (pos: Position) => boolean,
  maxGames = 200,
): Position[] {
  const rand = mulberry32(seed);
  const out: Position[] = [];
  const seen = new Set<string>();
  for (let g = 0; g < maxGames && out.length < count; g++) {
    const pos = load(SETUPS[edition][setup]!, edition);
    for (let ply = 0; ply < 150 && out.length < count; ply++) {
      if (ply >= 2 && keep(pos)) {
        const f = toKfen(pos).split(' ');
        f[2] = '0'; // no draw rule in the way
        const k = f.join(' ');
        if (!seen.has(k)) {
          seen.add(k);
          out.push(load(k, edition));
          // one position per game is enough variety
          break;
        }
      }
      const quiet = moves(pos).filter((m) => outcome(pos, m) === 0);
      if (quiet.length === 0) break;
      pos.make(quiet[(rand() >>> 0) % quiet.length]);
    }
  }
  return out;
}

/** A fresh single-thread searcher (own table), as `bench` uses. */
export function search(
  pos: Position,
  limits: Partial<SearchLimits>,
  hashMb = 16,
  features: Partial<SearchFeatures> = {},
): RootResult {
  const s = new Searcher(new TranspositionTable(hashMb));
  s.features = { ...DEFAULT_FEATURES, ...features };
  return s.run(pos, { ...DEFAULT_LIMITS, ...limits });
}

export function describePos(pos: Position): string {
  return `${pos.edition.id} ${toKfen(pos)}`;
}
