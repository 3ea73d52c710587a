/**
 * Fits the win-chance curve of game review (src/analysis/review.ts) to match records: every move
 * of a `thoth match` record carries the mover's search score (`{+0.35/12 …}`); the mover's result
 * in that game (1, ½, 0) is the label, and `W(cp) = 1/(1 + e^(−k·cp))` is fitted by maximum
 * likelihood (Newton's method on k). Mate scores, and games that ended by a fault, are left out.
 *
 *   npx tsx tools/winchance.ts [--skip 0] [--bootstrap 200] [--k K] records.pgn …
 *
 * Prints k, its error (a bootstrap over whole games: the positions of one game are not
 * independent), the scale 1/k, the offset of the win/draw/loss split (`UCI_ShowWDL`), and a table
 * of the observed score against the curve by score bucket. docs/review.md records runs.
 */
import { EDITIONS } from '../src/core/index';
import { parseRecords, recordStart, recordVariant } from '../src/core/record';
import { readRecordFile } from '../src/process/files';
import { helpIfAsked } from './help';

/** A record file's text (up to the limit every reader shares), or the end of the tool with its reason. */
function recordText(file: string): string {
  const t = readRecordFile(file);
  if (t.ok) return t.value;
  process.stderr.write(`${t.error}\n`);
  process.exit(2);
}

interface Args {
  files: string[];
  skip: number;
  bootstrap: number;
  /** `--k K`: the curve's slope as given (the shipped one), not fitted: only the win/draw/loss offset is. */
  k?: number;
}

