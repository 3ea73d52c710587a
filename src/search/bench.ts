/**
 * The deterministic `bench`: fixed positions, fixed depth, one thread, a fresh hash per run.
 * Its node count is the build's signature (quoted as `Bench: N` in commit messages).
 */
import {
  EDITION_IDS,
  KHET_SETUP_NAMES,
  formatMove,
  parseKfen,
  setupKfen,
  setupsOf,
  type EditionId,
} from '../core/index';
import { DEFAULT_FEATURES, DEFAULT_LIMITS, Searcher, type SearchFeatures } from './search';
import { TranspositionTable } from './tt';
import { DEFAULT_PARAMS, type SearchParams } from './params';
import type { Network } from '../nnue/network';

export const BENCH_DEPTH = 6;

export interface BenchPosition {
  edition: EditionId;
  kfen: string;
}

/**
 * The rulebook's eight setups (Classic, Imhotep and Dynasty of each edition that has them; the
 * later Laser Chess setups are left out so that the signature stays comparable), then middle games
 * and tactical positions.
 */
export const BENCH_POSITIONS: BenchPosition[] = [
  ...EDITION_IDS.flatMap((edition) =>
    KHET_SETUP_NAMES.filter((s) => setupsOf(edition).includes(s)).map((s) => ({
      edition,
      kfen: setupKfen(edition, s)!,
    })),
  ),
  // middle games (self-play from each setup)
  { edition: 'khet2', kfen: 'x>1pv1avkavp>2/10/3P<s>3P<1/p<p>P<1s^5/9Pv/5S>p^S^2/7P^2/2P<A^K1A^2X^ s 4 9' }, // classic
  { edition: 'khet2', kfen: 'xv1pv2kavp^2/4av5/4S>5/9P</p^1P<2A^S^1p>Pv/pv4s^p>3/7P^2/1KP<1s>A^3X^ s 17 16' }, // classic
  { edition: 'khet2', kfen: 'xv3avkavs>2/5p^4/3P<6/p^Pv6p>P</4S>1p<1p^Pv/p>1P<1P>5/2Ks>Pv2p>2/2S>A^1A^3X^ s 16 9' }, // imhotep
  { edition: 'khet2', kfen: 'xv2av2p^av2/6S>k2/3P<2s>1p>P</p^Pv1P>6/p>2p<4p>Pv/1P<1s>6/2PvKA^5/2S>A^3p>1X^ s 30 16' }, // imhotep
  { edition: 'khet2', kfen: 'xv3pvavp>3/5ks>3/p^3pvav4/p>1s^1P<1P>1P<1/3p^6/3S>A^P^S^1p>Pv/3P<KA^4/5P^3X^ s 16 9' }, // dynasty
  { edition: 'khet2', kfen: 'xv3p<avp>3/4pvks>3/2p<1P<S^1Pv2/7avP<1/6p>3/3S>A^P>P^2Pv/1s^P<1K5/4A<4X^ s 26 16' }, // dynasty
  { edition: 'khet1', kfen: '5ood>2/5oko2/4D>1p^p>2/p^8P</p>P<PvP>P<d>2p^Pv/3Pv1p^p>3/4OO4/2D>OKO4 s 16 9' }, // imhotep
  { edition: 'khet1', kfen: '4okod>2/5oo2Pv/1p^1PvD>2p>2/1P<3P^1p^1Pv/10/3P<1p<p>3/p^1D>1d^O4/4KO4 s 4 16' }, // imhotep
  { edition: 'khet1', kfen: '9D^/4pvk1p>2/p^1P<1p<od>3/pv3d^5/3p<1p>4/3D>TP^4/3KO3Pv1/3P<OP^4 s 3 9' }, // dynasty
  { edition: 'deflexion', kfen: '4oko3/2pv3p>3/1p^1P<1d>4/1P<Pv7/p^2d^D>5/4D^4Pv/7P^2/2P<1KO4 g 0 9' }, // classic
  { edition: 'deflexion', kfen: '4oko3/6p>P<2/p^1pvP<1D^p>3/10/2D>2d>4/1p^1P<6/4d>p^2p>Pv/2P<OKOP^3 g 24 16' }, // classic
  { edition: 'deflexion', kfen: '5koP>2/p^3d^od>3/4D>1p^3/p>PvP<5p>P</5p<2p^Pv/1P<4p>3/3D>Pv5/3OKO4 g 16 9' }, // imhotep
  { edition: 'deflexion', kfen: '3o1ko3/5p^4/1P<3pvd>1P<1/p^9/3P<D^3p>Pv/p>1P<d>P>2pvp^1/2PvKO5/2D>O6 g 30 16' }, // imhotep
  // tactical: the side to move has a shot that removes a piece
  { edition: 'khet2', kfen: 'xv1pv1avkavp>2/10/3P<s>3P<1/p<1Pv1s^5/p>1P<4p^2/5S>S^p>1Pv/7P^2/2P<A^K1A^2X^ s 7 6' }, // classic capture
  { edition: 'khet2', kfen: 'xvP<pv1avkavp>2/5s>4/1p>6P<1/p<1P<7/9Pv/5p^4/3P<A^S^S^3/3s^KA^P^2X^ r 21 17' }, // classic capture
  { edition: 'khet2', kfen: 'xv4kavp^2/2pv1av5/10/2P<S>s^1p^p>1P</p^6S^1Pv/p>4s>p>3/4A^2P^2/2P<1KA^3X^ s 8 7' }, // classic capture
  { edition: 'khet2', kfen: 'xv4kavs>2/5av4/9Pv/p^Pv3S^2p>1/6p<1p^1/p^1P<KP>3Pv1/1S>1s>Pv2p>2/3A^1A^3X^ s 1 16' }, // imhotep capture
  { edition: 'khet1', kfen: '4oktp>2/2pv1o5/3P<1D^4/2Pv2d>3P</1p>P<1D>3p>Pv/1d^2O1p>P^p^1/3P<OO4/2K2O4 r 21 12' }, // classic capture
  { edition: 'khet1', kfen: '4okod>2/5oo3/1p^1PvD>2p>Pv1/1P<3P^1p^1Pv/6p<3/p^2d>2p>3/3OPvO4/2D>OKO4 r 0 12' }, // imhotep capture
  { edition: 'khet1', kfen: '4pvt4/5k1p>2/p^3pvt4/pv1d^1P<d>P>1D^1/3p<1p>4/3D>TP^4/3K4Pv1/3P<TP^4 s 5 4' }, // dynasty capture
  { edition: 'khet1', kfen: '4pvo3D^/5k1p>2/p^3pvod>3/pv2d^P<1P>3/3p<1p>4/3D>TP^4/3K4Pv1/3P<TP^4 r 0 6' }, // dynasty capture
  { edition: 'khet1', kfen: '9D^/4pvk1p>2/p^3p<od>3/pvP<2d^5/3p<1p>4/3D>TP^4/3KO3Pv1/3P<OP^4 r 4 9' }, // dynasty capture
  { edition: 'khet1', kfen: '4pvtp>3/5kd>3/1p^2pvo3D^/4P<1P>3/d^2p<T5/3D>KP^p>3/8Pv1/3P<TP^4 r 0 6' }, // dynasty capture
  { edition: 'khet1', kfen: '4pvtp>3/5kd>3/1p^2pv4D^/2p<1P^1P>3/d^3O5/3D>KP^p>3/8Pv1/3P<TP^4 r 0 7' }, // dynasty capture
  { edition: 'deflexion', kfen: '4okop>2/2pv7/3P<6/p^1Pv1d^1d>p>2/p>1P<1D>D^p>2Pv/10/7P^2/2P<OKO4 g 1 4' }, // classic capture
];

