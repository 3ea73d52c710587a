/**
 * One SPRT: a real match (two Thoth builds' worth of settings, as processes, with -concurrency so
 * that the games finish out of order) and `thoth stats` on its record give the same figures:
 * W-L-D, by colour, Elo, normalized Elo, the pentanomial pairs and the LLR, told from the same side,
 * also when the record's games come in another order.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BUILT, runBuilt } from '../cli/helpers';

/** The last summary a run printed: from its last `Score of` line to its `SPRT:` line. */
function lastSummary(out: string): string[] {
  const lines = out.split('\n');
  const from = lines.map((l) => l.startsWith('Score of ')).lastIndexOf(true);
  const to = lines.findIndex((l, i) => i > from && l.startsWith('SPRT: '));
  return lines.slice(from, to + 1);
}

describe('thoth stats on a match record', () => {
  it("gives the match's own figures: W-L-D, Elo, pentanomial, LLR", async () => {
    const pgn = join(tmpdir(), 'games.pgn');
    const engine = `cmd=node ${CLI_BUILT}`;
    const sprt = ['-sprt', 'elo0=0', 'elo1=10'];
    const match = await runBuilt([
      'match',
      ...['-engine', engine, 'name=strong'],
      ...['-engine', engine, 'name=weak', 'option.Skill Level=4'],
      ...['-each', 'nodes=400', 'option.Hash=1'],
      ...['-openings', 'setups=classic,imhotep,dynasty', 'plies=4', '-srand', '7'],
      ...['-concurrency', '2', '-rounds', '5', ...sprt, '-ratinginterval', '0', '-pgnout', pgn],
    ]);
    expect(match.code, match.err).toBe(0);
    const summary = lastSummary(match.out);
    expect(summary[0]).toMatch(/^Score of strong vs weak: \d+ - \d+ - \d+ {2}\[[\d.]+\] 10$/);
    expect(summary.some((l) => l.startsWith('Ptnml(0-2): '))).toBe(true);

    const stats = await runBuilt(['stats', pgn, ...sprt]);
    expect(stats.code, stats.err).toBe(0);
    expect(stats.out.split('\n').filter(Boolean)).toEqual(['Games: 10 from 1 file (5 pairs) | khet2', ...summary]);

    // The same games in another order (a game 1.2, whose first player is weak, first): the same figures.
    const games = readFileSync(pgn, 'utf8')
      .split(/\n\n(?=\[Event )/)
      .map((g) => g.trim());
    const second = games.findIndex((g) => /\[Round "\d+\.2"\]/.test(g));
    const shuffled = [games[second], ...games.filter((_, i) => i !== second).reverse()];
    const other = join(tmpdir(), 'shuffled.pgn');
    writeFileSync(other, shuffled.join('\n\n') + '\n');
    const again = await runBuilt(['stats', other, ...sprt]);
    expect(again.out.split('\n').filter(Boolean)).toEqual(['Games: 10 from 1 file (5 pairs) | khet2', ...summary]);

    // -anchor with two players is said, not silently ignored
    const anchored = await runBuilt(['stats', pgn, ...sprt, '-anchor', 'weak']);
    expect(anchored.out).toMatch(/^Note: -anchor sets who is rated 0 in the ratings table of three or more players;/m);
    expect(anchored.out.split('\n').filter((l) => l !== '' && !l.startsWith('Note: '))).toEqual([
      'Games: 10 from 1 file (5 pairs) | khet2',
      ...summary,
    ]);
  });
});
