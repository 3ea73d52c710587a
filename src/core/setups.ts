/** The starting positions of the rulebook §6, by edition and name. */
import type { EditionId } from './editions';

export type SetupName = 'classic' | 'imhotep' | 'dynasty';
export const SETUP_NAMES: readonly SetupName[] = ['classic', 'imhotep', 'dynasty'];

/** Every edition has the classic setup; Deflexion has no Dynasty. */
export const SETUPS: Readonly<Record<EditionId, { readonly classic: string } & Partial<Record<SetupName, string>>>> = {
  khet2: {
    classic: 'xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1',
    imhotep: 'xv3avkavs>2/10/3P<2p^3/p^Pv2P>s>2p>P</p>P<2S>p<2p^Pv/3Pv2p>3/10/2S>A^KA^3X^ s 0 1',
    dynasty: 'xv3pvavp>3/5k4/p^3pvavs>3/p>1s^1P<1P>3/3p<1p>1S^1P</3S>A^P^3Pv/4K5/3P<A^P^3X^ s 0 1',
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
  return s === 'classic' || s === 'imhotep' || s === 'dynasty';
}

/** The KFEN of a setup, or undefined when the edition has no such setup. */
export function setupKfen(edition: EditionId, name: SetupName): string | undefined {
  return SETUPS[edition][name];
}

/** The setups that exist in an edition. */
export function setupsOf(edition: EditionId): SetupName[] {
  return SETUP_NAMES.filter((n) => SETUPS[edition][n] !== undefined);
}
