/**
 * `thoth analyse`: analysis for people. The best moves of a position with scores, principal
 * variations and plain words, under a board diagram; or, with `--game`, a review of a game: every
 * move scored against the engine's choice, judged by the drop in win chance (?!, ?, ??), an
 * accuracy per side, and on request the annotated record (`--out`), a graph (`--graph`) and JSON
 * (`--json`). The search runs in this process and blocks; on a terminal a progress line goes to stderr.
 */
import { plural } from '../core/plural';
import { checkWritable, outputIsInput, readRecordFile, sameFile } from '../process/files';
import {
  NO_REMOVAL_PLIES,
  formatMove,
  gameStatus,
  isEditionId,
  legalMoves,
  toKfen,
  type Edition,
  type EditionId,
  type Position,
} from '../core/index';
import { recordPlayers, recordReason, recordStart, serializeRecord } from '../core/record';
import { annotatedRecord } from '../analysis/annotated';
import { renderBoard } from '../analysis/diagram';
import { explanationJson, reviewExplanations, type ShotExplanation } from '../analysis/explain';
import { threatsCommand } from './analyse-threats';
import { analysePosition, type AnalysisLimits, type Progress } from '../analysis/analyser';
import {
  RecordError,
  annotateGame,
  loadGame,
  reviewAnnotation,
  type GameAnnotation,
  type LoadedGame,
  type PlyAnnotation,
} from '../analysis/annotate-game';
import { evalGraphSvg, type GraphMark } from '../analysis/svg-graph';
import { REVIEW_DEPTH, REVIEW_HASH_MB } from '../analysis/review-method';
import { THRESHOLDS, WIN_CHANCE_K, firstPlayerWinChances, type GameReview, type PlyReview } from '../analysis/review';
import { moveInWords, firstPlayerView, isMateScore, scoreSentence, scoreText } from '../analysis/words';
import { jsonLine } from '../match/results/summary';
import { reviewFile } from './db-review';
import type { Searcher } from '../search/search';
import { engineSearcher, type EngineEvaluation } from '../engine/analysis-engine';
import { DEFAULT_EVAL_FILE } from '../engine/host';
import { loadNetworkFile } from '../node/network-file';
import { scoreOf } from '../core/score';
import { BOUND_LOWER, BOUND_UPPER, boundWord } from '../search/tt';
import { VERSION } from '../version';
import {
  UsageError,
  fileErrorText,
  intOption,
  parseArgs,
  writeOutput,
  type CommandSpec,
  type ParsedArgs,
} from './args';
import { ProgressLine } from './progress';
import { POSITION_OPTIONS, positionFromArgs } from './position-args';

/** The review method's depth and table (src/analysis/review-method.ts): the GUI's review uses them too. */
const DEFAULT_DEPTH = REVIEW_DEPTH;
const DEFAULT_HASH = REVIEW_HASH_MB;
/** The inaccuracy threshold in win-chance points; a mistake is twice it, a blunder three times. */
const DEFAULT_THRESHOLD = Math.round(THRESHOLDS.inaccuracy * 100);

