/**
 * The docs' examples that run in seconds, run as written (read from the docs, so that a change
 * there changes what runs): below, docs/cli.md's and docs/match.md's `$` lines, docs/nnue.md's
 * training, the one-line sh examples of CONTRIBUTING.md, docs/gui.md, docs/library.md and
 * docs/distributed.md, the `thoth db` lines of docs/db.md and docs/cli.md, and protocol.md's
 * transcripts and output blocks. Those that take minutes or hours, or need other machines, are
 * run by hand from a fresh clone.
 *
 * The examples of docs/cli.md and docs/match.md, run as written: every `$ thoth …` line of their
 * code blocks goes to bash as it stands, with `thoth` on the PATH (bin/thoth.js, as `npm link` puts it there), in a
 * scratch folder. What a `$` line is followed by in the block is what it prints (`…` elides lines);
 * the lines it shows must be among what it prints, in order. The review and animation examples
 * need a match's record: a match of the fake engine writes games.pgn there first (rounds r.1, r.2
 * as every match names its games); its games are not the example's, so what those print is
 * matched by its frame (OTHER_GAME). `$ thoth perft 5` (2.5 billion nodes: minutes) is left out; its count is
 * checked by the benchmark (bench/run.mjs, `npm run bench`), depths 1 to 4 by test/core/perft.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fake } from './match/helpers';
import { CLI_BUILT, ROOT } from './cli/helpers';
import { stretched } from './slowness';

/** Each `$ ` command of a markdown text's code blocks, with the lines the block shows after it. */
function dollarExamples(md: string): { command: string; shown: string[] }[] {
  const out: { command: string; shown: string[] }[] = [];
  for (const block of md.matchAll(/```[a-z]*\n([^]*?)```/g)) {
    const lines = block[1].split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith('$ ')) continue;
      const shown: string[] = [];
      for (let j = i + 1; j < lines.length && !lines[j].startsWith('$ '); j++)
        if (lines[j] !== '') shown.push(lines[j]);
      out.push({ command: lines[i].slice(2), shown });
    }
  }
  return out;
}

/** Left out, with why (see the header). */
const SKIP = new Set(['thoth perft 5']);

/** An environment with `thoth` on the PATH (bin/thoth.js, as `npm link` puts it there). */
function thothOnPath(): NodeJS.ProcessEnv {
  const bin = path.join(tmpdir(), 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'thoth'),
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin', 'thoth.js')}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'thoth'), 0o755);
  return { ...process.env, PATH: `${bin}:${process.env.PATH}` };
}

/** The lines a block shows after its command (`…` elides lines): among what it printed, in order. */
function expectShown(command: string, shown: string[], stdout: string, stderr: string): void {
  const printed = (stdout + stderr).split('\n');
  let at = 0;
  for (const want of shown.filter((l) => l !== '…')) {
    const k = printed.findIndex((l, i) => i >= at && l === want);
    expect(k, `'${want}' not printed in order by: ${command}\n${printed.join('\n')}`).toBeGreaterThanOrEqual(0);
    at = k + 1;
  }
}

describe.skipIf(!existsSync(CLI_BUILT))('docs/cli.md, run as written', () => {
  const examples = dollarExamples(readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8'));
  const dir = tmpdir();
  const env = thothOnPath();

  it('has examples, the review one among them', () => {
    expect(examples.map((e) => e.command)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^thoth analyse --game games\.pgn --round 7 /)]),
    );
  });

  it('a match record of 8 rounds for the review example', () => {
    const quoted = (w: string): string => `'${w.replace(/'/g, "'\\''")}'`;
    const match = ['thoth', 'match', ...fake('A', '--seed 1'), ...fake('B', '--seed 2 --play random')];
    const flags = '-each tc=10+0.1 -maxplies 40 -rounds 8 -concurrency 2 -pgnout games.pgn';
    const r = spawnSync('bash', ['-c', `${match.map(quoted).join(' ')} ${flags}`], { cwd: dir, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'games.pgn'), 'utf8')).toMatch(/\[Round "7\.1"\]/);
  });

  for (const { command, shown } of examples.filter((e) => !SKIP.has(e.command))) {
    it(command, () => {
      const r = spawnSync('bash', ['-c', command], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: stretched(10 * 60_000),
      });
      const other = OTHER_GAME.find(([re]) => re.test(command));
      if (other) {
        // another game than the example's: its moves differ, the output's frame does not
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toMatch(other[1]);
        return;
      }
      // the lines the block shows, exactly and in order
      expectShown(command, shown, r.stdout, r.stderr);
    });
  }
});

