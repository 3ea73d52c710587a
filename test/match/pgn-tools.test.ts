/**
 * What other PGN tools make of `thoth match -pgnout` records, as docs/match.md ("Game records")
 * says: tools that read only tags and results see the players and results; Debian's pgn-extract,
 * which replays the moves as chess moves, does not read them. The fixture is four games of
 * `thoth match … -each depth=1 -rounds 2 -pgnout` (2026-12-04).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRecords, recordPlayers } from '../../src/core/record';
import { stretched } from '../slowness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/match/fixtures/four-games.pgn');
const PGN_EXTRACT = ['/usr/bin/pgn-extract', '/usr/games/pgn-extract'].find(existsSync);

/** The Seven Tag Roster's players and results, as a tag-only reader (BayesElo, Ordo) takes them. */
function tagReader(text: string): string[] {
  return text
    .split(/\n(?=\[Event )/)
    .map((g) =>
      ['White', 'Black', 'Result'].map((t) => new RegExp(`^\\[${t} "([^"]*)"\\]$`, 'm').exec(g)?.[1]).join(' '),
    );
}

describe('match records in other PGN tools', () => {
  it("a tag reader sees the four games' players and results, as Thoth does", () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const ours = parseRecords(text).games.map((g) => [...recordPlayers(g), g.result].join(' '));
    expect(ours).toHaveLength(4);
    expect(tagReader(text)).toEqual(ours);
  });

  it('docs/match.md does not say that pgn-extract reads them', () => {
    const doc = readFileSync(join(ROOT, 'docs/match.md'), 'utf8');
    expect(doc).not.toMatch(/\(BayesElo, Ordo, pgn-extract\)/);
    expect(doc).toMatch(/pgn-extract 19\.04 rejects the FEN tag and the Khet moves/);
  });

  it.skipIf(PGN_EXTRACT === undefined)("Debian's pgn-extract rejects them (what the docs say)", () => {
    const out = join(mkdtempSync(join(tmpdir(), 'thoth-pgnx-')), 'out.pgn');
    const r = spawnSync(PGN_EXTRACT!, ['-s', `-o${out}`, FIXTURE], { encoding: 'utf8', timeout: stretched(60_000) });
    expect(r.stderr).toMatch(/Illegal FEN string/);
    const games = tagReader(readFileSync(out, 'utf8'));
    expect(games).not.toHaveLength(4);
    expect(games.filter((g) => g === '? ? ?').length).toBeGreaterThan(0);
  });
});
