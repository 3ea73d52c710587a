/**
 * The starting positions of docs/rules.md §6, by edition and name, and two more Khet 2.0 setups
 * from ThinkFun's Laser Chess (the licensed Khet 2.0), which names five: Ace (= Classic),
 * Curiosity (= Imhotep), Grail (= Dynasty), Mercury and Sophie.
 *
 * Mercury and Sophie (376095a, 2026-12-03), what was verified (test/core/setups.test.ts checks each point):
 * - the primary public source is the Rust program aji/khet-table on GitHub (commit c4a748a,
 *   2026-04-19), file src/bb.rs, whose `Board::new_mercury()` and `Board::new_sophie()` write the
 *   two boards as text grids, as it does `new_dynasty()` and `new_imhotep()`. Read square by
 *   square (checked 2026-12-04), its Dynasty and Imhotep are docs/rules.md §6's exactly, its Sophie
 *   is this table's exactly (26 pieces and both Sphinxes), and its Mercury has every one of the 24
 *   other pieces on the same square turned the same way; only Mercury's Sphinxes differ (below);
 * - the piece lists of the request that added them agree with khet-table on every piece;
 * - point-symmetric: turning the board 180° maps each Red piece onto a Silver piece of the same
 *   kind with the piece turned 180° (a Scarab keeps its mirror), and back;
 * - 13 pieces a side (Sphinx, Pharaoh, 2 Anubis, 2 Scarabs, 7 Pyramids), every one on a square
 *   its colour may use (docs/rules.md §1: Silver never on file a, i1, i8; Red never on file j, b1, b8);
 * - the Sphinxes stand on a8 and j1 as in Classic. Sophie's fire S and N as in Classic. Mercury's
 *   fire E (Red) and W (Silver). khet-table (`*Xv` on a8, `X^` on j1, the same two tokens in all
 *   five of its boards; its grid reader keeps only the axis of a Sphinx, N-S or E-W) and the first
 *   piece list have them fire S and N; this table does not follow them there: facing N, Silver's
 *   beam meets the back of its own Pyramid on j3 (Red's on a6) and 64 of Silver's 68 first moves
 *   remove one of Silver's own pieces, so both sides' first move would be the forced turn of the
 *   Sphinx to W (E) that this table starts from; facing W, 16 do (Classic 8, Dynasty 14, Sophie 15);
 * - perft 1-3 (Mercury 68, 4,439, 290,283; Sophie 74, 5,320, 377,146) by this engine and by an
 *   independent move counter written from the rulebook alone.
 * They exist in Khet 2.0 only (Laser Chess has Sphinxes and Anubises).
 */
import type { EditionId } from './editions';

export type SetupName = 'classic' | 'imhotep' | 'dynasty' | 'mercury' | 'sophie';
export const SETUP_NAMES: readonly SetupName[] = ['classic', 'imhotep', 'dynasty', 'mercury', 'sophie'];
/** The setups of the Khet rulebooks (docs/rules.md §6), without Laser Chess's Mercury and Sophie. */
export const KHET_SETUP_NAMES: readonly SetupName[] = ['classic', 'imhotep', 'dynasty'];

/** Every edition has the classic setup; Deflexion has no Dynasty; only Khet 2.0 has Mercury and Sophie. */
export const SETUPS: Readonly<Record<EditionId, { readonly classic: string } & Partial<Record<SetupName, string>>>> = {
  khet2: {
    classic: 'xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1',
    imhotep: 'xv3avkavs>2/10/3P<2p^3/p^Pv2P>s>2p>P</p>P<2S>p<2p^Pv/3Pv2p>3/10/2S>A^KA^3X^ s 0 1',
    dynasty: 'xv3pvavp>3/5k4/p^3pvavs>3/p>1s^1P<1P>3/3p<1p>1S^1P</3S>A^P^3Pv/4K5/3P<A^P^3X^ s 0 1',
    mercury: 'x>3pvkp>2S>/5avp>3/p>2s>1av4/p^3P<3Pv1/1p^3p>3Pv/4A^1S>2P</3P<A^5/s>2P<KP^3X< s 0 1',
    sophie: 'xv3kP<p>3/3av1a>3Pv/p^3pvp>1S>1P</7s^2/2S^7/p>1s>1P<P^3Pv/p^3A<1A^3/3P<p>K3X^ s 0 1',
  },
  khet1: {
    classic: '4tktp>2/2pv7/3P<6/p^1Pv1d^d>1p>1P</p>1P<1D>D^1p^1Pv/6p>3/7P^2/2P<TKT4 s 0 1',
    imhotep: '4tktd>2/10/3P<2p^3/p^Pv2P>d>2p>P</p>P<2D>p<2p^Pv/3Pv2p>3/10/2D>TKT4 s 0 1',
    dynasty: '4pvtp>3/5k4/p^3pvtd>3/p>1d^1P<1P>3/3p<1p>1D^1P</3D>TP^3Pv/4K5/3P<TP^4 s 0 1',
  },
  deflexion: {
    classic: '4okop>2/2pv7/3P<6/p^1Pv1d^d>1p>1P</p>1P<1D>D^1p^1Pv/6p>3/7P^2/2P<OKO4 g 0 1',
    imhotep: '4okod>2/10/3P<2p^3/p^Pv2P>d>2p>P</p>P<2D>p<2p^Pv/3Pv2p>3/10/2D>OKO4 g 0 1',
  },
};

export function isSetupName(s: string): s is SetupName {
  return (SETUP_NAMES as readonly string[]).includes(s);
}

/** The setup names for a message: "classic, imhotep, dynasty, mercury or sophie" (with `last` for "or"). */
export function setupNamesText(last = 'or'): string {
  return `${SETUP_NAMES.slice(0, -1).join(', ')} ${last} ${SETUP_NAMES[SETUP_NAMES.length - 1]}`;
}

/** The KFEN of a setup, or undefined when the edition has no such setup. */
export function setupKfen(edition: EditionId, name: SetupName): string | undefined {
  return SETUPS[edition][name];
}

/** The setups that exist in an edition. */
export function setupsOf(edition: EditionId): SetupName[] {
  return SETUP_NAMES.filter((n) => SETUPS[edition][n] !== undefined);
}
