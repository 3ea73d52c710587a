/**
 * The command line as scripts see it: `--help` for every subcommand, "did you mean" for mistyped
 * commands and options (exit code 2), perft's divide and JSON. Runs the built entry point in child processes.
 */
import { describe, expect, it } from 'vitest';
import { runBuilt } from './helpers';

/** Each subcommand and options its help must list, with their defaults. */
const HELP: [string, string[]][] = [
  [
    'perft',
    [
      '--divide',
      '--threads N',
      '(default: 1)',
      '--json',
      '--variant khet2|khet1|deflexion',
      '(default: khet2)',
      '--moves m1 m2 …',
    ],
  ],
  [
    'analyse',
    [
      '--depth N',
      '(default: 8)',
      '--game FILE',
      '--out FILE',
      '--graph FILE',
      '--json',
      '--threshold PCT',
      '(default: 5)',
      '--hash MB',
      '(default: 16)',
    ],
  ],
  [
    'picture',
    [
      '--out FILE',
      '--game FILE',
      '--animate',
      '--beams none|mover|both',
      '(default: both)',
      '--danger',
      '--delay MS',
      '(default: 1000)',
    ],
  ],
  ['genfens', ['--seed S', '--plies P', '(default: 4)', '--setup', '(default: all)', '--out FILE']],
  ['gui', ['--port N', '(default: 7700)', '--engine "<command>"', '--verbose']],
  [
    'match',
    [
      '-engine cmd=',
      '-rounds N',
      '(default 1;',
      '-concurrency N',
      '-sprt',
      '-pgnout FILE',
      '-report json=FILE',
      '-resume FILE',
      '-distributed redis[s]://',
      'sign=KEY',
      'ca=FILE',
      'passwordfile=FILE',
      'Exit codes:',
    ],
  ],
  [
    'worker',
    [
      'redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB]',
      '--trust KEY|FILE',
      '(default: $THOTH_TRUST)',
      '--allow-engine PATH',
      '--redis-ca FILE',
      '--redis-password-file FILE',
      '--concurrency N',
      '(default: 1)',
      '--lock-duration MS',
      '(default: 30000)',
      '--exit-when-idle',
    ],
  ],
  [
    'match-status',
    [
      'redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB] [RUN]',
      '--redis-ca FILE',
      '--follow',
      '--json',
      '--page',
      '--port N',
      '(default: 0)',
    ],
  ],
  ['stats', ['FILE.pgn', '-sprt', '-anchor NAME', '-drawscore X', '(default 0.5)']],
];

describe('help', () => {
  it('--help, -h and thoth help <command>: usage and every option with its default, exit 0, nothing on stderr', async () => {
    const [short, viaHelp, ...runs] = await Promise.all([
      runBuilt(['perft', '-h']),
      runBuilt(['help', 'perft']),
      ...HELP.map(([cmd]) => runBuilt([cmd, '--help'])),
    ]);
    HELP.forEach(([cmd, words], i) => {
      const r = runs[i];
      expect(r.code, cmd).toBe(0);
      expect(r.err, cmd).toBe('');
      expect(r.out, cmd).toMatch(new RegExp(`^Usage: thoth ${cmd}`));
      for (const w of words) expect(r.out, `${cmd}: ${w}`).toContain(w);
    });
    expect(short).toEqual(runs[0]);
    expect(viaHelp).toEqual(runs[0]);
  });

  it('thoth help lists every command and the exit codes', async () => {
    const r = await runBuilt(['help']);
    expect(r.code).toBe(0);
    for (const c of [
      'thoth perft <depth>',
      'thoth analyse',
      'thoth match',
      'thoth genfens <N>',
      'thoth gui',
      'thoth bench',
      'Exit codes: 0 done, 1 failed',
    ]) {
      expect(r.out).toContain(c);
    }
  });
});

