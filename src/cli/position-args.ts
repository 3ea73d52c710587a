/** The position options shared by commands: --variant, --setup, --kfen, --moves, --pharaoh-rotation. */
import {
  SETUP_NAMES,
  formatKfenError,
  isEditionId,
  isMoveText,
  isSetupName,
  parseKfen,
  parseMove,
  parsePlayableKfen,
  setupKfen,
  setupNamesText,
  setupsOf,
  type EditionId,
  type Position,
} from '../core/index';
import { UsageError, type FlagSpec, type ParsedArgs } from './args';

/** A word written as a move (`e4d5`, `e4+`, `e4-`, `d1e2u`; `R`/`L` for rotations too), legal or not. */

export const VARIANT_OPTION: FlagSpec = {
  name: 'variant',
  value: 'khet2|khet1|deflexion',
  help: 'the edition',
  default: 'khet2',
};
const PHARAOH_ROTATION_OPTION: FlagSpec = {
  name: 'pharaoh-rotation',
  help: 'the literal rule: a Pharaoh may "rotate" (a move that changes nothing)',
};

export const POSITION_OPTIONS: FlagSpec[] = [
  VARIANT_OPTION,
  { name: 'setup', value: SETUP_NAMES.join('|'), help: 'the starting setup', default: 'classic' },
  { name: 'kfen', value: '"<kfen>"', help: 'start from this position instead of a setup' },
  {
    name: 'moves',
    value: 'm1 m2',
    multi: true,
    accepts: (w) => isMoveText(w),
    help: 'moves played from the start (rulebook notation: e4d5, e4+, d1e2u); the list ends at the next option or word that is not a move',
  },
  PHARAOH_ROTATION_OPTION,
];

/**
 * The position the options give. A KFEN must have both Pharaohs (a position for play), unless
 * `anyBoard` (perft's --allow-no-pharaoh: counting moves needs no game).
 */
export function positionFromArgs(args: ParsedArgs, pharaohRotation = false, anyBoard = false): Position {
  const variant = args.options.get('variant')?.[0] ?? 'khet2';
  if (!isEditionId(variant)) throw new UsageError(`unknown variant '${variant}' (khet2, khet1 or deflexion)`);
  const edition: EditionId = variant;
  const kfenArg = args.options.get('kfen')?.[0];
  const setup = args.options.get('setup')?.[0];
  if (kfenArg !== undefined && setup !== undefined) throw new UsageError('give --kfen or --setup, not both');
  let kfen: string;
  if (kfenArg !== undefined) {
    kfen = kfenArg;
  } else {
    const name = setup ?? 'classic';
    if (!isSetupName(name)) throw new UsageError(`unknown setup '${name}' (${setupNamesText()})`);
    const k = setupKfen(edition, name);
    if (k === undefined)
      throw new UsageError(`${variant} has no ${name} setup (it has ${setupsOf(edition).join(', ')})`);
    kfen = k;
  }
  const r = (anyBoard ? parseKfen : parsePlayableKfen)(kfen, edition, { pharaohRotation });
  if (!r.ok) throw new UsageError(`bad KFEN: ${formatKfenError(r.error)}`);
  const pos = r.value;
  for (const text of args.options.get('moves') ?? []) {
    if (pos.winner >= 0) throw new UsageError(`move '${text}': the game is already over`);
    const m = parseMove(pos, text);
    if (!m.ok) throw new UsageError(`bad move: ${m.error.message}`);
    pos.make(m.value);
  }
  return pos;
}
