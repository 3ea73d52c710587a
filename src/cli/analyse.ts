/**
 * `thoth analyse`: analysis for people. The best moves of a position with scores, principal
 * variations and plain words, under a board diagram; or, with `--game`, every move of a game
 * annotated. The search runs in this process and blocks; a progress line goes to stderr.
 */
import { readFileSync } from 'node:fs';
import {
  formatMove, gameStatus, isEditionId, legalMoves, toKfen, type Edition, type EditionId, type Position,
} from '../core/index';
import { renderBoard } from '../analysis/board';
import { analysePosition, type AnalysisLimits, type Progress } from '../analysis/engine';
import { recordPlayers, recordReason, recordStart } from '../core/record';
import { RecordError, annotateGame, loadGame, type PlyAnnotation } from '../analysis/game';
import { moveInWords, firstPlayerView, isMateScore, scoreSentence, scoreText } from '../analysis/words';
import { Searcher } from '../search/search';
import { BOUND_LOWER, BOUND_UPPER, TranspositionTable } from '../search/tt';
import { UsageError, intOption, parseArgs, type ParsedArgs } from './args';
import { ProgressLine } from './progress';
import { POSITION_MULTI, POSITION_VALUED, positionFromArgs } from './position-args';

export const ANALYSE_USAGE =
  'thoth analyse [--variant khet2|khet1|deflexion] [--kfen "<kfen>" | --setup classic|imhotep|dynasty --moves m1 m2 ...] ' +
  '[--depth N | --time S] [--multipv K] [--game <record file> [--index N] [--threshold CP]] [--hash MB] [--no-removal PLIES] ' +
  '[--pharaoh-rotation] [--quiet]';

const DEFAULT_DEPTH = 8;
const DEFAULT_THRESHOLD = 100;
/** Losses above this count as this much in the average (one lost game is not 100 mistakes). */
const LOSS_CAP = 1000;

