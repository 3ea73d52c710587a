#!/usr/bin/env node
// Checks that the make/unmake/generate loop does not allocate (bench/README.md).
//
//   node bench/gc-check.mjs [--rounds B,F]
//
// Bundles bench/gc-entry.ts with esbuild into a temporary .mjs and runs it as
// `node --trace-gc --expose-gc <bundle> B F`: after a warm-up it times B rounds of the core's
// perft(4) of Khet 2.0 Classic (bulk-counted) and F rounds of a perft(4) that makes and unmakes
// every move, each loop framed by forced GCs (reason "testing" in the trace). It then counts the
// scavenges and mark-sweeps/compacts that --trace-gc printed inside each loop. Verdict: PASS
// when there were none (exit 0), FAIL otherwise (exit 1). See bench/README.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let bulkRounds = 8;
let fullRounds = 2;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = a.startsWith('--rounds=') ? a.slice(9) : a === '--rounds' ? argv[++i] : undefined;
  const m = v !== undefined ? /^(\d+),(\d+)$/.exec(v) : null;
  if (a === '-h' || a === '--help') {
    process.stdout.write('usage: node bench/gc-check.mjs [--rounds B,F]   (default 8,2)\n');
    process.exit(0);
  } else if (m && Number(m[1]) >= 1 && Number(m[2]) >= 1) {
    bulkRounds = Number(m[1]);
    fullRounds = Number(m[2]);
  } else {
    process.stderr.write(
      `gc-check: bad argument '${a}${v !== undefined && !a.includes('=') ? ` ${v}` : ''}'\nusage: node bench/gc-check.mjs [--rounds B,F]\n`,
    );
    process.exit(2);
  }
}

const say = (s = '') => process.stdout.write(`${s}\n`);
const int = (x) => Math.round(x).toLocaleString('en-US');

