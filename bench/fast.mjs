#!/usr/bin/env node
// Short searches as a referee sees them: for each `go movetime T`, the wall time from writing
// `go` to reading `bestmove` (over the engine's stdin/stdout), the depth reached and the nodes
// searched, over positions from match openings, on a warm engine (one process per build and
// thread count, every position in turn) and on fresh ones (a new process per search: its first
// search after `uci` + `isready`). Several builds are measured side by side in one run: each
// position is searched by every build in turn (the order alternating), so that all meet the same
// load. Reported, never asserted.
//
//   node bench/fast.mjs [--engine CLI.js]... [--positions 200] [--fresh 20] [--movetimes 10,30,100,300]
//                       [--threads 1,2] [--long 1000] [--plies 10] [--seed 46]
//
// --engine   a built cli.js (default: this tree's dist/cli.js); give it several times to compare
//            builds (e.g. an old commit built in /tmp: `git archive REV | tar -x -C DIR`, build there)
// --fresh N  searches on fresh engines per build, thread count and T (0: none)
// --long MS  a `go movetime MS` on each of the first 10 positions (warm, 1 thread): the nodes a
//            long search visits per 10 ms (its last info line's nps), against which the short
//            searches' nodes are put. A short search's nodes are all it searched (the engine's
//            `debug on` line 'search done: … N nodes'), the iteration cut short included; its
//            depth is that of the last completed iteration.
// Prints per build, threads, warm/fresh and T: the median, 90th percentile and maximum answer
// time, how many answers came more than 5 ms late, the median depth and nodes, and the nodes
// as a share of the long search's per T ms.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: node bench/fast.mjs [--engine CLI.js]... [--positions N] [--fresh N] [--movetimes T,…] [--threads N,…] [--long MS] [--plies P] [--seed S]';
const opts = {
  engine: [],
  positions: 200,
  fresh: 20,
  movetimes: [10, 30, 100, 300],
  threads: [1, 2],
  long: 1000,
  plies: 10,
  seed: 46,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = argv[i + 1];
  if (a === '-h' || a === '--help') {
    console.log(USAGE);
    process.exit(0);
  }
  const list = (s) => (s !== undefined && /^\d+(,\d+)*$/.test(s) ? s.split(',').map(Number) : null);
  if (a === '--engine' && v !== undefined) opts.engine.push(resolve(v));
  else if ((a === '--movetimes' || a === '--threads') && list(v)) opts[a.slice(2)] = list(v);
  else if (['--positions', '--fresh', '--long', '--plies', '--seed'].includes(a) && v !== undefined && /^\d+$/.test(v))
    opts[a.slice(2)] = Number(v);
  else {
    console.error(`fast: bad argument '${a}'\n${USAGE}`);
    process.exit(2);
  }
  i++;
}
if (opts.engine.length === 0) opts.engine.push(join(root, 'dist/cli.js'));
for (const e of opts.engine) {
  if (!existsSync(e)) {
    console.error(`fast: ${e} is missing (run 'node build.mjs' first)`);
    process.exit(2);
  }
}
const label = (cli) =>
  cli
    .replace(/\/dist\/cli\.js$/, '')
    .split('/')
    .pop();

const fens = execFileSync(
  process.execPath,
  [
    join(root, 'bin/thoth.js'),
    'genfens',
    String(opts.positions),
    '--plies',
    String(opts.plies),
    '--seed',
    String(opts.seed),
  ],
  {
    encoding: 'utf8',
  },
)
  .trim()
  .split('\n');

