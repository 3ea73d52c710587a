// Parallel-search measurement: time to reach a fixed depth from 20 varied positions (the bench
// positions), with 1 thread and with N threads, through the built engine's protocol.
//   node bench/smp.mjs [--depth 8] [--threads 2] [--positions 20]
// Prints per-position times, the median and total speed-ups, and nodes per second per setting.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const depth = arg('depth', 8);
const threads = arg('threads', 2);
const count = arg('positions', 20);

// the bench positions and the info-line parser, from the source
const dir = mkdtempSync(join(tmpdir(), 'thoth-smp-'));
await build({
  stdin: {
    contents: "export { BENCH_POSITIONS } from './src/search/bench'; export { parseInfo } from './src/core/info';",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: join(dir, 'pos.mjs'),
  logLevel: 'warning',
});
const { BENCH_POSITIONS, parseInfo } = await import(join(dir, 'pos.mjs'));
rmSync(dir, { recursive: true, force: true });
// the middle games and tactical positions first, then setups, up to `count`
const positions = [...BENCH_POSITIONS.slice(8), ...BENCH_POSITIONS.slice(0, 8)].slice(0, count);

function engine() {
  const p = spawn(process.execPath, [join(root, 'dist/cli.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const waiters = [];
  const lines = [];
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters])
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  return {
    send: (s) => p.stdin.write(s + '\n'),
    wait: (re) => new Promise((resolve) => waiters.push({ re, resolve })),
    lines,
    quit: () => {
      p.stdin.end();
    },
  };
}

async function run(t) {
  const e = engine();
  e.send(`setoption name Threads value ${t}`);
  e.send('setoption name Hash value 64');
  e.send('isready');
  await e.wait(/^readyok/);
  const out = [];
  for (const { edition, kfen } of positions) {
    e.send(`setoption name UCI_Variant value ${edition}`);
    e.send('ucinewgame');
    e.send(`position kfen ${kfen}`);
    e.send('isready');
    await e.wait(/^readyok/);
    e.lines.length = 0;
    e.send(`go depth ${depth}`);
    await e.wait(/^bestmove/);
    const infos = e.lines
      .map(parseInfo)
      .filter((r) => r.ok && r.value.depth !== undefined)
      .map((r) => r.value);
    const last = infos.filter((i) => i.depth === depth).pop() ?? infos.pop();
    out.push({ ms: last.time, nodes: last.nodes });
  }
  e.quit();
  return out;
}

const one = await run(1);
const many = await run(threads);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(`time to depth ${depth}, ${positions.length} positions: 1 thread vs ${threads} threads`);
const ratios = [];
positions.forEach((p, i) => {
  const r = one[i].ms / Math.max(1, many[i].ms);
  ratios.push(r);
  console.log(
    `${String(i + 1).padStart(2)} ${p.edition.padEnd(9)} ${String(one[i].ms).padStart(6)} ms  ${String(many[i].ms).padStart(6)} ms  x${r.toFixed(2)}`,
  );
});
const sum = (xs, k) => xs.reduce((s, x) => s + x[k], 0);
console.log(
  `total time: ${sum(one, 'ms')} ms vs ${sum(many, 'ms')} ms: speed-up x${(sum(one, 'ms') / sum(many, 'ms')).toFixed(2)}`,
);
console.log(`median per-position speed-up: x${median(ratios).toFixed(2)}`);
console.log(
  `nodes/second: ${Math.round((sum(one, 'nodes') / sum(one, 'ms')) * 1000)} vs ${Math.round((sum(many, 'nodes') / sum(many, 'ms')) * 1000)} (x${(sum(many, 'nodes') / sum(many, 'ms') / (sum(one, 'nodes') / sum(one, 'ms'))).toFixed(2)})`,
);
