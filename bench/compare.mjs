#!/usr/bin/env node
// Runs `thoth bench` of this build and of another commit side by side, alternating, and prints
// the medians and their ratios. See bench/README.md ("Comparing two builds").
//
//   node bench/compare.mjs [--base REV] [--depth D] [--runs N] [--threads T] [--option NAME=VALUE]… [--keep]
//
// The other commit (default 0b53221, the build of 2026-11-30, before the speed work of 2026-12-01) is checked out
// into a scratch folder under the OS temp directory (git worktree), installed with `npm ci` and
// built; then both builds run `bench D` N times each in turn, A B A B …, so that a change in the
// machine's load hits both. Run `npm run build` first: this build is the one in dist/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: node bench/compare.mjs [--base REV] [--depth D] [--runs N] [--threads T] [--option NAME=VALUE]… [--keep]';

const opts = { base: '0b53221', depth: 6, runs: 3, threads: 1, keep: false, options: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => {
    const v = argv[++i];
    if (v === undefined) fail(`${a} needs a value`);
    return v;
  };
  const whole = (v, lo, hi) => {
    if (!/^\d+$/.test(v) || Number(v) < lo || Number(v) > hi)
      fail(`${a} must be a whole number from ${lo} to ${hi}, not '${v}'`);
    return Number(v);
  };
  if (a === '-h' || a === '--help') {
    process.stdout.write(
      `${USAGE}\n  --base REV   the other build (default 0b53221)\n  --depth D    bench depth (default 6: the signature bench; 12 for time to depth)\n  --runs N     runs of each build (default 3)\n  --threads T  bench threads (default 1)\n  --option NAME=VALUE  set an engine option of this build before its bench (setoption; repeatable)\n  --keep       keep the scratch checkout for the next run\n`,
    );
    process.exit(0);
  } else if (a === '--base') opts.base = value();
  else if (a === '--depth') opts.depth = whole(value(), 1, 30);
  else if (a === '--runs') opts.runs = whole(value(), 1, 99);
  else if (a === '--threads') opts.threads = whole(value(), 1, 64);
  else if (a === '--option') {
    const v = value();
    const eq = v.indexOf('=');
    if (eq <= 0 || eq === v.length - 1) fail(`--option needs NAME=VALUE, not '${v}'`);
    opts.options.push([v.slice(0, eq), v.slice(eq + 1)]);
  } else if (a === '--keep') opts.keep = true;
  else fail(`unknown argument '${a}'`);
}

function fail(msg) {
  process.stderr.write(`compare: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

const say = (s = '') => process.stdout.write(`${s}\n`);
const git = (...args) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();

if (!existsSync(path.join(ROOT, 'dist', 'cli.js'))) fail('no dist/cli.js: run `npm run build` first');
let sha;
try {
  sha = git('rev-parse', '--verify', `${opts.base}^{commit}`);
} catch {
  fail(`'${opts.base}' is not a commit of this repository`);
}
const scratch = path.join(os.tmpdir(), `thoth-compare-${sha.slice(0, 12)}`);

function prepare() {
  if (existsSync(path.join(scratch, 'dist', 'cli.js'))) return;
  say(`building ${sha.slice(0, 7)} in ${scratch} …`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(path.dirname(scratch), { recursive: true });
  git('worktree', 'prune');
  git('worktree', 'add', '--detach', '--force', scratch, sha);
  const run = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) {
      process.stderr.write(`compare: '${cmd} ${args.join(' ')}' failed in ${scratch}\n`);
      process.exit(1);
    }
  };
  run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts']);
  run('npm', ['run', 'build', '--silent']);
}

/** One `bench` run: { nodes, ms, nps }; `options` ([name, value] pairs) are set first. */
function bench(dir, options) {
  // the exit hook reports the process's CPU time: on a busy machine, nodes per CPU second are
  // steadier than nodes per wall-clock second
  const args = ['--require', path.join(ROOT, 'bench', 'cpu-usage.cjs'), path.join(dir, 'dist', 'cli.js')];
  for (const [name, value] of options) args.push(`setoption name ${name} value ${value}`);
  args.push(`bench ${opts.depth}${opts.threads > 1 ? ` ${opts.threads}` : ''}`);
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  const grab = (label) => {
    const m = new RegExp(`^${label}\\s*:\\s*(\\d+)`, 'm').exec(r.stdout ?? '');
    return m ? Number(m[1]) : NaN;
  };
  const out = { nodes: grab('Nodes searched'), ms: grab('Total time \\(ms\\)'), nps: grab('Nodes/second') };
  const cpu = /THOTH-BENCH-CPU (\d+) (\d+)/.exec(r.stderr ?? '');
  out.cpuMs = cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) / 1000) : NaN;
  out.cpuNps = Math.round((out.nodes * 1000) / out.cpuMs);
  if (r.status !== 0 || Number.isNaN(out.nodes)) {
    process.stderr.write(
      `compare: bench failed in ${dir}\n${r.stderr ?? ''}${(r.stdout ?? '')
        .split('\n')
        .filter((l) => l.startsWith('info string error'))
        .join('\n')}\n`,
    );
    process.exit(1);
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 === 1 ? s[k] : (s[k - 1] + s[k]) / 2;
};

prepare();
const here =
  git('rev-parse', '--short', 'HEAD') + (git('status', '--porcelain', '--untracked-files=no') ? '+changes' : '');
say(
  `bench depth ${opts.depth}, ${opts.threads} thread(s), ${opts.runs} runs each, alternating; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
if (opts.options.length > 0) say(`this build with ${opts.options.map(([n, v]) => `${n}=${v}`).join(', ')}`);
const builds = [
  { name: `this build (${here})`, dir: ROOT, runs: [], options: opts.options },
  { name: `base (${sha.slice(0, 7)})`, dir: scratch, runs: [], options: [] },
];
for (let i = 0; i < opts.runs; i++) {
  for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
    const r = bench(b.dir, b.options);
    b.runs.push(r);
    say(
      `  run ${i + 1}  ${b.name.padEnd(28)} nodes ${String(r.nodes).padStart(10)}  time ${String(r.ms).padStart(7)} ms  ${String(r.nps).padStart(9)} nodes/s  (CPU ${r.cpuMs} ms, ${r.cpuNps} nodes per CPU second)`,
    );
  }
}
say();
const [a, b] = builds.map((x) => ({
  ms: median(x.runs.map((r) => r.ms)),
  nps: median(x.runs.map((r) => r.nps)),
  nodes: x.runs[0].nodes,
  cpuMs: median(x.runs.map((r) => r.cpuMs)),
  cpuNps: median(x.runs.map((r) => r.cpuNps)),
}));
say(
  `median  ${builds[0].name.padEnd(28)} nodes ${a.nodes}  time ${a.ms} ms  ${a.nps} nodes/s  (CPU ${a.cpuMs} ms, ${a.cpuNps} nodes per CPU second)`,
);
say(
  `median  ${builds[1].name.padEnd(28)} nodes ${b.nodes}  time ${b.ms} ms  ${b.nps} nodes/s  (CPU ${b.cpuMs} ms, ${b.cpuNps} nodes per CPU second)`,
);
say(`ratio   nodes/second ${(a.nps / b.nps).toFixed(2)}x   time ${(b.ms / a.ms).toFixed(2)}x faster`);
say(
  `ratio   by CPU time: nodes per CPU second ${(a.cpuNps / b.cpuNps).toFixed(2)}x   CPU time ${(b.cpuMs / a.cpuMs).toFixed(2)}x less`,
);
if (!opts.keep) {
  try {
    git('worktree', 'remove', '--force', scratch);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
}
