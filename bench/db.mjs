#!/usr/bin/env node
// The game database (docs/db.md), on a record file of self-play or matches:
//
//   node bench/db.mjs --pgn FILE [--db FILE] [--queries N] [--review N] [--depth D] [--workers]
//   node bench/db.mjs --db FILE --no-import [--queries N]       (a database built already; no review)
//
// Run `npm run build` first: the import and the reviews run the built CLI as a user does.
// 1. `thoth db import` of the file into a fresh database (--db, default a temporary file): the
//    import rate (games/s) and the database's size. --no-import takes the --db as it is.
// 2. The explorer's answer (explorerMoves, summed by SQLite, as `thoth db explore` and `thoth gui
//    --db` ask it, without Thoth's evaluation; beside it the same sums through JavaScript,
//    explorerRows + exploreMoves, as before 2026-12-07) from N positions (--queries, 200): half of
//    them drawn from the first 8 plies of the games, half from any ply; p50, p95 and the largest,
//    in ms. Then the exact position search
//    (gamesAtKey, first 50 games) over the same positions, and two pattern searches over every game.
// 3. With --review N: the first N games reviewed at depth D (4) by `thoth db review` on 1 thread,
//    then again (the reviews deleted) on 2 threads: games per minute. With --workers also on two
//    local `thoth worker` processes (one chunk at a time each) through a redis-server of its own
//    (a free loopback port, no persistence): `thoth db review --distributed`, chunks of 4 ids.
// The first line gives the load average: on a loaded machine the times are the machine's too.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli.js');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const pgn = opt('pgn');
const noImport = args.includes('--no-import');
if (noImport ? !opt('db') : !pgn) {
  console.error('usage: node bench/db.mjs --pgn FILE [--db FILE] [--queries N] [--review N] [--depth D] [--workers]');
  console.error('       node bench/db.mjs --db FILE --no-import [--queries N]');
  process.exit(2);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'thoth-db-bench-'));
