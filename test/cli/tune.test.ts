/** `thoth tune` as a user runs it: real engine processes, a state file that a second run goes on from. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuilt, runThoth } from './helpers';
import { stretched } from '../slowness';

describe('thoth tune', () => {
  it(
    'plays its iterations, keeps the state, and goes on from it',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'thoth-tune-'));
      const state = join(dir, 'run.json');
      const args = [
        'tune',
        '--state',
        state,
        '--params',
        'LmpBase,AspirationDelta:10',
        '--limit',
        'nodes=400',
        '--seed',
        '5',
      ];
      // run from another folder than the clone: the default engine is this Thoth's, not ./dist/cli.js
      const first = await runBuilt([...args, '--iterations', '2'], dir);
      expect(first.err).toBe('');
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/^Tuning LmpBase, AspirationDelta from iteration 1 of 2/);
      expect(first.out).toMatch(
        /iteration 2\/2: plus \d+,\d+ minus \d+,\d+ result [+-]\d+; LmpBase=[\d.]+ AspirationDelta=[\d.]+/,
      );
      const s = JSON.parse(readFileSync(state, 'utf8'));
      expect(s.k).toBe(3);
      expect(s.history.map((h: { games: number }) => h.games)).toEqual([2, 2]);
      // Done already: nothing more is played.
      const again = await runThoth([...args, '--iterations', '2']);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/from iteration 3 of 2[^]*Done after iteration 2: LmpBase=\d+ AspirationDelta=\d+/);
      expect(again.out).not.toMatch(/iteration 3\//);
    },
    stretched(120_000),
  );

  it(
    'a match that cannot begin stops the run: where it stopped, the reason in one line, exit 1',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'thoth-tune-'));
      const r = await runThoth([
        'tune',
        '--state',
        join(dir, 'run.json'),
        '--params',
        'LmpBase',
        '--limit',
        'nodes=400',
        '--engine',
        `node ${join(dir, 'no-engine.js')}`,
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/\nStopped after iteration 0: LmpBase=\d+\n$/);
      expect(r.err).toMatch(/^thoth tune: a match stopped: engine 'plus' cannot start: .*no-engine\.js.*\n$/);
      expect(r.err.split('\n')).toHaveLength(2);
    },
    stretched(60_000),
  );

  it("refuses bad arguments and another run's state with one line, exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thoth-tune-'));
    const other = join(dir, 'other.json');
    const text = join(dir, 'text.json');
    writeFileSync(text, 'not a state\n');
    writeFileSync(
      other,
      JSON.stringify({ params: [{ name: 'LmpScale' }], theta: [3], history: [], k: 1, iterations: 5, seed: 1 }),
    );
    const [noState, unknown, step, mismatch, notJson, both, noEnd, badNodes] = await Promise.all([
      runThoth(['tune']),
      runThoth(['tune', '--state', join(dir, 'a.json'), '--params', 'Bogus']),
      runThoth(['tune', '--state', join(dir, 'b.json'), '--params', 'LmpBase:0']),
      runThoth(['tune', '--state', other, '--params', 'LmpBase']),
      runThoth(['tune', '--state', text, '--params', 'LmpBase']),
      runThoth(['tune', '--state', join(dir, 'c.json'), '--tc', '1+0.01', '--limit', 'nodes=5000']),
      runThoth(['tune', '--state', join(dir, 'd.json'), '--limit', 'tc=inf']),
      runThoth(['tune', '--state', join(dir, 'e.json'), '--limit', 'nodes=many']),
    ]);
    expect(noState).toMatchObject({
      code: 2,
      err: 'thoth tune: --state FILE is needed: the run is kept there (see thoth tune --help)\n',
    });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^thoth tune: unknown parameter 'Bogus' \(AspirationDelta, .*\)\n$/);
    expect(step).toMatchObject({
      code: 2,
      err: "thoth tune: LmpBase: the step must be above 0 and at most 19, not '0'\n",
    });
    expect(mismatch).toMatchObject({ code: 2, err: `thoth tune: '${other}': it tunes LmpScale, not LmpBase\n` });
    expect(notJson).toMatchObject({ code: 2, err: `thoth tune: cannot read '${text}': not JSON\n` });
    expect(both).toMatchObject({ code: 2, err: 'thoth tune: give --tc or --limit, not both\n' });
    expect(noEnd).toMatchObject({
      code: 2,
      err: "thoth tune: --limit 'tc=inf': not a limit that ends a game (tc=…, st=S, nodes=N or depth=N)\n",
    });
    expect(badNodes.code).toBe(2);
    expect(badNodes.err).toMatch(/^thoth tune: --limit: nodes= must be a whole number .*'many'\n$/);
    // Nothing was started: no state file for any refused run.
    expect(['c.json', 'd.json', 'e.json'].filter((f) => existsSync(join(dir, f)))).toEqual([]);
  });

  it("an engine too slow to start: the match stops, and the message names tune's flag, exit 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thoth-tune-'));
    // a node program that never answers, so the first step of the handshake is the one too slow
    const mute = join(dir, 'mute.cjs');
    writeFileSync(mute, 'setInterval(() => {}, 1000);\n');
    const state = join(dir, 'run.json');
    const base = ['tune', '--state', state, '--params', 'LmpBase', '--limit', 'nodes=400', '--iterations', '1'];
    const slow = await runThoth([...base, '--engine', `node ${mute}`, '--start-timeout', '1500']);
    expect(slow.code).toBe(1);
    expect(slow.err).toMatch(
      /^thoth tune: a match stopped: engine '(plus|minus)' cannot start: no 'uciok' within 1\.5 s after 'uci'; --start-timeout MS gives it longer \(now 1500\) \(command: node \S+mute\.cjs\)\n$/,
    );
    const bad = await runThoth(['tune', '--state', join(dir, 'f.json'), '--ping-timeout', 'soon']);
    expect(bad).toMatchObject({ code: 2, err: "thoth tune: --ping-timeout must be a whole number, not 'soon'\n" });
    expect(existsSync(join(dir, 'f.json'))).toBe(false);
  });
});
