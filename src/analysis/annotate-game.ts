/**
 * Game annotation: read a game record (the PGN-like format of src/core/record.ts), replay it, and
 * for every move compare the move played with the engine's choice at the same depth, in-process,
 * as the review method says (src/analysis/review-method.ts: every search from an empty table and
 * history; the played move searched alone when the engine chose another).
 */
import { plural } from '../core/plural';
import {
  SETUPS,
  formatMove,
  gameStatus,
  isEditionId,
  parsePlayableKfen,
  parseMove,
  formatKfenError,
  type EditionId,
  type GameStatus,
  type Position,
} from '../core/index';
import { ROUND_TAG_RE, formatRecordSyntaxError, parseRecords, recordStart, type GameRecord } from '../core/record';
import type { Searcher } from '../search/search';
import { MATE, scoreOf, scoreValue } from '../core/score';
import { analysePosition, type Analysis, type AnalysisLimits, type Progress } from './analyser';
import { reviewGame, type GameReview, type Repetition, type ReviewOptions } from './review';
import { needsPlayedSearch, plyEval, repetitionAfter, type MoveSearches } from './review-method';
import { proveForcedHits, type ProofCount } from './review-proof';
import { comparable, moveInWords, type MoveWords } from './words';

export interface LoadedGame {
  record: GameRecord;
  edition: EditionId;
  /** The position the game starts from (not modified by anyone). */
  start: Position;
  /** The moves as integers and as written in the record. */
  moves: number[];
  texts: string[];
  /** How many games the file holds. */
  gamesInFile: number;
  /** Its place in the file, from 1. */
  index: number;
}

/** A problem with a record file, worded for the user. */
export class RecordError extends Error {}

/**
 * Reads game number `which` (from 1, in file order) of a record text, or the game whose Round tag
 * is `which.round` (a match played with concurrency writes its games in the order they end, so
 * the Round is what names a game); a round's number alone (`7`, where the match's games are 7.1,
 * 7.2, …) names its first game. `variant` (from the command line) applies when the record has
 * no Variant tag; it must agree with the tag otherwise.
 */
export function loadGame(
  text: string,
  which: number | { round: string } = 1,
  variant?: EditionId,
  pharaohRotation = false,
): LoadedGame {
  let parsed = parseRecords(text);
  if (parsed.incomplete) {
    // A game without a result token at the end of the file: read it as unfinished.
    const more = parseRecords(`${text.trimEnd()}\n*\n`); // not replace(/\s*$/): quadratic in a long run of spaces
    if (more.games.length > parsed.games.length) parsed = more;
  }
  if (parsed.errors.length > 0) throw new RecordError(`malformed record: ${formatRecordSyntaxError(parsed.errors[0])}`);
  const games = parsed.games.filter((g) => g.tags.size > 0 || g.moves.length > 0);
  if (games.length === 0)
    throw new RecordError('no game found (expected [Tag "value"] lines, then moves, then a result such as 1-0 or *)');
  let index: number;
  if (typeof which === 'number') {
    index = which;
    if (index > games.length) throw new RecordError(`the file holds ${plural(games.length, 'game')}, not ${index}`);
  } else {
    let found = games.flatMap((g, i) => (g.tags.get('Round') === which.round ? [i + 1] : []));
    // A round of a match (`7`) where the games are 7.1, 7.2, …: its first game.
    if (found.length === 0 && /^\d+$/.test(which.round)) found = firstOfRound(games, which.round);
    if (found.length === 0)
      throw new RecordError(`no game has Round "${which.round}" (the file holds ${plural(games.length, 'game')})`);
    if (found.length > 1)
      throw new RecordError(
        `${found.length} games have Round "${which.round}" (games ${found.join(', ')} of the file; pick one with --index)`,
      );
    index = found[0];
  }
  const record = games[index - 1];
  const tag = record.tags.get('Variant');
  let edition: EditionId = variant ?? 'khet2';
  if (tag !== undefined) {
    if (!isEditionId(tag)) throw new RecordError(`unknown Variant "${tag}" in the record (khet2, khet1 or deflexion)`);
    if (variant !== undefined && variant !== tag) throw new RecordError(`the record is a ${tag} game, not ${variant}`);
    edition = tag;
  }
  const kfen = recordStart(record) ?? SETUPS[edition].classic ?? '';
  const r = parsePlayableKfen(kfen, edition, { pharaohRotation });
  if (!r.ok) throw new RecordError(`bad KFEN tag: ${formatKfenError(r.error)}`);
  const start = r.value;
  const pos = start.clone();
  const moves: number[] = [];
  const texts: string[] = [];
  for (const [k, rec] of record.moves.entries()) {
    if (pos.winner >= 0) throw new RecordError(`move ${k + 1} (${rec.move}): the game was already over`);
    const m = parseMove(pos, rec.move);
    if (!m.ok) throw new RecordError(`move ${k + 1} (${movePrefix(pos)} ${rec.move}): ${m.error.message}`);
    pos.make(m.value);
    moves.push(m.value);
    texts.push(rec.move);
  }
  return { record, edition, start, moves, texts, gamesInFile: games.length, index };
}