/** The engine as a child process: send lines, await the next line matching a pattern. */
function engine(cli) {
  const p = spawn(process.execPath, [cli], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  let waiter = null;
  const queue = [];
  p.stdout.setEncoding('utf8');
  p.stdout.on('data', (d) => {
    const now = performance.now();
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      queue.push({ text: buf.slice(0, i), at: now });
      buf = buf.slice(i + 1);
    }
    if (waiter) waiter();
  });
  const next = async (re) => {
    for (;;) {
      const k = queue.findIndex((l) => re.test(l.text));
      if (k >= 0) return { line: queue.splice(0, k + 1)[k], skipped: queue.splice(0, 0) };
      await new Promise((r) => (waiter = r));
    }
  };
  const e = {
    send: (s) => {
      p.stdin.write(s + '\n');
      return performance.now();
    },
    async start(threads) {
      e.send('uci');
      await next(/^uciok$/);
      if (threads > 1) e.send(`setoption name Threads value ${threads}`);
      e.send('debug on'); // its 'search done' line gives all the nodes, an iteration cut short included
      e.send('isready');
      await next(/^readyok$/);
    },
    /** One search: { ms, depth, nodes } as seen from here. */
    async go(fen, cmd) {
      e.send(`position kfen ${fen}`);
      const t0 = e.send(`go ${cmd}`);
      let depth = 0;
      let nodes = 0;
      let nps = 0;
      let all = 0;
      for (;;) {
        const k = await new Promise((r) => {
          const f = () => {
            const j = queue.findIndex((l) =>
              /^(info .*\bdepth \d+|info string debug: search done|bestmove )/.test(l.text),
            );
            if (j >= 0) r(queue.splice(0, j + 1)[j]);
            else waiter = f;
          };
          f();
        });
        if (k.text.startsWith('bestmove')) return { ms: k.at - t0, depth, nodes: all || nodes, nps };
        const done = /search done: \d+ ms, (\d+) nodes/.exec(k.text);
        if (done) {
          all = Number(done[1]);
          continue;
        }
        const d = /\bdepth (\d+)/.exec(k.text);
        const n = /\bnodes (\d+)/.exec(k.text);
        if (d && !/\bcurrmove\b/.test(k.text)) depth = Math.max(depth, Number(d[1]));
        if (n) nodes = Math.max(nodes, Number(n[1]));
        const v = /\bnps (\d+)/.exec(k.text);
        if (v) nps = Number(v[1]);
      }
    },
    quit: () =>
      new Promise((r) => {
        p.on('close', r);
        p.stdin.end('quit\n');
      }),
  };
  return e;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${fens.length} positions (genfens --plies ${opts.plies} --seed ${opts.seed}), ` +
    `movetimes ${opts.movetimes.join(',')}, threads ${opts.threads.join(',')}, fresh ${opts.fresh}`,
);
console.log(`builds: ${opts.engine.map((e) => `${label(e)} = ${e}`).join('; ')}`);

// nodes a long search visits per ms (warm, 1 thread, the first 10 positions)
const perMs = new Map();
if (opts.long > 0) {
  const es = opts.engine.map((cli) => engine(cli));
  for (const e of es) await e.start(1);
  const rates = es.map(() => []);
  for (let i = 0; i < Math.min(10, fens.length); i++) {
    for (let k = 0; k < es.length; k++) {
      const j = (k + i) % es.length;
      const r = await es[j].go(fens[i], `movetime ${opts.long}`);
      rates[j].push(r.nps / 1000); // the engine's own rate over its last iteration
    }
  }
  for (let k = 0; k < es.length; k++) {
    perMs.set(opts.engine[k], median(rates[k]));
    console.log(
      `${label(opts.engine[k])}: a long search (go movetime ${opts.long}) visits ${(median(rates[k]) * 10).toFixed(0)} nodes per 10 ms (median of ${rates[k].length})`,
    );
  }
  await Promise.all(es.map((e) => e.quit()));
}

const rows = [];
const record = (cli, threads, mode, t, r) => {
  const key = `${cli}|${threads}|${mode}|${t}`;
  let row = rows.find((x) => x.key === key);
  if (!row) rows.push((row = { key, cli, threads, mode, t, ms: [], depth: [], nodes: [] }));
  row.ms.push(r.ms);
  row.depth.push(r.depth);
  row.nodes.push(r.nodes);
};

for (const threads of opts.threads) {
  // warm: one engine per build, every position and T in turn
  const es = opts.engine.map((cli) => engine(cli));
  for (const e of es) await e.start(threads);
  for (let i = 0; i < fens.length; i++) {
    for (const t of opts.movetimes) {
      for (let k = 0; k < es.length; k++) {
        const j = (k + i) % es.length;
        record(opts.engine[j], threads, 'warm', t, await es[j].go(fens[i], `movetime ${t}`));
      }
    }
  }
  await Promise.all(es.map((e) => e.quit()));
  // fresh: a new engine per search
  for (let i = 0; i < opts.fresh; i++) {
    for (const t of opts.movetimes) {
      for (let k = 0; k < opts.engine.length; k++) {
        const j = (k + i) % opts.engine.length;
        const e = engine(opts.engine[j]);
        await e.start(threads);
        record(opts.engine[j], threads, 'fresh', t, await e.go(fens[i], `movetime ${t}`));
        await e.quit();
      }
    }
  }
}

console.log('\nbuild        thr  mode    T |  median    p90     max  late>5ms | depth  nodes  share of long');
for (const r of rows) {
  const late = r.ms.filter((x) => x > r.t + 5).length;
  const share = perMs.has(r.cli) ? `${((100 * median(r.nodes)) / (perMs.get(r.cli) * r.t)).toFixed(0)} %` : '';
  console.log(
    `${label(r.cli).padEnd(12)} ${String(r.threads).padStart(3)}  ${r.mode.padEnd(5)} ${String(r.t).padStart(4)} | ` +
      `${median(r.ms).toFixed(1).padStart(7)} ${quantile(r.ms, 0.9).toFixed(1).padStart(6)} ${Math.max(...r.ms)
        .toFixed(1)
        .padStart(7)}  ` +
      `${String(late).padStart(3)}/${String(r.ms.length).padEnd(4)} | ${String(median(r.depth)).padStart(5)} ${String(median(r.nodes)).padStart(6)}  ${share.padStart(6)}`,
  );
}
