/**
 * `thoth genfens N [--seed S] [--plies P] [--variant V] [--setup S[,S…]] [--out FILE]`: N distinct
 * openings as KFEN lines (setups in turn, P random plies each, starts that are already lost left
 * out), for `thoth match -openings file=…`.
 */
import { setupsOf, isEditionId, isSetupName, type SetupName } from '../core/index';
import { writeFileSync } from 'node:fs';
import { genfens } from '../match/openings';
import { DEFAULT_SEED } from '../match/config';
import { UsageError, intOption, parseArgs } from './args';

export const GENFENS_USAGE =
  'thoth genfens <N> [--seed S] [--plies P] [--variant khet2|khet1|deflexion] [--setup classic,imhotep,dynasty|all] [--out FILE]';

export async function genfensCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, ['seed', 'plies', 'variant', 'setup', 'setups', 'out'], []);
  if (args.positional.length !== 1 || !/^\d+$/.test(args.positional[0])) throw new UsageError(`usage: ${GENFENS_USAGE}`);
  const n = Number(args.positional[0]);
  if (n < 1 || n > 10_000_000) throw new UsageError(`N must be from 1 to 10000000, not ${n}`);
  const variant = args.options.get('variant')?.[0] ?? 'khet2';
  if (!isEditionId(variant)) throw new UsageError(`unknown variant '${variant}' (khet2, khet1 or deflexion)`);
  const setupText = args.options.get('setup')?.[0] ?? args.options.get('setups')?.[0] ?? 'all';
  const setups = setupText === 'all' ? setupsOf(variant) : setupText.split(',').map((s) => s.trim());
  for (const s of setups) {
    if (!isSetupName(s)) throw new UsageError(`unknown setup '${s}' (classic, imhotep, dynasty or all)`);
  }
  const seed = intOption(args, 'seed', DEFAULT_SEED, 0, 4294967295);
  const plies = intOption(args, 'plies', 4, 0, 200);
  const made = genfens(n, { seed, plies, edition: variant, setups: setups as SetupName[] });
  if (!made.ok) throw new UsageError(made.error.message);
  const lines = made.value;
  const out = args.options.get('out')?.[0];
  if (out !== undefined) {
    writeFileSync(out, lines.join('\n') + '\n');
    write(`Wrote ${lines.length} openings to ${out}`);
  } else {
    for (const l of lines) write(l);
  }
}
