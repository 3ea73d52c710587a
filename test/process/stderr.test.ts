/**
 * An engine that cannot start is reported with the line of its stderr that says why (a missing
 * module, an exception at import), not the tail of a Node stack: from real node processes, through
 * `thoth match` and `thoth gui`.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineStartError } from '../../src/match/errors';
import { StderrLines, meaningfulLine } from '../../src/process/stderr';
import { CLI_BUILT, runBuilt } from '../cli/helpers';
import { FAKE_ENGINE, startGui } from '../gui/helpers';
import { fake, run, tempDir } from '../match/helpers';

/** Engines that die at start-up, as node scripts in a temporary folder. */
function brokenEngines(): Record<string, string> {
  const dir = tempDir();
  const files: Record<string, string> = {
    'missing-package.mjs': "import 'no-such-engine-brain';\n",
    'missing-file.mjs': "import './brain.js';\n",
    'missing-cjs.cjs': "require('./brain-cjs');\n",
    'throws.mjs': "throw new TypeError('no network file given');\n",
  };
  const paths: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    paths[name] = join(dir, name);
  }
  return paths;
}

/** The stderr of `node <script>`, chunk by chunk as a child's is read. */
function stderrOf(script: string): Promise<StderrLines> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'ignore', 'pipe'] });
    const s = new StderrLines();
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => s.push(d));
    child.on('close', () => resolve(s));
  });
}

const engines = brokenEngines();
const expected: Record<string, RegExp> = {
  'missing-package.mjs':
    /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package 'no-such-engine-brain' imported from \S+missing-package\.mjs$/,
  'missing-file.mjs':
    /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '\S+brain\.js' imported from \S+missing-file\.mjs$/,
  'missing-cjs.cjs': /^Error: Cannot find module '\.\/brain-cjs'$/,
  'throws.mjs': /^TypeError: no network file given$/,
};

describe('the line of stderr that says why', () => {
  for (const [name, re] of Object.entries(expected)) {
    it(`node ${name}`, async () => {
      const s = await stderrOf(engines[name]);
      expect(s.lines().some((l) => /^\s+at /.test(l))).toBe(true); // a stack trace was there
      expect(s.meaningful()).toMatch(re);
    });
  }

  it("Python's last traceback line, else the first line that is not noise, clipped", () => {
    expect(
      meaningfulLine([
        'Traceback (most recent call last):',
        '  File "engine.py", line 1, in <module>',
        "ModuleNotFoundError: No module named 'numpy'",
      ]),
    ).toBe("ModuleNotFoundError: No module named 'numpy'");
    expect(meaningfulLine(['', 'engine: cannot open brain.bin', 'Node.js v20.0.0'])).toBe(
      'engine: cannot open brain.bin',
    );
    expect(meaningfulLine(['    at x (y.js:1:1)', 'Node.js v20.0.0'])).toBeUndefined();
    expect(meaningfulLine(['x'.repeat(500)])).toBe('x'.repeat(200) + '…');
  });

  it('keeps the first and the last lines of a long stderr', () => {
    const s = new StderrLines(3);
    s.push('Error: first\nb\nc\nd\ne\nf\ng\nlast without end');
    expect(s.lines()).toEqual(['Error: first', 'b', 'c', 'e', 'f', 'g', 'last without end']);
  });
});

describe('thoth match: an engine that cannot start', () => {
  it('is reported with its command and the line that says why', async () => {
    const p = run([
      '-engine',
      'cmd=node',
      `args=${engines['missing-package.mjs']}`,
      'name=broken',
      ...fake('ok'),
      '-each',
      'tc=10+0.1',
    ]);
    await expect(p).rejects.toThrow(EngineStartError);
    const e = (await p.catch((x: unknown) => x)) as Error;
    expect(e.message).toMatch(
      /^engine 'broken' cannot start: the process ended \(exit code 1\) before 'uciok'; stderr: Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package 'no-such-engine-brain' imported from \S+ \(command: node \S+missing-package\.mjs\)$/,
    );
    expect(e.message).not.toMatch(/Node\.js v|\bat /);
  });
});

describe.skipIf(!existsSync(CLI_BUILT))('thoth gui --engine <bad>', () => {
  it('says so on the terminal and exits 1 (a node script that throws at import)', async () => {
    const r = await runBuilt(['gui', '--port', '0', '--engine', `node ${engines['missing-file.mjs']}`]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /^thoth gui: the engine exited during the handshake \(code 1; command: \S+ \S+missing-file\.mjs\): Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '\S+brain\.js' imported from \S+\n$/,
    );
  });

  it('an engine too slow to answer: the step and the flag that gives it longer, exit 1', async () => {
    // a node program that never answers (so the step is the first whatever the machine's load)
    const mute = join(tempDir(), 'mute.cjs');
    writeFileSync(mute, 'setInterval(() => {}, 1000);\n');
    const r = await runBuilt(['gui', '--port', '0', '--start-timeout', '1500', '--engine', `node ${mute}`]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /^thoth gui: the engine did not answer 'uci' with 'uciok' within 1500 ms \(command: \S+ \S+mute\.cjs\); --start-timeout MS gives it longer \(now 1500\)\n$/,
    );
  });

  it('Ctrl-C stops the server and its engine: exit code 130, as every command Ctrl-C stops', async () => {
    const gui = await startGui(['--engine', FAKE_ENGINE]);
    expect(await gui.stop()).toBe(130);
    expect(gui.output()).toMatch(/^Stopping\.$/m);
    expect(gui.output()).toMatch(/^thoth gui: interrupted: the server and its engines are stopped$/m);
  });

  it('a command that cannot be run', async () => {
    const r = await runBuilt(['gui', '--port', '0', '--engine', '/no/such/engine']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('thoth gui: cannot start the engine (/no/such/engine): spawn /no/such/engine ENOENT\n');
  });
});