export const ANALYSE_SPEC: CommandSpec = {
  name: 'analyse',
  summary:
    'The best moves of a position, with scores, principal variations and what each move does in words; with --threats, ' +
    'the danger map of the position (no search); or, with ' +
    "--game, a review of a recorded game: each move against the engine's choice at the same depth, judged by how much it " +
    "drops the mover's win chance (?! inaccuracy, ? mistake, ?? blunder), and per side an accuracy and the counts.",
  options: [
    ...POSITION_OPTIONS,
    { name: 'depth', value: 'N', help: 'search depth per position', default: String(DEFAULT_DEPTH) },
    {
      name: 'time',
      value: 'S',
      help: "seconds per position instead of a depth (e.g. 5 or 0.5); the depth then rests on the machine's speed and load, so --game's marks are not reproducible",
    },
    { name: 'multipv', value: 'K', help: 'the K best moves (not with --game)', default: '1' },
    { name: 'game', value: 'FILE', help: 'review a game from a record file (PGN, e.g. thoth match -pgnout)' },
    {
      name: 'threats',
      help: "the danger map, no search: every piece the opponent's beam could remove after any one of its moves, and by which move; then what the side to move can hit now",
    },
    {
      name: 'all',
      help: 'with --game: review every game of the file on every core, resumable, with each player\'s accuracy (docs/db.md, "Review")',
    },
    { name: 'db', value: 'FILE', help: 'with --all: the database the games and reviews go into', default: 'FILE.db' },
    { name: 'threads', value: 'N', help: 'with --all: games at once', default: 'the number of cores' },
    { name: 'index', value: 'N', help: 'which game of the file, counted in file order', default: '1' },
    {
      name: 'round',
      value: 'R',
      help: "the game whose Round tag is R (e.g. 3.2: a match writes games as they end, so file order may differ); a round's number alone (3) picks its first game (3.1)",
    },
    {
      name: 'threshold',
      value: 'PCT',
      help: 'win-chance drop (in points) that makes an inaccuracy; a mistake is twice it, a blunder three times',
      default: String(DEFAULT_THRESHOLD),
    },
    {
      name: 'out',
      value: 'FILE',
      help: 'with --game: write the annotated record ({+0.35/12} comments, NAGs, the better line); never the --game file',
    },
    { name: 'graph', value: 'FILE', help: 'with --game: draw the win chance over the game as an SVG' },
    { name: 'json', help: 'one JSON object on stdout instead of the text' },
    {
      name: 'hash',
      value: 'MB',
      help: "transposition table size (the engine's default; with another, --game's marks may differ from the GUI's)",
      default: String(DEFAULT_HASH),
    },
    {
      name: 'no-removal',
      value: 'PLIES',
      help: 'plies without a removal that draw (0 = off)',
      default: String(NO_REMOVAL_PLIES),
    },
    { name: 'quiet', help: 'no progress line' },
  ],
  notes: [
    'Scores are in centi-pyramids shown as hundredths (+1.00 = a Pyramid ahead); +M2 = hits the Pharaoh in 2 moves.',
    'Examples: thoth analyse --setup imhotep --multipv 3 --depth 9',
    '          thoth analyse --game games.pgn --index 4 --out reviewed.pgn --graph eval.svg',
    '          thoth analyse --threats --setup dynasty --moves j3i3',
  ],
};

function progressText(p: Progress, side: number, ed: Edition): string {
  return (
    `depth ${p.depth}  ${scoreText(firstPlayerView(p.score, side))} for ${ed.colorNames[0]}  best ${p.pv[0] ?? '-'}` +
    `  ${formatNodes(p.nodes)} nodes  ${(p.ms / 1000).toFixed(1)} s  pv ${p.pv.join(' ')}`
  );
}

function formatNodes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

function timeOption(args: ParsedArgs): number {
  const v = args.options.get('time')?.[0];
  if (v === undefined) return 0;
  if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0 || Number(v) > 86400) {
    throw new UsageError(`--time must be a number of seconds above 0 (e.g. 5 or 0.5), not '${v}'`);
  }
  return Math.max(1, Math.round(Number(v) * 1000));
}

function scoreWithBound(s: number, bound: number): string {
  const t = scoreText(s);
  return bound === BOUND_LOWER ? `>=${t}` : bound === BOUND_UPPER ? `<=${t}` : t;
}

/** Checks that an output file can be written, before the work (without creating or emptying it). */
function checkOutput(file: string, what: string): void {
  try {
    checkWritable(file);
  } catch (e) {
    throw new UsageError(`cannot write the ${what} '${file}': ${fileErrorText(e)}`);
  }
}

