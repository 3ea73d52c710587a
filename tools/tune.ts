/**
 * Evaluation tuning by a logistic fit (the "Texel" method): positions from game records are
 * labelled with the game's result, and the weights of src/search/evaluate.ts are moved, one at
 * a time, while the mean squared error between the result and sigmoid(eval) goes down.
 *
 *   npx tsx tools/tune.ts [--skip 8] [--quiet] [--iterations 20] [--only w1,w2] records.pgn …
 *
 * `--only` fits the named weights and keeps the others as they are (for a new term).
 *
 * Positions: every position of every decided or drawn game from ply `--skip` on (the random
 * opening plies are skipped), the side to move's result as the label. With `--quiet` only the
 * positions whose quiescence score equals their static evaluation are kept.
 *
 * Speed: each position is reduced once to its feature counts (each linear term measured by
 * evaluating with a unit weight, the shots by the pieces the beams hit), and the check at the
 * start proves that the features give back evaluate() (to its rounding). The fit then needs no search.
 */
import { ANUBIS, OBELISK, PHARAOH, PYRAMID, STACK, type Position } from '../src/core/index';
import { parseRecords, replayRecord } from '../src/core/record';
import { readRecordFile } from '../src/process/files';
import { WEIGHTS, type Weights, evaluate, pieceValue, threatScan } from '../src/search/evaluate';
import { Searcher } from '../src/search/search';
import { TranspositionTable } from '../src/search/tt';
import { helpIfAsked } from './help';

/** A record file's text (up to the limit every reader shares), or the end of the tool with its reason. */
function recordText(file: string): string {
  const t = readRecordFile(file);
  if (t.ok) return t.value;
  process.stderr.write(`${t.error}\n`);
  process.exit(2);
}

type Key = keyof Weights;
const KEYS = Object.keys(WEIGHTS) as Key[];
/** Linear terms: f_i = evaluate(pos, unit_i) − evaluate(pos, 0). */
const LINEAR: Key[] = [
  'pyramid',
  'anubis',
  'obelisk',
  'stack',
  'pharaohInBeam',
  'pharaohMirrorLine',
  'pharaohOpenLine',
  'pharaohShelter',
  'pharaohScarabNear',
  'beamLength',
  'pharaohThreatOnUs',
  'pharaohEscape',
];
/** Weights that are fractions (steps of 0.01); the others move by whole centi-pyramids. */
const FRACTIONS = new Set<Key>(['shotOnEnemy', 'shotOnOwn', 'enemyShotOnUs', 'beamLength', 'threatOnUs']);
/**
 * Bounds that keep the evaluation consistent with the search. A shot fired now removes the
 * piece, so the threat of one is worth less than the piece (below 1); a threat cannot be a
 * bonus for the side it hurts (not below 0); the Pharaoh-in-beam term is hardly ever seen in
 * quiet positions, so it is not left to drift.
 */
const BOUNDS: Partial<Record<Key, [number, number]>> = {
  shotOnEnemy: [0, 0.9],
  shotOnOwn: [0, 0.9],
  enemyShotOnUs: [0, 0.9],
  threatOnUs: [0, 0.9],
  pharaohInBeam: [0, 300],
};

interface Args {
  files: string[];
  skip: number;
  quiet: boolean;
  iterations: number;
  only: Key[] | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { files: [], skip: 8, quiet: false, iterations: 20, only: null };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s === '--skip') a.skip = Number(argv[++i]);
    else if (s === '--quiet') a.quiet = true;
    else if (s === '--iterations') a.iterations = Number(argv[++i]);
    else if (s === '--only') {
      a.only = (argv[++i] ?? '').split(',') as Key[];
      const bad = a.only.filter((k) => !KEYS.includes(k));
      if (bad.length > 0) {
        process.stderr.write(`unknown weights: ${bad.join(', ')} (known: ${KEYS.join(', ')})\n`);
        process.exit(2);
      }
    } else a.files.push(s);
  }
  if (a.files.length === 0) {
    process.stderr.write(
      'usage: npx tsx tools/tune.ts [--skip N] [--quiet] [--iterations N] [--only w1,w2] records.pgn …\n',
    );
    process.exit(2);
  }
  return a;
}

const zero = Object.fromEntries(KEYS.map((k) => [k, 0])) as unknown as Weights;
const NF = LINEAR.length;
// shot kinds: which piece each beam removes, as an index into the piece values
const SHOT_NONE = 0;

/** Piece kind index for the shot terms: 1 pyramid, 2 anubis, 3 obelisk (also a stack's top). */
function kindIndex(p: number): number {
  const k = (p >> 2) & 7;
  return k === PYRAMID ? 1 : k === ANUBIS ? 2 : k === OBELISK || k === STACK ? 3 : 0;
}

