/**
 * Builds test/search/fixtures/forced-wins.json: positions where the side to move forces a
 * Pharaoh hit in exactly 2 or 3 of its moves, proved by the exhaustive solver (solver.ts).
 * Not a test: run it by hand when the fixture must be rebuilt (deterministic for a given seed):
 *
 *   npx tsx test/search/gen-forced-wins.ts [--per-edition 30] [--seed 2] [--minutes 20] [--out file]
 *
 * Candidates come from seeded random games from every setup of every edition in which both sides
 * play "carefully": a side takes an immediate hit on the enemy Pharaoh whenever it has one, and
 * otherwise plays a random move that leaves the opponent no immediate hit (a random move that
 * does not hit its own Pharaoh when no such move exists). Such a game ends when the loser had no
 * careful move left, so the winner's position 2 plies before its hit is usually a forced win in 2
 * and its positions 4 and 6 plies before are candidates for a win in 3. Only those positions go to the solver,
 * which decides; mates in exactly 2 and 3 are kept when at most a quarter of the first moves win,
 * balanced per edition and length, at most one per length per game. The KFEN's plies-since-removal counter is reset to 0, so that no draw rule
 * can interfere within the 5 plies of a mate in 3.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  EDITION_IDS,
  MAX_MOVES,
  SETUPS,
  formatKfenError,
  mulberry32,
  parseKfen,
  toKfen,
  type EditionId,
  type Position,
  type SetupName,
} from '../../src/core/index';
import { MateSolver, type ForcedWin } from './solver';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

function hitsEnemy(pos: Position, m: number): number {
  const us = pos.side;
  pos.make(m);
  const w = pos.winner;
  pos.unmake();
  return w < 0 ? 0 : w === us ? 1 : -1;
}

function opponentHasHit(pos: Position, buf: Int32Array): boolean {
  const them = pos.side;
  const end = pos.generate(buf, MAX_MOVES);
  for (let i = MAX_MOVES; i < end; i++) {
    pos.make(buf[i]);
    const w = pos.winner;
    pos.unmake();
    if (w === them) return true;
  }
  return false;
}

function normalise(pos: Position): string {
  const f = toKfen(pos).split(' ');
  f[2] = '0';
  return f.join(' ');
}

function main(): void {
  const perEdition = arg('per-edition', 30);
  const seed = arg('seed', 2);
  const minutes = arg('minutes', 20);
  const outIdx = process.argv.indexOf('--out');
  const out =
    outIdx >= 0 ? process.argv[outIdx + 1] : fileURLToPath(new URL('./fixtures/forced-wins.json', import.meta.url));
  const deadline = Date.now() + minutes * 60_000;
  const rand = mulberry32(seed);
  const rnd = (n: number): number => (rand() >>> 0) % n;
  const buf = new Int32Array(MAX_MOVES * 2);
  const found: ForcedWin[] = [];
  const seen = new Set<string>();
  const want = (ed: EditionId, mate: number): boolean =>
    found.filter((f) => f.edition === ed && f.mate === mate).length < perEdition / 2;

  let game = 0;
  let tried = 0;
  while (Date.now() < deadline && EDITION_IDS.some((ed) => want(ed, 2) || want(ed, 3))) {
    const eds = EDITION_IDS.filter((ed) => want(ed, 2) || want(ed, 3));
    const edition = eds[game % eds.length];
    const setups = Object.keys(SETUPS[edition]) as SetupName[];
    const setup = setups[Math.floor(game / eds.length) % setups.length];
    game++;
    const r = parseKfen(SETUPS[edition][setup]!, edition);
    if (!r.ok) throw new Error(formatKfenError(r.error));
    const pos = r.value;
    const history: string[] = []; // normalised KFEN before each ply
    let ended = false;
    for (let ply = 0; ply < 200; ply++) {
      history.push(normalise(pos));
      const end = pos.generate(buf, 0);
      const moves = Array.from(buf.subarray(0, end));
      const wins = moves.filter((m) => hitsEnemy(pos, m) === 1);
      if (wins.length > 0) {
        ended = true;
        break;
      }
      const safe = moves.filter((m) => hitsEnemy(pos, m) === 0);
      const careful = safe.filter((m) => {
        pos.make(m);
        const bad = opponentHasHit(pos, buf);
        pos.unmake();
        return !bad;
      });
      const pool = careful.length > 0 ? careful : safe.length > 0 ? safe : moves;
      if (pool.length === 0) break;
      pos.make(pool[rnd(pool.length)]);
      if (pos.winner >= 0) break; // a forced suicide
    }
    if (!ended) continue;
    // history[L] is the position where the winner had its hit
    const L = history.length - 1;
    const taken = new Set<number>();
    for (const back of [2, 4, 6]) {
      if (L - back < 4) break;
      const key = history[L - back];
      if (seen.has(key)) continue;
      seen.add(key);
      const q = parseKfen(key, edition);
      if (!q.ok) throw new Error(formatKfenError(q.error));
      const solver = new MateSolver(q.value);
      tried++;
      const n = solver.mateLength(3);
      if ((n === 2 || n === 3) && want(edition, n) && !taken.has(n)) {
        const winning = solver.winningMoveNames(n);
        // a test only when most first moves do not win
        if (winning.length * 4 > q.value.generate(buf, 0)) continue;
        taken.add(n);
        found.push({
          edition,
          kfen: key,
          mate: n,
          winning,
          source: `${setup} seed ${seed} game ${game} ply ${L - back}`,
        });
        process.stderr.write(`${found.length}: ${edition} mate ${n} (${winning.length} winning) ${key}\n`);
      }
    }
  }
  found.sort((a, b) => EDITION_IDS.indexOf(a.edition) - EDITION_IDS.indexOf(b.edition) || a.mate - b.mate);
  writeFileSync(out, JSON.stringify(found, null, 2) + '\n');
  process.stderr.write(`${found.length} positions from ${tried} candidates in ${game} games -> ${out}\n`);
}

main();