function fail(msg: string): never {
  process.stderr.write(`winchance: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { files: [], skip: 0, bootstrap: 200 };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s === '--skip' || s === '--bootstrap') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) fail(`${s} needs a whole number`);
      if (s === '--skip') a.skip = v;
      else a.bootstrap = v;
    } else if (s === '--k') {
      const v = Number(argv[++i]);
      if (!(v > 0)) fail('--k needs a number above 0');
      a.k = v;
    } else if (s.startsWith('-')) fail(`unknown option ${s}`);
    else a.files.push(s);
  }
  if (a.files.length === 0) fail('usage: npx tsx tools/winchance.ts [--skip N] [--bootstrap N] [--k K] records.pgn …');
  return a;
}

/** One game's samples: scores (mover's view) and the mover's results. */
interface GameSamples {
  cp: number[];
  y: number[];
}

/** Maximum-likelihood k of `W(cp) = 1/(1 + e^(−k·cp))` over the games given (indices may repeat). */
function fitK(games: GameSamples[], pick: number[]): number {
  let k = 0.004;
  for (let it = 0; it < 50; it++) {
    let g = 0;
    let h = 0;
    for (const gi of pick) {
      const { cp, y } = games[gi];
      for (let i = 0; i < cp.length; i++) {
        const p = 1 / (1 + Math.exp(-k * cp[i]));
        g += (y[i] - p) * cp[i];
        h += p * (1 - p) * cp[i] * cp[i];
      }
    }
    const step = g / h;
    k += step;
    if (Math.abs(step) < 1e-12) break;
  }
  return k;
}

/**
 * The offset a (whole centi-pyramids, 0–800) of the win/draw/loss split of the curve of slope k
 * that `UCI_ShowWDL` prints: win = W(cp − a), loss = W(−cp − a), draw = the rest, fitted by maximum
 * likelihood on each move's game result (win, draw or loss for the mover).
 */
function fitWdlOffset(games: GameSamples[], k: number): number {
  const w = (x: number): number => 1 / (1 + Math.exp(-k * x));
  let best = 0;
  let bestLl = -Infinity;
  for (let a = 0; a <= 800; a++) {
    let ll = 0;
    for (const g of games) {
      for (let i = 0; i < g.cp.length; i++) {
        const win = w(g.cp[i] - a);
        const loss = w(-g.cp[i] - a);
        ll += Math.log(g.y[i] === 1 ? win : g.y[i] === 0 ? loss : Math.max(1e-12, 1 - win - loss));
      }
    }
    if (ll > bestLl) {
      bestLl = ll;
      best = a;
    }
  }
  return best;
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

function main(): void {
  helpIfAsked(import.meta.url);
  const a = parseArgs(process.argv.slice(2));
  const games: GameSamples[] = [];
  let records = 0;
  let positions = 0;
  for (const file of a.files) {
    for (const rec of parseRecords(recordText(file)).games) {
      records++;
      const r = rec.result;
      const term = rec.tags.get('Termination') ?? 'normal';
      if (r === '*' || (term !== 'normal' && term !== 'adjudication')) continue;
      const first = r === '1-0' ? 1 : r === '0-1' ? 0 : 0.5;
      // Who moved first: the side to move in the record's KFEN.
      const kfenSide = (recordStart(rec) ?? '').trim().split(/\s+/)[1];
      const firstMoverIsFirstPlayer = kfenSide !== EDITIONS[recordVariant(rec)].sideChars[1];
      const samples: GameSamples = { cp: [], y: [] };
      rec.moves.forEach((m, i) => {
        if (i < a.skip || m.scoreCp === undefined) return;
        const moverIsFirst = (i % 2 === 0) === firstMoverIsFirstPlayer;
        samples.cp.push(m.scoreCp);
        samples.y.push(moverIsFirst ? first : 1 - first);
      });
      if (samples.cp.length > 0) {
        games.push(samples);
        positions += samples.cp.length;
      }
    }
  }
  if (games.length === 0) fail('no scored moves in the records');
  const all = games.map((_, i) => i);
  const k = a.k ?? fitK(games, all);
  const ks: number[] = [];
  const rand = rng(12345);
  for (let b = 0; b < a.bootstrap; b++)
    ks.push(
      fitK(
        games,
        all.map(() => Math.floor(rand() * games.length)),
      ),
    );
  const mean = ks.reduce((x, y) => x + y, 0) / Math.max(1, ks.length);
  const sd = Math.sqrt(ks.reduce((x, y) => x + (y - mean) ** 2, 0) / Math.max(1, ks.length - 1));
  process.stdout.write(`${records} records, ${games.length} games used, ${positions} scored moves\n`);
  process.stdout.write(
    `k = ${k.toFixed(6)} per centi-pyramid (± ${sd.toFixed(6)}, bootstrap over games, ${a.bootstrap} samples); 1/k = ${(1 / k).toFixed(1)} cp\n`,
  );
  process.stdout.write(
    `W(+100) = ${(100 / (1 + Math.exp(-k * 100))).toFixed(1)}%, W(+300) = ${(100 / (1 + Math.exp(-k * 300))).toFixed(1)}%\n\n`,
  );
  const drawn = games.filter((g) => g.y[0] === 0.5).length;
  const offset = fitWdlOffset(games, k);
  const drawAtZero = 1 - 2 / (1 + Math.exp(k * offset));
  process.stdout.write(
    `win/draw/loss (UCI_ShowWDL): offset a = ${offset} cp (${drawn} of ${games.length} games drawn; the draw chance at 0.00 is ${(100 * drawAtZero).toFixed(1)}%)\n\n`,
  );
  process.stdout.write('score bucket      moves   observed   fitted\n');
  const edges = [-Infinity, -600, -300, -200, -100, -50, -20, 20, 50, 100, 200, 300, 600, Infinity];
  for (let b = 0; b + 1 < edges.length; b++) {
    let n = 0;
    let sumY = 0;
    let sumP = 0;
    for (const g of games) {
      for (let i = 0; i < g.cp.length; i++) {
        if (g.cp[i] >= edges[b] && g.cp[i] < edges[b + 1]) {
          n++;
          sumY += g.y[i];
          sumP += 1 / (1 + Math.exp(-k * g.cp[i]));
        }
      }
    }
    const label = `[${Number.isFinite(edges[b]) ? edges[b] : '-inf'}, ${Number.isFinite(edges[b + 1]) ? edges[b + 1] : 'inf'})`;
    process.stdout.write(
      `${label.padEnd(16)} ${String(n).padStart(6)}   ${n ? ((100 * sumY) / n).toFixed(1).padStart(6) + '%' : '     -'}   ${n ? ((100 * sumP) / n).toFixed(1).padStart(5) + '%' : '-'}\n`,
    );
  }
}

main();
