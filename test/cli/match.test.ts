/**
 * `thoth match` as a user runs it: the entry point (src/cli.ts, through tsx) in a child process.
 * Its exit codes (2 for a bad setting, 1 for an engine that cannot start or a run stopped by a
 * fault, 130 for Ctrl-C, after the records so far are written) and its JSON report.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords, recordPlayers } from '../../src/core/record';
import { fake, fakeEngineScript, tempDir } from '../match/helpers';
import { ROOT, runThoth, thothArgv, type CommandRun } from './helpers';

const thothMatch = (args: string[]): Promise<CommandRun> => runThoth(['match', ...args]);

describe('thoth match on the command line', () => {
  it('exit codes: 2 for a bad setting, 1 for an engine that cannot start; one line, no stack', async () => {
    const [noTc, bogus, quote, missing] = await Promise.all([
      thothMatch(['-engine', 'cmd=/nonexistent', '-engine', 'cmd=/nonexistent']),
      thothMatch(['-engine', 'cmd=a', 'tc=1', '-engine', 'cmd=b', 'tc=1', '-bogus']),
      thothMatch(['-engine', 'cmd=node "x', 'tc=1', '-engine', 'cmd=b', 'tc=1']),
      thothMatch(['-engine', 'cmd=/nonexistent', 'tc=1', '-engine', 'cmd=/nonexistent', 'tc=1']),
    ]);
    expect(noTc).toMatchObject({
      code: 2,
      err: 'thoth match: -engine #1 has no time control (tc=, st=, depth= or nodes=, or give them with -each)\n',
    });
    expect(bogus).toMatchObject({
      code: 2,
      err: 'thoth match: unknown flag -bogus; thoth match --help lists the flags\n',
    });
    expect(quote).toMatchObject({
      code: 2,
      err: 'thoth match: -engine #1 cmd=: unclosed " quote (opened at character 6)\n',
    });
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(
      /^thoth match: engine 'nonexistent' cannot start: cannot run '\/nonexistent': .*ENOENT \(command: \/nonexistent\)\n$/,
    );
  });

  it('-pgnout into a missing folder: one line, exit 2; an engine that cannot start leaves no empty record file', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'games.pgn');
    const noFolder = join(dir, 'no', 'games.pgn');
    const [missingFolder, isFolder, noEngine] = await Promise.all([
      thothMatch([...fake('A'), ...fake('B'), '-each', 'tc=10+0.1', '-rounds', '1', '-pgnout', noFolder]),
      thothMatch([...fake('A'), ...fake('B'), '-each', 'tc=10+0.1', '-rounds', '1', '-pgnout', dir]),
      thothMatch([
        '-engine',
        'cmd=node new/dist/cli.js',
        'name=new',
        ...fake('B'),
        '-each',
        'tc=10+0.1',
        '-rounds',
        '1',
        '-pgnout',
        pgn,
      ]),
    ]);
    expect(missingFolder).toMatchObject({
      code: 2,
      out: '',
      err: `thoth match: cannot write the record file '${noFolder}': no such file or directory\n`,
    });
    expect(isFolder).toMatchObject({
      code: 2,
      out: '',
      err: `thoth match: cannot write the record file '${dir}': it is a directory\n`,
    });
    expect(noEngine.code, noEngine.err).toBe(1);
    expect(existsSync(pgn)).toBe(false);
  });

  it('Ctrl-C on the command: a clean end with the results so far, and the records saved', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'g.pgn');
    const script = fakeEngineScript();
    const child = spawn(
      process.execPath,
      thothArgv([
        'match',
        '-engine',
        'cmd=node',
        `args=${script} --delay 30`,
        'name=A',
        '-engine',
        'cmd=node',
        `args=${script} --delay 30`,
        'name=B',
        '-each',
        'tc=10+0.1',
        '-rounds',
        '1000',
        '-pgnout',
        pgn,
      ]),
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    let sent = false;
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (!sent && /Finished game/.test(out)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(err).toContain('Interrupted');
    expect(err).toMatch(/thoth match: interrupted after \d+ games?\n$/);
    expect(out).toMatch(/Score of A vs B: /);
    expect(out).toMatch(/Match interrupted after (\d+) games?/);
    const n = Number(/Match interrupted after (\d+) games?/.exec(out)![1]);
    expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(n);
  });

  it('a run stopped by a fault: the results and records so far, then exit code 1', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'g.pgn');
    const r = await thothMatch([
      ...fake('crasher', '--mode crash --at 3'),
      ...fake('ok'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '3',
      '-pgnout',
      pgn,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Match stopped: engine crasher: abandoned/m);
    expect(r.out).toMatch(/^Score of crasher vs ok: /m);
    expect(r.err).toMatch(/^thoth match: the run stopped: engine crasher: abandoned .*\n$/);
    expect(parseRecords(readFileSync(pgn, 'utf8')).games.length).toBeGreaterThan(0);
  });

  it('-report json=FILE: a start line, a line per game, summaries with W-L-D, pentanomial, Elo, nElo, LLR and decision', async () => {
    const dir = tempDir();
    const report = join(dir, 'r.jsonl');
    const pgn = join(dir, 'g.pgn');
    const r = await thothMatch([
      ...fake('a', '--seed 1'),
      ...fake('b', '--seed 2', ['tc=5+0.05']),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '2',
      '-ratinginterval',
      '2',
      '-sprt',
      'elo0=0',
      'elo1=10',
      '-rounds',
      '2',
      '-report',
      'json=' + report,
      '-pgnout',
      pgn,
      '-site',
      'here',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      type: 'start',
      engines: ['a', 'b'],
      variant: 'khet2',
      limits: ['10+0.1', '5+0.05'],
      games: 4,
      where: 'concurrency 1',
      resumed: 0,
    });
    expect(lines[0].sprt).toEqual({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05, model: 'normalized' });
    const games = lines.filter((l) => l.type === 'game');
    const records = parseRecords(readFileSync(pgn, 'utf8')).games;
    expect(games).toHaveLength(4);
    games.forEach((g, i) => {
      const rec = records[i];
      expect(g).toMatchObject({
        game: i + 1,
        white: recordPlayers(rec)[0],
        black: recordPlayers(rec)[1],
        result: rec.result,
        plies: rec.moves.length,
      });
      expect(rec.tags.get('Site')).toBe('here');
      // The players' limits differ: one time control per side, as cutechess writes them.
      const tc = (name: string): string => (name === 'a' ? '10+0.1' : '5+0.05');
      expect([rec.tags.get('WhiteTimeControl'), rec.tags.get('BlackTimeControl'), rec.tags.get('TimeControl')]).toEqual(
        [tc(g.white), tc(g.black), undefined],
      );
    });
    const summaries = lines.filter((l) => l.type === 'summary');
    expect(summaries.map((s) => [s.games, s.final])).toEqual([
      [2, false],
      [4, false],
      [4, true],
    ]);
    const last = summaries[2];
    expect(last.stop).toBe('done');
    const e = last.encounters[0];
    const wins = games.reduce((n, g) => n + ((g.white === 'a' ? g.score : 1 - g.score) === 1 ? 1 : 0), 0);
    expect(e).toMatchObject({ players: ['a', 'b'], games: 4, wins, model: 'pentanomial' });
    expect(e.wins + e.losses + e.draws).toBe(4);
    expect(e.pentanomial.reduce((x: number, y: number) => x + y, 0)).toBe(2);
    for (const k of ['elo', 'eloError', 'nElo', 'nEloError', 'los'])
      expect(e[k] === null || typeof e[k] === 'number', k).toBe(true);
    expect(e.sprt).toMatchObject({
      elo0: 0,
      elo1: 10,
      lower: expect.closeTo(-2.944, 3),
      upper: expect.closeTo(2.944, 3),
    });
    expect(['H0', 'H1', null]).toContain(e.sprt.decision);
    // The text summary says the same.
    expect(r.out).toContain(`Score of a vs b: ${e.wins} - ${e.losses} - ${e.draws}`);
    expect(r.out).toContain(`Ptnml(0-2): [${e.pentanomial.join(', ')}]`);
  });
});

describe('thoth match -resume with an odd record file', () => {
  /** The built `thoth match`, stopped after a generous while (a reader that loops never ends). */
  function matchBuilt(args: string[]): Promise<CommandRun> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'match', ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out, err });
      });
    });
  }

  it('resumes from a record whose spaces are form feeds; a binary file is exit 2 with one line', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'g.pgn');
    const args = [
      ...fake('A', '--seed 1 --deterministic'),
      ...fake('B', '--seed 2 --deterministic'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '1',
    ];
    const first = await matchBuilt([...args, '-pgnout', pgn]);
    expect(first.code, first.err).toBe(0);
    // the movetext's spaces (a tag's value keeps its own)
    writeFileSync(
      pgn,
      readFileSync(pgn, 'utf8').replace(
        /\n\n([^[][\s\S]*?)\n\n/g,
        (_, m: string) => `\n\n${m.replace(/ /g, '\f')}\n\n`,
      ),
    );
    expect(readFileSync(pgn, 'utf8')).toMatch(/\f/);
    const again = await matchBuilt([...args, '-resume', pgn]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`Resumed 2 finished games from ${pgn}`);
    const bin = join(dir, 'bin.pgn');
    writeFileSync(bin, Buffer.from([1, 0, 2, 0]));
    const binary = await matchBuilt([...args, '-resume', bin]);
    expect(binary).toMatchObject({
      code: 2,
      out: '',
      err: `thoth match: -resume: '${bin}' is not a record file (it holds binary data)\n`,
    });
  });
});