function main(): void {
  helpIfAsked(import.meta.url);
  const args = parseArgs(process.argv.slice(2));
  const feats: number[] = [];
  const ourShot: number[] = []; // +kind: enemy piece, −kind: own piece
  const theirShot: number[] = []; // kind of our piece the enemy beam takes (not the Pharaoh)
  const theirThreat: number[] = []; // kind of the best piece of ours the enemy beam threatens
  const labels: number[] = [];
  const evals: number[] = [];
  const searcher = new Searcher(new TranspositionTable(1));
  const mask = new Int32Array(6);
  let games = 0;
  let seen = 0;
  const unit = LINEAR.map((k) => ({ ...zero, [k]: 1 }) as Weights);

  const addPosition = (pos: Position, resultForSilver: number): void => {
    seen++;
    const stm = pos.side === 0 ? resultForSilver : 1 - resultForSilver;
    const ev = evaluate(pos);
    if (args.quiet && searcher.quiesce(pos) !== ev) return;
    const base = evaluate(pos, zero);
    for (let i = 0; i < NF; i++) feats.push(evaluate(pos, unit[i]) - base);
    const us = pos.side;
    const ok = pos.beamMask(us, mask, 0);
    const tk = pos.beamMask(us ^ 1, mask, 3);
    let o = SHOT_NONE;
    if (ok >= 0) {
      const p = pos.board[ok];
      o = p >> 5 === us ? -kindIndex(p) : kindIndex(p);
    }
    let t = SHOT_NONE;
    if (tk >= 0) {
      const p = pos.board[tk];
      if (p >> 5 === us && ((p >> 2) & 7) !== PHARAOH) t = kindIndex(p);
    }
    ourShot.push(o);
    theirShot.push(t);
    const d = threatScan(pos, us ^ 1, tk, WEIGHTS);
    theirThreat.push(d >= 0 ? kindIndex(pos.board[d]) : 0);
    labels.push(stm);
    evals.push(ev);
  };

  for (const file of args.files) {
    const { games: recs } = parseRecords(recordText(file));
    for (const rec of recs) {
      const r = rec.result;
      if (r === '*') continue;
      const term = rec.tags.get('Termination') ?? 'normal';
      if (term !== 'normal' && term !== 'adjudication') continue;
      const replay = replayRecord(rec);
      if (!replay.ok) continue;
      const silver = r === '1-0' ? 1 : r === '0-1' ? 0 : 0.5;
      const pos = replay.value.position;
      // walk back from the end, collecting positions before each move from ply `skip` on
      const n = replay.value.moves.length;
      for (let k = n - 1; k >= 0; k--) {
        pos.unmake();
        if (k >= args.skip && pos.winner < 0) addPosition(pos, silver);
      }
      games++;
    }
  }
  const N = labels.length;
  process.stdout.write(`${games} games, ${seen} positions seen, ${N} used\n`);

  const F = Float64Array.from(feats);
  const O = Int8Array.from(ourShot);
  const T = Int8Array.from(theirShot);
  const TU = Int8Array.from(theirThreat);
  const L = Float64Array.from(labels);

  const evalAt = (w: Weights, i: number, values: Float64Array): number => {
    let e = w.tempo;
    const b = i * NF;
    for (let j = 0; j < NF; j++) e += F[b + j] * (w[LINEAR[j]] as number);
    const o = O[i];
    if (o > 0) e += w.shotOnEnemy * values[o];
    else if (o < 0) e -= w.shotOnOwn * values[-o];
    const t = T[i];
    if (t > 0) e -= w.enemyShotOnUs * values[t];
    const d = TU[i];
    if (d > 0) e -= w.threatOnUs * values[d];
    return e;
  };
  const valuesOf = (w: Weights): Float64Array => {
    const v = new Float64Array(4);
    v[1] = pieceValue(PYRAMID << 2, w);
    v[2] = pieceValue(ANUBIS << 2, w);
    v[3] = pieceValue(OBELISK << 2, w);
    return v;
  };

  // The features must give back the engine's evaluation (to its rounding).
  {
    const v = valuesOf(WEIGHTS);
    let bad = 0;
    // evaluate() rounds its sum; summing the same terms in another order may land on the other
    // side of a half, so allow the rounding and a floating-point hair more
    for (let i = 0; i < N; i++) if (Math.abs(evalAt(WEIGHTS, i, v) - evals[i]) > 0.5 + 1e-6) bad++;
    if (bad > 0) {
      process.stderr.write(`feature check failed on ${bad} of ${N} positions\n`);
      process.exit(1);
    }
    process.stdout.write(`feature check: ${N} positions reproduce evaluate()\n`);
  }

  const loss = (w: Weights, K: number): number => {
    const v = valuesOf(w);
    let s = 0;
    for (let i = 0; i < N; i++) {
      const p = 1 / (1 + Math.exp((-K * evalAt(w, i, v)) / 400));
      const d = L[i] - p;
      s += d * d;
    }
    return s / N;
  };

  // K: the scale that fits the current weights best
  let K = 1;
  for (const step of [0.5, 0.1, 0.02]) {
    for (;;) {
      const here = loss(WEIGHTS, K);
      if (loss(WEIGHTS, K + step) < here) K += step;
      else if (K - step > 0 && loss(WEIGHTS, K - step) < here) K -= step;
      else break;
    }
  }
  const w: Weights = { ...WEIGHTS };
  let best = loss(w, K);
  process.stdout.write(`K = ${K.toFixed(2)}, start loss ${best.toFixed(6)}\n`);

  for (let it = 0; it < args.iterations; it++) {
    let improved = false;
    for (const k of args.only ?? KEYS) {
      const step = FRACTIONS.has(k) ? 0.01 : 1;
      for (const dir of [1, -1]) {
        let moved = false;
        for (;;) {
          const old = w[k];
          const next = Math.round((old + dir * step) * 100) / 100;
          const range = BOUNDS[k] ?? [-Infinity, Infinity];
          if (next < range[0] || next > range[1]) break;
          w[k] = next;
          const l = loss(w, K);
          if (l < best) {
            best = l;
            moved = true;
            improved = true;
          } else {
            w[k] = old;
            break;
          }
        }
        if (moved) break;
      }
    }
    process.stdout.write(`iteration ${it + 1}: loss ${best.toFixed(6)}\n`);
    if (!improved) break;
  }
  process.stdout.write(`\nexport const WEIGHTS: Weights = ${JSON.stringify(w, null, 2)};\n`);
}

main();