/** The game (its place in the file, from 1) whose Round is `round.k` with the least k; none when no Round is `round.k`. */
function firstOfRound(games: readonly GameRecord[], round: string): number[] {
  let best: { k: number; at: number } | undefined;
  games.forEach((g, i) => {
    const m = ROUND_TAG_RE.exec(g.tags.get('Round') ?? '');
    if (m && m[1] === round && (best === undefined || Number(m[2]) < best.k)) best = { k: Number(m[2]), at: i + 1 };
  });
  return best === undefined ? [] : [best.at];
}

/** `12.` before a first-player move, `12...` before a second-player move. */
function movePrefix(pos: Position): string {
  return `${pos.moveNumber}${pos.side === 0 ? '.' : '...'}`;
}

export interface PlyAnnotation {
  /** Index of the move in the game, from 0. */
  index: number;
  label: string;
  side: number;
  move: number;
  text: string;
  words: MoveWords;
  /** The engine's choice and its score (mover's point of view). */
  best: number;
  bestScore: number;
  bestPv: number[];
  /** The engine's line after the move played (the move first, then its refutation): its own search's, or bestPv. */
  playedPv: number[];
  /** The score of the move played, searched to the same depth (mover's point of view). */
  playedScore: number;
  /** How much worse the played move is than the best, in centi-pyramids (mates count 10000). */
  loss: number;
  depth: number;
  nodes: number;
  /** The position after the move occurred before in the game (a repetition). */
  repetition?: Repetition;
}

export interface GameAnnotation {
  plies: PlyAnnotation[];
  /** What the solver's proofs of forced hits cost and changed (review-proof.ts). */
  proofs: ProofCount;
  /** The position after the last move, its status, and its analysis when the game goes on. */
  final: Position;
  finalStatus: GameStatus;
  finalAnalysis?: Analysis;
}

/** Empties the searcher's table and history: what the protocol's `ucinewgame` does. */
function fresh(searcher: Searcher): Searcher {
  searcher.tt.clear();
  searcher.clearHistory();
  return searcher;
}

/**
 * Annotates every move. `onProgress(index, progress)` hears about the search of move `index`
 * (index = moves.length for the final position). Every search starts from an empty table and
 * history, so that a fixed depth gives what the GUI's review (the same searches over the
 * protocol, after `ucinewgame`) gives.
 */
export function annotateGame(
  searcher: Searcher,
  game: LoadedGame,
  limits: AnalysisLimits,
  onProgress: (index: number, p: Progress | undefined) => void = () => {},
): GameAnnotation {
  const pos = game.start.clone();
  const one = { ...limits, multiPV: 1 };
  const plies: PlyAnnotation[] = [];
  const positions: Position[] = [];
  const hitFlags: boolean[] = [];
  for (let k = 0; k < game.moves.length; k++) {
    const played = game.moves[k];
    positions.push(pos.clone());
    hitFlags.push(hits(pos, played));
    onProgress(k, undefined);
    plies.push(annotatePly(searcher, pos, played, k, one, (p) => onProgress(k, p)));
    pos.make(played);
    const repetition = repetitionAfter(pos);
    if (repetition) plies[k].repetition = repetition;
  }
  positions.push(pos.clone());
  const proofs = proveAnnotation(plies, positions, hitFlags);
  const finalStatus = gameStatus(pos, { noRemovalLimit: limits.noRemovalLimit });
  let finalAnalysis: Analysis | undefined;
  if (finalStatus.result === 'ongoing') {
    onProgress(game.moves.length, undefined);
    finalAnalysis = analysePosition(fresh(searcher), pos, one, [], (p) => onProgress(game.moves.length, p));
  }
  return { plies, proofs, final: pos, finalStatus, finalAnalysis };
}

