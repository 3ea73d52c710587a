/**
 * Why a move is bad, by beam geometry: the refuting shot of a review's `?`/`??`, a puzzle
 * solution's shot, a *Learn from your mistakes* step. The engine's lines say which shot it is; the
 * rules core traces it (src/core/threats.ts, traceShot) and src/analysis/beam-words.ts says it: the
 * mirrors it bounces off, whose they are and whether the mover's own pieces served as mirrors, and
 * what it hits. `thoth analyse --game` prints the sentence under a marked move; the GUI draws the
 * beam and shows the same sentence. Plain data, no Node: the GUI bundles it.
 */
import {
  type BeamStep,
  PHARAOH,
  type Position,
  colorOf,
  formatMove,
  kindOf,
  squareName,
  traceShot,
} from '../core/index';
import type { GameAnnotation, LoadedGame } from './annotate-game';
import { type BeamReading, beamSentence, readBeam } from './beam-words';
import type { NoteArrow } from '../core/record';
import type { GameReview } from './review';

/** How far into a line the shot is looked for, in plies. */
const LOOK_PLIES = 6;

/** A shot that explains a move. */
export interface ShotExplanation {
  /**
   * `refutation`: the opponent's shot in the line after the move (what the move allows);
   * `missed`: the mover's own shot in the engine's better line (what the move passed up);
   * `solution`: the shot a line (a puzzle's solution) ends with or wins by.
   */
  kind: 'refutation' | 'missed' | 'solution';
  /** The side the explanation is about (the mover of the judged move, the puzzle's solver). */
  about: number;
  /** The side that fires. */
  shooter: number;
  /** The moves from the explained position up to and including the shot's move. */
  line: number[];
  /** The shot's move, and the position it is made in (left as it is). */
  move: number;
  position: Position;
  /** The beam square by square on the board after the move, before the shot removes anything. */
  steps: BeamStep[];
  reading: BeamReading;
  /** A sentence for people, with its full stop. */
  sentence: string;
}

/**
 * The first shot in `line` (played from `pos`, which is not changed) by `shooter` that removes a
 * piece of `victim`, within LOOK_PLIES plies, with the position it is fired in.
 */
function firstShot(
  pos: Position,
  line: readonly number[],
  shooter: number,
  victim: number,
): { at: number; position: Position } | undefined {
  const p = pos.clone();
  for (let k = 0; k < line.length && k < LOOK_PLIES && p.winner < 0; k++) {
    if (!p.isLegal(line[k])) return undefined;
    if (p.side === shooter) {
      const shot = traceShot(p, line[k]);
      if (shot.hit >= 0 && colorOf(shot.hitPiece) === victim) return { at: k, position: p.clone() };
    }
    p.make(line[k]);
  }
  return undefined;
}

function explanation(
  kind: ShotExplanation['kind'],
  about: number,
  line: readonly number[],
  at: number,
  position: Position,
): ShotExplanation {
  const move = line[at];
  const shooter = position.side;
  const shot = traceShot(position, move);
  const ed = position.edition;
  const reading = readBeam(shot.steps, shooter, ed.sphinx);
  const text = formatMove(move);
  const who = ed.colorNames[shooter];
  const before = line.slice(kind === 'missed' ? 0 : 1, at).map(formatMove);
  let lead: string;
  if (kind === 'missed')
    lead = at === 0 ? `${who} missed the shot ${text}` : `${who} missed the shot ${text} (after ${before.join(' ')})`;
  else if (kind === 'solution') lead = `${who} wins with ${text}`;
  else lead = at === 1 ? `${who} answers ${text}` : `${who} shoots with ${text} after ${before.join(' ')}`;
  return {
    kind,
    about,
    shooter,
    line: line.slice(0, at + 1),
    move,
    position,
    steps: shot.steps,
    reading,
    sentence: `${lead}: the beam ${beamSentence(ed, reading, about)}.`,
  };
}

/**
 * Explains the judged move `played` in `pos` (the position before it) by a shot: the opponent's
 * first shot at the mover's pieces in `playedLine` (the engine's line after the move: `played`
 * first, then the refutation), or the mover's first shot at the opponent in `bestLine` (the
 * engine's better line from `pos`) that the move passed up. A shot that hits a Pharaoh says more
 * than one that takes a piece: the refutation when it hits the mover's Pharaoh, else the missed
 * shot when it would have hit the opponent's, else the refutation, else the missed shot. Undefined
 * when neither line has such a shot within a few plies: the move is bad for reasons no single shot
 * shows.
 */
