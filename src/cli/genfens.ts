/**
 * `thoth genfens N [--seed S] [--plies P] [--variant V] [--setup S[,S…]] [--out FILE]`: N distinct
 * openings as KFEN lines (setups in turn, P random plies each, starts that are already lost left
 * out), for `thoth match -openings file=…`.
 */
import { readFileSync } from 'node:fs';
import { SETUP_NAMES, setupsOf, isEditionId, isSetupName, mulberry32, type SetupName } from '../core/index';
import { DEFAULT_SEED } from '../match/config';
import { genfens } from '../match/openings';
import { checkWritable, writeFileAtomic } from '../process/files';
import { UsageError, fileErrorText, intOption, parseArgs, type CommandSpec } from './args';
import { VARIANT_OPTION } from './position-args';
import { ProgressLine } from './progress';

export const GENFENS_SPEC: CommandSpec = {
  name: 'genfens',
  positional: '<N>',
  summary:
    'Writes N distinct opening positions, one KFEN per line, for `thoth match -openings file=…`: the setups in turn, ' +
    'each followed by random plies; starts that are already lost are left out. The same seed gives the same lines.',
  options: [
    { name: 'seed', value: 'S', help: 'seed of the random plies', default: String(DEFAULT_SEED) },
    { name: 'plies', value: 'P', help: 'random plies after the setup', default: '4' },
    VARIANT_OPTION,
    { name: 'setup', value: `${SETUP_NAMES.join(',')}|all`, help: 'the setups to start from', default: 'all' },
    { name: 'out', value: 'FILE', help: 'write the lines to FILE instead of stdout (whole: never half a file)' },
  ],
  notes: [
    'On a terminal a progress line on stderr counts the lines made.',
    'When 1000 tries in a row find no new opening (too few plies or setups for N), it stops with a message: exit code 2.',
    'Example: thoth genfens 1000 --plies 6 --out book.kfen',
  ],
};

export async function genfensCommand(argv: string[], write: (s: string) => void): Promise<void> {
  // `--setups` is an alias that older scripts use.
  const args = parseArgs(
    argv.map((a) => (a === '--setups' ? '--setup' : a.replace(/^--setups=/, '--setup='))),
    GENFENS_SPEC,
  );
  if (args.positional.length !== 1 || !/^\d+$/.test(args.positional[0])) {
    throw new UsageError(
      `usage: thoth genfens <N> [options] (a number of openings${args.positional.length > 0 ? `, not '${args.positional.join(' ')}'` : ''}; thoth genfens --help)`,
    );
  }
  const n = Number(args.positional[0]);
  if (n < 1 || n > 10_000_000) throw new UsageError(`N must be from 1 to 10000000, not ${n}`);
  const variant = args.options.get('variant')?.[0] ?? 'khet2';
  if (!isEditionId(variant)) throw new UsageError(`unknown variant '${variant}' (khet2, khet1 or deflexion)`);
  const setupText = args.options.get('setup')?.[0] ?? 'all';
  const setups = setupText === 'all' ? setupsOf(variant) : setupText.split(',').map((s) => s.trim());
  for (const s of setups) {
    if (!isSetupName(s)) throw new UsageError(`unknown setup '${s}' (${SETUP_NAMES.join(', ')} or all)`);
  }
  const seed = intOption(args, 'seed', DEFAULT_SEED, 0, 4294967295);
  const plies = intOption(args, 'plies', 4, 0, 200);
  const out = args.options.get('out')?.[0];
  // The output file is tried before the work (without creating or emptying it), so that a bad path costs nothing.
  if (out !== undefined) {
    try {
      checkWritable(out);
    } catch (e) {
      throw new UsageError(`cannot write '${out}': ${fileErrorText(e)}`);
    }
  }
  const progress = new ProgressLine(process.stderr);
  let made;
  try {
    made = genfens(n, {
      seed,
      plies,
      edition: variant,
      setups: setups as SetupName[],
      onProgress: (k, total) => progress.show(`genfens: ${k}/${total} openings`),
    });
  } finally {
    progress.clear();
  }
  if (!made.ok) throw new UsageError(made.error.message);
  const lines = made.value;
  if (out !== undefined) {
    try {
      writeFileAtomic(out, lines.join('\n') + '\n');
    } catch (e) {
      throw new UsageError(`cannot write '${out}': ${fileErrorText(e)}`);
    }
    write(`Wrote ${lines.length} openings to ${out}`);
  } else {
    for (const l of lines) write(l);
  }
}

/**
 * OpenBench's call form, `thoth "genfens N seed S book None" quit` (docs/conventions.md, "Tournaments"):
 * N openings from seed S as `info string genfens <KFEN>` lines, made as `thoth genfens` makes them
 * (all setups, 4 random plies) or drawn from the book file (one KFEN per line) when one is named.
 */
export function openBenchGenfens(words: readonly string[], write: (s: string) => void): void {
  const usage = 'expected genfens <N> seed <S> book <None|FILE>';
  const n = words[1] !== undefined && /^\d+$/.test(words[1]) ? Number(words[1]) : NaN;
  if (!(n >= 1 && n <= 1_000_000)) throw new UsageError(`${usage}: N from 1 to 1000000, not '${words[1] ?? ''}'`);
  let seed = DEFAULT_SEED;
  let book: string | undefined;
  for (let i = 2; i < words.length; i += 2) {
    const [key, value] = [words[i], words[i + 1]];
    if (value === undefined) throw new UsageError(`${usage}: '${key}' needs a value`);
    if (key === 'seed' && /^\d+$/.test(value) && Number(value) <= 4294967295) seed = Number(value);
    else if (key === 'book') book = value === 'None' ? undefined : value;
    else throw new UsageError(`${usage}, not '${key} ${value}'`);
  }
  let lines: string[];
  if (book === undefined) {
    const made = genfens(n, { seed, plies: 4, edition: 'khet2', setups: setupsOf('khet2') });
    if (!made.ok) throw new UsageError(made.error.message);
    lines = made.value;
  } else {
    let text: string;
    try {
      text = readFileSync(book, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the book '${book}': ${fileErrorText(e)}`);
    }
    const all = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    if (all.length === 0) throw new UsageError(`the book '${book}' holds no position`);
    const rand = mulberry32(seed);
    lines = Array.from({ length: n }, () => all[Math.floor(((rand() >>> 0) / 4294967296) * all.length)]);
  }
  for (const l of lines) write(`info string genfens ${l}`);
}