function progressText(p: Progress, side: number, ed: Edition): string {
  return `depth ${p.depth}  ${scoreText(firstPlayerView(p.score, side))} for ${ed.colorNames[0]}  best ${p.pv[0] ?? '-'}` +
    `  ${formatNodes(p.nodes)} nodes  ${(p.ms / 1000).toFixed(1)} s  pv ${p.pv.join(' ')}`;
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

export async function analyseCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(
    argv,
    [...POSITION_VALUED, 'depth', 'time', 'multipv', 'game', 'threshold', 'hash', 'index', 'no-removal'],
    ['pharaoh-rotation', 'quiet'],
    POSITION_MULTI,
  );
  if (args.positional.length > 0) throw new UsageError(`unexpected argument '${args.positional[0]}' (usage: ${ANALYSE_USAGE})`);
  if (args.options.has('depth') && args.options.has('time')) throw new UsageError('give --depth or --time, not both');
  const timeMs = timeOption(args);
  const depth = intOption(args, 'depth', DEFAULT_DEPTH, 1, 100);
  const multiPV = intOption(args, 'multipv', 1, 1, 256);
  const threshold = intOption(args, 'threshold', DEFAULT_THRESHOLD, 1, 100000);
  const hash = intOption(args, 'hash', 64, 1, 4096);
  const index = intOption(args, 'index', 1, 1, 1000000);
  const noRemovalLimit = intOption(args, 'no-removal', 100, 0, 100000);
  const pharaohRotation = args.options.has('pharaoh-rotation');
  // `thoth analyse … | head`: a closed pipe ends the output quietly.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  const limits: AnalysisLimits = { depth, timeMs, multiPV, noRemovalLimit };
  const progress = new ProgressLine(process.stderr, !args.options.has('quiet'));
  // The table is allocated once the arguments are known to be good.
  const newSearcher = (): Searcher => new Searcher(new TranspositionTable(hash));

  const gameFile = args.options.get('game')?.[0];
  if (gameFile === undefined) {
    for (const o of ['threshold', 'index']) if (args.options.has(o)) throw new UsageError(`--${o} goes with --game`);
    const pos = positionFromArgs(args, pharaohRotation);
    analyseOne(newSearcher(), pos, limits, progress, write);
    return;
  }
  for (const o of ['kfen', 'setup', 'moves']) {
    if (args.options.has(o)) throw new UsageError(`--${o} does not go with --game (the record gives the position)`);
  }
  if (args.options.has('multipv')) throw new UsageError('--multipv does not go with --game');
  const v = args.options.get('variant')?.[0];
  if (v !== undefined && !isEditionId(v)) throw new UsageError(`unknown variant '${v}' (khet2, khet1 or deflexion)`);
  let text: string;
  try {
    text = readFileSync(gameFile, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UsageError(`cannot read game record '${gameFile}': ${why}`);
  }
  let game;
  try {
    game = loadGame(text, index, v as EditionId | undefined, pharaohRotation);
  } catch (e) {
    if (e instanceof RecordError) throw new UsageError(`${gameFile}: ${e.message}`);
    throw e;
  }
  annotate(newSearcher(), game, limits, threshold, progress, write, gameFile, index);
}

function limitsText(limits: AnalysisLimits): string {
  return limits.timeMs > 0 ? `${limits.timeMs / 1000} s per position` : `depth ${limits.depth}`;
}

/** The K best moves of one position. */
function analyseOne(searcher: Searcher, pos: Position, limits: AnalysisLimits, progress: ProgressLine, write: (s: string) => void): void {
  const ed = pos.edition;
  for (const l of renderBoard(pos)) write(l);
  write('');
  const status = gameStatus(pos, { noRemovalLimit: limits.noRemovalLimit });
  if (status.result !== 'ongoing') {
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
  const first = ed.colorNames[0];
  const nLegal = legalMoves(pos).length;
  write(
    `Analysis: depth ${a.depth}, ${formatNodes(a.nodes)} nodes, ${(a.ms / 1000).toFixed(1)} s; ` +
      `${a.lines.length} best of ${nLegal} legal move${nLegal === 1 ? '' : 's'}.`,
  );
  write(`Scores are from ${first}'s (the first player's) point of view: +1.00 = a Pyramid ahead, +M2 = ${first} hits the ${ed.colorNames[1]} Pharaoh in 2 moves.`);
  write('');
  const width = Math.max(...a.lines.map((l) => formatMove(l.move).length));
  a.lines.forEach((l, i) => {
    const s = firstPlayerView(l.score, side);
    const bound = side === 0 ? l.bound : l.bound === BOUND_LOWER ? BOUND_UPPER : l.bound === BOUND_UPPER ? BOUND_LOWER : l.bound;
    const mv = formatMove(l.move);
    write(`${i + 1}. ${mv.padEnd(width)}  ${scoreWithBound(s, bound).padStart(6)}  ${scoreSentence(s, ed)}  (pv: ${l.pv.map(formatMove).join(' ')})`);
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

function markedText(p: PlyAnnotation): string {
  return `${p.text}${p.mark}`;
}

/** Every move of a game, then a summary. */
function annotate(
  searcher: Searcher,
  game: ReturnType<typeof loadGame>,
  limits: AnalysisLimits,
  threshold: number,
  progress: ProgressLine,
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
  write(game.gamesInFile > 1 ? `Game ${index} of ${game.gamesInFile} in ${file}` : `Game: ${file}`);
  if (players[0] !== '?' || players[1] !== '?') write(`${first}: ${players[0]}, ${second}: ${players[1]}`);
  write(`${ed.name} (${ed.id}), ${game.moves.length} move${game.moves.length === 1 ? '' : 's'}, result ${rec.result}${reason !== undefined ? ` (${reason})` : ''}`);
  write(`Start: ${start ?? `the classic setup, ${toKfen(game.start)}`}`);
  write('');
  write(`Each move: the score before it and after it, from the mover's point of view (+1.00 = a Pyramid ahead, +M2 = hits the Pharaoh in 2 moves),`);
  write(`the engine's choice where it differs; ? = loses ${(threshold / 100).toFixed(2)} or more against the engine's choice, ?? = ${((3 * threshold) / 100).toFixed(2)} or more. ${limitsText(limits)[0].toUpperCase()}${limitsText(limits).slice(1)}.`);
  write('');
  const total = game.moves.length;
  let result;
  try {
    result = annotateGame(searcher, game, limits, threshold, (k, p) => {
      const what = k < total ? `move ${k + 1}/${total} (${game.texts[k]})` : 'final position';
      const side = (game.start.side + k) & 1;
      progress.show(p ? `analysing ${what}: ${progressText(p, side, ed)}` : `analysing ${what}`, p !== undefined);
    });
  } finally {
    progress.clear();
  }
  const labelW = Math.max(4, ...result.plies.map((p) => p.label.length));
  const moveW = Math.max(5, ...result.plies.map((p) => markedText(p).length));
  const nameW = Math.max(first.length, second.length);
  write(`${''.padStart(labelW)} ${'move'.padEnd(moveW)} ${'mover'.padEnd(nameW)} ${'before'.padStart(6)} -> ${'after'.padStart(6)}  engine`);
  for (const p of result.plies) {
    const who = ed.colorNames[p.side].padEnd(nameW);
    const scores = `${scoreText(p.bestScore).padStart(6)} -> ${scoreText(p.playedScore).padStart(6)}`;
    const verdict = verdictText(p);
    write(`${p.label.padStart(labelW)} ${markedText(p).padEnd(moveW)} ${who} ${scores}  ${verdict}`);
    const w = p.words;
    if (w.killedSq >= 0 || p.mark !== '') write(`${' '.repeat(labelW + 1)}${w.sentence}.`);
  }
  write('');
  write(`Summary (${limitsText(limits)}, threshold ${(threshold / 100).toFixed(2)}; losses count at most ${(LOSS_CAP / 100).toFixed(2)} each in the average):`);
  for (const side of [0, 1]) {
    const mine = result.plies.filter((p) => p.side === side);
    const name = ed.colorNames[side];
    const label = `${name}${players[side] !== undefined ? ` (${players[side]})` : ''}`;
    if (mine.length === 0) {
      write(`  ${label}: no moves`);
      continue;
    }
    const best = mine.filter((p) => p.loss === 0).length;
    const q = mine.filter((p) => p.mark === '?');
    const qq = mine.filter((p) => p.mark === '??');
    const avg = mine.reduce((s, p) => s + Math.min(p.loss, LOSS_CAP), 0) / mine.length;
    write(
      `  ${label}: ${mine.length} move${mine.length === 1 ? '' : 's'}, ${best} as good as the engine's (${Math.round((100 * best) / mine.length)}%), ` +
        `${q.length} mistake${q.length === 1 ? '' : 's'} (?), ${qq.length} blunder${qq.length === 1 ? '' : 's'} (??), ` +
        `average loss ${(avg / 100).toFixed(2)}`,
    );
    const bad = mine.filter((p) => p.mark !== '');
    if (bad.length > 0) write(`    ${bad.map((p) => `${p.label}${markedText(p)} (better ${formatMove(p.best)})`).join(', ')}`);
  }
  const fin = result.final;
  if (result.finalAnalysis) {
    const top = result.finalAnalysis.lines[0];
    const s = firstPlayerView(top.score, fin.side);
    write(`  Final position: ${ed.colorNames[fin.side]} to move, ${scoreText(s)} (${first}'s view): ${scoreSentence(s, ed)}; best ${formatMove(top.move)} (pv: ${top.pv.slice(0, 8).map(formatMove).join(' ')})`);
  } else {
    write(`  Final position: ${result.finalStatus.text}.`);
  }
  write('');
  for (const l of renderBoard(fin)) write(l);
}
