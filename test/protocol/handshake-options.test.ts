/** The built engine: handshakes (uci, ugi, uki) and every option of `setoption`. */
import { wdlOf } from '../../src/core/win-chance';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUPS } from '../../src/core/index';
import { ok } from '../../src/core/result';
import { createOptions, maxThreads, optionLine, type OptionSpec } from '../../src/engine/options';
import { nodeHost } from '../../src/node/node-host';
import { KNOWN_COMMANDS, UciEngine } from '../../src/protocol/uci';
import { Engine, ROOT, assertBuilt, startEngine } from './spawn-engine';

/** The declared options (the handlers are not run here: the engine process is what is tested). */
const OPTIONS: OptionSpec[] = createOptions(
  {
    resizeHash: () => {},
    clearHash: () => {},
    setThreads: () => {},
    variantChanged: () => {},
    rulesChanged: () => {},
    loadNetwork: () => ok(undefined),
    evaluationChanged: () => {},
    hasNetwork: () => existsSync(path.join(ROOT, 'nets', 'default.nnue')),
  },
  maxThreads(nodeHost.cores),
).all.map((o) => o.spec);

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The options the protocol promises (protocol.md, `uci`), as `option` lines must declare them (independent of options.ts). */
const REQUIRED_OPTIONS: Array<{ name: string; type: string; default?: string }> = [
  { name: 'Hash', type: 'spin', default: '16' },
  { name: 'Clear Hash', type: 'button' },
  { name: 'Threads', type: 'spin', default: '1' },
  { name: 'MultiPV', type: 'spin', default: '1' },
  { name: 'Ponder', type: 'check' },
  { name: 'Move Overhead', type: 'spin', default: '10' },
  { name: 'UCI_Variant', type: 'combo', default: 'khet2' },
  { name: 'PharaohRotation', type: 'check', default: 'false' },
  { name: 'TwoScarabRotations', type: 'check', default: 'false' },
  { name: 'SwapOntoReserved', type: 'check', default: 'false' },
  { name: 'SwapWithSphinx', type: 'check', default: 'false' },
  { name: 'NoRemovalDraw', type: 'spin', default: '100' },
];

interface OptionLine {
  name: string;
  type: string;
  default?: string;
  min?: number;
  max?: number;
  vars: string[];
}

/** Parses `option name <id...> type <t> [default <x>] [min <n>] [max <n>] [var <v>]*`. */
function parseOptionLine(line: string): OptionLine {
  const m = /^option name (.+?) type (\S+)(.*)$/.exec(line);
  if (!m) throw new Error(`not an option line: ${line}`);
  const rest = m[3]
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  const o: OptionLine = { name: m[1], type: m[2], vars: [] };
  for (let i = 0; i < rest.length; i += 2) {
    const [k, v] = [rest[i], rest[i + 1]];
    if (k === 'default') o.default = v;
    else if (k === 'min') o.min = Number(v);
    else if (k === 'max') o.max = Number(v);
    else if (k === 'var') o.vars.push(v);
    else throw new Error(`unexpected '${k}' in option line: ${line}`);
  }
  return o;
}

describe.each(['uci', 'ugi', 'uki'])('handshake %s', (cmd) => {
  let e: Engine;
  beforeAll(() => assertBuilt());
  afterAll(() => e?.kill());

  it(`answers id name, id author, the option lines, then ${cmd}ok`, async () => {
    e = new Engine();
    const out = await e.command(cmd, new RegExp(`^${cmd}ok$`));
    expect(out[0]).toBe(`id name Thoth ${VERSION}`);
    expect(out[1]).toMatch(/^id author \S.*$/);
    const body = out.slice(2, -1);
    expect(body.length).toBeGreaterThan(0);
    for (const l of body) expect(l).toMatch(/^option name /);
    // one line per declared option, in the declaration's order
    expect(body).toEqual(OPTIONS.map(optionLine));
    const opts = body.map(parseOptionLine);
    for (const want of REQUIRED_OPTIONS) {
      const got = opts.find((o) => o.name === want.name);
      expect(got, `option ${want.name}`).toBeDefined();
      expect(got!.type).toBe(want.type);
      if (want.default !== undefined) expect(got!.default).toBe(want.default);
    }
    const variant = opts.find((o) => o.name === 'UCI_Variant')!;
    expect(variant.vars.sort()).toEqual(['deflexion', 'khet1', 'khet2']);
    for (const o of opts) {
      if (o.type === 'spin') {
        expect(o.min).toBeLessThanOrEqual(Number(o.default));
        expect(o.max).toBeGreaterThanOrEqual(Number(o.default));
      }
    }
    // readyok at once, and nothing else pending
    expect(await e.sync()).toEqual([]);
    expect((await e.quit()).code).toBe(0);
  });
});

