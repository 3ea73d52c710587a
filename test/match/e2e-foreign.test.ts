/**
 * Matches with engines of other protocols (the fixtures of test/foreign: UKI, KEI, Khet2-AI's,
 * khetai's bridge), through their translators: the fingerprint names each fixture's dialect, the
 * games are played under the dialect they share (Thoth, the built engine, set to it by its
 * options), two engines of parting rules are refused before the first game, and a wrong answer in
 * an engine's own protocol is a fault that quotes its line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords, recordReason, replayRecord } from '../../src/core/record';
import { MatchConfigError } from '../../src/match/errors';
import { foreign } from '../foreign/helpers';
import { ROOT, run, tempDir } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');
const HAVE_THOTH = existsSync(CLI) && spawnSync(process.execPath, [CLI, '--version']).status === 0;
const thoth = ['-engine', `cmd=node ${CLI}`, 'name=thoth', 'option.Hash=8'];
const quick = ['-each', 'depth=1', '-rounds', '1', '-openings', 'setups=classic', 'plies=2'];

describe.skipIf(!HAVE_THOTH)('engines of other protocols against Thoth', () => {
  it.each([
    ['uki', 'Pharaoh rotation, two Scarab rotations', 'pharaoh-rotation+two-scarab-rotations'],
    ['kei', 'one Scarab rotation, Scarabs of the setups turned', 'thoth'],
    ['khet2ai', 'one Scarab rotation, swaps onto reserved squares', 'swap-onto-reserved'],
    [
      'khetai',
      'two Scarab rotations, swaps onto reserved squares, swaps with the Sphinx',
      'two-scarab-rotations+swap-onto-reserved+swap-sphinx',
    ],
  ] as const)('%s: fingerprinted as "%s", games under %s', async (proto, words, tag) => {
    const { summary, lines } = await run([...foreign(proto, proto), ...thoth, ...quick]);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Rules of ${proto}: ${words} \\(`)));
    expect(lines.find((l) => l.startsWith('Rules of the games: '))).toMatch(
      new RegExp(`\\(${tag.replace(/\+/g, '\\+')}\\)$`),
    );
    expect(summary.finished).toHaveLength(2);
    for (const f of summary.finished) {
      expect(f.record.tags.get('Rules')).toBe(tag);
      expect(f.record.tags.get('Termination')).toBe('normal');
      // every move replays under the record's rules
      expect(replayRecord(f.record).ok).toBe(true);
    }
  });
});

describe.skipIf(!HAVE_THOTH)("khetai's bridge by the clock", () => {
  it('each move at the depth that fits the move time, from its answer times (depth 3 in 10 ms, 4 in 80)', async () => {
    const { summary } = await run([
      ...foreign('khetai', 'khetai', '--cost 10', ['tc=1+0.01']),
      ...thoth,
      'depth=1',
      '-rounds',
      '1',
      '-openings',
      'setups=classic',
      'plies=2',
    ]);
    expect(summary.finished).toHaveLength(2);
    const depths: number[] = [];
    for (const f of summary.finished) {
      const khetaiFirst = f.record.tags.get('White') === 'khetai';
      f.record.moves.forEach((m, i) => {
        if (i % 2 === (khetaiFirst ? 0 : 1)) depths.push(m.depth ?? -1);
      });
    }
    // written as the depth asked but one: 3 fits the 47 ms of 1+0.01 and 4 would not (2 if slowed)
    expect(depths.length).toBeGreaterThan(0);
    for (const d of depths) expect([1, 2]).toContain(d);
    expect(depths).toContain(2);
  });
});

describe('refusals and faults', () => {
  it('two engines whose rules part are refused before the first game, with the position and the move', async () => {
    const err = await run([...foreign('khet2ai', 'k2'), ...foreign('uki', 'ddk'), ...quick]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MatchConfigError);
    expect((err as Error).message).toMatch(
      /^engines k2 and ddk play different rules: from \S+ .* ddk may play e1\+, which k2's rules do not allow$/,
    );
  });

  it('a move in the wrong notation (UKI written +/-) is an illegal move quoting its line', async () => {
    const { summary } = await run([
      ...foreign('uki', 'bad', '--break notation'),
      ...foreign('uki', 'good', '--seed 2'),
      '-each',
      'depth=1',
      '-rounds',
      '4',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    const faults = summary.finished.filter((f) => f.record.tags.get('Termination') === 'illegal move');
    expect(faults.length).toBeGreaterThan(0);
    for (const f of faults)
      expect(recordReason(f.record)).toMatch(
        /makes an illegal move: uki: '[a-j][1-8][+-]' is not a UKI move .* in 'bestmove [a-j][1-8][+-]'/,
      );
  });

  it.each([
    [
      'uki',
      '--break illegal',
      /makes an illegal move: uki: [a-j][1-8][a-j][1-8]: the piece on [a-j][1-8] is not \w+'s in 'bestmove/,
    ],
    ['kei', '--break illegal', /makes an illegal move: kei: [a-j][1-8]-[a-j][1-8]: illegal here in 'bestmove/],
    ['kei', '--break notation', /makes an illegal move: kei: '[a-j][1-8][a-j][1-8]' is not a KEI move/],
    ['khet2ai', '--break illegal', /makes an illegal move: khet2ai: [a-j][1-8][a-j][1-8]: the piece on/],
    ['khetai', '--break illegal', /makes an illegal move: khetai: a8b8 \(0 1 0\): illegal here in 'move 0 1 0'/],
  ] as const)('%s %s: the fault quotes the line', async (proto, args, reason) => {
    const { summary } = await run([...foreign(proto, 'bad', args), ...foreign(proto, 'good'), ...quick]);
    const f = summary.finished.find((g) => g.record.tags.get('Termination') === 'illegal move');
    expect(f).toBeDefined();
    expect(recordReason(f!.record)).toMatch(reason);
  });

  it.each([
    ['uki', '--break ukiok', /no answer to the UKI handshake \('uki' → 'ukiok'\) within 1 s/],
    ['kei', '--break keiok', /no answer to the KEI handshake \('kei' → 'keiok'\) within 1 s/],
    ['khet2ai', '--break silent', /no answer to the Khet2-AI handshake/],
  ] as const)('%s %s: a handshake without its answer stops the run before any game', async (proto, args, text) => {
    const err = await run([
      ...foreign(proto, 'bad', args),
      ...foreign(proto, 'good'),
      ...quick,
      '-starttimeout',
      '1000',
    ]).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(text);
  });
});

describe('-log and the moves’ data', () => {
  it('-log FILE faults keeps the traffic of the games with a fault only, as the engine saw it', async () => {
    const dir = tempDir();
    const log = join(dir, 'traffic.log');
    const { summary } = await run([
      ...foreign('uki', 'bad', '--break garbage --at 2'),
      ...foreign('uki', 'good'),
      ...quick,
      '-log',
      log,
      'faults',
    ]);
    const faults = summary.finished.filter((f) => f.record.tags.get('Termination') === 'illegal move');
    expect(faults).toHaveLength(1);
    const text = readFileSync(log, 'utf8');
    expect(text.match(/^# game /gm)).toHaveLength(1);
    expect(text).toMatch(/^# game \d \(.*\): (1-0|0-1) \{.* makes an illegal move: uki: 'xyzzy' is not a UKI move/m);
    // the engine's own lines: UKI's board and its answer
    expect(text).toMatch(/ bad > position fen \S{160} [wb]/);
    expect(text).toMatch(/ bad < bestmove xyzzy$/m);
  });

  it('-pgnout FILE nodes=true seldepth=true pv=true: each move keeps them, and they read back', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'g.pgn');
    const { summary } = await run([
      ...foreign('uki', 'a'),
      ...foreign('uki', 'b', '--seed 5'),
      ...quick,
      '-pgnout',
      pgn,
      'nodes=true',
      'pv=true',
    ]);
    expect(summary.finished).toHaveLength(2);
    const games = parseRecords(readFileSync(pgn, 'utf8')).games;
    const moves = games.flatMap((g) => g.moves);
    expect(moves.every((m) => m.nodes !== undefined && m.pv !== undefined && m.seldepth === undefined)).toBe(true);
    expect(readFileSync(pgn, 'utf8')).toMatch(/\{[-+]?\d+\.\d\d\/1 \d+\.\d{3}s n=\d+ pv=[a-j][1-8]\S*\}/);
  });
});