export function explainMove(
  pos: Position,
  played: number,
  playedLine: readonly number[],
  bestLine: readonly number[] = [],
): ShotExplanation | undefined {
  const mover = pos.side;
  const line = playedLine[0] === played ? playedLine : [played, ...playedLine];
  const r = firstShot(pos, line, mover ^ 1, mover);
  const refuted = r === undefined ? undefined : explanation('refutation', mover, line, r.at, r.position);
  const m = bestLine.length > 0 && bestLine[0] !== played ? firstShot(pos, bestLine, mover, mover ^ 1) : undefined;
  const missed = m === undefined ? undefined : explanation('missed', mover, bestLine, m.at, m.position);
  const pharaoh = (e: ShotExplanation | undefined): boolean =>
    e !== undefined && e.reading.end === 'hit' && kindOf(e.reading.endPiece) === PHARAOH;
  if (pharaoh(refuted)) return refuted;
  if (pharaoh(missed)) return missed;
  return refuted ?? missed;
}

/**
 * The shot a solution wins by: its solver's first shot that hits the opponent's Pharaoh, else its
 * first that removes an opponent's piece (a material puzzle), else its last move's shot. `pos` is
 * the position the solution starts from (the solver to move).
 */
export function explainSolution(pos: Position, solution: readonly number[]): ShotExplanation | undefined {
  if (solution.length === 0) return undefined;
  const solver = pos.side;
  const p = pos.clone();
  let removal: { at: number; position: Position } | undefined;
  let last: { at: number; position: Position } | undefined;
  for (let k = 0; k < solution.length && p.winner < 0; k++) {
    if (!p.isLegal(solution[k])) return undefined;
    if (p.side === solver) {
      const shot = traceShot(p, solution[k]);
      const opponent = shot.hit >= 0 && colorOf(shot.hitPiece) !== solver;
      if (opponent && kindOf(shot.hitPiece) === PHARAOH) return explanation('solution', solver, solution, k, p.clone());
      if (opponent && removal === undefined) removal = { at: k, position: p.clone() };
      last = { at: k, position: p.clone() };
    }
    p.make(solution[k]);
  }
  const shot = removal ?? last;
  return shot === undefined ? undefined : explanation('solution', solver, solution, shot.at, shot.position);
}

/** A reviewed move as explain needs it: the position before it, the move, the engine's two lines. */
interface JudgedMove {
  position: Position;
  move: number;
  mark: '' | '?!' | '?' | '??';
  playedLine: readonly number[];
  bestLine: readonly number[];
}

/** The explanation of each `?` and `??` of a review (undefined for the other moves and where no shot explains). */
function explainMarks(moves: readonly JudgedMove[]): (ShotExplanation | undefined)[] {
  return moves.map((m) =>
    m.mark === '?' || m.mark === '??' ? explainMove(m.position, m.move, m.playedLine, m.bestLine) : undefined,
  );
}

/** The explanations of a game reviewed by `thoth analyse --game` (its `?` and `??`), by ply. */
export function reviewExplanations(
  game: LoadedGame,
  a: GameAnnotation,
  review: GameReview,
): (ShotExplanation | undefined)[] {
  const pos = game.start.clone();
  const moves: JudgedMove[] = [];
  for (const [i, p] of a.plies.entries()) {
    moves.push({
      position: pos.clone(),
      move: p.move,
      mark: review.plies[i].mark,
      playedLine: p.playedPv,
      bestLine: p.bestPv,
    });
    pos.make(p.move);
  }
  return explainMarks(moves);
}

/** A shot that explains a mark, as JSON: who fires, the line to it, the beam's squares, its mirrors and its end. */
export function explanationJson(w: ShotExplanation): unknown {
  const ed = w.position.edition;
  return {
    kind: w.kind,
    shooter: ed.colorNames[w.shooter],
    line: w.line.map(formatMove),
    move: formatMove(w.move),
    path: w.steps.map((s) => squareName(s.square)),
    mirrors: w.reading.mirrors.map((m) => ({ square: squareName(m.square), owner: ed.colorNames[m.color] })),
    end: w.reading.end,
    endSquare: squareName(w.reading.endSquare),
    sentence: w.sentence,
  };
}

/**
 * The shot's beam as arrows from turn to turn (the laser, each mirror, where it ends), for a
 * record's `[%cal …]`: red, as lichess draws a threat.
 */
export function beamArrows(e: ShotExplanation): NoteArrow[] {
  const points = [e.steps[0].square, ...e.reading.mirrors.map((m) => m.square), e.reading.endSquare];
  const out: NoteArrow[] = [];
  for (let k = 0; k + 1 < points.length; k++)
    if (points[k] !== points[k + 1])
      out.push({ color: 'R', from: squareName(points[k]), to: squareName(points[k + 1]) });
  return out;
}
