/**
 * Every key of the commands' JSON outputs is in their documentation (docs/cli.md, "JSON" and
 * perft): each output is made by the built command, and each key of it, nested ones included,
 * must be named (as `"key"`) in the part of docs/cli.md that describes that output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fake } from '../match/helpers';
import { ROOT, runBuilt } from './helpers';

const DOC = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
/** The JSON section's opening (what every output's scores look like), which every part shares. */
const COMMON = DOC.slice(DOC.indexOf('## JSON'), DOC.indexOf('\n- ', DOC.indexOf('## JSON')));

/** The bullet of the JSON section that starts with `head`, with the section's opening. */
function bullet(head: string): string {
  const at = DOC.indexOf(`\n- ${head}`);
  if (at < 0) throw new Error(`docs/cli.md has no bullet '- ${head}'`);
  const end = DOC.indexOf('\n- ', at + 1);
  return COMMON + DOC.slice(at, end < 0 ? undefined : end);
}

/**
 * The keys whose objects are keyed by names, not by the format's words, and how many levels deep:
 * a summary's `endings` is by engine, then by how a game ended (docs/match.md, "Output").
 */
const BY_NAME: Record<string, number> = { endings: 2 };

/** Every key of a JSON value, nested ones included (less the names under BY_NAME's keys). */
function keys(v: unknown, out = new Set<string>(), names = 0): Set<string> {
  if (Array.isArray(v)) for (const x of v) keys(x, out);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (names > 0) {
        keys(x, out, names - 1);
        continue;
      }
      out.add(k);
      keys(x, out, BY_NAME[k] ?? 0);
    }
  return out;
}

/** The keys of `json` that `doc` does not name. */
const undocumented = (json: unknown, doc: string): string[] => [...keys(json)].filter((k) => !doc.includes(`"${k}"`));

describe('the JSON outputs are documented key by key (docs/cli.md)', () => {
  it('perft --json, analyse --json, analyse --game --json, match -report json=', async () => {
    const dir = tmpdir();
    const game = join(dir, 'game.pgn');
    writeFileSync(game, '[Round "3.1"]\n[White "A"]\n[Black "B"]\n\n1. f4g5 c7c6 2. j4i4 *\n');
    const each = ['-each', 'tc=10+0.1', '-rounds', '1', '-maxplies', '20'];
    const A = fake('A', '--seed 1 --deterministic');
    const B = fake('B', '--seed 2 --play random --deterministic');
    const [perft, position, review, two, three] = await Promise.all([
      runBuilt(['perft', '2', '--divide', '--json']),
      runBuilt(['analyse', '--depth', '2', '--json']),
      runBuilt(['analyse', '--game', game, '--depth', '1', '--json']),
      // two engines with an SPRT, three with standings
      runBuilt(['match', ...A, ...B, ...each, '-sprt', 'elo0=0', 'elo1=10', '-report', `json=${join(dir, '2.jsonl')}`]),
      runBuilt(['match', ...A, ...B, ...fake('C', '--seed 3'), ...each, '-report', `json=${join(dir, '3.jsonl')}`]),
    ]);
    for (const r of [perft, position, review, two, three]) expect(r.code, r.err).toBe(0);
    const perftDoc = DOC.slice(DOC.indexOf('## perft'), DOC.indexOf('## analyse'));
    expect(undocumented(JSON.parse(perft.out), perftDoc)).toEqual([]);
    expect(undocumented(JSON.parse(position.out), bullet('`thoth analyse --json`'))).toEqual([]);
    expect(undocumented(JSON.parse(review.out), bullet('`thoth analyse --game … --json`'))).toEqual([]);
    const lines = ['2.jsonl', '3.jsonl']
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; standings: unknown });
    expect(new Set(lines.map((l) => l.type))).toEqual(new Set(['start', 'game', 'summary']));
    expect(lines.some((l) => Array.isArray(l.standings))).toBe(true); // three engines: standings rows
    expect(undocumented(lines, bullet('`thoth match -report json=FILE`'))).toEqual([]);
  });
});
