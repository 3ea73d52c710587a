/**
 * An independent check of a puzzle file by a separate Thoth process (its own build, the shipped
 * network, the UKI protocol), deeper than the rules' search (src/puzzles/verify.ts: depth 7):
 * two lines (MultiPV 2) at the first solution move of every puzzle, to `--depth` (9) for defence
 * and material and 2N + 2 plies for a hit in N. It passes when
 *
 * - hit in N: the first line is the solution's move with a hit in N, the second no faster;
 * - defence: the first line is the solution's move, not lost and not worse than −250; the second
 *   is lost (a hit against the defender);
 * - material: the first line is the solution's move, ahead of the second by `--gap` (50: the rules
 *   ask 100 at depth 7; deeper, a clear lead must stay clear), neither a forced hit.
 *
 *   npx tsx tools/check-puzzles-engine.ts [--file puzzles/puzzles.json] [--depth 9] [--gap 50]
 *                                         [--engine "node dist/cli.js"] [--kinds defence,material,hit]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { helpIfAsked } from './help';

helpIfAsked(import.meta.url);
const argv = process.argv.slice(2);
const opt = (name: string, d: string): string => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : d;
};
const file = opt('--file', 'puzzles/puzzles.json');
const depth = Number(opt('--depth', '9'));
const gap = Number(opt('--gap', '50'));
const kinds = opt('--kinds', 'defence,material,hit').split(',');
const [cmd, ...cmdArgs] = opt('--engine', 'node dist/cli.js').split(' ');

interface P {
  id: string;
  variant: string;
  kfen: string;
  moves: string[];
  themes: string[];
}
const puzzles = (JSON.parse(readFileSync(file, 'utf8')) as P[]).filter((p) =>
  kinds.includes(p.themes[0].startsWith('hitIn') ? 'hit' : p.themes[0]),
);

const engine = spawn(cmd, cmdArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: engine.stdout });
let waiter: ((l: string) => void) | null = null;
const queue: string[] = [];
lines.on('line', (l) => {
  if (waiter) {
    const w = waiter;
    waiter = null;
    w(l);
  } else queue.push(l);
});
const next = (): Promise<string> =>
  queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((r) => (waiter = r));
const send = (s: string): void => {
  engine.stdin.write(s + '\n');
};
async function until(prefix: string): Promise<string[]> {
  const got: string[] = [];
  for (;;) {
    const l = await next();
    got.push(l);
    if (l.startsWith(prefix)) return got;
  }
}

type Score = { kind: 'cp' | 'mate'; value: number };
const worse = (s: Score): number =>
  s.kind === 'mate' ? (s.value > 0 ? 100000 - s.value : -100000 - s.value) : s.value;

async function main(): Promise<void> {
  send('uki');
  await until('ukiok');
  send('setoption name MultiPV value 2');
  send('setoption name Threads value 1');
  const failures: string[] = [];
  const t0 = Date.now();
  let variant = '';
  for (const p of puzzles) {
    if (p.variant !== variant) {
      send(`setoption name UCI_Variant value ${p.variant}`);
      variant = p.variant;
    }
    const n = p.themes[0].startsWith('hitIn') ? Number(p.themes[0].slice(5)) : 0;
    const d = n > 0 ? 2 * n + 2 : depth;
    send('ucinewgame');
    send(`position kfen ${p.kfen} moves ${p.moves[0]}`);
    send(`go depth ${d}`);
    const out = await until('bestmove');
    const best: Array<{ move: string; score: Score } | undefined> = [undefined, undefined];
    for (const l of out) {
      const m = /^info depth (\d+) .*multipv (\d) score (cp|mate) (-?\d+)(?! lowerbound| upperbound).* pv (\S+)/.exec(
        l,
      );
      if (m && Number(m[1]) === d)
        best[Number(m[2]) - 1] = { move: m[5], score: { kind: m[3] as 'cp' | 'mate', value: Number(m[4]) } };
    }
    const [a, b] = best;
    let why = '';
    if (!a || !b) why = 'no two lines at full depth';
    else if (a.move !== p.moves[1])
      why = `the engine plays ${a.move} (${a.score.kind} ${a.score.value}), not ${p.moves[1]}`;
    else if (n > 0) {
      if (a.score.kind !== 'mate' || a.score.value !== n)
        why = `score ${a.score.kind} ${a.score.value}, not a hit in ${n}`;
      else if (b.score.kind === 'mate' && b.score.value > 0 && b.score.value <= n) why = `${b.move} hits as fast`;
    } else if (p.themes[0] === 'defence') {
      if (worse(a.score) < -250) why = `the defender stays lost (${a.score.kind} ${a.score.value})`;
      else if (!(b.score.kind === 'mate' && b.score.value < 0))
        why = `${b.move} saves too (${b.score.kind} ${b.score.value})`;
    } else if (a.score.kind === 'mate' || b.score.kind === 'mate')
      why = `a forced hit in the lines (${b.move} ${b.score.kind} ${b.score.value})`;
    else if (a.score.value - b.score.value < gap) why = `best by ${a.score.value - b.score.value} only (${b.move})`;
    if (why) failures.push(`${p.id} ${p.themes[0]}: ${why}`);
  }
  send('quit');
  const c = new Map<string, number>();
  for (const p of puzzles) c.set(p.themes[0], (c.get(p.themes[0]) ?? 0) + 1);
  process.stdout.write(
    `checked ${puzzles.length} (${[...c]
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}) at depth ${depth} (hits: 2N + 2), ` +
      `${((Date.now() - t0) / 1000).toFixed(0)} s; ${failures.length} fail\n`,
  );
  for (const f of failures) process.stdout.write(`  ${f}\n`);
  process.exitCode = failures.length > 0 ? 1 : 0;
}
void main();