export async function analyseCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, ANALYSE_SPEC);
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument '${args.positional[0]}' (thoth analyse --help)`);
  if (args.options.has('depth') && args.options.has('time')) throw new UsageError('give --depth or --time, not both');
  const timeMs = timeOption(args);
  const depth = intOption(args, 'depth', DEFAULT_DEPTH, 1, 100);
  const multiPV = intOption(args, 'multipv', 1, 1, 256);
  const threshold = intOption(args, 'threshold', DEFAULT_THRESHOLD, 1, 33);
  const hash = intOption(args, 'hash', DEFAULT_HASH, 1, 4096);
  const index = intOption(args, 'index', 1, 1, 1000000);
  if (args.options.has('index') && args.options.has('round')) throw new UsageError('give --index or --round, not both');
  const roundTag = args.options.get('round')?.[0];
  const which = roundTag === undefined ? index : { round: roundTag };
  const noRemovalLimit = intOption(args, 'no-removal', NO_REMOVAL_PLIES, 0, 100000);
  const pharaohRotation = args.options.has('pharaoh-rotation');
  const json = args.options.has('json');
  const limits: AnalysisLimits = { depth, timeMs, multiPV, noRemovalLimit };
  const progress = new ProgressLine(process.stderr, !args.options.has('quiet'));
  // The table is allocated once the arguments are known to be good; the evaluation is the
  // engine's default (the shipped network), as `thoth "go depth N"` searches.
  const newSearcher = (): Searcher => engineSearcher(hash, defaultEvaluation());

  const gameFile = args.options.get('game')?.[0];
  if (args.options.has('threats')) {
    threatsCommand(args, pharaohRotation, write, json);
    return;
  }
  if (args.options.has('all') || args.options.has('db') || args.options.has('threads')) {
    if (gameFile === undefined || !args.options.has('all'))
      throw new UsageError('--all goes with --game FILE (--db and --threads with --all)');
    return reviewFile(gameFile, args, progress, write);
  }
  if (gameFile === undefined) {
    for (const o of ['threshold', 'index', 'round', 'out', 'graph'])
      if (args.options.has(o)) throw new UsageError(`--${o} goes with --game`);
    const pos = positionFromArgs(args, pharaohRotation);
    analyseOne(newSearcher(), pos, limits, progress, write, json);
    return;
  }
  reviewOneGame(gameFile, args, { limits, which, threshold, pharaohRotation, json, progress, newSearcher }, write);
}

/** What `thoth analyse --game FILE` (one game) takes from the options read before it. */
interface OneGameSettings {
  limits: AnalysisLimits;
  which: number | { round: string };
  threshold: number;
  pharaohRotation: boolean;
  json: boolean;
  progress: ProgressLine;
  newSearcher: () => Searcher;
}

/** `thoth analyse --game FILE`: one game of the file reviewed, printed and written where asked. */
function reviewOneGame(
  gameFile: string,
  args: ParsedArgs,
  settings: OneGameSettings,
  write: (line: string) => void,
): void {
  const { limits, which, threshold, pharaohRotation, json, progress, newSearcher } = settings;
  for (const o of ['kfen', 'setup', 'moves']) {
    if (args.options.has(o)) throw new UsageError(`--${o} does not go with --game (the record gives the position)`);
  }
  if (args.options.has('multipv')) throw new UsageError('--multipv does not go with --game');
  const v = args.options.get('variant')?.[0];
  if (v !== undefined && !isEditionId(v)) throw new UsageError(`unknown variant '${v}' (khet2, khet1 or deflexion)`);
  const out = args.options.get('out')?.[0];
  const graph = args.options.get('graph')?.[0];
  for (const o of [out, graph]) {
    const clash = o === undefined ? undefined : outputIsInput(o, [gameFile]);
    if (clash !== undefined) throw new UsageError(clash);
  }
  if (out !== undefined && graph !== undefined && sameFile(out, graph))
    throw new UsageError(`--out and --graph are the same file '${out}'`);
  const text = readRecordFile(gameFile, 'game record');
  if (!text.ok) throw new UsageError(text.error);
  let game: LoadedGame;
  try {
    game = loadGame(text.value, which, v as EditionId | undefined, pharaohRotation);
  } catch (e) {
    if (e instanceof RecordError) throw new UsageError(`${gameFile}: ${e.message}`);
    throw e;
  }
  if (out !== undefined) checkOutput(out, 'annotated record');
  if (graph !== undefined) checkOutput(graph, 'graph');

  const ed = game.start.edition;
  const total = game.moves.length;
  let annotation: GameAnnotation;
  try {
    annotation = annotateGame(newSearcher(), game, limits, (k, p) => {
      const what = k < total ? `move ${k + 1}/${total} (${game.texts[k]})` : 'final position';
      const side = (game.start.side + k) & 1;
      progress.show(p ? `analysing ${what}: ${progressText(p, side, ed)}` : `analysing ${what}`, p !== undefined);
    });
  } finally {
    progress.clear();
  }
  const t = threshold / 100;
  const review = reviewAnnotation(annotation, { thresholds: { inaccuracy: t, mistake: 2 * t, blunder: 3 * t } });
  if (out !== undefined) {
    const annotator = `Thoth ${VERSION} (${limitsText(limits)})`;
    const why = reviewExplanations(game, annotation, review);
    writeOutput(out, serializeRecord(annotatedRecord(game, annotation, review, annotator, why)), 'annotated record');
  }
  if (graph !== undefined) writeOutput(graph, gameGraph(game, annotation, review), 'graph');
  if (json) {
    write(jsonLine(gameJson(game, annotation, review, limits, gameFile, game.index)));
    return;
  }
  printReview(game, annotation, review, limits, threshold, write, gameFile, game.index);
  if (out !== undefined) write(`Annotated record written to ${out}`);
  if (graph !== undefined) write(`Graph written to ${graph}`);
}

/** The engine's default evaluation: the shipped network, or the hand-written one when it cannot be read. */
function defaultEvaluation(): EngineEvaluation {
  const r = loadNetworkFile(DEFAULT_EVAL_FILE);
  if (r.ok) return { network: r.value.net, source: r.value.source };
  process.stderr.write(`thoth analyse: ${r.error}; the hand-written evaluation is used\n`);
  return { network: null, source: 'none' };
}

function limitsText(limits: AnalysisLimits): string {
  return limits.timeMs > 0 ? `${limits.timeMs / 1000} s per position` : `depth ${limits.depth}`;
}

/** The K best moves of one position. */
function analyseOne(
  searcher: Searcher,
  pos: Position,
  limits: AnalysisLimits,
  progress: ProgressLine,
  write: (s: string) => void,
  json: boolean,
): void {
  const ed = pos.edition;
  const status = gameStatus(pos, { noRemovalLimit: limits.noRemovalLimit });
  const base = { variant: ed.id, kfen: toKfen(pos), sideToMove: ed.colorNames[pos.side] };
  if (status.result !== 'ongoing') {
    if (json) {
      write(jsonLine({ ...base, status: status.result, text: status.text, lines: [] }));
      return;
    }
    for (const l of renderBoard(pos)) write(l);
    write('');
    write(`The game is over: ${status.text}.`);
    return;
  }
  const side = pos.side;
  let a;
  try {
    a = analysePosition(searcher, pos, limits, [], (p) => progress.show(`thinking: ${progressText(p, side, ed)}`));
  } finally {
    progress.clear();
  }
  if (json) {
    write(
      jsonLine({
        ...base,
        status: 'ongoing',
        depth: a.depth,
        nodes: a.nodes,
        timeMs: Math.round(a.ms),
        lines: a.lines.map((l) => ({
          move: formatMove(l.move),
          score: scoreOf(l.score),
          bound: boundWord(l.bound),
          pv: l.pv.map(formatMove),
          words: moveInWords(pos, l.move, formatMove(l.move)).sentence,
        })),
      }),
    );
    return;
  }
  for (const l of renderBoard(pos)) write(l);
  write('');
  const first = ed.colorNames[0];
  const nLegal = legalMoves(pos).length;
  write(
    `Analysis: depth ${a.depth}, ${formatNodes(a.nodes)} nodes, ${(a.ms / 1000).toFixed(1)} s; ` +
      `${a.lines.length} best of ${nLegal} legal move${nLegal === 1 ? '' : 's'}.`,
  );
  write(
    `Scores are from ${first}'s (the first player's) point of view: +1.00 = a Pyramid ahead, +M2 = ${first} hits the ${ed.colorNames[1]} Pharaoh in 2 moves.`,
  );
  write('');
  const width = Math.max(...a.lines.map((l) => formatMove(l.move).length));
  a.lines.forEach((l, i) => {
    const s = firstPlayerView(l.score, side);
    const bound =
      side === 0 ? l.bound : l.bound === BOUND_LOWER ? BOUND_UPPER : l.bound === BOUND_UPPER ? BOUND_LOWER : l.bound;
    const mv = formatMove(l.move);
    write(
      `${i + 1}. ${mv.padEnd(width)}  ${scoreWithBound(s, bound).padStart(6)}  ${scoreSentence(s, ed)}  (pv: ${l.pv.map(formatMove).join(' ')})`,
    );
    write(`${' '.repeat(String(i + 1).length + 2)}${moveInWords(pos, l.move, mv).sentence}.`);
  });
}

/** What the engine thinks of a played move, against its own choice. */
function verdictText(p: PlyAnnotation): string {
  if (p.best === p.move) return 'best';
  if (p.loss === 0) return `as good as ${formatMove(p.best)}`;
  const better = `better ${formatMove(p.best)} (${scoreText(p.bestScore)}, pv: ${p.bestPv.slice(0, 6).map(formatMove).join(' ')})`;
  const bestWins = isMateScore(p.bestScore) && p.bestScore > 0;
  const playedWins = isMateScore(p.playedScore) && p.playedScore > 0;
  const bestLoses = isMateScore(p.bestScore) && p.bestScore < 0;
  const playedLoses = isMateScore(p.playedScore) && p.playedScore < 0;
  if (bestWins && playedWins) return `wins more slowly; ${better}`;
  if (bestLoses && playedLoses) return `loses sooner; ${better}`;
  if (bestWins) return `misses the win; ${better}`;
  if (playedLoses) return `walks into a forced loss; ${better}`;
  return `loses ${(p.loss / 100).toFixed(2)}; ${better}`;
}

const pct = (x: number): string => `${Math.round(100 * x)}%`;

/** Every move of a game, then a summary per side. */
function printReview(
  game: LoadedGame,
  a: GameAnnotation,
  review: GameReview,
  limits: AnalysisLimits,
  threshold: number,
  write: (s: string) => void,
  file: string,
  index: number,
): void {
  const ed = game.start.edition;
  const [first, second] = ed.colorNames;
  const rec = game.record;
  const players = recordPlayers(rec);
  const reason = recordReason(rec);
  const start = recordStart(rec);
  const round = rec.tags.get('Round');
  const where = game.gamesInFile > 1 ? `Game ${index} of ${game.gamesInFile} in ${file}` : `Game: ${file}`;
  write(round !== undefined && round !== '?' && round !== '-' ? `${where}, Round ${round}` : where);
  if (players[0] !== '?' || players[1] !== '?') write(`${first}: ${players[0]}, ${second}: ${players[1]}`);
  // A move is both players' turns under one move number (as in the record); plies are the turns.
  const plies = game.moves.length;
  const moves = Math.ceil((plies + game.start.side) / 2);
  write(
    `${ed.name} (${ed.id}), ${plural(moves, 'move')} (${plural(plies, 'ply', 'plies')}), result ${rec.result}${reason !== undefined ? ` (${reason})` : ''}`,
  );
  write(`Start: ${start ?? `the classic setup, ${toKfen(game.start)}`}`);
  write('');
  write(
    `Each move: the score before it and after it, from the mover's point of view (+1.00 = a Pyramid ahead, +M2 = hits the Pharaoh in 2 moves),`,
  );
  write(
    `the mover's win chance before -> after, and the engine's choice where it differs. Marks by the drop in win chance:`,
  );
  write(
    `?! inaccuracy ${plural(threshold, 'point')} or more, ? mistake ${2 * threshold} or more, ?? blunder ${3 * threshold} or more. ${cap(limitsText(limits))}.`,
  );
  write('');
  const marked = (i: number): string => `${a.plies[i].text}${review.plies[i].mark}`;
  const why = reviewExplanations(game, a, review);
  const labelW = Math.max(4, ...a.plies.map((p) => p.label.length));
  const moveW = Math.max(5, ...a.plies.map((_, i) => marked(i).length));
  const nameW = Math.max(first.length, second.length);
  if (a.plies.length > 0) {
    write(
      `${''.padStart(labelW)} ${'move'.padEnd(moveW)} ${'mover'.padEnd(nameW)} ${'before'.padStart(6)} -> ${'after'.padStart(6)}  ${'win chance'.padEnd(11)}  engine`,
    );
  }
  a.plies.forEach((p, i) => {
    const r = review.plies[i];
    const who = ed.colorNames[p.side].padEnd(nameW);
    const scores = `${scoreText(p.bestScore).padStart(6)} -> ${scoreText(p.playedScore).padStart(6)}`;
    const wins = `${pct(r.winBefore).padStart(4)} -> ${pct(r.winAfter).padStart(4)}`;
    write(`${p.label.padStart(labelW)} ${marked(i).padEnd(moveW)} ${who} ${scores}  ${wins}  ${verdictText(p)}`);
    if (p.words.killedSq >= 0 || r.judgement)
      write(`${' '.repeat(labelW + 1)}${p.words.sentence}${r.reason ? `; it ${r.reason}` : ''}.`);
    const w = why[i];
    if (w !== undefined) write(`${' '.repeat(labelW + 1)}Why: ${w.sentence}`);
  });
  write('');
  write(`Summary (${limitsText(limits)}):`);
  for (const side of [0, 1] as const) {
    const s = review.sides[side];
    const label = `${ed.colorNames[side]}${players[side] !== '?' ? ` (${players[side]})` : ''}`;
    if (s.moves === 0) {
      write(`  ${label}: no moves`);
      continue;
    }
    write(
      `  ${label}: accuracy ${s.accuracy.toFixed(1)}%, ${plural(s.moves, 'move')}, ` +
        `${plural(s.inaccuracies, 'inaccuracy', 'inaccuracies')} (?!), ${plural(s.mistakes, 'mistake', 'mistakes')} (?), ` +
        `${plural(s.blunders, 'blunder', 'blunders')} (??), average loss ${(s.averageCpLoss / 100).toFixed(2)}`,
    );
    const bad = a.plies.map((p, i) => [p, review.plies[i]] as const).filter(([p, r]) => p.side === side && r.judgement);
    if (bad.length > 0)
      write(
        `    ${bad.map(([p, r]) => `${p.label}${p.text}${r.mark} (${reasonAnd(r)}better ${formatMove(p.best)})`).join(', ')}`,
      );
  }
  const fin = a.final;
  if (a.finalAnalysis) {
    const top = a.finalAnalysis.lines[0];
    const s = firstPlayerView(top.score, fin.side);
    write(
      `  Final position: ${ed.colorNames[fin.side]} to move, ${scoreText(s)} (${first}'s view): ${scoreSentence(s, ed)}; best ${formatMove(top.move)} (pv: ${top.pv.slice(0, 8).map(formatMove).join(' ')})`,
    );
  } else {
    write(`  Final position: ${a.finalStatus.text}.`);
  }
  write('');
  for (const l of renderBoard(fin)) write(l);
}

