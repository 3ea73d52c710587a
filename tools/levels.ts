/**
 * Calibrates the skill levels by matches: a chain of matches between neighbouring levels
 * (each level against the next stronger one), so that every match is close enough for its score
 * to mean something, then the Elo of each level by adding up the links, with full strength
 * (level 20) put at `--top` (2400). Prints each link and a LEVEL_ELO table for
 * src/search/skill.ts.
 *
 *   npx tsx tools/levels.ts [--levels 0,2,4,6,8,10,13,16,20] [--games 24] [--limit nodes=50000]
 *                           [--top 2400] [--engine "node dist/cli.js"] [--concurrency 2] [--srand N]
 *
 * Each match writes its JSON report (`-report json=FILE`, in a temporary folder); the link is read
 * from its final summary line. `--limit` is the match's limit per move (`nodes=N` does not depend on the machine's load,
 * `tc=2+0.02` does). A score of 0 or 1 is counted as half a game from it (the gap is then a
 * lower bound, shown with `≥`). A link at or below zero (noise between close levels) is counted as
 * +10, so that the table rises with the level. `--srand N` gives the matches another seed for
 * their openings (another run's games add to the first's instead of repeating its openings).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SummaryLine } from '../src/match/results/json-report';
import { helpIfAsked } from './help';

interface Args {
  levels: number[];
  games: number;
  limit: string;
  top: number;
  engine: string;
  concurrency: number;
  srand?: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    levels: [0, 2, 4, 6, 8, 10, 13, 16, 20],
    games: 24,
    limit: 'nodes=50000',
    top: 2400,
    engine: 'node dist/cli.js',
    concurrency: 2,
  };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    const v = argv[++i];
    if (v === undefined) fail(`${s} needs a value`);
    if (s === '--levels') a.levels = v.split(',').map(Number);
    else if (s === '--games') a.games = Number(v);
    else if (s === '--limit') a.limit = v;
    else if (s === '--top') a.top = Number(v);
    else if (s === '--engine') a.engine = v;
    else if (s === '--concurrency') a.concurrency = Number(v);
    else if (s === '--srand') a.srand = Number(v);
    else fail(`unknown argument ${s}`);
  }
  if (
    a.levels.length < 2 ||
    a.levels.some((l, i) => !Number.isInteger(l) || l < 0 || l > 20 || (i > 0 && l <= a.levels[i - 1]))
  ) {
    fail('--levels must be at least two increasing whole numbers from 0 to 20');
  }
  if (!Number.isInteger(a.games) || a.games < 2 || a.games % 2 !== 0)
    fail('--games must be an even number of at least 2');
  return a;
}

/** The last summary line of a `thoth match -report json=FILE` report (see src/match/results/json-report.ts). */
function finalSummary(file: string): SummaryLine | undefined {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const summaries = lines
    .map((l) => JSON.parse(l) as { type: string })
    .filter((x): x is SummaryLine => x.type === 'summary');
  return summaries.find((x) => x.final) ?? summaries[summaries.length - 1];
}

/** The smallest gap counted between neighbouring levels. */
const MIN_LINK = 10;

function fail(msg: string): never {
  process.stderr.write(`levels: ${msg}\n`);
  process.exit(2);
}

/** Elo difference for a score fraction; 0 and 1 are moved half a game inwards. */
export function eloOf(score: number, games: number): { elo: number; bound: boolean } {
  const lo = 0.5 / games;
  const bound = score <= lo || score >= 1 - lo;
  const s = Math.min(1 - lo, Math.max(lo, score));
  return { elo: -400 * Math.log10(1 / s - 1), bound };
}

function main(): void {
  helpIfAsked(import.meta.url);
  const a = parseArgs(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), 'thoth-levels-'));
  const links: Array<{ weak: number; strong: number; w: number; l: number; d: number; elo: number; bound: boolean }> =
    [];
  for (let i = 1; i < a.levels.length; i++) {
    const weak = a.levels[i - 1];
    const strong = a.levels[i];
    const args = [
      'bin/thoth.js',
      'match',
      '-engine',
      `cmd=${a.engine}`,
      `name=level${strong}`,
      `option.Skill Level=${strong}`,
      '-engine',
      `cmd=${a.engine}`,
      `name=level${weak}`,
      `option.Skill Level=${weak}`,
      '-each',
      a.limit,
      'option.Hash=16',
      '-openings',
      'setups=classic,imhotep,dynasty',
      'plies=4',
      '-rounds',
      String(a.games / 2),
      '-games',
      '2',
      '-concurrency',
      String(a.concurrency),
      ...(a.srand === undefined ? [] : ['-srand', String(a.srand)]),
    ];
    const report = join(tmp, `level${strong}-vs-level${weak}.jsonl`);
    const r = spawnSync('node', [...args, '-report', `json=${report}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) fail(`the match level ${strong} vs level ${weak} failed (exit code ${r.status}):\n${r.stderr}`);
    const last = finalSummary(report);
    if (!last) fail(`the match level ${strong} vs level ${weak} wrote no final summary to ${report}:\n${r.stderr}`);
    const { wins: w, losses: l, draws: d } = last.encounters[0];
    const n = w + l + d;
    const measured = eloOf((w + d / 2) / n, n);
    // the table must rise with the level (UCI_Elo interpolates in it)
    const elo = Math.max(MIN_LINK, measured.elo);
    links.push({ weak, strong, w, l, d, elo, bound: measured.bound });
    process.stdout.write(
      `level ${strong} vs level ${weak}: +${w} -${l} =${d}, ${measured.bound ? '≥ ' : ''}${measured.elo >= 0 ? '+' : ''}` +
        `${measured.elo.toFixed(0)} Elo${elo !== measured.elo ? ` (counted as +${MIN_LINK}: the table must rise)` : ''}\n`,
    );
  }
  // add up from the top
  const elo = new Map<number, number>([[a.levels[a.levels.length - 1], a.top]]);
  for (let i = links.length - 1; i >= 0; i--) elo.set(links[i].weak, elo.get(links[i].strong)! - links[i].elo);
  process.stdout.write('\nexport const LEVEL_ELO = [\n');
  for (const l of a.levels) process.stdout.write(`  [${l}, ${Math.round(elo.get(l)!)}],\n`);
  process.stdout.write('];\n');
}

main();
