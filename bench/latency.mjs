// Latency of the built engine through its protocol, as a referee sees it (from writing a line to
// reading the answer). Reported, never asserted: the unit tests check behaviour only.
//   node bench/latency.mjs [--runs 7] [--threads 1] [--movetimes 50,100,200,500] [--overhead N]
// Prints, each as a median over the runs (with min and max):
//   stop latency        `stop` during `go infinite` → `bestmove`, also in the first search of a
//                       pool just rebuilt by a `Threads` change
//   first search        `ucinewgame` + `position` + `go movetime T` → `bestmove`, minus T (the
//                       first search of a game, on a fresh engine and after ucinewgame)
//   movetime overshoot  `go movetime T` → `bestmove`, minus T, for each T (over T is a loss on
//                       time at st=T/1000 without a time margin)
//   readyok latency     `isready` during a search → `readyok`
// Run `npm run build` first (it runs dist/cli.js).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli.js');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const runs = Number(arg('runs', 7));
const threads = Number(arg('threads', 1));
const movetimes = String(arg('movetimes', '50,100,200,500')).split(',').map(Number);
const overhead = arg('overhead', undefined);
if (
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(threads) ||
  threads < 1 ||
  movetimes.some((t) => !Number.isInteger(t) || t < 1)
) {
  console.error('usage: node bench/latency.mjs [--runs N] [--threads N] [--movetimes T1,T2,…] [--overhead MS]');
  process.exit(2);
}
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run 'npm run build' first`);
  process.exit(2);
}

/** The engine as a child process: send lines, await the next line matching a pattern. */
function engine() {
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
      if (k >= 0) return queue.splice(0, k + 1)[k];
      await new Promise((r) => (waiter = r));
    }
  };
  return {
    send: (s) => {
      p.stdin.write(s + '\n');
      return performance.now();
    },
    next,
    async ready() {
      this.send('isready');
      await next(/^readyok$/);
    },
    quit: () =>
      new Promise((r) => {
        p.on('close', r);
        p.stdin.end('quit\n');
      }),
  };
}

async function fresh() {
  const e = engine();
  if (threads > 1) e.send(`setoption name Threads value ${threads}`);
  if (overhead !== undefined) e.send(`setoption name Move Overhead value ${overhead}`);
  await e.ready();
  return e;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const show = (name, xs) =>
  console.log(
    `${name.padEnd(52)} median ${median(xs).toFixed(1).padStart(7)} ms   min ${Math.min(...xs)
      .toFixed(1)
      .padStart(7)}   max ${Math.max(...xs)
      .toFixed(1)
      .padStart(7)}   (${xs.length} runs)`,
  );

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${runs} runs, Threads ${threads}${overhead !== undefined ? `, Move Overhead ${overhead}` : ''}`,
);

const e = await fresh();
const stop = [];
const ready = [];
for (let i = 0; i < runs; i++) {
  e.send('position startpos');
  e.send('go infinite');
  await e.next(/^info depth 3 /);
  const r0 = e.send('isready');
  ready.push((await e.next(/^readyok$/)).at - r0);
  const t0 = e.send('stop');
  stop.push((await e.next(/^bestmove /)).at - t0);
}
show('stop → bestmove', stop);
show('isready during a search → readyok', ready);

// stop during the first search of a freshly built pool (each Threads change builds one)
const stopNewPool = [];
for (let i = 0; i < runs; i++) {
  e.send(`setoption name Threads value ${threads === 1 ? 2 : 1}`);
  e.send(`setoption name Threads value ${threads}`);
  e.send('position startpos');
  await e.ready();
  e.send('go infinite');
  await e.next(/^info depth 2 /);
  const t0 = e.send('stop');
  stopNewPool.push((await e.next(/^bestmove /)).at - t0);
}
show("stop → bestmove, a new pool's first search", stopNewPool);

// the first search of a game: a fresh engine's first, and the first after ucinewgame
const firstFresh = [];
const firstNew = [];
const T = 200;
for (let i = 0; i < runs; i++) {
  const f = await fresh();
  f.send('position startpos');
  const t0 = f.send(`go movetime ${T}`);
  firstFresh.push((await f.next(/^bestmove /)).at - t0 - T);
  await f.quit();
  e.send('ucinewgame');
  e.send('position startpos');
  const t1 = e.send(`go movetime ${T}`);
  firstNew.push((await e.next(/^bestmove /)).at - t1 - T);
}
show(`first search of a fresh engine (go movetime ${T}), over T`, firstFresh);
show(`first search after ucinewgame (go movetime ${T}), over T`, firstNew);

for (const t of movetimes) {
  const over = [];
  for (let i = 0; i < runs; i++) {
    e.send(`position startpos${i % 2 ? ' moves c1d2' : ''}`);
    const t0 = e.send(`go movetime ${t}`);
    over.push((await e.next(/^bestmove /)).at - t0 - t);
  }
  show(`go movetime ${t}: over T`, over);
}
await e.quit();