/** Splits V8's --trace-gc output into events (its lines are not always newline-terminated). */
function parseTrace(text) {
  const events = [];
  for (const chunk of text.split(/(?=\[\d+:0x[0-9a-f]+\]\s+[\d.]+ ms: )/)) {
    const m = /^\[\d+:0x[0-9a-f]+\]\s+([\d.]+) ms: (.*)$/s.exec(chunk.trim());
    if (!m) continue;
    const body = m[2].replace(/\s+/g, ' ').trim();
    const kind = /^Scavenge/.test(body)
      ? 'scavenge'
      : /^Minor Mark/.test(body)
        ? 'minor mark-sweep'
        : /^Mark-(Compact|sweep)/i.test(body)
          ? 'mark-sweep/compact'
          : 'other';
    events.push({ ms: Number(m[1]), kind, testing: /\btesting\b/.test(body), text: body });
  }
  return events;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-gc-'));
  const bundle = path.join(dir, 'gc-entry.mjs');
  try {
    await build({
      entryPoints: [path.join(ROOT, 'bench', 'gc-entry.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    const nodeArgs = ['--trace-gc', '--expose-gc', bundle, String(bulkRounds), String(fullRounds)];
    say(
      `GC check: node ${nodeArgs.join(' ').replace(bundle, '<bench/gc-entry.ts bundled>')}  (node ${process.version})`,
    );
    const { code, out, err } = await new Promise((resolve) => {
      const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (c, s) => resolve({ code: c ?? s, out, err }));
    });
    const line = err.split('\n').find((l) => l.startsWith('GC-CHECK-RESULT '));
    if (code !== 0 || !line) {
      say(`the child failed (exit ${code}):`);
      for (const l of err.trim().split('\n')) say(`  | ${l}`);
      say('VERDICT: ERROR (the check could not run)');
      return 1;
    }
    const result = JSON.parse(line.slice('GC-CHECK-RESULT '.length));
    if (result.error) {
      say(`VERDICT: ERROR (${result.error})`);
      return 1;
    }

    const events = parseTrace(out);
    const markers = events.map((e, i) => (e.testing ? i : -1)).filter((i) => i >= 0);
    const want = result.phases.length + 1;
    if (markers.length !== want) {
      say(`expected ${want} forced GCs (reason "testing") in the trace, found ${markers.length}; raw trace:`);
      for (const l of out.trim().split('\n')) say(`  | ${l}`);
      say('VERDICT: ERROR (could not find the loop boundaries in the trace)');
      return 1;
    }
    const before = events.slice(0, markers[0]);
    say(
      `the trace holds the ${want} forced full GCs that frame the timed loops (so --trace-gc is reporting), ` +
        `and ${before.length} GC event(s) from start-up and warm-up` +
        (before.length ? ` (${summarise(before)})` : ''),
    );
    say();

    let failed = false;
    let control = null;
    let totalNodes = 0;
    let totalMakes = 0;
    const base = result.phases.find((ph) => ph.rounds === 0);
    for (let p = 0; p < result.phases.length; p++) {
      const ph = result.phases[p];
      const inside = events.slice(markers[p] + 1, markers[p + 1]);
      const counts = { scavenge: 0, 'minor mark-sweep': 0, 'mark-sweep/compact': 0, other: 0 };
      for (const e of inside) counts[e.kind]++;
      if (!ph.control && (inside.length > 0 || ph.observedGcs > 0)) failed = true;
      const gcs =
        `${counts.scavenge} scavenge(s), ${counts['mark-sweep/compact']} mark-sweep/compact(s)` +
        (counts['minor mark-sweep'] ? `, ${counts['minor mark-sweep']} minor mark-sweep(s)` : '') +
        (counts.other ? `, ${counts.other} other` : '');
      const delta = (d) => `${d >= 0 ? '+' : ''}${int(d)} bytes`;
      if (ph.rounds === 0) {
        say(`baseline (the timed loop with 0 rounds: only the timers and heap readings)`);
        say(`  used heap after minus before: ${delta(ph.heapDelta)}; --trace-gc: ${gcs}`);
        say(
          "  (V8's used-heap figure moves by up to a few hundred KB after a forced GC on its own; the GC count is the test)",
        );
        say();
        continue;
      }
      if (ph.control) {
        control = { gcs: inside.length + ph.observedGcs, text: gcs, observed: ph.observedGcs, seconds: ph.seconds };
        say(`${ph.name}, ${ph.rounds} round(s), ${ph.seconds.toFixed(3)} s`);
        say(`  --trace-gc inside the loop: ${gcs}; PerformanceObserver 'gc' entries: ${ph.observedGcs}`);
        say(
          `  (this loop does allocate, so the check must see GCs here: it ${inside.length > 0 ? 'does' : 'DOES NOT'})`,
        );
        say();
        continue;
      }
      totalNodes += ph.nodes;
      totalMakes += ph.makes;
      say(`timed loop ${p}: ${ph.name}, ${ph.rounds} round(s)`);
      say(
        `  ${int(ph.nodes)} leaves, ${int(ph.makes)} make+unmake, ${ph.seconds.toFixed(3)} s ` +
          `(${(ph.nodes / ph.seconds / 1e6).toFixed(1)} M leaves/s)`,
      );
      say(`  --trace-gc inside the loop: ${gcs}`);
      for (const e of inside.slice(0, 5)) say(`    | ${e.ms} ms: ${e.text}`);
      if (inside.length > 5) say(`    | ... ${inside.length - 5} more`);
      say(`  PerformanceObserver 'gc' entries inside the loop: ${ph.observedGcs}`);
      say(
        `  used heap after minus before: ${delta(ph.heapDelta)}` +
          ` (the 0-round baseline alone: ${base ? delta(base.heapDelta) : '?'}), ` +
          `i.e. at most ${Number((Math.max(0, ph.heapDelta) / ph.makes).toPrecision(2))} bytes per make+unmake`,
      );
      say();
    }
    if (!control || control.gcs === 0) {
      say('VERDICT: ERROR - the allocating control loop showed no GC, so this check cannot see allocation.');
      return 1;
    }
    if (failed) {
      say(
        `VERDICT: FAIL - the garbage collector ran inside the timed make/unmake/generate loops: ` +
          `something in the loop allocates (see above).`,
      );
      return 1;
    }
    say(
      `VERDICT: PASS - no scavenge and no mark-sweep during the timed loops (${int(totalNodes)} perft leaves, ` +
        `${int(totalMakes)} make+unmake), while the allocating control loop showed ${control.text}: ` +
        `the make/unmake/generate loop does not allocate.`,
    );
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarise(events) {
  const c = {};
  for (const e of events) c[e.kind] = (c[e.kind] ?? 0) + 1;
  return Object.entries(c)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

process.exitCode = await main();
