// Builds dist/: the CLI and each worker thread's entry point as its own bundle (a thread starts on a
// file, so they cannot be bundled into the CLI), the browser GUI, and the library (`thoth/core`:
// dist/lib/core.js). Packages stay external. `node build.mjs --types` writes the library's type
// declarations instead (dist/types/; `npm run prepare` does both); `node build.mjs --web` only
// the static GUI (dist/web/).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path, { join } from 'node:path';

const webOnly = process.argv.includes('--web');

if (process.argv.includes('--types')) {
  // tsc with the library's settings: no DOM and no Node types, so the rules core is proven pure.
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // Relative imports get their `.js`, so that declarations resolve under every moduleResolution.
  const dir = 'dist/types/core';
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.d.ts')) continue;
    const file = join(dir, f);
    const text = readFileSync(file, 'utf8').replace(/(from\s+['"])(\.\.?\/[^'"]+?)(['"])/g, (m, a, spec, b) =>
      spec.endsWith('.js') ? m : `${a}${spec}.js${b}`,
    );
    writeFileSync(file, text);
  }
  process.exit(0);
}

// Each thread entry point of src/threads (*-worker.ts) as dist/<name>.js, the file src/process/pool.ts
// starts a thread on from the build.
const entries = [
  { in: 'src/cli.ts', out: 'cli' },
  ...readdirSync('src/threads')
    .filter((f) => f.endsWith('-worker.ts'))
    .sort()
    .map((f) => ({ in: `src/threads/${f}`, out: f.replace(/\.ts$/, '') })),
];

if (!webOnly)
  await build({
    entryPoints: entries,
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });

// The library: the rules core and the record format, for Node and browsers alike.
if (!webOnly)
  await build({
    entryPoints: ['src/core/index.ts'],
    outfile: 'dist/lib/core.js',
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  });

// A page for the browser: its TypeScript bundled, and its static files, into one folder of dist/
// (the only folder its server serves).
async function browserPage(entry, staticDir, outDir) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: `${outDir}/app.js`,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    logLevel: 'warning',
  });
  cpSync(staticDir, outDir, { recursive: true });
}

// The browser GUI (`thoth gui`), and the status page of distributed runs (`thoth match-status … --page`).
if (!webOnly) {
  await browserPage('src/gui/page/main.ts', 'src/gui/static', 'dist/gui');
  await browserPage('src/distributed/page/main.ts', 'src/distributed/page/static', 'dist/status');
}

// The static GUI (dist/web/): the same page with Thoth inside it, for any static host or file://.
// The engine's protocol (src/protocol/uci.ts) runs in the page on the page's host
// (src/web/page-host.ts: Web Worker search threads, the network inside the page); nothing is
// swapped here, and a Node module reached from the page fails this build. The search worker is
// bundled first and put into the page as text (started from a Blob: a file:// page may not load
// worker files), and the page is a classic script (file:// refuses modules).
{
  // The shipped network goes inside the page (a file:// page can read no other file), if it is small.
  const netFile = 'nets/default.nnue';
  let net = '';
  try {
    const bytes = readFileSync(netFile);
    if (bytes.length <= 4 * 1024 * 1024) net = bytes.toString('base64');
    else console.warn(`build: ${netFile} is over 4 MB: the static page uses the hand-written evaluation`);
  } catch {
    // no network shipped: the hand-written evaluation
  }
  const common = {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
    define: { __DEFAULT_NETWORK__: JSON.stringify(net) },
  };
  const worker = await build({ ...common, entryPoints: ['src/web/web-search-worker.ts'], write: false });
  mkdirSync('dist/web', { recursive: true });
  await build({
    ...common,
    entryPoints: ['src/web/main.ts'],
    outfile: 'dist/web/app.js',
    define: { ...common.define, __SEARCH_WORKER_SOURCE__: JSON.stringify(worker.outputFiles[0].text) },
  });
  // The service worker that isolates the page where the host sends no COOP/COEP headers
  // (src/web/isolation.ts registers it): a file of its own, as service workers must be.
  await build({ ...common, entryPoints: ['src/web/coi-sw.ts'], outfile: 'dist/web/coi-sw.js' });
  for (const f of ['style.css', 'favicon.svg']) cpSync(path.join('src/gui/static', f), path.join('dist/web', f));
  const html = readFileSync('src/gui/static/index.html', 'utf8').replace(
    '<script type="module" src="app.js"></script>',
    '<script defer src="app.js"></script>',
  );
  if (!html.includes('<script defer src="app.js">')) throw new Error("build: the page's script tag was not found");
  writeFileSync('dist/web/index.html', html);
}