describe('the handshake before the search threads (protocol.md, `uci`)', () => {
  beforeAll(() => assertBuilt());

  it('uciok comes before the search threads start; they start and warm up at isready, which waits for them', async () => {
    // One write: however slow the machine, the order of the lines is the engine's, not the load's.
    const e = new Engine();
    try {
      e.send('debug on\nuci\nisready');
      const out = (await e.collect(/^readyok$/)).map((l) => l.text);
      const at = (re: RegExp): number => out.findIndex((l) => re.test(l));
      const uciok = at(/^uciok$/);
      const starting = at(/^info string debug: search threads starting: 1 thread\(s\), hash 16 MB/);
      const ready = at(/^info string debug: search threads ready after \d+ ms$/);
      expect(uciok, out.join('\n')).toBeGreaterThan(0);
      expect(starting, out.join('\n')).toBeGreaterThan(uciok);
      expect(ready, out.join('\n')).toBeGreaterThan(starting);
      expect(ready).toBe(out.length - 2);
      // a second isready: the threads are up, readyok at once and no second start
      expect(await e.sync()).toEqual([]);
      expect((await e.quit()).code).toBe(0);
    } finally {
      e.kill();
    }
  });

  it('the threads start with the options set before isready (no pool of the default size first)', async () => {
    const e = new Engine();
    try {
      e.send('debug on\nuci\nsetoption name Threads value 2\nsetoption name Hash value 2\nisready');
      const out = (await e.collect(/^readyok$/)).map((l) => l.text);
      expect(out.filter((l) => l.includes('search threads starting'))).toEqual([
        'info string debug: search threads starting: 2 thread(s), hash 2 MB, then a warm-up search',
      ]);
      expect((await e.quit()).code).toBe(0);
    } finally {
      e.kill();
    }
  });

  it('a go without isready starts the threads itself and searches as asked', async () => {
    const e = new Engine();
    try {
      e.send('uci\ngo depth 4');
      const out = (await e.collect(/^bestmove /)).map((l) => l.text);
      expect(out.filter((l) => l.startsWith('info depth')).map((l) => l.split(' ')[2])).toEqual(['1', '2', '3', '4']);
      expect(out.at(-1)).toMatch(/^bestmove [a-j]\d\S* ponder \S+$/);
      expect((await e.quit()).code).toBe(0);
    } finally {
      e.kill();
    }
  });
});

describe('the handshake and the warm-up (protocol.md, `uci`)', () => {
  it('uciok at once while the search threads still warm up; readyok only once they are warm', async () => {
    // In-process with the Node host (its workers run the sources): the warm-up is a promise, never
    // settled while input() runs, so an answer written before input() returns did not wait for it.
    let readyok: () => void = () => {};
    const ready = new Promise<void>((r) => {
      readyok = r;
    });
    const lines: string[] = [];
    const e = new UciEngine((l) => {
      lines.push(l);
      if (l === 'readyok') readyok();
    }, nodeHost);
    const quit = new Promise<void>((r) => e.setQuitHandler(r));
    try {
      e.input('uci');
      expect(lines[0]).toBe(`id name Thoth ${VERSION}`);
      expect(lines.at(-1)).toBe('uciok');
      e.input('isready');
      expect(lines).not.toContain('readyok');
      await ready;
      expect(lines.filter((l) => l === 'uciok' || l === 'readyok')).toEqual(['uciok', 'readyok']);
    } finally {
      e.input('quit');
      await quit;
    }
  });
});

/** Valid values for an option, from its declaration. */
function validValues(o: OptionSpec): Array<string | undefined> {
  switch (o.type) {
    case 'button':
      return [undefined];
    case 'check':
      return ['true', 'false'];
    case 'combo':
      return o.vars!.slice();
    case 'spin': {
      const vals = new Set([o.min!, o.max!, Number(o.default)]);
      // keep the test fast: no 8 GB hash table, no hundred threads
      if (o.name === 'Hash') return ['1', '2', '16'];
      if (o.name === 'Threads') return [...new Set([o.min!, Math.min(2, o.max!), Number(o.default)])].map(String);
      return [...vals].map(String);
    }
    case 'string':
      // EvalFile: the shipped network, when the package has one (another file: test/protocol/eval-file.test.ts)
      return existsSync(path.join(ROOT, 'nets', 'default.nnue')) ? [String(o.default)] : [];
    default:
      return ['x'];
  }
}

