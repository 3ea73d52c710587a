/** End-to-end matches between fake engines (test/match/fixtures/fake-engine.ts), in-process. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gameStatus } from '../../src/core/index';
import {
  formatReplayError,
  parseRecords,
  recordPlayers,
  recordReason,
  replayRecord,
  serializeRecord,
  type GameRecord,
} from '../../src/core/record';
import { fake, run, tempDir } from './helpers';

/** Every record replays legally, and a normal end agrees with the rules. */
function checkRecords(games: GameRecord[]): void {
  for (const g of games) {
    const rep = replayRecord(g);
    expect(rep.ok, rep.ok ? '' : formatReplayError(rep.error)).toBe(true);
    if (!rep.ok) continue;
    expect(g.tags.get('PlyCount')).toBe(String(g.moves.length));
    if (g.tags.get('Termination') === 'normal') {
      const st = gameStatus(rep.value.position);
      expect(st.result).not.toBe('ongoing');
      expect(g.result).toBe(st.result === 'draw' ? '1/2-1/2' : st.winner === 0 ? '1-0' : '0-1');
    }
  }
}

describe('matches between fake engines', () => {
  it('greedy vs random: pairs, records, summaries', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'games.pgn');
    const { summary, lines } = await run([
      ...fake('greedy', '--seed 1'),
      ...fake('random', '--seed 2 --play random'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '4',
      '-concurrency',
      '2',
      '-ratinginterval',
      '4',
      '-pgnout',
      pgn,
      '-openings',
      'setups=classic,imhotep,dynasty',
      'plies=3',
    ]);
    expect(summary.stop).toBe('done');
    expect(summary.finished).toHaveLength(8);
    const parsed = parseRecords(readFileSync(pgn, 'utf8'));
    expect(parsed.games).toHaveLength(8);
    expect(parsed.incomplete).toBe(false);
    checkRecords(parsed.games);
    // Pairs: same opening, colours swapped.
    const byRound = new Map(parsed.games.map((g) => [g.tags.get('Round'), g]));
    for (let r = 1; r <= 4; r++) {
      const a = byRound.get(`${r}.1`)!;
      const b = byRound.get(`${r}.2`)!;
      expect(a.tags.get('KFEN')).toBe(b.tags.get('KFEN'));
      expect(recordPlayers(a)).toEqual(['greedy', 'random']);
      expect(recordPlayers(b)).toEqual(['random', 'greedy']);
      expect(a.tags.get('TimeControl')).toBe('10+0.1');
    }
    expect(new Set(parsed.games.map((g) => g.tags.get('KFEN'))).size).toBe(4);
    // Output: a line per game, cutechess summary lines (twice: at 4 and at 8 games).
    expect(
      lines.filter((l) =>
        /^Finished game \d+ \((greedy vs random|random vs greedy)\): (1-0|0-1|1\/2-1\/2) \{.+\}$/.test(l),
      ),
    ).toHaveLength(8);
    const score = lines.filter((l) => l.startsWith('Score of greedy vs random: '));
    expect(score).toHaveLength(2);
    expect(score[1]).toMatch(/^Score of greedy vs random: \d+ - \d+ - \d+ {2}\[\d\.\d{3}\] 8$/);
    expect(lines.some((l) => /^Elo difference: (-?[\d.]+|n\/a) \+\/- (-?[\d.]+|n\/a), /.test(l))).toBe(true); // n/a: 8 wins of 8
    expect(lines.join('\n')).not.toMatch(/\b(inf|nan)\b/);
    expect(lines.some((l) => /^Ptnml\(0-2\): \[\d+, \d+, \d+, \d+, \d+\]$/.test(l))).toBe(true);
    expect(lines[lines.length - 1]).toBe('Finished match');
    // The greedy mover is much stronger.
    const t = summary.standings.encounters[0].total;
    expect(t.wins).toBeGreaterThan(t.losses);
    expect(summary.standings.encounters[0].penta.reduce((x, y) => x + y, 0)).toBe(4);
  });

  it('SPRT stops the run when it decides', async () => {
    const { summary, lines } = await run([
      ...fake('greedy', '--seed 3'),
      ...fake('random', '--seed 4 --play random'),
      '-each',
      'tc=10+0.1',
      '-sprt',
      'elo0=0',
      'elo1=100',
      '-rounds',
      '500',
      '-concurrency',
      '2',
      '-ratinginterval',
      '0',
    ]);
    expect(summary.stop).toBe('sprt');
    expect(summary.finished.length).toBeLessThan(1000);
    const sprt = lines.filter((l) => l.startsWith('SPRT: '));
    expect(sprt[sprt.length - 1]).toMatch(
      /^SPRT: llr [\d.]+ \([\d.]+%\), lbound -2\.94, ubound 2\.94 - H1 was accepted$/,
    );
    expect(lines[lines.length - 1]).toBe('Finished match (SPRT: H1 was accepted)');
  });

  it('round robin of three: cross table, ratings anchored, draws at 0.4', async () => {
    const { summary, lines } = await run([
      ...fake('g1', '--seed 5'),
      ...fake('g2', '--seed 6'),
      ...fake('rnd', '--seed 7 --play random'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '2',
      '-concurrency',
      '2',
      '-anchor',
      'rnd',
      '-drawscore',
      '0.4',
      '-ratinginterval',
      '0',
    ]);
    expect(summary.finished).toHaveLength(12);
    expect(lines.some((l) => /^Rank\s+Name\s+Elo\s+Games\s+Points\s+Score\s+Draws$/.test(l))).toBe(true);
    const rnd = lines.find((l) => /^\d\s+rnd\s/.test(l))!;
    expect(rnd).toMatch(/0\.0\*\s+8\s/);
    expect(lines).toContain('Cross table (points of the row engine against the column engine):');
    expect(lines.some((l) => l.includes('points: draws = 0.4'))).toBe(true);
    const r = summary.standings.ratings(2);
    expect(r[2]).toBe(0);
    expect(r[0]).toBeGreaterThan(0);
  });

  it('gauntlet: the first engine against each other one', async () => {
    const { summary, lines } = await run([
      ...fake('hero', '--seed 8'),
      ...fake('v1', '--seed 9 --play random'),
      ...fake('v2', '--seed 10 --play random'),
      '-each',
      'tc=10+0.1',
      '-tournament',
      'gauntlet',
      '-rounds',
      '2',
      '-ratinginterval',
      '0',
    ]);
    expect(summary.finished).toHaveLength(8);
    for (const f of summary.finished) expect([f.game.first, f.game.second]).toContain(0);
    expect(lines.filter((l) => /^Score of hero vs v[12]: /.test(l))).toHaveLength(2);
  });

  it('adjudication: resignation, draw window, ply cap', async () => {
    const resign = await run([
      ...fake('optimist', '--score 900'),
      ...fake('pessimist', '--score -900'),
      '-each',
      'tc=10+0.1',
      '-resign',
      'movecount=3',
      'score=500',
      '-rounds',
      '1',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    for (const f of resign.summary.finished) {
      expect(f.record.tags.get('Termination')).toBe('adjudication');
      expect(recordReason(f.record)).toMatch(/resigns by adjudication/);
      const pessimistFirst = recordPlayers(f.record)[0] === 'pessimist';
      expect(f.record.result).toBe(pessimistFirst ? '0-1' : '1-0');
      expect(f.record.moves.length).toBeLessThanOrEqual(6);
    }
    const draw = await run([
      ...fake('a', '--score 5'),
      ...fake('b', '--score -5'),
      '-each',
      'tc=10+0.1',
      '-draw',
      'movenumber=3',
      'movecount=2',
      'score=10',
      '-rounds',
      '1',
      '-openings',
      'setups=classic',
      'plies=0',
    ]);
    for (const f of draw.summary.finished) {
      expect(f.record.result).toBe('1/2-1/2');
      expect(f.record.tags.get('Termination')).toBe('adjudication');
      expect(f.record.moves.length).toBeLessThanOrEqual(8);
    }
    const cap = await run([
      ...fake('a'),
      ...fake('b'),
      '-each',
      'depth=1',
      '-maxplies',
      '6',
      '-rounds',
      '2',
      '-openings',
      'setups=classic',
      'plies=0',
      '-noremoval',
      '0',
    ]);
    let capped = 0;
    for (const f of cap.summary.finished) {
      if (f.record.tags.get('Termination') === 'adjudication') {
        capped++;
        expect(f.record.moves).toHaveLength(6);
        expect(f.record.result).toBe('1/2-1/2');
        expect(recordReason(f.record)).toBe('Draw by adjudication: 6 plies played');
      } else {
        expect(f.record.moves.length).toBeLessThan(6);
      }
      expect(f.record.tags.get('TimeControl')).toBe('depth=1');
    }
    expect(capped).toBeGreaterThan(0);
  });

  it('variants: khet1 and deflexion games are refereed with their rules', async () => {
    for (const v of ['khet1', 'deflexion']) {
      const dir = tempDir();
      const pgn = join(dir, 'g.pgn');
      const { summary } = await run([
        ...fake('a', '--seed 11'),
        ...fake('b', '--seed 12'),
        '-each',
        'tc=10+0.1',
        '-variant',
        v,
        '-rounds',
        '2',
        '-pgnout',
        pgn,
      ]);
      expect(summary.finished).toHaveLength(4);
      const games = parseRecords(readFileSync(pgn, 'utf8')).games;
      expect(games.map((g) => g.tags.get('Variant'))).toEqual([v, v, v, v]);
      checkRecords(games);
      if (v === 'deflexion') expect(serializeRecord(games[0])).toMatch(/\[White "(a|b)"\]\n\[Black "(a|b)"\]/);
    }
  });

  it('resume: an interrupted run goes on from its record file', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'games.pgn');
    const args = [
      ...fake('A', '--seed 1'),
      ...fake('B', '--seed 2 --play random'),
      '-each',
      'tc=10+0.1',
      '-rounds',
      '4',
      '-srand',
      '5',
    ];
    const full = await run([...args, '-pgnout', join(dir, 'full.pgn')]);
    expect(full.summary.finished).toHaveLength(8);
    // An interrupted run: games 1.1, 1.2, 3.1 finished, then a half-written record.
    const recs = parseRecords(readFileSync(join(dir, 'full.pgn'), 'utf8')).games;
    const keep = recs.filter((g) => ['1.1', '1.2', '3.1'].includes(g.tags.get('Round')!));
    const half = serializeRecord(recs.find((g) => g.tags.get('Round') === '2.1')!).slice(0, 200);
    writeFileSync(pgn, keep.map(serializeRecord).join('') + half);
    const { summary, lines } = await run([...args, '-resume', pgn]);
    expect(lines).toContain(`Note: dropped an unfinished game record at the end of ${pgn}`);
    expect(lines).toContain(`Resumed 3 finished games from ${pgn}`);
    expect(summary.finished.filter((f) => !f.resumed)).toHaveLength(5);
    const after = parseRecords(readFileSync(pgn, 'utf8'));
    expect(after.incomplete).toBe(false);
    expect(after.games.map((g) => g.tags.get('Round')).sort()).toEqual([
      '1.1',
      '1.2',
      '2.1',
      '2.2',
      '3.1',
      '3.2',
      '4.1',
      '4.2',
    ]);
    checkRecords(after.games);
    // The same openings as the uninterrupted run.
    for (const g of after.games) {
      const twin = recs.find((r) => r.tags.get('Round') === g.tags.get('Round'))!;
      expect(g.tags.get('KFEN')).toBe(twin.tags.get('KFEN'));
    }
    // Resuming a finished run plays nothing; resuming with other engines is refused.
    const again = await run([...args, '-resume', pgn]);
    expect(again.summary.finished.filter((f) => !f.resumed)).toHaveLength(0);
    expect(again.lines[again.lines.length - 1]).toBe('Finished match');
    await expect(
      run([...fake('X'), ...fake('B'), '-each', 'tc=10+0.1', '-rounds', '4', '-resume', pgn]),
    ).rejects.toThrow(/resume with the same engines/);
    await expect(run([...args.slice(0, -2), '-srand', '6', '-resume', pgn])).rejects.toThrow(
      /other settings \(srand: 5 in the record, 6 now\)/,
    );
    // Records without the settings tag (older ones, other tools') are checked by their openings.
    const untagged = parseRecords(readFileSync(pgn, 'utf8')).games.map((g) => {
      for (const t of [...g.tags.keys()]) if (t.startsWith('MatchSettings')) g.tags.delete(t);
      return serializeRecord(g);
    });
    writeFileSync(pgn, untagged.join(''));
    await expect(run([...args.slice(0, -2), '-srand', '6', '-resume', pgn])).rejects.toThrow(
      /another opening .* same -openings and -srand/,
    );
  });

  it('an abort (Ctrl-C) ends the run cleanly with the games so far', async () => {
    const dir = tempDir();
    const pgn = join(dir, 'games.pgn');
    const ctrl = new AbortController();
    let n = 0;
    const { summary, lines } = await run(
      [
        ...fake('A', '--delay 20'),
        ...fake('B', '--delay 20'),
        '-each',
        'tc=10+0.1',
        '-rounds',
        '1000',
        '-concurrency',
        '2',
        '-pgnout',
        pgn,
      ],
      ctrl.signal,
      (l) => {
        if (l.startsWith('Finished game') && ++n === 2) ctrl.abort();
      },
    );
    expect(summary.stop).toBe('interrupted');
    expect(summary.finished.length).toBeGreaterThanOrEqual(2);
    expect(summary.finished.length).toBeLessThan(10);
    expect(parseRecords(readFileSync(pgn, 'utf8')).games).toHaveLength(summary.finished.length);
    expect(lines.some((l) => l.startsWith('Score of A vs B: '))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(
      /^Match interrupted after \d+ games?; \d+ still to play \(continue with -resume .*games\.pgn\)$/,
    );
  });
});
