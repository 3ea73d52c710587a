/** Faults are results: broken fake engines lose their games with the reason recorded. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords, recordPlayers, recordReason } from '../../src/core/record';
import { parseMatchArgs } from '../../src/match/config';
import { EngineStartError } from '../../src/match/errors';
import { fake, run, tempDir } from './helpers';
import { Stopwatch } from '../patience';

/** For each finished game: [faulty engine's result, termination]. */
function faultsOf(
  summary: Awaited<ReturnType<typeof run>>['summary'],
  bad: string,
): { lost: boolean; termination: string; reason: string }[] {
  return summary.finished.map((f) => {
    const [p0] = recordPlayers(f.record);
    const badFirst = p0 === bad;
    const lost = f.record.result === (badFirst ? '0-1' : '1-0');
    return { lost, termination: f.record.tags.get('Termination')!, reason: recordReason(f.record)! };
  });
}

/** The start timeout when -starttimeout is not given. */
const defaults = parseMatchArgs([...fake('A'), ...fake('B'), '-each', 'tc=1']);
const DEFAULT_START_TIMEOUT_MS = defaults.ok ? defaults.value.startTimeoutMs : NaN;

describe('faults', () => {
  it('a crash mid-game: abandoned, and with -recover the engine restarts and the run completes', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'g.pgn');
    const { summary, lines } = await run([
      ...fake('crasher', '--mode crash --at 4'),
      ...fake('ok'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '3',
      '-recover',
      '-pgnout',
      pgn,
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    expect(summary.stop).toBe('done');
    expect(summary.finished).toHaveLength(6);
    const f = faultsOf(summary, 'crasher');
    const abandoned = f.filter((x) => x.termination === 'abandoned');
    expect(abandoned.length).toBeGreaterThanOrEqual(3);
    for (const a of abandoned) {
      expect(a.lost).toBe(true);
      expect(a.reason).toMatch(/engine crasher disconnects \(exit code 3\)/);
    }
    expect(lines.some((l) => /^Restarting engine crasher \(exit code 3\)$/.test(l))).toBe(true);
    expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(6);
  });

  it('a crash without -recover stops the run after that game, with the results so far', async () => {
    const { summary, lines } = await run([
      ...fake('crasher', '--mode crash --at 2'),
      ...fake('ok'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '5',
    ]);
    expect(summary.stop).toBe('fault');
    expect(summary.finished).toHaveLength(1);
    expect(summary.finished[0].record.tags.get('Termination')).toBe('abandoned');
    expect(lines[lines.length - 1]).toMatch(/^Match stopped: engine crasher: abandoned .*-recover/);
    expect(lines.some((l) => l.startsWith('Score of crasher vs ok: 0 - 1 - 0'))).toBe(true);
  });

  it('a hang: stalled (no bestmove, no answer to stop), restarted with -recover', async () => {
    const { summary } = await run([
      ...fake('hanger', '--mode hang --at 3'),
      ...fake('ok'),
      '-each',
      'tc=0.6+0.01',
      '-rounds',
      '1',
      '-recover',
      '-pingtimeout',
      '2000',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    expect(summary.stop).toBe('done');
    const f = faultsOf(summary, 'hanger');
    expect(f).toHaveLength(2);
    for (const x of f) {
      expect(x.termination).toBe('stalled');
      expect(x.lost).toBe(true);
      // the limit it met, and the flag that gives it longer
      expect(x.reason).toMatch(
        /hanger stalls: no 'bestmove' after 'stop' within 2 s; -pingtimeout MS gives it longer \(now 2000\)$/,
      );
    }
  });

  it('no readyok before a game: stalled, and the reason names -pingtimeout', async () => {
    const { summary } = await run([
      ...fake('deaf', '--mode deaf --at 2'),
      ...fake('ok'),
      ...['-each', 'tc=10+0.1', '-rounds', '1', '-pingtimeout', '1500'],
      ...['-openings', 'setups=classic', 'plies=0'],
    ]);
    // game 1 is played; the ping before game 2 goes unanswered and stops the run (no -recover)
    expect(summary.stop).toBe('fault');
    const f = faultsOf(summary, 'deaf');
    expect(f).toHaveLength(2);
    expect(f[1]).toEqual({
      lost: true,
      termination: 'stalled',
      reason:
        "Red's engine deaf stalls: no 'readyok' within 1.5 s after 'isready'; -pingtimeout MS gives it longer (now 1500)",
    });
  });

  it('illegal and malformed moves lose the game; the run goes on without -recover', async () => {
    for (const mode of ['illegal', 'malformed']) {
      const { summary } = await run([
        ...fake('bad', `--mode ${mode} --at 2`),
        ...fake('ok'),
        '-each',
        'tc=10+0.1',
        '-rounds',
        '2',
      ]);
      expect(summary.stop).toBe('done');
      expect(summary.finished).toHaveLength(4);
      const f = faultsOf(summary, 'bad');
      const illegal = f.filter((x) => x.termination === 'illegal move');
      expect(illegal).toHaveLength(1); // the engine process keeps its go counter: one fault only
      expect(illegal[0].lost).toBe(true);
      expect(illegal[0].reason).toMatch(
        mode === 'illegal' ? /illegal move: \w\d\+: the piece on \w\d is not/ : /illegal move: 'xyzzy' is not a move/,
      );
    }
  });

  it('overrunning the clock: time forfeit (the engine answers stop, so it is not stalled)', async () => {
    // The slow engine faults at its second `go`; the good one gets a margin, or on a loaded
    // machine its moves at 0.3+0.01 may run late and forfeit the other game. The default
    // -pingtimeout (10 s) bounds the answers to `stop` and `isready`, which come at once: a
    // short one made a loaded machine's late `readyok` a stall that stopped the run.
    const { summary } = await run([
      ...fake('slow', '--mode slow --at 2'),
      ...fake('ok', '', ['timemargin=1000']),
      '-each',
      'tc=0.3+0.01',
      '-rounds',
      '1',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    const f = faultsOf(summary, 'slow');
    // Under load both games were once forfeits (cause not yet pinned down: perhaps a late answer
    // to stop restarts the slow engine, whose new process faults again): every one is its loss.
    const tf = f.filter((x) => x.termination === 'time forfeit');
    expect(tf.length).toBeGreaterThanOrEqual(1);
    for (const x of tf) {
      expect(x.lost).toBe(true);
      expect(x.reason).toMatch(/loses on time/);
    }
    expect(summary.finished).toHaveLength(2);
  });

  it('st= overrun is a time forfeit too', async () => {
    // The good engine gets a margin: on a loaded machine its 0.1 s moves may run late.
    const { summary, lines } = await run([
      ...fake('slow', '--mode slow --at 1'),
      ...fake('ok', '', ['timemargin=1000']),
      '-each',
      'st=0.1',
      '-rounds',
      '1',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    const tf = faultsOf(summary, 'slow').filter((x) => x.termination === 'time forfeit');
    expect(tf.length).toBeGreaterThanOrEqual(1);
    for (const x of tf) expect(x.lost).toBe(true);
    // The summary says how many games were lost on time, and by whom.
    const all = summary.finished.filter((g) => g.record.tags.get('Termination') === 'time forfeit');
    const okLost = all.length - tf.length;
    expect(lines).toContain(
      `Lost on time: ${all.length} of 2 games (slow ${tf.length}${okLost > 0 ? `, ok ${okLost}` : ''})`,
    );
  });

  it('an engine that never answers uci (or dies at once) stops the run with a clear message', async () => {
    // The time rule: the 3 s of -starttimeout ends the wait, not the default of 10 s (any time
    // under 10 s tells the two apart, and 3 s leaves the good engine room to start on a loaded
    // machine; how long it takes is measured by bench/runner-latency.mjs).
    const t0 = new Stopwatch();
    const p = run([...fake('mute', '--mode nouci'), ...fake('ok'), '-each', 'tc=10+0.1', '-starttimeout', '3000']);
    await expect(p).rejects.toThrow(EngineStartError);
    await expect(p).rejects.toThrow(
      /^engine 'mute' cannot start: no 'uciok' within 3 s after 'uci'; -starttimeout MS gives it longer \(now 3000\) \(command: node .*fake-engine-\d+\.mjs --mode nouci\)$/,
    );
    expect(t0.stop().idleMs).toBeLessThan(DEFAULT_START_TIMEOUT_MS);
    await expect(run([...fake('dead', '--mode die'), ...fake('ok'), '-each', 'tc=10+0.1'])).rejects.toThrow(
      /engine 'dead' cannot start: the process ended \(exit code 1\) before 'uciok'; stderr: fake engine: cannot open my brain/,
    );
    await expect(run(['-engine', 'cmd=/no/such/engine', 'tc=1', ...fake('ok'), 'tc=1'])).rejects.toThrow(
      /^engine 'engine' cannot start: cannot run '\/no\/such\/engine': .*ENOENT \(command: \/no\/such\/engine\)$/,
    );
  });
});