describe('setoption', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine();
  });
  afterAll(() => e?.kill());

  /** Sends a line, then isready; returns the lines in between. */
  async function answer(line: string): Promise<string[]> {
    e.send(line);
    return e.sync();
  }

  it('accepts every option with every kind of valid value, silently', async () => {
    for (const o of OPTIONS) {
      for (const v of validValues(o)) {
        const line = `setoption name ${o.name}${v === undefined ? '' : ` value ${v}`}`;
        expect(await answer(line), line).toEqual([]);
      }
    }
    // back to the defaults
    for (const o of OPTIONS) {
      if (o.type === 'string' && validValues(o).length === 0) continue;
      if (o.default !== undefined)
        expect(await answer(`setoption name ${o.name} value ${String(o.default)}`)).toEqual([]);
    }
  });

  it('takes option names case-insensitively', async () => {
    for (const line of [
      'setoption name hash value 4',
      'setoption name HASH value 16',
      'setoption name multipv value 2',
      'setoption name MultiPv value 1',
      'setoption name move overhead value 20',
      'setoption name MOVE OVERHEAD value 10',
      'setoption name clear hash',
      'setoption name uci_variant value khet2',
      'setoption name pharaohrotation value false',
      'setoption name noremovaldraw value 100',
      'setoption name ponder value false',
      'setoption name threads value 1',
    ]) {
      expect(await answer(line), line).toEqual([]);
    }
  });

  it('answers bad values and unknown names with info string error and stays alive', async () => {
    const bad = [
      'setoption name Hash value 0',
      'setoption name Hash value 999999',
      'setoption name Hash value abc',
      'setoption name Hash value 1.5',
      'setoption name Hash',
      'setoption name Threads value 0',
      'setoption name MultiPV value 0',
      'setoption name MultiPV value x',
      'setoption name Move Overhead value -1',
      'setoption name Ponder value maybe',
      'setoption name PharaohRotation value 1',
      'setoption name UCI_Variant value chess',
      'setoption name UCI_Variant',
      'setoption name NoRemovalDraw value -5',
      'setoption name NoSuchOption value 1',
      'setoption name Hashes value 16',
      'setoption name',
      'setoption value 3',
      'setoption',
    ];
    for (const line of bad) {
      const out = await answer(line);
      expect(out, line).toHaveLength(1);
      expect(out[0], line).toMatch(/^info string error: /);
    }
    // nothing changed: still Khet 2.0, MultiPV 1
    expect(await e.kfen()).toBe(SETUPS.khet2.classic);
    e.send('go depth 2');
    const lines = (await e.collect(/^bestmove /)).map((l) => l.text);
    expect(lines.filter((l) => / multipv [2-9]/.test(l))).toEqual([]);
  });

  it('UCI_Variant switches the edition and sets up its Classic position', async () => {
    for (const v of ['khet1', 'deflexion', 'khet2'] as const) {
      expect(await answer(`setoption name UCI_Variant value ${v}`)).toEqual([]);
      expect(await e.kfen()).toBe(SETUPS[v].classic);
      e.send('position startpos');
      expect(await e.kfen()).toBe(SETUPS[v].classic);
    }
  });

  it('PharaohRotation adds the Pharaoh rotation (Classic perft 1: 77 → 78)', async () => {
    const nodes = async (): Promise<number> => {
      const out = await e.command('go perft 1', /^Nodes\/second: /);
      return Number(/^Nodes searched: (\d+)$/m.exec(out.join('\n'))![1]);
    };
    e.send('position startpos');
    expect(await nodes()).toBe(77);
    expect(await answer('setoption name PharaohRotation value true')).toEqual([]);
    e.send('position startpos');
    expect(await nodes()).toBe(78);
    expect(await answer('setoption name PharaohRotation value false')).toEqual([]);
    e.send('position startpos');
    expect(await nodes()).toBe(77);
  });

  it("the dialect switches (docs/rules.md §3.1) change the moves: ddket's 81 first moves, a swap onto j5", async () => {
    const nodes = async (): Promise<number> => {
      const out = await e.command('go perft 1', /^Nodes\/second: /);
      return Number(/^Nodes searched: (\d+)$/m.exec(out.join('\n'))![1]);
    };
    expect(await answer('setoption name PharaohRotation value true')).toEqual([]);
    expect(await answer('setoption name TwoScarabRotations value true')).toEqual([]);
    e.send('position startpos');
    expect(await nodes()).toBe(81);
    expect(await answer('setoption name PharaohRotation value false')).toEqual([]);
    expect(await answer('setoption name TwoScarabRotations value false')).toEqual([]);
    // a Silver Scarab on j5 next to a Red Pyramid: the swap pushes the Pyramid onto file j
    e.send('position kfen xv7k1/10/10/8pvS^/10/4K5/10/9X^ s 0 1');
    expect(await nodes()).toBe(14);
    expect(await answer('setoption name SwapOntoReserved value true')).toEqual([]);
    expect(await nodes()).toBe(15);
    expect(await answer('setoption name SwapOntoReserved value false')).toEqual([]);
    expect(await nodes()).toBe(14);
  });

  it('UCI_ShowWDL adds wdl W D L (per mille, from the fitted curve) after each score', async () => {
    e.send('position startpos');
    const off = await e.command('go depth 2', /^bestmove /);
    expect(off.filter((l) => / wdl /.test(l))).toEqual([]);
    expect(await answer('setoption name UCI_ShowWDL value true')).toEqual([]);
    const on = await e.command('go depth 2', /^bestmove /);
    const scored = on.filter((l) => / score /.test(l));
    expect(scored.length).toBeGreaterThan(0);
    for (const l of scored) {
      const m = /score (cp|mate) (-?\d+)(?: lowerbound| upperbound)? wdl (\d+) (\d+) (\d+)/.exec(l);
      expect(m, l).not.toBeNull();
      const [, kind, v, w, d, lo] = m!;
      expect([Number(w), Number(d), Number(lo)]).toEqual(wdlOf({ kind: kind as 'cp', value: Number(v) }));
    }
    expect(await answer('setoption name UCI_ShowWDL value false')).toEqual([]);
  });

  it('NoRemovalDraw sets the no-removal limit (0 = off)', async () => {
    const kfen = 'xv9/10/10/2k7/10/10/10/4K4X^ s 150 80';
    e.send(`position kfen ${kfen}`);
    expect(await e.command('query gameover', /^response /)).toEqual(['response true']);
    expect(await answer('setoption name NoRemovalDraw value 0')).toEqual([]);
    expect(await e.command('query gameover', /^response /)).toEqual(['response false']);
    expect(await answer('setoption name NoRemovalDraw value 200')).toEqual([]);
    expect(await e.command('query gameover', /^response /)).toEqual(['response false']);
    expect(await answer('setoption name NoRemovalDraw value 150')).toEqual([]);
    expect(await e.command('query gameover', /^response /)).toEqual(['response true']);
    expect(await answer('setoption name NoRemovalDraw value 100')).toEqual([]);
  });

  it('Hash resizes the table and the engine still searches', async () => {
    for (const mb of [1, 64, 16]) {
      expect(await answer(`setoption name Hash value ${mb}`)).toEqual([]);
      e.send('position startpos');
      e.send('go depth 3');
      await e.waitFor(/^bestmove \S+/);
    }
    expect(await answer('setoption name Clear Hash')).toEqual([]);
    expect(await answer('ucinewgame')).toEqual([]);
  });
  it('help: one line per command of the table (every command word is known), also during a search', async () => {
    const out = await e.command('help', /^info string {3}query /);
    expect(out[0]).toBe('info string Thoth speaks a UCI-like protocol (see protocol.md). Commands:');
    const described = out.slice(1).map((l) => l.replace(/^info string {3}/, '').split(/\s+/)[0]);
    expect(described).toEqual([
      'uci',
      'isready',
      'setoption',
      'ucinewgame',
      'position',
      'go',
      'go',
      'stop',
      'debug',
      'd',
      'eval',
      'bench',
      'query',
    ]);
    expect(KNOWN_COMMANDS).toEqual(
      expect.arrayContaining([
        ...described,
        'ugi',
        'uki',
        'uginewgame',
        'ukinewgame',
        'ponderhit',
        'quit',
        'help',
        'perft',
      ]),
    );
    expect(KNOWN_COMMANDS).toHaveLength(20);
    // answered at once during a search, which goes on
    e.send('go infinite');
    await e.waitFor(/^info depth 1 /, 10_000);
    const during = await e.command('help', /^info string {3}query /);
    expect(during.filter((l) => l.startsWith('bestmove'))).toEqual([]);
    e.send('stop');
    await e.waitFor(/^bestmove /);
    expect(await e.sync()).toEqual([]);
  });
});