// docs/match.md's examples (the compliance check) name the clone's files (dist/cli.js, the fake
// engine's source): they run in the clone, and write nothing there.
describe.skipIf(!existsSync(CLI_BUILT))('docs/match.md, run as written', () => {
  const examples = dollarExamples(readFileSync(path.join(ROOT, 'docs', 'match.md'), 'utf8'));
  const env = thothOnPath();

  it('has examples: the compliance of Thoth and of a broken engine', () => {
    expect(examples.map((e) => e.command)).toEqual([
      'thoth match --compliance "node dist/cli.js"',
      expect.stringMatching(/^thoth match --compliance "node --import tsx test\/match\/fixtures\/fake-engine\.ts /),
    ]);
  });

  for (const { command, shown } of examples) {
    it(command, () => {
      const r = spawnSync('bash', ['-c', command], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: stretched(5 * 60_000),
      });
      // exit 0 when the block ends compliant, 1 when it ends with the step that fails
      expect(r.status, r.stderr).toBe(shown.at(-1)?.startsWith('Compliant: ') ? 0 : 1);
      expectShown(command, shown, r.stdout, r.stderr);
    });
  }
});

/** What an example on a game of games.pgn prints about it (whichever game the record holds). */
const OTHER_GAME: [RegExp, RegExp][] = [
  [
    /^thoth analyse --game games\.pgn --round 7 --depth 5 --out reviewed\.pgn --graph eval\.svg$/,
    /^Game \d+ of 16 in games\.pgn, Round 7\.1\n[^]*^Summary \(depth 5\):\n[^]*^Annotated record written to reviewed\.pgn\nGraph written to eval\.svg\n$/m,
  ],
  // a frame for the start and one a move: the example's game has 80 moves, this record's at most 40
  [
    /^thoth picture --game games\.pgn --index 2 --out game\.gif$/,
    /^games\.pgn, game 2: ([2-9]|[1-3]\d|4[01]) frames, 694x611, written to game\.gif\n$/,
  ],
];