describe('mistakes exit 2 with one line and a hint', () => {
  it('unknown commands and options', async () => {
    const [perfft, bogus, divde, single, pgnot, noDepth, helpTopic] = await Promise.all([
      runBuilt(['perfft', '3']),
      runBuilt(['frobnicate']),
      runBuilt(['perft', '3', '--divde']),
      runBuilt(['analyse', '-depth', '3']),
      runBuilt(['match', '-engine', 'cmd=a', 'tc=1', '-engine', 'cmd=b', 'tc=1', '-pgnot', 'x.pgn']),
      runBuilt(['perft']),
      runBuilt(['help', 'perfft']),
    ]);
    expect(perfft).toEqual({
      code: 2,
      out: '',
      err: "thoth: unknown command 'perfft' (did you mean 'perft'?); thoth help lists the commands\n",
    });
    expect(bogus).toEqual({
      code: 2,
      out: '',
      err: "thoth: unknown command 'frobnicate'; thoth help lists the commands\n",
    });
    expect(divde).toMatchObject({
      code: 2,
      out: '',
      err: "thoth perft: unknown option --divde (did you mean '--divide'?); thoth perft --help lists the options\n",
    });
    expect(single).toMatchObject({
      code: 2,
      err: "thoth analyse: unknown option -depth (did you mean '--depth'?); thoth analyse --help lists the options\n",
    });
    expect(pgnot).toMatchObject({
      code: 2,
      err: "thoth match: unknown flag -pgnot (did you mean '-pgnout'?); thoth match --help lists the flags\n",
    });
    expect(noDepth).toMatchObject({
      code: 2,
      err: 'thoth perft: give a depth, e.g. thoth perft 5 (thoth perft --help)\n',
    });
    expect(helpTopic).toMatchObject({ code: 2, err: "thoth help: no command 'perfft' (did you mean 'perft'?)\n" });
  });

  // (protocol commands as arguments that all succeed, exit 0: test/protocol/lifecycle.test.ts)
  it('a protocol command as an argument that fails: its error line, the message on stderr, exit 2; the others still run', async () => {
    const [depth, bad] = await Promise.all([
      runBuilt(['bench', '99']),
      runBuilt(['position setup dynasty', 'go depth x', 'd']),
    ]);
    expect(depth).toEqual({
      code: 2,
      out: "info string error: bench: depth must be a whole number from 1 to 30, not '99'\n",
      err: "thoth: bench: depth must be a whole number from 1 to 30, not '99'\n",
    });
    expect(bad.code).toBe(2);
    expect(bad.out).toContain("info string error: go: 'depth' needs a whole number");
    expect(bad.out).toContain('KFEN');
    expect(bad.out).not.toContain('bestmove');
    expect(bad.err).toBe("thoth: go: 'depth' needs a whole number, 0 or more, not 'x'; nothing started\n");
  });

  it('bench --help and thoth help bench: its usage, exit 0', async () => {
    const [dash, viaHelp] = await Promise.all([runBuilt(['bench', '--help']), runBuilt(['help', 'bench'])]);
    expect(dash.code).toBe(0);
    expect(dash.err).toBe('');
    expect(dash.out).toMatch(/^Usage: thoth bench \[depth \[threads\]\]/);
    expect(dash.out).toContain('(default: 6)');
    expect(viaHelp).toEqual(dash);
  });
});

