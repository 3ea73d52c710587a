// Preloaded by bench/run.mjs into each perft child (`node --require bench/cpu-usage.cjs
// bin/thoth.js perft ...`): at exit it writes the process's CPU time (all threads, worker threads
// included) to stderr, so the benchmark can tell CPU time from time spent waiting for a core.
'use strict';
process.on('exit', () => {
  const u = process.cpuUsage();
  require('node:fs').writeSync(2, `\nTHOTH-BENCH-CPU ${u.user} ${u.system}\n`);
});