/** A line the block shows, with each of its numbers any number (a time, a speed, a machine's threads). */
function shape(line: string): RegExp {
  const parts = line.split(/\d+(?:\.\d+)?/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('\\d+(?:\\.\\d+)?')}$`);
}

// docs/nnue.md's training example, on the clone's fixture, in a scratch folder (it writes
// nets/a.nnue there): its numbers are timings, speeds and the machine's threads, so each line it
// shows is matched by its shape. Its datagen example (a million positions, stopped with Ctrl-C
// after three minutes in the docs) is not run.
describe.skipIf(!existsSync(CLI_BUILT))("docs/nnue.md's training example, run as written", () => {
  const examples = dollarExamples(readFileSync(path.join(ROOT, 'docs', 'nnue.md'), 'utf8'));
  const train = examples.filter((e) => e.command.startsWith('thoth train '));
  const env = thothOnPath();

  it('is there, once', () => {
    expect(train).toHaveLength(1);
  });

  for (const { command, shown } of train) {
    it(command, () => {
      const dir = path.join(tmpdir(), 'nnue');
      mkdirSync(path.join(dir, 'nets'), { recursive: true });
      mkdirSync(path.join(dir, 'test', 'nnue', 'fixtures'), { recursive: true });
      const fixture = path.join('test', 'nnue', 'fixtures', 'selfplay.bin');
      writeFileSync(path.join(dir, fixture), readFileSync(path.join(ROOT, fixture)));
      const r = spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: stretched(5 * 60_000) });
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(path.join(dir, 'nets', 'a.nnue'))).toBe(true);
      const printed = r.stdout.split('\n');
      let at = 0;
      for (const want of shown) {
        const k = printed.findIndex((l, i) => i >= at && shape(want).test(l));
        expect(k, `'${want}' not printed (by its shape) by: ${command}\n${r.stdout}`).toBeGreaterThanOrEqual(0);
        at = k + 1;
      }
    });
  }
});

/**
 * The command lines of a markdown text's ```sh blocks, as bash reads them: a line ending in a
 * backslash goes on on the next; blank lines and whole-line comments are left out (a comment after
 * a command stays: bash reads it as one).
 */
function shellLines(md: string): string[] {
  return shellBlocks(md).flat();
}

/** {@link shellLines}, block by block. */
function shellBlocks(md: string): string[][] {
  const out: string[][] = [];
  for (const block of md.matchAll(/^( *)```sh\n([^]*?)^ *```/gm)) {
    const indent = block[1].length;
    const text = block[2]
      .split('\n')
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    out.push(text.split(/(?<!\\)\n/).filter((c) => c.trim() !== '' && !c.trimStart().startsWith('#')));
  }
  return out;
}

/** The docs whose sh blocks a reader runs. */
function shellDocs(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', 'CONTRIBUTING.md', ...docs.map((f) => `docs/${f}`)];
}

// A file an example writes into a folder of the clone (`--out data/gen1.bin`) needs that folder:
// one git keeps (a fresh clone has it), or one a line before it in the block makes (`mkdir -p
// data`, or one of scripts/ that makes its output's folder). data/ is ignored by git.
describe('the folders the examples write into', () => {
  it('are in a fresh clone, or made by the block first', () => {
    const tracked = new Set(
      spawnSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
        .stdout.split('\n')
        .flatMap((f) =>
          f
            .split('/')
            .slice(0, -1)
            .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
        ),
    );
    expect(tracked.has('nets')).toBe(true);
    const missing: string[] = [];
    for (const doc of shellDocs())
      for (const block of shellBlocks(readFileSync(path.join(ROOT, doc), 'utf8')))
        block.forEach((line, i) => {
          for (const m of line.matchAll(/(?:--out|-pgnout|--records|--state) ([\w.-][\w.\/-]*)\/[^\s/]+/g)) {
            const folder = m[1];
            if (folder.startsWith('..') || tracked.has(folder)) continue;
            const made = block
              .slice(0, i)
              .some(
                (l) =>
                  l.startsWith(`mkdir -p ${folder} `) ||
                  l === `mkdir -p ${folder}` ||
                  (l.startsWith('scripts/') && l.includes(` ${folder}/`)),
              );
            if (!made) missing.push(`${doc}: ${line}`);
          }
        });
    expect(missing).toEqual([]);
  });
});

/** The line of `doc`'s ```sh blocks that starts with `start` (the test fails when the doc has none or two). */
function shellLine(doc: string, start: string): string {
  const found = shellLines(readFileSync(path.join(ROOT, doc), 'utf8')).filter((l) => l.startsWith(start));
  // the same command may stand twice (with a comment after it or not)
  const commands = new Set(found.map((l) => l.replace(/\s+#.*$/, '')));
  expect([...commands], `${doc} has one \`${start}…\` command in its sh blocks`).toHaveLength(1);
  return found[0];
}

/** `command` run by bash as it stands, in `cwd`: exit 0, no stack trace, and what it printed. */
function runs(command: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout: stretched(2 * 60_000) });
  expect(r.status, `${command}\n${r.stdout}${r.stderr}`).toBe(0);
  expect(r.stderr, command).not.toMatch(/\n\s+at .*:\d+:\d+/);
  return r.stdout + r.stderr;
}

/** The subcommands and flags a line uses: `thoth SUB` or `node bin/thoth.js SUB`, then its `--flags`. */
function usage(line: string): { sub: string; flags: string[] } | undefined {
  const bare = line.replace(/\s#.*$/, '').replace(/"[^"]*"/g, '""'); // a quoted argument is one word
  const m = /(?:^|\s)(?:thoth|node bin\/thoth\.js) ([a-z-]+)\b(.*)$/.exec(bare);
  return m ? { sub: m[1], flags: [...m[2].matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((f) => f[1]) } : undefined;
}

// The one-line examples of the other docs that run in seconds, as they stand in the doc, in the
// clone (they read its dist/ and fixtures) or in a scratch folder. Those that run for minutes or
// hours (matches, SPRTs, self-play, tuning, training on a real data set), need other machines or
// engines fetched from the network, or hold a placeholder (`…`, `HOST`, `redis.lan`) are not here.
describe.skipIf(!existsSync(CLI_BUILT))('one-line examples of the other docs, run as written', () => {
  const env = thothOnPath();

  it.concurrent("CONTRIBUTING.md: 'node bin/thoth.js help' names every command the docs' sh blocks use", () => {
    const out = runs(shellLine('CONTRIBUTING.md', 'node bin/thoth.js help'), ROOT, env);
    const docs = shellDocs();
    const subs = new Set(
      docs.flatMap((d) => shellLines(readFileSync(path.join(ROOT, d), 'utf8')).flatMap((l) => usage(l)?.sub ?? [])),
    );
    expect(subs.size).toBeGreaterThan(8);
    for (const sub of subs) expect(out, `thoth help names ${sub}`).toMatch(new RegExp(`^\\s+thoth ${sub}\\b`, 'm'));
  });

  // Each `--help` example prints every flag that its doc's other examples give that command.
  for (const [doc, start] of [
    ['docs/gui.md', 'node bin/thoth.js gui --help'],
    ['docs/puzzles.md', 'node bin/thoth.js puzzles --help'],
  ]) {
    it.concurrent(`${doc}: '${start}' names the flags of the doc's examples`, () => {
      const out = runs(shellLine(doc, start), ROOT, env);
      const sub = usage(start)!.sub;
      const flags = shellLines(readFileSync(path.join(ROOT, doc), 'utf8')).flatMap((l) => {
        const u = usage(l);
        return u?.sub === sub ? u.flags : [];
      });
      expect(flags.length).toBeGreaterThan(2);
      for (const f of flags) expect(out, `${start} names ${f}`).toContain(f);
    });
  }

  it.concurrent('CONTRIBUTING.md: the engine on stdin/stdout, typed to as its comment says', async () => {
    const line = shellLine('CONTRIBUTING.md', 'node bin/thoth.js  ');
    const typed = /\(type ([^)]*)\)/.exec(line)![1].split(', ');
    expect(typed).toEqual(['uci', 'isready', 'go depth 8', 'quit']);
    // each command typed once the one before has been answered, as a person at the keyboard does
    const answer: Record<string, RegExp> = { uci: /^uciok$/m, isready: /^readyok$/m, 'go depth 8': /^bestmove \S+/m };
    const child = spawn('bash', ['-c', line], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      for (const t of typed) {
        child.stdin.write(`${t}\n`);
        if (answer[t]) await until(() => answer[t].test(out), 60_000, `'${t}' answered:\n${out}`);
      }
      expect(await exited, out).toBe(0);
      expect(out).toMatch(/^info depth 8 .* pv /m);
    } finally {
      child.kill();
    }
  });

  it.concurrent("docs/library.md: each example prints what the block after it shows, with 'thoth/core' the package's own", () => {
    const md = readFileSync(path.join(ROOT, 'docs', 'library.md'), 'utf8');
    const pairs = [...md.matchAll(/```js\n([^]*?)```\s*\n[^`]*?```\n([^]*?)```/g)];
    expect(pairs).toHaveLength(2);
    expect(existsSync(path.join(ROOT, 'dist', 'lib', 'core.js')), 'npm run build makes dist/lib/core.js').toBe(true);
    for (const [, code, shown] of pairs) {
      // run in the clone: Node resolves the package's own name through its "exports"
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(shown);
    }
  });

  it.concurrent('docs/distributed.md: the signing key pair', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-'));
    for (const start of ['openssl genpkey -algorithm ed25519', 'openssl pkey -in coordinator.key'])
      runs(shellLine('docs/distributed.md', start), dir, env);
    expect(readFileSync(path.join(dir, 'coordinator.key'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(path.join(dir, 'coordinator.pub'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  // A server until Ctrl-C: it prints its address, serves the page there, and Ctrl-C ends it (130).
  for (const start of ['node bin/thoth.js gui --port 0 ', 'node bin/thoth.js gui --engine "node --import tsx']) {
    it.concurrent(`docs/gui.md: '${start.trim()}…' serves the page until Ctrl-C`, async () => {
      const line = shellLine('docs/gui.md', start);
      const child = spawn('bash', ['-c', line], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(out), 60_000, `an address printed:\n${out}`);
        const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out)![0];
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/<html/i);
        process.kill(-child.pid!, 'SIGINT');
        expect(await exited, out).toBe(130);
      } finally {
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      }
    });
  }
});

/** Resolves once `ok()` holds (checked every 50 ms); fails with `what` after `ms`. */
async function until(ok: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What each `thoth db` example of docs/db.md and docs/cli.md prints (its first words pick it); the
 * review examples search every game at depth 8 (minutes) and are not here.
 */
const DB_PRINTS: [string, RegExp][] = [
  ['thoth db import ', /^games\.db holds \d+ games$/m],
  ['thoth db list ', /^\d+ games? match(es)?\b/m],
  ['thoth db show 17 18', /^\[Event "Thoth match"\]\n[^]*^\[Event "Thoth match"\]\n/m],
  ['thoth db show 17 ', /^\[Event "Thoth match"\]\n/m],
  ['thoth db export ', /^\d+ games? written to draws\.pgn$/m],
  ['thoth db delete 17', /^1 game deleted$/m],
  ['thoth db info', /^games\.db: \d+ games, \d+ positions, 0 reviews; .* schema \d+$/m],
  ['thoth db explore ', /^Red to move; \d+ games? in games\.db /m],
  ['thoth db search --setup ', /^\d+ games? found in \d+ ms/m],
  ['thoth db search --pattern ', /^\d+ games? found in \d+ ms \(\d+ games looked at\)$/m],
  ['thoth db index ', /^explorer\.json: \d+ positions of \d+ games /m],
];

// A match of the fake engine writes the records (games.pgn, 20 games, and more.pgn; cli.md's
// selfplay.pgn is games.pgn again: its games are duplicates); each doc's examples then run in
// order on a database of their own.
describe.skipIf(!existsSync(CLI_BUILT))('the thoth db examples of docs/db.md and docs/cli.md, run as written', () => {
  const env = thothOnPath();
  const records = path.join(tmpdir(), 'db-records');

  it('records to import: a match of the fake engine', () => {
    mkdirSync(records, { recursive: true });
    const quoted = (w: string): string => `'${w.replace(/'/g, "'\\''")}'`;
    for (const [file, rounds] of [
      ['games.pgn', 10],
      ['more.pgn', 2],
    ] as const) {
      const match = [
        'thoth',
        'match',
        ...fake('thoth-new', '--seed 1'),
        ...fake('thoth-old', '--seed 2 --play random'),
      ];
      const flags = `-each tc=10+0.1 -maxplies 60 -rounds ${rounds} -concurrency 2 -ratinginterval 0 -pgnout ${file}`;
      runs(`${match.map(quoted).join(' ')} ${flags} -openings setups=classic,imhotep,dynasty plies=4`, records, env);
    }
    expect(readFileSync(path.join(records, 'games.pgn'), 'utf8').match(/^\[Event /gm)).toHaveLength(20);
  });

  for (const doc of ['docs/db.md', 'docs/cli.md']) {
    it(`${doc}: every thoth db line but the review's`, () => {
      const lines = shellLines(readFileSync(path.join(ROOT, doc), 'utf8')).filter(
        (l) => l.startsWith('thoth db ') && !/^thoth db (review|players)\b/.test(l) && !l.includes('…'),
      );
      expect(lines.length).toBeGreaterThanOrEqual(7);
      const dir = mkdtempSync(path.join(tmpdir(), 'db-'));
      for (const f of ['games.pgn', 'more.pgn']) writeFileSync(path.join(dir, f), readFileSync(path.join(records, f)));
      writeFileSync(path.join(dir, 'selfplay.pgn'), readFileSync(path.join(records, 'games.pgn')));
      for (const line of lines) {
        const prints = DB_PRINTS.find(([start]) => line.startsWith(start));
        expect(prints, `what '${line}' prints`).toBeDefined();
        expect(runs(line, dir, env), line).toMatch(prints![1]);
      }
      expect(existsSync(path.join(dir, 'draws.pgn'))).toBe(true);
      expect(existsSync(path.join(dir, 'explorer.json'))).toBe(true);
    });
  }
});

/** The first code block after `heading` in `md`, as lines. */
function blockAfter(md: string, heading: string): string[] {
  const at = md.indexOf(heading);
  expect(at, `a '${heading}' section`).toBeGreaterThanOrEqual(0);
  return /```[a-z]*\n([^]*?)```/.exec(md.slice(at))![1].replace(/\n$/, '').split('\n');
}

/**
 * A line a block shows as a pattern: `<what>` stands for any text, a leading or trailing `…` for
 * any text there; with `numbers` false, each number and each move is any number or move (a time,
 * a node count, the move a timed search chose).
 */
function pattern(line: string, numbers: boolean): RegExp {
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const word = (w: string): string => {
    if (w === '…' || /^<[^>]+>$/.test(w)) return '.+';
    if (!numbers && /^[a-j](10|[1-9])([a-j](10|[1-9])[a-z]?|[+-])$/.test(w)) return '\\S+';
    if (numbers) return esc(w);
    return w
      .split(/(-?\d+(?:\.\d+)?)/)
      .map((p, i) => (i % 2 ? '-?\\d+(?:\\.\\d+)?' : esc(p)))
      .join('');
  };
  const body = line
    .replace(/<[^>]*>/g, (p) => p.replace(/ /g, '\u0000'))
    .split(/( +)/)
    .map((w, i) => (i % 2 ? esc(w) : word(w.replace(/\u0000/g, ' '))))
    .join('');
  return new RegExp(`^${body}$`);
}

/** Each line of `shown` (`…` alone: any lines) among `printed`, in order. */
function expectLines(shown: string[], printed: string[], numbers: boolean, what: string): void {
  let at = 0;
  for (const want of shown.filter((l) => l !== '…' && l !== '')) {
    const k = printed.findIndex((l, i) => i >= at && pattern(want, numbers).test(l));
    expect(k, `'${want}' not printed in order by ${what}:\n${printed.join('\n')}`).toBeGreaterThanOrEqual(0);
    at = k + 1;
  }
}

/**
 * The engine spoken to as a transcript shows (`> ` sent, `< ` received): each command is sent once
 * the lines shown before it have come, and the engine must end with exit 0 after the last.
 */
async function converse(transcript: string[]): Promise<void> {
  const child = spawn(process.execPath, [CLI_BUILT], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const printed = (): string[] => out.split('\n');
  try {
    let at = 0;
    for (const line of transcript) {
      if (line.startsWith('> ')) {
        child.stdin.write(`${line.slice(2)}\n`);
        continue;
      }
      expect(line, 'a transcript line starts with > or <').toMatch(/^< /);
      const want = line.slice(2).replace(/^… /, ''); // `< … uciok`: lines, then uciok
      if (want === '…') continue;
      await until(() => printed().some((l, i) => i >= at && pattern(want, false).test(l)), 60_000, `'${want}'\n${out}`);
      at = printed().findIndex((l, i) => i >= at && pattern(want, false).test(l)) + 1;
    }
    expect(await exited, out).toBe(0);
  } finally {
    child.kill();
  }
}

// protocol.md's transcripts and the output it shows for `d`, `eval`, `perft` and `debug on`, from
// the engine itself (bench's block, a timing of seconds, is bench's tests').
describe.skipIf(!existsSync(CLI_BUILT))("protocol.md's examples, run as written", () => {
  const md = readFileSync(path.join(ROOT, 'protocol.md'), 'utf8');
  const transcripts = [...md.matchAll(/```\n((?:[<>] [^\n]*\n)+)```/g)].map((m) => m[1].trimEnd().split('\n'));

  it('has its transcripts: the handshake and the example session', () => {
    expect(transcripts.map((t) => t[0])).toEqual(['> uci', '> uci']);
  });

  for (const t of transcripts) {
    it.concurrent(`the transcript ${t.filter((l) => l.startsWith('> ')).join(' | ')}`, async () => {
      // the handshake's transcript ends at uciok: quit then
      await converse(t.at(-1)!.startsWith('> ') ? t : [...t, '> quit']);
    });
  }

  // the commands each block is the output of (the perft count is perft 3's from the start)
  for (const [heading, args, numbers] of [
    ['### `d`', ['d'], false],
    ['### `eval`', ['eval'], true],
    ['### `go perft <depth>`', ['perft 3'], true],
    ['### `debug on`', ['debug on', 'go movetime 300'], false],
  ] as const) {
    it.concurrent(`${heading.slice(4)}: node dist/cli.js ${args.map((a) => `"${a}"`).join(' ')}`, () => {
      const r = spawnSync(process.execPath, [CLI_BUILT, ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: stretched(2 * 60_000),
      });
      expect(r.status, r.stderr).toBe(0);
      expectLines(blockAfter(md, heading), r.stdout.split('\n'), numbers, args.join(' | '));
    });
  }
});
