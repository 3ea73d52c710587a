/**
 * The Khet rating list's tables (docs/rating-list.md) from record files, one per time control (the
 * records' time control tags; a game whose players had different controls is a control of its
 * own): every player's rating fitted over all that control's games at once by maximum likelihood
 * (src/match/stats/ratings.ts, as Ordo does), one player anchored, and a 95% interval by a
 * bootstrap over those games (the games drawn again with replacement, the ratings fitted again;
 * the 2.5th and 97.5th percentiles), with each player's games, score and the rules dialects it
 * played (its records' `Rules` tags). The games of one control never move the ratings of another.
 *
 *   npx tsx tools/rating-list.ts [--anchor NAME] [--anchor-elo E] [--bootstrap N] records.pgn …
 *
 * Prints a Markdown table per control, in the order the controls first appear. A record that
 * appears in two files counts once (as `thoth stats` counts).
 */
import { parseRecords, recordPlayers, recordTimeControls } from '../src/core/record';
import { fitRatings, type RatedGame } from '../src/match/stats/ratings';
import { readRecordFile } from '../src/process/files';
import { helpIfAsked } from './help';

function fail(msg: string): never {
  process.stderr.write(`rating-list: ${msg}\n`);
  process.exit(2);
}

interface Args {
  files: string[];
  anchor: string;
  anchorElo: number;
  bootstrap: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { files: [], anchor: 'Thoth', anchorElo: 0, bootstrap: 400 };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s === '--anchor') a.anchor = argv[++i] ?? fail('--anchor needs a name');
    else if (s === '--anchor-elo') a.anchorElo = Number(argv[++i]);
    else if (s === '--bootstrap') a.bootstrap = Number(argv[++i]);
    else if (s.startsWith('-')) fail(`unknown option ${s}`);
    else a.files.push(s);
  }
  if (!Number.isFinite(a.anchorElo)) fail('--anchor-elo needs a number');
  if (!Number.isInteger(a.bootstrap) || a.bootstrap < 0) fail('--bootstrap needs a whole number');
  if (a.files.length === 0) fail('usage: npx tsx tools/rating-list.ts [--anchor NAME] records.pgn …');
  return a;
}

/** A small deterministic generator for the bootstrap (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

interface Player {
  games: number;
  points: number;
  rules: Set<string>;
}

/** One game for the fit: its players, the first player's score, its rules and time control. */
interface Game {
  white: string;
  black: string;
  score: number;
  rules: string;
  control: string;
}

/**
 * Every finished game in the files, once each. A game's control is its time control tag, or both
 * players' (`1+0.01 / depth=4`) when they differ.
 */
function readGames(files: readonly string[]): Game[] {
  const games: Game[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const text = readRecordFile(file);
    if (!text.ok) fail(text.error);
    for (const rec of parseRecords(text.value).games) {
      const score = rec.result === '1-0' ? 1 : rec.result === '0-1' ? 0 : rec.result === '1/2-1/2' ? 0.5 : undefined;
      if (score === undefined) continue;
      const key = [...rec.tags].filter(([k]) => k !== 'Date').join('|') + rec.moves.map((m) => m.move).join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      const [white, black] = recordPlayers(rec);
      const [tw, tb] = recordTimeControls(rec) ?? ['?', '?'];
      games.push({
        white,
        black,
        score,
        rules: rec.tags.get('Rules') ?? 'thoth',
        control: tw === tb ? tw : `${tw} / ${tb}`,
      });
    }
  }
  return games;
}

/** The table of one control: the ratings fitted over that control's games alone. */
function table(a: Args, control: string, played: readonly Game[]): string[] {
  const names: string[] = [];
  const info = new Map<string, Player>();
  const index = (n: string): number => {
    let i = names.indexOf(n);
    if (i < 0) {
      i = names.push(n) - 1;
      info.set(n, { games: 0, points: 0, rules: new Set() });
    }
    return i;
  };
  const games: RatedGame[] = [];
  for (const g of played) {
    games.push({ white: index(g.white), black: index(g.black), score: g.score });
    [g.white, g.black].forEach((n, side) => {
      const p = info.get(n)!;
      p.games++;
      p.points += side === 0 ? g.score : 1 - g.score;
      p.rules.add(g.rules);
    });
  }
  const head = `## ${control}`;
  const anchor = names.indexOf(a.anchor);
  if (anchor < 0)
    return [head, '', `${games.length} games and no player '${a.anchor}' (${names.join(', ')}): no ratings`];
  const elo = fitRatings(names, games, anchor, a.anchorElo);
  // the bootstrap: the same number of games drawn with replacement, fitted again
  const rand = rng(20261207);
  const samples: number[][] = names.map(() => []);
  for (let b = 0; b < a.bootstrap; b++) {
    const pick = games.map(() => games[Math.floor(rand() * games.length)]);
    const e = fitRatings(names, pick, anchor, a.anchorElo);
    e.forEach((x, i) => samples[i].push(x));
  }
  const interval = (i: number): [number, number] => {
    const s = [...samples[i]].sort((x, y) => x - y);
    if (s.length === 0) return [NaN, NaN];
    return [s[Math.floor(0.025 * (s.length - 1))], s[Math.ceil(0.975 * (s.length - 1))]];
  };
  const order = names.map((_, i) => i).sort((x, y) => elo[y] - elo[x]);
  const out: string[] = [
    head,
    '',
    `${games.length} games, ${names.length} players; ratings by maximum likelihood over this control's games, ${a.anchor} anchored at ${a.anchorElo}; 95% intervals by a bootstrap over the games (${a.bootstrap} samples)`,
    '',
    '| rank | engine | Elo | 95% interval | ± (half the interval) | games | score | rules |',
    '|---|---|---|---|---|---|---|---|',
  ];
  order.forEach((i, r) => {
    const p = info.get(names[i])!;
    const [lo, hi] = interval(i);
    // a player who never scored (or never lost) has no finite rating: the prior alone holds it
    const oneSided = p.points === 0 || p.points === p.games;
    const half = i === anchor || oneSided ? '' : `${Math.round((hi - lo) / 2)}`;
    let iv = i === anchor ? 'anchor' : `${Math.round(lo)} to ${Math.round(hi)}`;
    if (oneSided && i !== anchor)
      iv = p.points === 0 ? 'no point scored: below any bound' : 'no point lost: above any bound';
    const shown =
      oneSided && i !== anchor ? `${p.points === 0 ? '<' : '>'} ${Math.round(elo[i])}` : `${Math.round(elo[i])}`;
    out.push(
      `| ${r + 1} | ${names[i]} | ${shown} | ${iv} | ${half} | ${p.games} | ${((100 * p.points) / p.games).toFixed(1)}% | ${[...p.rules].join(', ')} |`,
    );
  });
  return out;
}

function main(): void {
  helpIfAsked(import.meta.url);
  const a = parseArgs(process.argv.slice(2));
  const byControl = new Map<string, Game[]>();
  for (const g of readGames(a.files)) {
    const list = byControl.get(g.control);
    if (list === undefined) byControl.set(g.control, [g]);
    else list.push(g);
  }
  if (byControl.size === 0) fail('no finished game in the records');
  const out: string[] = [];
  for (const [control, games] of byControl) {
    if (out.length > 0) out.push('');
    out.push(...table(a, control, games));
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

main();