const cap = (s: string): string => s[0].toUpperCase() + s.slice(1);

/** A marked move's reason, where the review knows one, before the better move: `draws by threefold repetition; `. */
const reasonAnd = (r: PlyReview): string => (r.reason ? `${r.reason}; ` : '');

/** The review as one JSON object. */
function gameJson(
  game: LoadedGame,
  a: GameAnnotation,
  review: GameReview,
  limits: AnalysisLimits,
  file: string,
  index: number,
): unknown {
  const ed = game.start.edition;
  const rec = game.record;
  const players = recordPlayers(rec);
  const why = reviewExplanations(game, a, review);
  const ply = (p: PlyAnnotation, r: PlyReview, w: ShotExplanation | undefined): unknown => ({
    ply: p.index,
    label: p.label,
    side: ed.colorNames[p.side],
    move: p.text,
    best: formatMove(p.best),
    bestScore: scoreOf(p.bestScore),
    playedScore: scoreOf(p.playedScore),
    bestPv: p.bestPv.map(formatMove),
    winBefore: round(r.winBefore),
    winAfter: round(r.winAfter),
    drop: round(r.drop),
    accuracy: round(r.accuracy, 1),
    cpLoss: r.cpLoss,
    judgement: r.judgement,
    reason: r.reason || null,
    mark: r.mark || null,
    nag: r.nag || null,
    depth: p.depth,
    nodes: p.nodes,
    explanation: w === undefined ? null : explanationJson(w),
  });
  return {
    file,
    index,
    round: rec.tags.get('Round') ?? null,
    variant: ed.id,
    white: players[0],
    black: players[1],
    result: rec.result,
    reason: recordReason(rec) ?? null,
    start: toKfen(game.start),
    limits: limits.timeMs > 0 ? { timeMs: limits.timeMs } : { depth: limits.depth },
    winChanceK: WIN_CHANCE_K,
    plies: a.plies.map((p, i) => ply(p, review.plies[i], why[i])),
    sides: review.sides.map((s, i) => ({
      color: ed.colorNames[i],
      player: players[i],
      ...s,
      accuracy: round(s.accuracy, 1),
      averageCpLoss: round(s.averageCpLoss, 1),
    })),
    final: a.finalAnalysis
      ? {
          status: 'ongoing',
          sideToMove: ed.colorNames[a.final.side],
          score: scoreOf(a.finalAnalysis.lines[0].score),
          best: formatMove(a.finalAnalysis.lines[0].move),
        }
      : { status: a.finalStatus.result, text: a.finalStatus.text },
  };
}

function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The win-chance graph of a reviewed game. */
function gameGraph(game: LoadedGame, a: GameAnnotation, review: GameReview): string {
  const ed = game.start.edition;
  const [p0, p1] = recordPlayers(game.record);
  const marks: GraphMark[] = [];
  a.plies.forEach((p, i) => {
    const r = review.plies[i];
    if (r.judgement)
      marks.push({
        ply: i,
        judgement: r.judgement,
        text: `${p.label} ${p.text}${r.mark} (${reasonAnd(r)}better ${formatMove(p.best)})`,
      });
  });
  const s = review.sides;
  const acc = (i: 0 | 1): string => (s[i].moves > 0 ? ` ${s[i].accuracy.toFixed(0)}%` : '');
  return evalGraphSvg({
    wins: firstPlayerWinChances(review.plies),
    marks,
    title: `${ed.colorNames[0]} ${p0}${acc(0)} vs ${ed.colorNames[1]} ${p1}${acc(1)}, ${game.record.result}`,
    colorNames: ed.colorNames,
    firstMoveNumber: game.start.moveNumber,
    firstSide: game.start.side as 0 | 1,
  });
}
