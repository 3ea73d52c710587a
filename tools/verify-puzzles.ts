/**
 * Checks a puzzle file against the shipped rules (src/puzzles/verify.ts, docs/puzzles.md
 * "Verification"), prints the counts per theme before and after and why puzzles fail, and with
 * `--write` keeps only the puzzles that pass.
 *
 *   npx tsx tools/verify-puzzles.ts [--file puzzles/puzzles.json] [--write] [--ids id,id,…] [--net nets/default.nnue]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { formatPuzzleFile, parsePuzzleFile, type Puzzle } from '../src/puzzles/format';
import { puzzleTheme, PuzzleVerifier } from '../src/puzzles/verify';
import { readNetwork } from '../src/nnue/network';
import { helpIfAsked } from './help';

helpIfAsked(import.meta.url);
const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const file = opt('--file') ?? 'puzzles/puzzles.json';
const ids = opt('--ids')?.split(',');
const parsed = parsePuzzleFile(readFileSync(file, 'utf8'));
if (!parsed.ok) {
  process.stderr.write(`verify-puzzles: ${parsed.error}\n`);
  process.exit(2);
}
const all = ids ? parsed.value.filter((p) => ids.includes(p.id)) : parsed.value;
const count = (ps: Puzzle[]): string => {
  const c = new Map<string, number>();
  for (const p of ps) c.set(puzzleTheme(p), (c.get(puzzleTheme(p)) ?? 0) + 1);
  return `${ps.length} (${[...c]
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')})`;
};
const net = readNetwork(new Uint8Array(readFileSync(opt('--net') ?? 'nets/default.nnue')));
if (!net.ok) {
  process.stderr.write('verify-puzzles: the network does not load\n');
  process.exit(2);
}
const v = new PuzzleVerifier(net.value);
const kept: Puzzle[] = [];
const reasons = new Map<string, number>();
const t0 = Date.now();
for (const p of all) {
  const why = v.check(p);
  if (why === null) kept.push(p);
  else {
    const key = `${puzzleTheme(p)}: ${why.replace(/-?\d+/g, 'N')}`;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
    if (ids) process.stdout.write(`${p.id} ${puzzleTheme(p)}: ${why}\n`);
  }
}
process.stdout.write(`before: ${count(all)}\nafter:  ${count(kept)}\n`);
for (const [k, n] of [...reasons].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${n}\t${k}\n`);
process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
if (argv.includes('--write')) writeFileSync(file, formatPuzzleFile(kept));