/** One position searched: its place in the list, its edition, its nodes and its move. */
export interface BenchStep {
  /** 1 for the first position. */
  n: number;
  count: number;
  edition: EditionId;
  nodes: number;
  best: string;
}

export interface BenchResult {
  nodes: number;
  ms: number;
  nps: number;
}

/** Searches each position to `depth` on one thread, with the given search switches and parameters. */
export function runBench(
  depth: number,
  onStep: (step: BenchStep) => void,
  positions: BenchPosition[] = BENCH_POSITIONS,
  features: SearchFeatures = DEFAULT_FEATURES,
  network: Network | null = null,
  params: SearchParams = DEFAULT_PARAMS,
): BenchResult {
  let nodes = 0;
  const t0 = performance.now();
  // One table and one searcher, cleared before each position: the same search as a fresh pair,
  // without allocating (and faulting in) 16 MB per position.
  const searcher = new Searcher(new TranspositionTable(16));
  searcher.features = { ...features };
  searcher.params = { ...params };
  searcher.setNetwork(network);
  for (let i = 0; i < positions.length; i++) {
    const { edition, kfen } = positions[i];
    const r = parseKfen(kfen, edition);
    if (!r.ok) throw new Error(`bench position ${i + 1} is invalid: ${r.error.message}`);
    searcher.tt.clear();
    searcher.clearHistory();
    const res = searcher.run(r.value, { ...DEFAULT_LIMITS, depth });
    nodes += res.nodes;
    onStep({ n: i + 1, count: positions.length, edition, nodes: res.nodes, best: formatMove(res.best) });
  }
  const ms = Math.max(1, Math.round(performance.now() - t0));
  return { nodes, ms, nps: Math.round((nodes * 1000) / ms) };
}