describe('thoth perft', () => {
  it('--divide prints every root move, then the total; --json is one object that parses', async () => {
    const [text, json, plain] = await Promise.all([
      runBuilt(['perft', '2', '--divide']),
      runBuilt(['perft', '2', '--divide', '--json', '--setup', 'imhotep']),
      runBuilt(['perft', '3', '--json']),
    ]);
    expect(text.code).toBe(0);
    expect(text.err).toBe('');
    const lines = text.out.split('\n');
    const divide = lines.filter((l) => /^[a-j][1-8]\S*: \d+$/.test(l)).map((l) => Number(l.split(': ')[1]));
    const total = Number(/^Nodes searched: (\d+)$/m.exec(text.out)![1]);
    expect(divide.length).toBeGreaterThan(10);
    expect(divide.reduce((a, b) => a + b, 0)).toBe(total);
    const j = JSON.parse(json.out);
    expect(json.out.trim().split('\n')).toHaveLength(1);
    expect(j).toMatchObject({ depth: 2, variant: 'khet2' });
    expect(j.kfen).toMatch(/ s 0 1$/);
    expect(j.divide.reduce((a: number, d: { nodes: number }) => a + d.nodes, 0)).toBe(j.nodes);
    const p = JSON.parse(plain.out);
    expect(p.nodes).toBeGreaterThan(total);
    expect(p.divide).toBeUndefined();
    expect(typeof p.timeMs).toBe('number');
    expect(typeof p.nps).toBe('number');
  });

  it('genfens: an output file that cannot be written is a one-line error before any work', async () => {
    const r = await runBuilt(['genfens', '2', '--out', '/nonexistent/x.kfen']);
    expect(r).toEqual({
      code: 2,
      out: '',
      err: "thoth genfens: cannot write '/nonexistent/x.kfen': no such file or directory\n",
    });
  });
});

describe('positions and moves on the command line', () => {
  /** Silver's Pharaoh alone with the Sphinxes: no Red Pharaoh. */
  const NO_RED_PHARAOH = 'xv9/10/10/10/10/10/10/4K4X^ s 0 1';

  it('perft --moves a b 3: the moves end at the depth (a word that is not a move), before or after the other options', async () => {
    const [after, before, quoted, bad] = await Promise.all([
      runBuilt(['perft', '--moves', 'j4i4', 'a4a3', '3', '--json']),
      runBuilt(['perft', '3', '--moves', 'j4i4', 'a4a3', '--json']),
      runBuilt(['perft', '--moves', 'j4i4 a4a3', '3', '--json']),
      runBuilt(['perft', '--moves', 'j4i4', 'e9z9', '3']),
    ]);
    expect(after.code, after.err).toBe(0);
    const a = JSON.parse(after.out);
    expect(a).toMatchObject({ depth: 3, nodes: JSON.parse(before.out).nodes });
    expect(JSON.parse(quoted.out).nodes).toBe(a.nodes);
    expect(a.kfen).toMatch(/ s \d+ 2$/); // two plies were played: move 2, Silver to move
    expect(bad).toEqual({
      code: 2,
      out: '',
      err: "thoth perft: one depth only, not 'e9z9 3' (the moves end at the first word that is not a move)\n",
    });
  });

  it('a KFEN without both Pharaohs is refused for play (analyse, the protocol), and by perft unless --allow-no-pharaoh', async () => {
    const [analyse, protocol, perft, allowed] = await Promise.all([
      runBuilt(['analyse', '--kfen', NO_RED_PHARAOH, '--depth', '1']),
      runBuilt([`position kfen ${NO_RED_PHARAOH}`, 'd']),
      runBuilt(['perft', '2', '--kfen', NO_RED_PHARAOH]),
      runBuilt(['perft', '2', '--kfen', NO_RED_PHARAOH, '--allow-no-pharaoh', '--json']),
    ]);
    const why = 'bad KFEN: placement: no Red Pharaoh: a position for play needs both (at character 1)';
    expect(analyse).toEqual({ code: 2, out: '', err: `thoth analyse: ${why}\n` });
    expect(protocol.code).toBe(2);
    expect(protocol.out).toContain(`info string error: position: ${why}`);
    expect(protocol.err).toBe(`thoth: position: ${why}; position unchanged\n`);
    expect(perft).toEqual({ code: 2, out: '', err: `thoth perft: ${why}\n` });
    expect(allowed.code, allowed.err).toBe(0);
    expect(JSON.parse(allowed.out).nodes).toBeGreaterThan(0);
  });
});