const dbFile = opt('db', path.join(tmp, 'bench.db'));
const queries = Number(opt('queries', '200'));
const review = noImport ? 0 : Number(opt('review', '0'));
const depth = opt('depth', '4');
const workers = args.includes('--workers');
let env = process.env;
const say = (s = '') => process.stdout.write(`${s}\n`);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
/** The built CLI's output; a failure's message is shown (an import that skipped a damaged game exits 1). */
const thoth = (...a) => {
  const r = spawnSync(process.execPath, [CLI, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
  if (r.status !== 0) say(`(thoth ${a[0]} ${a[1]} exited ${r.status}: ${r.stderr.trim().split('\n').pop()})`);
  return r.stdout;
};

try {
  say(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(
        ' ',
      )}; ${os.cpus().length} cores; ${noImport ? dbFile : `${pgn} (${(statSync(pgn).size / 1048576).toFixed(1)} MB)`}`,
  );
  if (noImport)
    say(`database ${(statSync(dbFile).size / 1048576).toFixed(1)} MB (${thoth('db', 'info', '--db', dbFile).trim()})`);
  else {
    rmSync(dbFile, { force: true });
    const t0 = performance.now();
    const out = thoth('db', 'import', '--db', dbFile, '--quiet', pgn);
    const secs = (performance.now() - t0) / 1000;
    say(`import: ${out.trim().split('\n')[0]}`);
    say(
      `import: ${secs.toFixed(1)} s wall; database ${(statSync(dbFile).size / 1048576).toFixed(1)} MB (${thoth('db', 'info', '--db', dbFile).trim()})`,
    );
  }

  // Inside the repository, so that the bundle finds better-sqlite3 in node_modules/.
  mkdirSync(path.join(ROOT, 'node_modules/.cache'), { recursive: true });
  const bundle = path.join(ROOT, 'node_modules/.cache/thoth-bench-db.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'bench/db-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    logLevel: 'error',
    packages: 'external',
    absWorkingDir: ROOT,
  });
  const M = await import(pathToFileURL(bundle).href);
  const db = M.openDatabase(dbFile, { readonly: true });
  const early = db.prepare('SELECT key, ply FROM positions WHERE ply < 8 ORDER BY random() LIMIT ?').all(queries >> 1);
  const any = db.prepare('SELECT key, ply FROM positions ORDER BY random() LIMIT ?').all(queries - early.length);
  const times = { explore: [], js: [], exact: [] };
  const names = {
    explore: 'explorer (SQL sums)',
    js: 'explorer (JavaScript sums, before 2026-12-07)',
    exact: 'exact position search',
  };
  let moves = 0;
  for (const { key, ply } of [...early, ...any]) {
    // the two ways in turn, alternating which goes first, so that a cache warmed by one serves both
    const order = moves & 1 ? ['js', 'explore'] : ['explore', 'js'];
    for (const k of order) {
      const t = performance.now();
      const m = k === 'js' ? M.exploreMoves(M.explorerRows(db, key), ply & 1) : M.explorerMoves(db, key, ply & 1);
      times[k].push(performance.now() - t);
      if (k === 'explore') moves += m.length;
    }
    const t = performance.now();
    M.gamesAtKey(db, key, {}, 50);
    times.exact.push(performance.now() - t);
  }
  for (const [k, xs] of Object.entries(times))
    say(
      `${names[k]}: ${xs.length} positions, p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms${k === 'explore' ? ` (${moves} moves listed)` : ''}`,
    );
  // The page's explorer: the index (thoth db index, its defaults) and its answers from the same positions.
  const built = M.buildIndex(db, { plies: 8, minGames: 2, budget: 1024 * 1024, filter: {} });
  const index = JSON.parse(built.text);
  const positions = db.prepare(
    'SELECT g.variant AS variant, g.start AS start, g.codes AS codes, p.ply AS ply FROM positions p JOIN games g ON g.id = p.game WHERE p.key = ? LIMIT 1',
  );
  const page = [];
  for (const { key } of early) {
    const r = positions.get(key);
    const pos = M.parseKfen(r.start, r.variant).value;
    for (let k = 0; k < r.ply; k++) pos.make(r.codes[3 * k] | (r.codes[3 * k + 1] << 8) | (r.codes[3 * k + 2] << 16));
    const t1 = performance.now();
    M.indexMoves(index, pos);
    page.push(performance.now() - t1);
  }
  say(
    `page index: ${built.positions} positions, ${(built.text.length / 1024).toFixed(0)} KB (min ${built.minGames} games); its answer from ${page.length} early positions: p50 ${pct(page, 50).toFixed(3)} ms, p95 ${pct(page, 95).toFixed(3)} ms`,
  );
  const start = db.prepare('SELECT key FROM positions WHERE ply = 0 GROUP BY key ORDER BY count(*) DESC LIMIT 1').get();
  let t = performance.now();
  const rows = M.explorerRows(db, start.key);
  const jsMs = performance.now() - t;
  t = performance.now();
  M.explorerMoves(db, start.key, 0);
  say(
    `explorer at the most played start: ${rows.length} games, SQL sums ${(performance.now() - t).toFixed(1)} ms, JavaScript sums (rows only) ${jsMs.toFixed(1)} ms`,
  );
  for (const text of ['Red Pharaoh on f8 with no Anubis beside it', "Silver's beam passes d5 and Red to move"]) {
    const p = M.parsePattern(text);
    t = performance.now();
    const r = M.gamesMatching(db, p.value, {}, Number.MAX_SAFE_INTEGER);
    say(
      `pattern "${text}": ${r.games.length} of ${r.looked} games match, ${((performance.now() - t) / 1000).toFixed(2)} s for every game`,
    );
  }
  db.close();

  if (review > 0) {
    // The first N games of the file, alone in a database of their own.
    const text = readFileSync(pgn, 'utf8');
    let at = 0;
    for (let k = 0; k < review && at >= 0; k++) at = text.indexOf('\n[Event ', at + 1);
    const part = path.join(tmp, 'review.pgn');
    writeFileSync(part, at < 0 ? text : text.slice(0, at + 1));
    const small = path.join(tmp, 'review.db');
    thoth('db', 'import', '--db', small, '--quiet', part);
    for (const threads of ['1', '2']) {
      const d = M.openDatabase(small);
      d.exec('DELETE FROM reviews');
      d.close();
      const t1 = performance.now();
      const o = thoth('db', 'review', '--db', small, '--depth', depth, '--threads', threads, '--quiet');
      const line = o.split('\n').find((l) => l.startsWith('Reviewed')) ?? o;
      say(
        `review, ${threads} thread${threads === '1' ? '' : 's'}, depth ${depth}: ${line.trim()} (${((performance.now() - t1) / 1000).toFixed(0)} s wall)`,
      );
    }
    if (workers) await reviewOnWorkers(small, M);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** The review of the small database again on two local workers through a redis-server of its own. */
async function reviewOnWorkers(small, M) {
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const dir = path.join(tmp, 'redis');
  mkdirSync(dir);
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise((resolve, reject) => {
    let log = '';
    redis.on('error', reject);
    redis.stdout.on('data', (d) => {
      log += d;
      if (/Ready to accept connections/.test(log)) resolve();
    });
  });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keys = { sign: path.join(tmp, 'bench.key'), trust: path.join(tmp, 'bench.pub') };
  writeFileSync(keys.sign, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(keys.trust, publicKey.export({ type: 'spki', format: 'pem' }));
  env = { ...process.env, THOTH_SIGN_KEY: keys.sign, THOTH_TRUST: keys.trust };
  const url = `redis://127.0.0.1:${port}`;
  const procs = [1, 2].map((k) =>
    spawn(process.execPath, [CLI, 'worker', url, '--cache', path.join(tmp, `cache${k}`)], { stdio: 'ignore', env }),
  );
  try {
    const d = M.openDatabase(small);
    d.exec('DELETE FROM reviews');
    d.close();
    const t1 = performance.now();
    const o = await new Promise((resolve) => {
      let out = '';
      const c = spawn(
        process.execPath,
        [CLI, 'db', 'review', '--db', small, '--depth', depth, '--distributed', url, '--quiet'],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
          env,
        },
      );
      c.stdout.on('data', (b) => (out += b));
      c.on('exit', () => resolve(out));
    });
    const line = o.split('\n').find((l) => l.startsWith('Reviewed')) ?? o;
    say(
      `review, 2 local workers, depth ${depth}: ${line.trim()} (${((performance.now() - t1) / 1000).toFixed(0)} s wall, with the workers' start)`,
    );
    for (const l of o.split('\n').filter((l) => l.startsWith('Worker '))) say(`  ${l}`);
  } finally {
    for (const p of procs) p.kill('SIGINT');
    await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r() : p.on('exit', r)))));
    redis.kill('SIGKILL');
  }
}