/** Applies the solver's proofs of forced hits (review-proof.ts) to the plies' scores and losses. */
function proveAnnotation(plies: PlyAnnotation[], positions: Position[], hitFlags: boolean[]): ProofCount {
  const count: ProofCount = { questions: 0, nodes: 0, changed: 0 };
  const searches: MoveSearches[] = plies.map((p, k) => ({
    side: p.side as 0 | 1,
    best: scoreOf(p.bestScore),
    played: scoreOf(p.playedScore),
    hit: hitFlags[k],
  }));
  proveForcedHits(positions, searches, count).forEach((m, k) => {
    const p = plies[k];
    if (m.bestMove !== undefined && m.bestMove !== p.best) {
      p.best = m.bestMove;
      p.bestPv = [m.bestMove];
    }
    p.bestScore = scoreValue(m.best);
    p.playedScore = scoreValue(m.played);
    p.loss = Math.max(0, comparable(p.bestScore) - comparable(p.playedScore));
  });
  return count;
}

/**
 * The review's searches of move `index`, `played`, in `pos` (left unchanged): the engine's choice
 * and its score, and the played move's score (annotateGame's step; a distributed review's
 * coordinator searches a move of a worker's game again with it).
 */
export function annotatePly(
  searcher: Searcher,
  pos: Position,
  played: number,
  index: number,
  one: AnalysisLimits,
  onProgress: (p: Progress) => void = () => {},
): PlyAnnotation {
  const a = analysePosition(fresh(searcher), pos, one, [], onProgress);
  const top = a.lines[0];
  const hit = hits(pos, played);
  // A hit wins at once (MATE − 1: mate in 1); another move than the engine's is searched alone.
  let playedScore = hit ? MATE - 1 : top.score;
  let nodes = a.nodes;
  let playedPv = hit ? [played] : top.pv;
  if (needsPlayedSearch(formatMove(top.move), formatMove(played), hit)) {
    const b = analysePosition(fresh(searcher), pos, { ...one, depth: Math.max(1, a.depth), timeMs: 0 }, [played]);
    playedScore = b.lines[0].score;
    playedPv = b.lines[0].pv;
    nodes += b.nodes;
  }
  const loss = Math.max(0, comparable(top.score) - comparable(playedScore));
  return {
    index,
    label: movePrefix(pos),
    side: pos.side,
    move: played,
    text: formatMove(played),
    words: moveInWords(pos, played, formatMove(played)),
    best: top.move,
    bestScore: top.score,
    bestPv: top.pv,
    playedPv,
    playedScore,
    loss,
    depth: a.depth,
    nodes,
  };
}

/**
 * What a review needs of an annotated game: each move's side and scores, whether the position
 * after it repeats, and who won at the end.
 */
interface ScoredGame {
  plies: readonly Pick<PlyAnnotation, 'side' | 'bestScore' | 'playedScore' | 'repetition'>[];
  final: { winner: number };
}

/** The review of an annotated game: win chances, judgements, accuracy per side. */
export function reviewAnnotation(a: ScoredGame, opts: ReviewOptions = {}): GameReview {
  return reviewGame(
    a.plies.map((p, i) =>
      plyEval({
        side: p.side as 0 | 1,
        best: scoreOf(p.bestScore),
        played: scoreOf(p.playedScore),
        // The last move hit the opponent's Pharaoh: a win is never marked.
        hit: i === a.plies.length - 1 && a.final.winner === p.side,
        repetition: p.repetition,
      }),
    ),
    opts,
  );
}

/** Whether `move` hits the opponent's Pharaoh in `pos` (left unchanged). */
export function hits(pos: Position, move: number): boolean {
  const q = pos.clone();
  q.make(move);
  return q.winner === pos.side;
}
